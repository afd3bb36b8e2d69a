// Table-driven: real projects' defaults (rails new 6.1–8.1, 8.x generated in the lab's Ruby 3.3; Puma's
// and Unicorn's example configs; a PGTune postgresql.conf) → detected answers and expected findings.
// Errors are asserted exactly (they come from the doctor's own rules); warnings and notes that depend on
// what the engine generates are asserted as "at least these", so new engine settings do not break the table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, FIXTURES } from './helpers.mjs';

const F = (p) => join(FIXTURES, p);
const RAILS_APP = (v) => ({ server: 'puma', adapter: 'pg', database: 'postgresql', rails: new RegExp(`^${v.replace('.', '\\.')}(\\.|$)`) });

const TABLE = [
  {
    name: 'rails new 6.1', paths: [F('rails-6.1')],
    detected: { ...RAILS_APP('6.1'), ruby_version: /^3\.1/, server_version: /^5\.0$/, db_host: 'same' },
    errors: [],
    // `environment ENV.fetch("RAILS_ENV") { "development" }`: production sets RAILS_ENV, so no finding.
    includes: ['note missing workers', 'note missing bind'], absent: ['differs environment'],
  },
  {
    name: 'rails new 7.0', paths: [F('rails-7.0')],
    detected: { ...RAILS_APP('7.0'), server_version: /^5\.0$/ },
    errors: [],
    includes: ['note missing preload_app!'], absent: ['differs environment'],
  },
  {
    name: 'rails new 7.1', paths: [F('rails-7.1')],
    detected: { ...RAILS_APP('7.1') },
    errors: [],
    includes: ['note missing bind'], absent: ['differs environment'],
  },
  {
    name: 'rails new 7.2', paths: [F('rails-7.2')],
    detected: { ...RAILS_APP('7.2') },
    errors: [],
    // Rails 7.2 generates 3 threads and a pool of 5. The doctor never suggests shrinking a pool; since issue 24 the
    // wizard's pool also counts Action Cable's 4 worker threads (3 + 4 = 7), so a note (not a warning) says so.
    // No `environment` line: Puma takes RAILS_ENV from the process, so its absence is no note (absent.mjs).
    includes: ['note missing bind', 'note differs pool'], absent: ['missing environment'],
  },
  {
    name: 'rails new 8.0', paths: [F('rails-8.0')],
    detected: { ...RAILS_APP('8.0'), jobs: 'solid_queue' }, errors: [], includes: ['note missing bind'],
  },
  {
    name: 'rails new 8.1', paths: [F('rails-8.1')],
    detected: { ...RAILS_APP('8.1'), jobs: 'solid_queue' }, errors: [], includes: ['note missing bind'],
  },
  {
    name: 'Puma docs nginx.conf', paths: [F('puma-docs/nginx.conf')],
    detected: { proxy: 'nginx', domain: 'myapp.com', app_root: '/myapp' },
    errors: [],
    includes: ['note missing proxy_set_header', 'note missing client_max_body_size'],
  },
  {
    name: 'Unicorn examples (unicorn.conf.rb, nginx.conf)', paths: [F('unicorn-examples')],
    detected: { server: 'unicorn', proxy: 'nginx' },
    errors: [],
    // Values that only differ from the wizard's preference are notes (severity policy).
    includes: ['note differs worker_connections', 'note differs keepalive_timeout', 'note differs proxy_set_header', 'note differs worker_processes'],
  },
  {
    name: 'PGTune postgresql.conf (web, 8 GB, 4 CPUs, SSD, PostgreSQL 17)', paths: [F('pgtune/etc')],
    detected: { database: 'postgresql', database_version: '17' },
    errors: [],
    // Sized for 8 GB while RAM was not given: the memory settings differ as notes, not warnings.
    includes: ['note differs shared_buffers', 'note differs effective_cache_size', 'note differs work_mem'],
  },
  {
    name: 'PGTune postgresql.conf with the host it was tuned for', paths: [F('pgtune/etc')],
    answers: { ram_gb: 8, cores: 4, db_host: 'separate', db_ram_gb: 8, db_cores: 4, storage: 'ssd' },
    detected: { database_version: '17' },
    errors: [],
    includes: [],
    absent: ['differs shared_buffers', 'differs effective_cache_size'],
  },
  {
    name: 'Rails 7.0 app behind Puma docs nginx: socket mismatch', paths: [F('rails-7.0'), F('puma-docs/nginx.conf')],
    detected: { server: 'puma', proxy: 'nginx' },
    errors: ['error inconsistent upstream'],
    includes: [],
  },
];

