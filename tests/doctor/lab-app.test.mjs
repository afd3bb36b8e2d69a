// The doctor against the lab's reference app (lab/app, Rails 8.1 + Puma 8, owned by the lab): its answers
// are detected from its own files, the wizard's bundle for those answers is installed into a copy of the
// app (config/ and etc/, as a deployment would), and the doctor then finds nothing to report.
// Static only: nothing of the app is run. lab/app is part of the repository: its absence is a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, cpSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, writeBundle, ROOT } from './helpers.mjs';

const APP = join(ROOT, 'lab', 'app');

test('lab/app with the configs the wizard generates for it: detected, no findings', () => {
  assert.ok(existsSync(join(APP, 'Gemfile')), `${APP}/Gemfile: the lab's reference app is missing`);
  const dir = mkdtempSync(join(tmpdir(), 'doctor-lab-'));
  try {
    const app = join(dir, 'app');
    cpSync(APP, app, { recursive: true, filter: (src) => !/\/(node_modules|tmp|log|storage|vendor|\.git)(\/|$)/.test(src.slice(APP.length)) });
    const first = JSON.parse(runCli(['--check', app, '--format', 'json']).stdout);
    assert.deepEqual(first.problems, [], 'the app files are readable');
    for (const key of ['rails', 'server', 'server_version', 'ruby_version', 'adapter']) assert.ok(first.detected[key], `${key} detected from lab/app`);
    assert.match(String(first.answers.rails), /^8\.1/);
    assert.equal(first.answers.server, 'puma');
    assert.equal(first.findings.filter((f) => f.severity === 'error').length, 0, JSON.stringify(first.findings.filter((f) => f.severity === 'error'), null, 1));

    // Install the bundle for the detected answers (host facts at their defaults, given explicitly).
    const answers = { ...first.answers };
    writeBundle(app, answers, { appRoot: answers.app_root });
    writeFileSync(join(dir, 'answers.json'), JSON.stringify(Object.fromEntries(first.undetected.map((u) => [u.key, u.assumed]))));
    const r = runCli(['--check', app, join(app, 'etc'), ...(existsSync(join(app, 'db-host')) ? [join(app, 'db-host')] : []), '--answers', join(dir, 'answers.json'), '--format', 'json', '--fail-on', 'note']);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.problems, []);
    assert.deepEqual(report.findings.map((f) => `${f.severity} ${f.rule} ${f.file}:${f.line} ${f.message}`), []);
    assert.equal(r.code, 0);
    for (const [k, d] of Object.entries(first.detected)) assert.equal(String(report.answers[k]), String(d.value), `${k} still detected`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
