// Apps that boot nowhere (issue 25, user trial): a PostgreSQL adapter with only sqlite3 in Gemfile.lock, a queue
// adapter whose gem is absent. Also Solid Queue's default worker (3 threads) when config/queue.yml is absent, and
// findings named by the app's own key (pool: where the file writes pool:, on Rails 8.1 too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import '../../guide/engine/index.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check, exitStatus } from '../../guide/check/index.mjs';

const lockfile = (gems) => `GEM\n  remote: https://rubygems.org/\n  specs:\n${gems.map((g) => `    ${g}\n`).join('')}\nPLATFORMS\n  x86_64-linux\n\nRUBY VERSION\n   ruby 3.4.7p58\n\nBUNDLED WITH\n   2.7.2\n`;
const prodRb = (adapter) => `Rails.application.configure do\n  config.eager_load = true\n${adapter ? `  config.active_job.queue_adapter = ${adapter}\n` : ''}end\n`;
const dbYml = (adapter, pool = 'pool: 3') => `default: &default\n  adapter: ${adapter}\n  encoding: unicode\n  ${pool}\n\nproduction:\n  <<: *default\n  database: app_production\n`;

/** check() on an app written to a temp folder: files = {path: text}. */
function run(files) {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-gems-'));
  try {
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), text);
    }
    return check(collect([dir], undefined, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const base = (over = {}) => ({
  'Gemfile.lock': lockfile(['puma (7.1.0)', 'rails (8.1.1)', 'sqlite3 (2.8.0)']),
  'config/database.yml': dbYml('postgresql'),
  'config/puma.rb': 'threads 3, 3\nport ENV.fetch("PORT", 3000)\n',
  'config/environments/production.rb': prodRb(':solid_queue'),
  ...over,
});
const gemMissing = (r) => r.findings.filter((f) => f.rule === 'gem-missing');

test('the broken copy: postgresql without pg, :solid_queue without solid_queue — two errors, --fail-on error fails', () => {
  const r = run(base());
  const g = gemMissing(r);
  assert.deepEqual(g.map((f) => [f.severity, f.file, f.line, f.setting, f.expected]), [
    ['error', 'config/database.yml', 2, 'adapter', 'pg'],
    ['error', 'config/environments/production.rb', 3, 'config.active_job.queue_adapter', 'solid_queue'],
  ]);
  assert.match(g[0].message, /no `pg` gem.*does not boot/);
  assert.match(g[1].message, /:solid_queue.*no `solid_queue` gem/);
  assert.equal(exitStatus(r, 'error'), 1);
});

test('each adapter is matched with its own gem; built-in queue adapters and apps without Gemfile.lock are not judged', () => {
  const cases = [
    ['sqlite3', ['sqlite3 (2.8.0)'], null],
    ['postgis', ['pg (1.6.2)', 'activerecord-postgis-adapter (11.0.0)'], null],
    ['postgis', ['pg (1.6.2)'], 'activerecord-postgis-adapter'],
    ['mysql2', ['trilogy (2.9.0)'], 'mysql2'],
    ['trilogy', ['trilogy (2.9.0)'], null],
    ['sqlite3', ['pg (1.6.2)'], 'sqlite3'],
  ];
  for (const [adapter, gems, expected] of cases) {
    const r = run(base({ 'Gemfile.lock': lockfile(['puma (7.1.0)', 'rails (8.1.1)', 'solid_queue (1.2.4)', ...gems]), 'config/database.yml': dbYml(adapter, 'pool: 10') }));
    assert.deepEqual(gemMissing(r).map((f) => f.expected), expected ? [expected] : [], `${adapter} with ${gems.join(', ')}`);
  }
  for (const [qa, gems, expected] of [[':async', [], []], [':sidekiq', [], ['sidekiq']], [':sidekiq', ['sidekiq (8.0.8)'], []], [':good_job', [], ['good_job']]]) {
    const r = run(base({ 'Gemfile.lock': lockfile(['puma (7.1.0)', 'rails (8.1.1)', 'pg (1.6.2)', ...gems]), 'config/environments/production.rb': prodRb(qa) }));
    assert.deepEqual(gemMissing(r).map((f) => f.expected), expected, qa);
  }
  // No lockfile: the bundle is unknown, nothing is said about gems.
  const files = base();
  delete files['Gemfile.lock'];
  assert.deepEqual(gemMissing(run(files)), []);
});

test('without config/queue.yml Solid Queue\'s default worker (3 threads + 2) is compared with the pool', () => {
  const ok = ['puma (7.1.0)', 'rails (8.1.1)', 'pg (1.6.2)', 'solid_queue (1.2.4)'];
  const small = run(base({ 'Gemfile.lock': lockfile(ok) }));
  const f = small.findings.find((x) => x.rule === 'pool-below-concurrency');
  assert.ok(f, 'pool 3 < 3 threads + 2');
  assert.equal(f.file, 'config/database.yml');
  assert.equal(f.line, 4);
  assert.match(f.message, /3 threads \(its default: no config\/queue\.yml\) and needs 5 connections/);
  // Rails' implicit 5 and a pool of 5 hold the default worker; so does a queue.yml that sets fewer threads.
  assert.ok(!run(base({ 'Gemfile.lock': lockfile(ok), 'config/database.yml': dbYml('postgresql', 'timeout: 5000') })).findings.some((x) => x.rule === 'pool-below-concurrency'));
  assert.ok(!run(base({ 'Gemfile.lock': lockfile(ok), 'config/database.yml': dbYml('postgresql', 'pool: 5') })).findings.some((x) => x.rule === 'pool-below-concurrency'));
  assert.ok(!run(base({ 'Gemfile.lock': lockfile(ok), 'config/queue.yml': 'production:\n  workers:\n    - queues: "*"\n      threads: 1\n' })).findings.some((x) => x.rule === 'pool-below-concurrency'));
  // Another backend: no Solid Queue default (Sidekiq's own default, 5 threads in Sidekiq ≥ 7, is what meets pool 3).
  const sk = run(base({ 'Gemfile.lock': lockfile([...ok, 'sidekiq (8.0.8)']), 'config/environments/production.rb': prodRb(':sidekiq') })).findings.filter((x) => x.rule === 'pool-below-concurrency');
  assert.deepEqual(sk.filter((x) => /Solid Queue/.test(x.message)), []);
  assert.deepEqual(sk.map((x) => [x.found, x.expected, /Sidekiq 8's default/.test(x.message)]), [['5', '3', true]]);
});

test('findings are named by the app\'s own key: pool: on Rails 8.1 stays pool, max_connections: stays max_connections', () => {
  const ok = ['puma (7.1.0)', 'rails (8.1.1)', 'pg (1.6.2)', 'solid_queue (1.2.4)'];
  const pool = run(base({ 'Gemfile.lock': lockfile(ok), 'config/database.yml': dbYml('postgresql', 'pool: 2'), 'config/puma.rb': 'threads 3, 3\n' }));
  const onPool = pool.findings.filter((f) => f.file === 'config/database.yml' && f.line === 4);
  assert.ok(onPool.length >= 2, onPool.map((f) => f.rule).join());
  for (const f of onPool) {
    assert.equal(f.setting, 'pool', `${f.rule}: ${f.message}`);
    assert.doesNotMatch(f.message, /max_connections/, f.rule);
    if (f.diff) assert.match(f.diff, /^\+\s*pool: /m);
  }
  // The fix is the app's own thread count (threads 3, 3), written under the key the file uses.
  assert.ok(onPool.some((f) => f.rule === 'pool-below-threads' && /Set pool: 3 \(= 3: 3 Puma threads \(config\/puma\.rb:1\)\)/.test(f.message)));
  const mc = run(base({ 'Gemfile.lock': lockfile(ok), 'config/database.yml': dbYml('postgresql', 'max_connections: 2'), 'config/puma.rb': 'threads 3, 3\n' }));
  const below = mc.findings.find((f) => f.rule === 'pool-below-threads');
  assert.equal(below.setting, 'max_connections');
  assert.match(below.message, /Set max_connections: 3 \(= 3: 3 Puma threads/);
  assert.match(below.diff, /^\+\s*max_connections: 3$/m);
});