function run(row) {
  const args = ['--check', ...row.paths, '--format', 'json'];
  let dir;
  if (row.answers) {
    dir = mkdtempSync(join(tmpdir(), 'doctor-fx-'));
    writeFileSync(join(dir, 'answers.json'), JSON.stringify(row.answers));
    args.push('--answers', join(dir, 'answers.json'));
  }
  try {
    const r = runCli(args);
    return { ...r, report: JSON.parse(r.stdout) };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

for (const row of TABLE) {
  const present = row.paths.every((p) => existsSync(p));
  test(row.name, () => {
    assert.ok(present, `fixture missing: ${row.paths.join(', ')}`);
    const { code, report } = run(row);
    assert.deepEqual(report.problems, []);
    for (const [key, want] of Object.entries(row.detected)) {
      const got = report.detected[key];
      assert.ok(got, `${key} detected (got ${JSON.stringify(Object.keys(report.detected))})`);
      if (want instanceof RegExp) assert.match(String(got.value), want, key);
      else assert.equal(String(got.value), String(want), key);
      assert.ok(got.file || got.from === 'given', `${key} has provenance`);
    }
    const list = report.findings.map((f) => `${f.severity} ${f.rule} ${f.setting}`);
    assert.deepEqual(list.filter((x) => x.startsWith('error')).sort(), [...row.errors].sort(), list.join('\n'));
    for (const x of row.includes) assert.ok(list.includes(x), `expected "${x}" in:\n${list.join('\n')}`);
    for (const x of row.absent || []) assert.ok(!list.some((l) => l.endsWith(x)), `did not expect "${x}" in:\n${list.join('\n')}`);
    // Every finding names its file and line, a reason or message, and each evidence link is absolute or site-relative.
    for (const f of report.findings) {
      assert.ok(f.file && f.line >= 0 && f.message, JSON.stringify(f));
      for (const e of f.evidence) assert.match(e.url, /^(https:\/\/|\/)/, JSON.stringify(e));
      if (f.diff) assert.match(f.diff, /^--- a\/.+\n\+\+\+ b\/.+\n@@ -\d+,\d+ \+\d+,\d+ @@/);
    }
    assert.equal(code, row.errors.length ? 1 : 0);
  });
}

test('SARIF 2.1.0: rules, levels, locations and fingerprints for GitHub code scanning', () => {
  const r = runCli(['--check', F('rails-7.0'), F('puma-docs/nginx.conf'), '--format', 'sarif', '--fail-on', 'warning']);
  assert.equal(r.code, 1);
  const sarif = JSON.parse(r.stdout);
  assert.equal(sarif.version, '2.1.0');
  const run0 = sarif.runs[0];
  assert.equal(run0.tool.driver.name, 'scaling-rails-doctor');
  const ruleIds = run0.tool.driver.rules.map((x) => x.id);
  assert.ok(run0.results.length > 0);
  for (const res of run0.results) {
    assert.ok(ruleIds.includes(res.ruleId));
    assert.equal(run0.tool.driver.rules[res.ruleIndex].id, res.ruleId);
    assert.ok(['error', 'warning', 'note'].includes(res.level));
    const loc = res.locations[0].physicalLocation;
    // Inside the working directory: relative to %SRCROOT%; elsewhere an absolute file: URI.
    if (loc.artifactLocation.uriBaseId) assert.match(loc.artifactLocation.uri, /^(?!\/)(?![a-z]+:)/);
    else assert.match(loc.artifactLocation.uri, /^file:\/\/\//);
    if (loc.region) assert.ok(loc.region.startLine >= 1);
    assert.ok(res.message.text.length > 0);
  }
  assert.ok(run0.results.some((x) => x.level === 'error' && x.ruleId === 'inconsistent'));
});

test('harmful and obsolete settings: removed PostgreSQL parameter, deprecated Puma hook, pool below threads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-harm-'));
  try {
    mkdirSync(join(dir, 'app', 'config'), { recursive: true });
    mkdirSync(join(dir, 'etc', 'postgresql', '16', 'main'), { recursive: true });
    writeFileSync(join(dir, 'app', 'Gemfile.lock'), 'GEM\n  remote: https://rubygems.org/\n  specs:\n    pg (1.5.9)\n    puma (7.0.4)\n    rails (8.0.2)\n\nRUBY VERSION\n   ruby 3.3.6p108\n');
    writeFileSync(join(dir, 'app', 'Gemfile'), 'source "https://rubygems.org"\ngem "rails"\n');
    writeFileSync(join(dir, 'app', 'config', 'puma.rb'), 'threads 8, 8\nworkers 2\non_worker_boot do\n  ActiveRecord::Base.establish_connection\nend\n');
    writeFileSync(join(dir, 'app', 'config', 'database.yml'), 'production:\n  adapter: postgresql\n  database: shop\n  pool: 4\n');
    writeFileSync(join(dir, 'etc', 'postgresql', '16', 'main', 'postgresql.conf'), "max_connections = 10\nstats_temp_directory = '/var/run/postgresql/16-main.pg_stat_tmp'\n");
    const r = runCli(['--check', join(dir, 'app'), join(dir, 'etc'), '--format', 'json']);
    const report = JSON.parse(r.stdout);
    const list = report.findings.map((f) => `${f.severity} ${f.rule} ${f.setting}`);
    assert.ok(list.includes('error obsolete stats_temp_directory'), list.join('\n'));
    assert.ok(list.includes('note obsolete on_worker_boot'), list.join('\n'));
    assert.ok(list.includes('error pool-below-threads pool'), list.join('\n'));
    assert.ok(list.includes('error inconsistent max_connections'), list.join('\n'));
    const pool = report.findings.find((f) => f.rule === 'pool-below-threads');
    assert.equal(pool.line, 4);
    assert.equal(pool.related.length, 1);
    assert.match(pool.related[0].file, /app\/config\/puma\.rb$/);
    assert.equal(pool.related[0].line, 1);
    assert.equal(r.code, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
