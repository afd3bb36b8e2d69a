// Defects a blind trial of --check on 11 public apps outside the corpus found (issue 25, 2026-11-26), each
// proven on the app's own files (tests/fixtures/trial-apps/APP, repository, commit and licence in SOURCE.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import '../../guide/engine/index.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';
import { readFile } from '../../guide/check/read.mjs';
import { envOf } from '../../guide/check/crossfile.mjs';
import { sidekiqConcurrency } from '../../guide/check/jobs.mjs';
import { ROOT } from './helpers.mjs';
import { invalidYamlSuggestions } from './yaml-suggestions.mjs';

const TRIAL = join(ROOT, 'tests', 'fixtures', 'trial-apps');
const apps = readdirSync(TRIAL).sort();
const reports = Object.fromEntries(apps.map((a) => [a, check(collect([join(TRIAL, a)], undefined, join(TRIAL, a)))]));
const strong = (a) => reports[a].findings.filter((f) => f.severity !== 'note').map((f) => `${f.severity} ${f.rule} ${f.file}:${f.line}`);

test('every trial fixture records its repository, commit and licence, and holds the files it names', () => {
  for (const a of apps) {
    const src = JSON.parse(readFileSync(join(TRIAL, a, 'SOURCE.json'), 'utf8'));
    assert.match(src.repository, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/, a);
    assert.match(src.commit, /^[0-9a-f]{40}$/, a);
    assert.ok(src.licence, a);
    for (const f of src.files) readFileSync(join(TRIAL, a, f));
    assert.deepEqual(reports[a].problems, [], a);
  }
});

test('Sidekiq concurrency above the pool, nothing setting the pool variable for the worker: an error (hcb 2024-12)', () => {
  assert.deepEqual(strong('hcb-2024-12'), ['error pool-below-concurrency config/sidekiq.yml:2']);
  const f = reports['hcb-2024-12'].findings.find((x) => x.rule === 'pool-below-concurrency');
  assert.match(f.message, /Sidekiq runs 10 threads but production's pool is 5 .* with RAILS_MAX_THREADS unset/);
  assert.deepEqual([f.found, f.expected], ['10', '5']);
});

test('the same with concurrency from its own variable’s default (dawarich 2024-07: BACKGROUND_PROCESSING_CONCURRENCY, 10)', () => {
  assert.deepEqual(strong('dawarich-2024-07'), ['error pool-below-concurrency config/sidekiq.yml:2']);
  const f = reports['dawarich-2024-07'].findings.find((x) => x.rule === 'pool-below-concurrency');
  assert.match(f.message, /with BACKGROUND_PROCESSING_CONCURRENCY unset and RAILS_MAX_THREADS unset/);
});

test('a Procfile VAR= prefix sets the worker’s RAILS_MAX_THREADS: Sidekiq’s concurrency and pool agree, nothing “missing” (hcb today)', () => {
  assert.deepEqual(strong('hcb'), []);
  assert.deepEqual(reports.hcb.findings.filter((f) => f.file === 'config/sidekiq.yml').map((f) => `${f.rule} ${f.setting}`), []);
});

test('sidekiq.yml’s production: section overrides the top level (docuseal: :concurrency: 15)', () => {
  const r = readFile({ path: 'config/sidekiq.yml', text: readFileSync(join(TRIAL, 'docuseal', 'config', 'sidekiq.yml'), 'utf8') });
  assert.deepEqual(r.settings.filter((s) => s.key === 'concurrency').map((s) => [s.name, s.value, s.line]), [['concurrency', 15, 11]]);
  const c = sidekiqConcurrency([r], new Map());
  assert.deepEqual([c.value, c.line], [15, 11]);
});

test('Dockerfile: only the final stage (and the stages it is built FROM) is the container’s environment (pupilfirst)', () => {
  const file = readFile({ path: 'Dockerfile', text: readFileSync(join(TRIAL, 'pupilfirst', 'Dockerfile'), 'utf8') });
  const env = envOf([file]);
  assert.equal(env.get('DB_ADAPTER'), undefined, 'DB_ADAPTER=nulldb is the assets stage’s');
  assert.equal(env.get('SECRET_KEY_BASE'), undefined);
  assert.deepEqual(env.get('RAILS_ENV'), { value: 'production', file: 'Dockerfile', line: 143 });
  // Rails' template shape: FROM base AS build, then FROM base: base's ENV counts, build's does not; ENV from ARG.
  const tpl = readFile({ path: 'Dockerfile', text: 'ARG RUBY_VERSION=3.4\nFROM ruby:$RUBY_VERSION AS base\nARG CONC=4\nENV RAILS_ENV=production WEB_CONCURRENCY=${CONC}\nFROM base AS build\nENV WEB_CONCURRENCY=8\nFROM base\nCMD ["./bin/thrust", "./bin/rails", "server"]\n' });
  assert.deepEqual([...envOf([tpl])].map(([k, v]) => `${k}=${v.value}`), ['RAILS_ENV=production', 'WEB_CONCURRENCY=4']);
});

test('every suggested YAML edit, applied, still parses', () => {
  for (const a of apps) assert.deepEqual(invalidYamlSuggestions(reports[a], join(TRIAL, a)), [], a);
});
