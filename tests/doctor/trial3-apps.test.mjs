// False and missed findings a third blind trial of --check found (issue 25, 2026-11-26), each proven on the lines of
// the app's own files: MIT/BSD apps are copied under tests/fixtures/trial-apps/ (SOURCE.json: repository, commit,
// licence); apps under a copyleft licence or none stated are reproduced inline in the shape of their lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import '../../guide/engine/index.mjs';
import { ROOT } from './helpers.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';

const TRIAL = join(ROOT, 'tests', 'fixtures', 'trial-apps');
const lock = (gems) => `GEM\n  remote: https://rubygems.org/\n  specs:\n${gems.map(([n, v]) => `    ${n} (${v})\n`).join('')}\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n${gems.map(([n]) => `  ${n}\n`).join('')}`;
const app = (files) => Object.entries(files).map(([path, text]) => ({ path, text }));
const strong = (r) => r.findings.filter((f) => f.severity !== 'note').map((f) => `${f.severity} ${f.rule} ${f.file}:${f.line}`);
const real = (name) => check(collect([join(TRIAL, name)], undefined, join(TRIAL, name)));

test('Procfile `sidekiq --concurrency $RAILS_MAX_THREADS` with pool ENV.fetch("RAILS_MAX_THREADS"): the same value, no error (rubytoolbox 2024-06)', () => {
  const r = real('rubytoolbox-2024-06');
  assert.deepEqual(strong(r), []);
  // The variable set for the app (a .env file): both sides are 12, still equal.
  const files = collect([join(TRIAL, 'rubytoolbox-2024-06')], undefined, join(TRIAL, 'rubytoolbox-2024-06'));
  assert.deepEqual(strong(check([...files, { path: '.env', text: 'RAILS_MAX_THREADS=12\n' }])), []);
  // A different variable whose value the files give (SIDEKIQ_CONCURRENCY=20) above the pool: the error stays.
  const procfile = files.find((x) => x.path === 'Procfile');
  const other = files.map((x) => (x === procfile ? { ...x, text: x.text.replace('--concurrency $RAILS_MAX_THREADS', '--concurrency ${SIDEKIQ_CONCURRENCY:-20}') } : x));
  assert.deepEqual(strong(check(other)), ['error pool-below-concurrency Procfile:2']);
});

test('`rackup DefaultRackup if defined?(DefaultRackup)` on Puma 6: the guard means the line never runs, a note that it is dead (planner 2025-08)', () => {
  const r = real('planner-2025-08');
  const f = r.findings.filter((x) => x.setting === 'rackup');
  assert.deepEqual(f.map((x) => `${x.severity} ${x.file}:${x.line}`), ['note config/puma.rb:44']);
  assert.match(f[0].message, /guard is false and the line never runs/);
  assert.deepEqual(strong(r), []);
});
