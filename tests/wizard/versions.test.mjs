// Versions as data (issue 11): support lifecycles against the generation date, the newest Ruby a Rails series runs
// on, Puma's WEB_CONCURRENCY handling (loaded with the real Puma), JRuby heap and threads, worker_mb, operations
// checklist and corrected advice. Engine-only apart from one Puma load and one CLI run.
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../../guide/engine/index.mjs';
import * as V from './validators.mjs';

after(V.cleanup);
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'guide', 'cli.mjs');
const gen = (a, date = '2026-11-23') => generate(a, { date });
const sev = (r, id) => r.warnings.find((w) => w.id === id)?.severity;
const file = (r, p) => r.files.find((f) => f.path === p)?.content;

test('end of life and security-only support follow the generation date', () => {
  // Rails 8.0: security fixes only from 2025-11-07, end of life 2026-11-07 (maintenance policy: 1 + 1 years).
  assert.equal(sev(gen({ rails: '8.0', ruby_version: '3.4' }, '2026-01-01'), 'rails-security-only'), 'info');
  assert.equal(sev(gen({ rails: '8.0', ruby_version: '3.4' }, '2026-11-23'), 'rails-end-of-life'), 'warning');
  assert.equal(sev(gen({ rails: '8.1', ruby_version: '3.4' }, '2026-06-01'), 'rails-end-of-life'), undefined);
  // CRuby 3.2 ended in March 2026; 3.3 is security-only until March 2027; 4.0 is maintained.
  assert.equal(sev(gen({ ruby_version: '3.2' }, '2026-04-01'), 'ruby-end-of-life'), 'warning');
  assert.equal(sev(gen({ ruby_version: '3.2' }, '2026-03-15'), 'ruby-end-of-life'), undefined); // "2026-03" = end of March
  assert.equal(sev(gen({ ruby_version: '3.3' }), 'ruby-security-only'), 'info');
  assert.deepEqual(gen({ ruby_version: '4.0', rails: '8.1' }, '2026-06-01').warnings.filter((w) => /^ruby-/.test(w.id)), []);
  // Databases: PostgreSQL 14 ended 2026-11-12, MySQL 8.0 in April 2026; 8.4 LTS and MariaDB 11.8 LTS are supported.
  assert.equal(sev(gen({ database_version: '14' }), 'database-end-of-life'), 'warning');
  assert.equal(sev(gen({ database_version: '18' }), 'database-end-of-life'), undefined);
  assert.equal(sev(gen({ database: 'mysql', database_version: '8.0', adapter: 'mysql2' }), 'database-end-of-life'), 'warning');
  assert.equal(sev(gen({ database: 'mysql', database_version: '8.4', adapter: 'mysql2' }), 'database-end-of-life'), undefined);
  assert.equal(sev(gen({ database: 'mariadb', database_version: '11.8', adapter: 'mysql2' }), 'database-end-of-life'), undefined);
  assert.equal(sev(gen({ database: 'mariadb', database_version: '10.6', adapter: 'mysql2' }), 'database-end-of-life'), 'warning');
  assert.match(gen({ database_version: '14' }).warnings.find((w) => w.id === 'database-end-of-life').evidence[0].url, /postgresql\.org\/support\/versioning/);
});

test('a Ruby newer than a Rails series runs on is an error with the reason, and the CLI exits 3', () => {
  const cases = [
    [{ rails: '2.3.5', ruby_version: '3.4' }, /iconv/],
    [{ rails: '3.2', ruby_version: '2.4' }, /json/],
    [{ rails: '4.2', ruby_version: '2.7' }, /BigDecimal\.new/],
    [{ rails: '5.2', ruby_version: '3.0' }, /keyword/],
    [{ rails: '7.0', ruby_version: '3.4' }, /bundled gems/],
  ];
  for (const [a, why] of cases) {
    const w = gen(a).warnings.find((x) => x.id === 'ruby-too-new-for-rails');
    assert.equal(w?.severity, 'error', JSON.stringify(a));
    assert.match(w.message, why);
    assert.match(w.evidence[0].url, /NEWS/);
  }
  for (const a of [{ rails: '2.3.5', ruby_version: '1.9.3' }, { rails: '4.2', ruby_version: '2.6' }, { rails: '7.1', ruby_version: '3.4' }, { rails: '8.1', ruby_version: '4.0' }]) {
    assert.equal(sev(gen(a), 'ruby-too-new-for-rails'), undefined, JSON.stringify(a));
  }
  const r = spawnSync(process.execPath, [CLI, '--answers', '-', '--format', 'json'], { input: JSON.stringify({ rails: '2.3.5', ruby_version: '3.4' }), encoding: 'utf8' });
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stderr, /error \[ruby-too-new-for-rails\]/);
});

