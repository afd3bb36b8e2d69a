// The contributor-facing files GitHub reads: issue forms, the pull-request template and the workflows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { ROOT } from './tools.mjs';

const read = (p) => readFileSync(join(ROOT, p), 'utf8');

test('issue forms: wrong number, wrong advice, new dataset, each a valid form with required fields', () => {
  const dir = '.github/ISSUE_TEMPLATE';
  const forms = Object.fromEntries(readdirSync(join(ROOT, dir)).filter((f) => f !== 'config.yml').map((f) => [f, yaml.load(read(`${dir}/${f}`))]));
  assert.deepEqual(Object.keys(forms).sort(), ['new-dataset.yml', 'wrong-advice.yml', 'wrong-number.yml']);
  assert.deepEqual(Object.values(forms).map((f) => f.name).sort(), ['New dataset', 'Wrong advice', 'Wrong number']);
  for (const [file, form] of Object.entries(forms)) {
    assert.ok(form.description && Array.isArray(form.body), `${file}: description and body`);
    const ids = form.body.filter((b) => b.type !== 'markdown').map((b) => b.id);
    assert.equal(new Set(ids).size, ids.length, `${file}: ids are unique`);
    for (const b of form.body) {
      assert.ok(['markdown', 'input', 'textarea', 'dropdown', 'checkboxes'].includes(b.type), `${file}: known type ${b.type}`);
      if (b.type !== 'markdown') assert.ok(b.attributes?.label, `${file}: ${b.id} has a label`);
    }
    assert.ok(form.body.some((b) => b.validations?.required), `${file}: asks for something required`);
  }
  const nd = forms['new-dataset.yml'].body.map((b) => b.id);
  for (const id of ['raw', 'setup', 'method', 'license']) assert.ok(nd.includes(id), `new dataset asks for ${id}`);
});

test('pull-request template carries the dataset checklist', () => {
  const t = read('.github/pull_request_template.md');
  for (const item of [/scripts\/validate/, /Provenance/, /Raw tool output/, /Hardware/, /Software versions/, /Licence/]) assert.match(t, item);
  assert.ok((t.match(/^- \[ \]/gm) || []).length >= 10);
});

test('workflows: every action pinned to a full commit SHA; link check never runs on pull requests', () => {
  const dir = '.github/workflows';
  const files = readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.yml'));
  assert.ok(files.includes('ci.yml') && files.includes('pages.yml') && files.includes('links.yml'));
  for (const f of files) {
    const text = read(`${dir}/${f}`);
    yaml.load(text);
    for (const [, ref] of text.matchAll(/uses:\s*(\S+)/g)) assert.match(ref, /^[\w.-]+\/[\w.-]+(\/[\w.-]+)*@[0-9a-f]{40}$/, `${f}: ${ref} is pinned to a commit`);
  }
  const links = yaml.load(read(`${dir}/links.yml`));
  assert.deepEqual(Object.keys(links.on).sort(), ['schedule', 'workflow_dispatch']);
  const ci = yaml.load(read(`${dir}/ci.yml`));
  // The light datasets job validates the changed datasets first, so a data pull request gets its answer early.
  const steps = ci.jobs.datasets.steps.map((s) => s.name || s.uses);
  assert.ok(steps.indexOf('Validate the changed datasets') >= 0 && steps.indexOf('Validate the changed datasets') < steps.indexOf('Data tests'), 'changed datasets are validated before the data tests');
  assert.ok(ci.jobs.test.steps.some((s) => s.run === 'scripts/test'), 'the full suite runs the same command as a developer');
  assert.match(JSON.stringify(ci.jobs['github-pages-gem']), /jekyll build --safe/);
});
