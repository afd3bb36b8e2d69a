// Suggestions derived from the app's own values (issue 25): a pool fix is the app's thread expression (the same ENV
// variable and default puma.rb uses) plus the job-runner threads sharing the process and load_async's executor,
// written in database.yml's syntax where production reads its pool (the line that sets it, the anchor production
// merges, else production's section). Every fix is applied to a copy of the app and the app checked again: the
// finding must be gone and nothing new at warning or above may appear. Notes carry no wizard number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import '../../guide/engine/index.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';
import { readFile } from '../../guide/check/read.mjs';
import { CORPUS, runApp } from '../../scripts/lib/doctor-corpus.mjs';
import { applyDiff } from './helpers.mjs';

const run = (dir) => check(collect([dir], undefined, dir));
const strong = (r) => r.findings.filter((f) => f.severity !== 'note').map((f) => `${f.severity} ${f.rule} ${f.file}`);
const added = (diff) => diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1));

function app(files) {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-derived-'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

/** Apply the finding's diff to its file in dir, check the YAML still reads, check the app again. */
function roundTrip(dir, f) {
  assert.ok(f.diff, `${f.rule}: a diff`);
  const file = /^\+\+\+ b\/(.+)$/m.exec(f.diff)[1];
  const { text } = applyDiff(readFileSync(join(dir, file), 'utf8'), f.diff);
  writeFileSync(join(dir, file), text);
  const read = readFile({ path: file, text });
  assert.equal(read.problem, undefined, `${file} reads after the fix`);
  return { after: run(dir), text };
}

const GEMS = { 'Gemfile.lock': 'GEM\n  remote: https://rubygems.org/\n  specs:\n    pg (1.6.2)\n    puma (7.1.0)\n    rails (8.1.1)\n\nBUNDLED WITH\n   2.6.2\n' };
const DEFAULT_YML = (pool) => `default: &default\n  adapter: postgresql\n  encoding: unicode\n${pool}\ndevelopment:\n  <<: *default\n  database: app_development\n\nproduction:\n  <<: *default\n  database: app_production\n`;
const PUMA10 = 'threads_count = ENV.fetch("RAILS_MAX_THREADS", 10)\nthreads threads_count, threads_count\nport ENV.fetch("PORT", 3000)\n';

test('pool 5 below 10 Puma threads: the fix reads the same variable with Puma\'s default, on the anchor\'s line', () => {
  const dir = app({ ...GEMS, 'config/puma.rb': PUMA10, 'config/database.yml': DEFAULT_YML('  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>\n') });
  try {
    const f = run(dir).findings.find((x) => x.rule === 'pool-below-threads');
    assert.equal(f.severity, 'error');
    assert.equal(f.line, 4);
    assert.match(f.message, /pool is 5 .* Puma runs 10 threads per process .* with RAILS_MAX_THREADS unset/);
    // app's comma style ENV.fetch("X", 10), its variable, its default; in the default: &default block production merges.
    assert.deepEqual(added(f.diff), ['  pool: <%= ENV.fetch("RAILS_MAX_THREADS", 10) %>']);
    assert.match(f.message, /Set pool: <%= ENV\.fetch\("RAILS_MAX_THREADS", 10\) %> \(= 10: 10 Puma threads \(config\/puma\.rb:2\)\), in the anchor production merges/);
    const { after } = roundTrip(dir, f);
    assert.deepEqual(strong(after), []);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('embedded Sidekiq and load_async share the process: the fix adds their threads to the app\'s thread expression', () => {
  const puma = `${PUMA10}Sidekiq.configure_embed do |config|\n  config.concurrency = 2\nend\n`;
  const prod = 'Rails.application.configure do\n  config.active_record.async_query_executor = :global_thread_pool\n  config.active_record.global_executor_concurrency = 3\nend\n';
  const dir = app({ ...GEMS, 'config/puma.rb': puma, 'config/environments/production.rb': prod, 'config/database.yml': DEFAULT_YML('  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>\n') });
  try {
    const r = run(dir);
    const below = r.findings.find((x) => x.rule === 'pool-below-threads');
    const emb = r.findings.find((x) => x.rule === 'pool-below-concurrency');
    assert.match(emb.message, /Embedded Sidekiq runs 2 job threads/);
    // 10 Puma threads + 2 Sidekiq threads + 3 executor threads + 1 (Rails' configuring guide): both errors, one fix.
    for (const f of [below, emb]) {
      assert.deepEqual(added(f.diff), ['  pool: <%= ENV.fetch("RAILS_MAX_THREADS", 10).to_i + 6 %>'], f.rule);
      assert.match(f.message, /= 16: 10 Puma threads .* \+ 2 threads of Embedded Sidekiq \(config\/puma\.rb:5\) \+ 3 load_async executor threads \+ 1/);
    }
    const { after } = roundTrip(dir, below);
    assert.deepEqual(strong(after), []);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('embedded Sidekiq whose concurrency reads ENV: the fix adds the same variable with its default', () => {
  const puma = `${PUMA10}Sidekiq.configure_embed do |config|\n  config.concurrency = ENV.fetch("SIDEKIQ_CONCURRENCY", 2).to_i\nend\n`;
  const dir = app({ ...GEMS, 'config/puma.rb': puma, 'config/database.yml': DEFAULT_YML('  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 10 } %>\n') });
  try {
    const f = run(dir).findings.find((x) => x.rule === 'pool-below-concurrency');
    assert.match(f.message, /Embedded Sidekiq runs 2 job threads .* need 12 connections/);
    assert.deepEqual(added(f.diff), ['  pool: <%= ENV.fetch("RAILS_MAX_THREADS", 10).to_i + ENV.fetch("SIDEKIQ_CONCURRENCY", 2).to_i %>']);
    assert.deepEqual(strong(roundTrip(dir, f).after), []);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('GoodJob async with its own variable, Solid Queue\'s async Puma plugin: each runner\'s threads in the fix', () => {
  const gj = 'Rails.application.configure do\n  config.good_job.execution_mode = :async\n  config.good_job.max_threads = ENV.fetch("GOOD_JOB_MAX_THREADS", 4)\nend\n';
  const a = app({ ...GEMS, 'config/puma.rb': 'threads 5, 5\n', 'config/environments/production.rb': gj, 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: 5\n' });
  const sq = 'threads 5, 5\nplugin :solid_queue\nsolid_queue_mode :async\n';
  const b = app({ ...GEMS, 'config/puma.rb': sq, 'config/queue.yml': 'production:\n  workers:\n    - queues: "*"\n      threads: 2\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: 6\n' });
  try {
    const f = run(a).findings.find((x) => x.rule === 'pool-below-concurrency');
    assert.deepEqual(added(f.diff), ['  pool: <%= ENV.fetch("GOOD_JOB_MAX_THREADS", 4).to_i + 8 %>']);
    assert.deepEqual(strong(roundTrip(a, f).after), []);
    const g = run(b).findings.find((x) => x.rule === 'pool-below-concurrency');
    assert.match(g.message, /Solid Queue in Puma \(async mode\) runs 2 job threads .* need 7 connections/);
    assert.deepEqual(added(g.diff), ['  pool: 7']);
    assert.deepEqual(strong(roundTrip(b, g).after), []);
  } finally { for (const d of [a, b]) rmSync(d, { recursive: true, force: true }); }
});

test('no pool anywhere: the line goes into the anchor production merges, or into production (two- and three-tier)', () => {
  const cases = [
    // anchor merged by production: after the anchor's last key, at its indentation, above `development:`.
    [DEFAULT_YML(''), 3, '  pool: <%= ENV.fetch("RAILS_MAX_THREADS", 10) %>'],
    // no anchor: production's own section, after its last plain key (not inside the nested variables: map).
    ['production:\n  adapter: postgresql\n  database: app\n  variables:\n    statement_timeout: 5s\n', 3, '  pool: <%= ENV.fetch("RAILS_MAX_THREADS", 10) %>'],
    // three-tier: production's primary.
    ['production:\n  primary:\n    adapter: postgresql\n    database: app\n  cache:\n    adapter: postgresql\n    database: app_cache\n', 4, '    pool: <%= ENV.fetch("RAILS_MAX_THREADS", 10) %>'],
  ];
  for (const [yml, after, line] of cases) {
    const dir = app({ ...GEMS, 'config/puma.rb': PUMA10, 'config/database.yml': yml });
    try {
      const f = run(dir).findings.find((x) => x.rule === 'pool-below-threads');
      assert.match(f.message, /Rails’ default, 5/);
      assert.deepEqual(added(f.diff), [line], yml);
      assert.match(f.diff, new RegExp(`^@@ -${after},1 \\+${after},2 @@`, 'm'), yml);
      assert.deepEqual(strong(roundTrip(dir, f).after), [], yml);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  }
});

test('Sidekiq and the web share one pool line: the larger of the two, kept readable when the web\'s reads ENV', () => {
  const dir = app({ ...GEMS, 'config/puma.rb': PUMA10, 'config/sidekiq.yml': ':concurrency: 12\n', 'config/database.yml': DEFAULT_YML('  pool: 10\n') });
  try {
    const f = run(dir).findings.find((x) => x.rule === 'pool-below-concurrency');
    assert.equal(f.severity, 'error');
    assert.deepEqual(added(f.diff), ['  pool: <%= [ENV.fetch("RAILS_MAX_THREADS", 10).to_i, 12].max %>']);
    assert.match(f.message, /= 12: the larger of 10 for the web process .* and 12 Sidekiq threads \(config\/sidekiq\.yml:1\)/);
    assert.deepEqual(strong(roundTrip(dir, f).after), []);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('corpus: lobsters, publishing-api 2017, whitehall 2018 — the fix lands in the right scope and the error goes', () => {
  const cases = {
    // Rails' implicit 5 under Puma's production default 10: the sqlite3 anchor every production database merges.
    lobsters: ['pool-below-threads', ['  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 10 } %>'], /^@@ -4,1 \+4,2 @@\n   timeout: 1000$/m],
    // pool: 5 in the default anchor, Sidekiq 6: that line, replaced.
    'publishing-api-2017-05': ['pool-below-concurrency', ['  pool: 6'], /^@@ -4,1 \+4,1 @@\n-  pool: 5$/m],
    // No pool, production with no anchor, Sidekiq 8 (Unicorn: one thread per process): production's section.
    'whitehall-2018-07': ['pool-below-concurrency', ['  pool: 8'], /^@@ -30,1 \+30,2 @@\n   database: whitehall_production$/m],
  };
  for (const [name, [rule, lines, hunk]] of Object.entries(cases)) {
    const dir = mkdtempSync(join(tmpdir(), 'doctor-derived-corpus-'));
    try {
      cpSync(join(CORPUS, name), dir, { recursive: true });
      const before = run(dir);
      const f = before.findings.find((x) => x.rule === rule);
      assert.equal(f.severity, 'error', name);
      assert.deepEqual(added(f.diff), lines, name);
      assert.match(f.diff, hunk, name);
      const { after } = roundTrip(dir, f);
      assert.ok(!after.findings.some((x) => x.rule === rule), `${name}: ${rule} gone`);
      // Nothing new at warning or above: the fix breaks nothing else the doctor checks.
      assert.deepEqual(strong(after), strong(before).filter((s) => !s.startsWith(`error ${rule} `)), name);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  }
});

test('corpus notes: the wizard\'s values are labelled as its preference and never written as a diff', () => {
  for (const name of ['abalone', 'bullet-train', 'campfire', 'feedbin', 'signon', 'writebook']) {
    const r = runApp(name).report;
    for (const f of r.findings.filter((x) => x.severity === 'note' && (x.rule === 'differs' || x.rule === 'missing'))) {
      assert.match(f.message, /the wizard's preference for these answers is/, `${name}: ${f.message}`);
      if (!f.diff) { assert.match(f.message, /a choice: .*no change is suggested$/, `${name}: ${f.message}`); continue; }
      // A diff that remains is number-free and names no assumed path (plugin :tmp_restart and the like).
      for (const l of added(f.diff)) assert.doesNotMatch(l.replace(/#.*$/, ''), /\d|\/var\/www\/app/, `${name} ${f.setting}: ${l}`);
    }
  }
  // The wizard's 3, 3 threads, 3 Sidekiq threads and 5000 ms timeout appear only as its labelled preference.
  const bt = runApp('bullet-train').report.findings.find((f) => f.setting === 'concurrency');
  assert.equal(bt.diff, null);
  assert.match(bt.message, /^concurrency is 5; the wizard's preference for these answers is 3, a choice: /);
  const wb = runApp('writebook').report.findings.find((f) => f.setting === 'timeout');
  assert.equal(wb.diff, null);
});

test('nginx "ssl on": the replacement is the server\'s own listen line with ssl, not a port the doctor picks', () => {
  const dir = app({ 'etc/nginx/sites-enabled/app.conf': 'server {\n  listen 8443;\n  server_name shop.example.org;\n  ssl on;\n  location / {\n    proxy_pass http://127.0.0.1:3000;\n  }\n}\n' });
  try {
    const f = check(collect([dir], undefined, dir), { answers: { proxy_version: '1.26' } }).findings.find((x) => x.rule === 'obsolete' && x.setting === 'ssl');
    assert.equal(f.severity, 'error');
    assert.equal(f.replacement, 'listen 8443 ssl');
    assert.match(f.message, /write line 2 as "listen 8443 ssl"/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