test('Puma 6.5+ reads WEB_CONCURRENCY itself (also "auto"); the file still says how many workers without it', () => {
  const dir = V.tmp('wizard-puma-auto-');
  for (const d of ['tmp/sockets', 'tmp/pids']) mkdirSync(join(dir, d), { recursive: true });
  const r = generate({ server_version: '8.0', cores: 4, ram_gb: 16 }, { date: '2026-11-23', appRoot: dir });
  const puma = file(r, 'config/puma.rb');
  assert.match(puma, /^workers 4 unless ENV\.key\?\("WEB_CONCURRENCY"\)$/m);
  assert.match(puma, /workers :auto` \(Puma 7\.2\+\)/);
  assert.doesNotMatch(file(generate({ server_version: '6.4', cores: 4, ram_gb: 16 }), 'config/puma.rb'), /unless ENV/);
  const path = join(dir, 'puma.rb');
  writeFileSync(path, puma);
  const plain = V.loadRubyConfigs([{ kind: 'puma', path }], { extraEnv: { WEB_CONCURRENCY: null } })[path];
  assert.equal(plain.workers, 4);
  const auto = V.loadRubyConfigs([{ kind: 'puma', path }], { extraEnv: { WEB_CONCURRENCY: 'auto' } })[path];
  assert.ok(Number.isInteger(auto.workers) && auto.workers >= 1, `WEB_CONCURRENCY=auto gives ${auto.workers} workers`);
  const three = V.loadRubyConfigs([{ kind: 'puma', path }], { extraEnv: { WEB_CONCURRENCY: '3' } })[path];
  assert.equal(three.workers, 3);
});

test('JRuby: heap from the host RAM, threads from the cores; worker_mb replaces every estimate', () => {
  const heap = (a) => Number(/^JAVA_OPTS=-Xmx(\d+)m$/m.exec(file(gen({ ruby: 'jruby', ruby_version: '10.0', rails: '8.0', ...a }), 'config/ruby.env'))[1]);
  assert.ok(heap({ ram_gb: 32, cores: 8 }) > 16000, 'a 32 GB host gives the one JVM more than 16 GB');
  assert.ok(heap({ ram_gb: 2, cores: 2 }) < 1024);
  assert.equal(heap({ ram_gb: 4096, cores: 8, db_host: 'separate' }), 31744); // compressed oops limit
  assert.equal(heap({ ram_gb: 32, worker_mb: 4096 }), 3840);
  const threads = (a) => gen({ ruby: 'jruby', ruby_version: '10.0', rails: '8.0', ...a }).model.threads;
  assert.equal(threads({ cores: 8 }), 32);
  assert.equal(threads({ cores: 8, workload: 'io' }), 64);
  assert.equal(threads({ cores: 64, workload: 'io' }), 256);
  // CRuby: a measured 300 MB per worker lets more workers fit than the 512 MB estimate.
  const est = gen({ cores: 16, ram_gb: 4 });
  const measured = gen({ cores: 16, ram_gb: 4, worker_mb: 300 });
  assert.ok(measured.model.processes > est.model.processes);
  assert.match(file(measured, 'README.md'), /You measured 300 MB for one copy of the app\. A forking server counts it once and 75 % of it per worker/);
  assert.match(file(est, 'README.md'), /Estimate of 512 MB for one booted copy of the app: Puma's deployment guide/);
});

test('Falcon: the pool bounds concurrency; advice corrected (load_async executor, jemalloc) and operations in CHECKLIST', () => {
  const f = gen({ server: 'falcon', server_version: '0.48' });
  assert.match(f.advice.find((x) => x.id === 'falcon-pool').body, /the pool is the bound: \d+ connections per process/);
  const r = gen({ rails: '8.1', ruby_version: '3.4' });
  const la = r.advice.find((x) => x.id === 'rails-load-async');
  assert.match(la.body, /async_query_executor defaults to nil/);
  assert.ok(la.evidence.some((e) => /async-query-executor/.test(e.url)));
  const env = file(r, 'config/ruby.env');
  assert.match(env, /more GC time with jemalloc than without, 2\.8 s against 2\.4 s/);
  assert.doesNotMatch(env, /sped up Rails Ruby Bench/);
  const checklist = file(r, 'CHECKLIST.md');
  const ops = checklist.slice(checklist.indexOf('## Operations'), checklist.indexOf('## Application'));
  for (const re of [/\/up/, /pg_basebackup/, /logrotate/, /pg_stat_activity/]) assert.match(ops, re);
  assert.match(ops, /evidence: https:\/\/www\.postgresql\.org\/docs\/current\/continuous-archiving\.html/);
  // Without systemd the restart step is the server's own: a hot restart for a preloading Puma cluster.
  const other = file(gen({ rails: '8.1', ruby_version: '3.4', init: 'other', cores: 4, ram_gb: 16 }), 'CHECKLIST.md');
  assert.match(other, /hot restart \(pumactl restart, SIGUSR2\)/);
  assert.match(file(gen({ server: 'unicorn', server_version: '6.1', init: 'other' }), 'CHECKLIST.md'), /USR2 to the master/);
});
