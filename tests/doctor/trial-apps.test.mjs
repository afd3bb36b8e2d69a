// Defects a blind trial of --check on 11 public apps outside the corpus found (issue 25, 2026-11-26), each
// proven on the app's own files (tests/fixtures/trial-apps/APP, repository, commit and licence in SOURCE.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, mkdtempSync, mkdirSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { reportText } from '../../guide/check/report-text.mjs';
import { reportSarif } from '../../guide/check/report-sarif.mjs';
import { join } from 'node:path';
import '../../guide/engine/index.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';
import { readFile } from '../../guide/check/read.mjs';
import { envOf } from '../../guide/check/crossfile.mjs';
import { sidekiqConcurrency } from '../../guide/check/jobs.mjs';
import { ROOT } from './helpers.mjs';
import { invalidYamlSuggestions } from './yaml-suggestions.mjs';
import { singleMode, reachedByTcp } from '../../guide/check/absent.mjs';

const TRIAL = join(ROOT, 'tests', 'fixtures', 'trial-apps');
// One folder per app (the folder's README.md says what they are and under which licences).
const apps = readdirSync(TRIAL, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
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

test('a wrapper adapter names its driver: mysql2_makara is MySQL, with no adapter note (gumroad’s database.yml line)', () => {
  // gumroad (antiwork/gumroad 8c16285e2baf, Gumroad Community License: not copied here) writes
  // `adapter: mysql2_makara` with mysql2 and makara in Gemfile.lock; these two lines are that shape.
  const r = check([{ path: 'config/database.yml', text: 'production:\n  adapter: mysql2_makara\n  database: app\n  pool: 5\n' },
    { path: 'Gemfile.lock', text: 'GEM\n  remote: https://rubygems.org/\n  specs:\n    makara (0.6.0.pre)\n    mysql2 (0.5.6)\n    rails (8.0.2)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  makara\n  mysql2\n  rails\n' }]);
  assert.equal(r.detected.database.value, 'mysql');
  assert.equal(r.detected.adapter.value, 'mysql2');
  assert.deepEqual(r.findings.filter((f) => f.setting === 'adapter').map((f) => f.message), []);
});

test('Ruby: =begin … =end is a comment, also on the first line; the last unconditional threads/workers is in effect', () => {
  const threads = (text) => readFile({ path: 'config/puma.rb', text }).settings.filter((s) => ['threads', 'workers'].includes(s.name)).map((s) => `${s.name} ${s.value} @${s.line}`);
  assert.deepEqual(threads('=begin\nthreads 50, 50\n=end\nthreads 3, 3\n'), ['threads 3, 3 @4']);
  assert.deepEqual(threads('threads 1, 1\n=begin\nworkers 9\n=end\nthreads 3, 3\nworkers 2\nworkers 4\n'), ['threads 3, 3 @5', 'workers 4 @7']);
  assert.deepEqual(threads('threads 3, 3\nthreads 50, 50\n'), ['threads 50, 50 @2']);
  // A later branch does not replace an earlier unconditional call: both may be in effect.
  assert.deepEqual(threads('threads 3, 3\nif ENV["BIG"]\n  threads 50, 50\nend\n'), ['threads 3, 3 @1', 'threads 50, 50 @3']);
  const r = check([{ path: 'config/puma.rb', text: 'threads 3, 3\nthreads 50, 50\n' }, { path: 'config/database.yml', text: 'production:\n  adapter: postgresql\n  pool: 5\n' }]);
  assert.match(r.findings.find((f) => f.rule === 'pool-below-threads').message, /Puma runs 50 threads/);
});

test('a server gem only in development/test groups is not the production server, even with its config file (openstreetmap-website’s shape)', () => {
  // openstreetmap-website 9da0fa5ecbff (GPL-2.0, not copied): gem "puma" in `group :test`, config/puma.rb for development.
  const r = check([{ path: 'Gemfile', text: 'source "https://rubygems.org"\ngem "rails"\ngroup :test do\n  gem "puma"\nend\n' },
    { path: 'config/puma.rb', text: 'threads 3, 3\nport ENV.fetch("PORT", 3000)\n' }]);
  assert.equal(r.detected.server, undefined);
  assert.ok(r.facts.some((f) => /puma only in Gemfile development\/test groups/.test(f.name) && f.file === 'Gemfile' && f.line === 4), JSON.stringify(r.facts));
  // In the default group, the same files name Puma.
  assert.equal(check([{ path: 'Gemfile', text: 'gem "rails"\ngem "puma"\n' }, { path: 'config/puma.rb', text: 'threads 3, 3\n' }]).detected.server.value, 'puma');
});

test('single mode gets no fork hooks suggested (maybe-finance’s `workers workers_count if workers_count > 1` with a default of 1)', () => {
  const puma = (text) => readFile({ path: 'config/puma.rb', text });
  const maybeShape = 'threads 3, 3\nif ENV["RAILS_ENV"] == "production"\n  workers_count = Integer(ENV.fetch("WEB_CONCURRENCY") { 1 })\n  workers workers_count if workers_count > 1\n  preload_app!\nend\n';
  assert.equal(singleMode(puma(maybeShape), new Map()), true);
  assert.equal(singleMode(puma('threads 3, 3\n'), new Map()), true);
  assert.equal(singleMode(puma('threads 3, 3\n'), new Map([['WEB_CONCURRENCY', { value: '4' }]])), false);
  assert.equal(singleMode(puma('workers ENV.fetch("WEB_CONCURRENCY", 2)\n'), new Map()), false);
  assert.equal(singleMode(puma('workers Etc.nprocessors\n'), new Map()), false);
  const r = check([{ path: 'config/puma.rb', text: maybeShape }, { path: 'Gemfile.lock', text: 'GEM\n  remote: https://rubygems.org/\n  specs:\n    puma (7.1.0)\n    rails (8.0.2)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  puma\n  rails\n' }]);
  assert.deepEqual(r.findings.filter((f) => /before_fork|worker_boot/.test(f.setting)).map((f) => f.message), []);
});

test('no Unix socket suggested where the app is reached over TCP: Procfile web on $PORT (hcb), Thruster CMD, Kamal', () => {
  const procfile = readFile({ path: 'Procfile', text: readFileSync(join(TRIAL, 'hcb', 'Procfile'), 'utf8') });
  assert.equal(reachedByTcp([procfile]), true);
  const thrust = readFile({ path: 'Dockerfile', text: 'FROM ruby:3.4-slim\nCMD ["./bin/thrust", "./bin/rails", "server"]\n' });
  assert.equal(reachedByTcp([thrust]), true);
  assert.equal(reachedByTcp([readFile({ path: 'config/deploy.yml', text: 'service: app\nimage: app\n' })]), true);
  // A build stage's CMD is not what the container runs; a systemd-style Procfile without $PORT says nothing.
  assert.equal(reachedByTcp([readFile({ path: 'Dockerfile', text: 'FROM ruby AS build\nCMD ["puma"]\nFROM debian\nCMD ["/entrypoint.sh"]\n' })]), false);
  assert.equal(reachedByTcp([readFile({ path: 'Procfile', text: 'web: bundle exec puma -C config/puma.rb\n' })]), false);
  const files = [{ path: 'Procfile', text: readFileSync(join(TRIAL, 'hcb', 'Procfile'), 'utf8') }, { path: 'config/puma.rb', text: 'threads 3, 3\nport ENV.fetch("PORT", 3000)\n' },
    { path: 'Gemfile.lock', text: 'GEM\n  remote: https://rubygems.org/\n  specs:\n    puma (7.1.0)\n    rails (8.0.2)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  puma\n  rails\n' }];
  assert.deepEqual(check(files).findings.filter((f) => f.setting === 'bind').map((f) => f.message), []);
  assert.equal(check(files.slice(1)).findings.filter((f) => f.setting === 'bind').length, 1, 'without the Procfile the note stays');
});

test('minor: @options[:pidfile] = false is deliberate; a refused database.yml is "refused", not "no such file given"; a link loop says loop', () => {
  const lock = { path: 'Gemfile.lock', text: 'GEM\n  remote: https://rubygems.org/\n  specs:\n    puma (7.1.0)\n    rails (8.0.2)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  puma\n  rails\n' };
  // docuseal's config/puma.rb lines 28-29.
  const pid = check([lock, { path: 'config/puma.rb', text: '# Specifies the `pidfile` that Puma will use.\n@options[:pidfile] = false\nthreads 3, 3\n' }]);
  assert.deepEqual(pid.findings.filter((f) => f.setting === 'pidfile').map((f) => f.message), []);
  const refused = check([lock, { path: 'config/database.yml', text: 'production:\n  database: <%= `hostname` %>\n' }]);
  assert.equal(refused.problems[0].code, 'erb-command');
  assert.deepEqual(refused.notCompared.filter((n) => n.generated === 'config/database.yml').map((n) => n.refused), ['config/database.yml']);
  const dir = mkdtempSync(join(tmpdir(), 'doctor-loop-'));
  try {
    mkdirSync(join(dir, 'config'));
    symlinkSync('db2.yml', join(dir, 'config', 'database.yml'));
    symlinkSync('database.yml', join(dir, 'config', 'db2.yml'));
    const got = collect([dir], undefined, dir).filter((f) => f.problem).map((f) => f.problem.message);
    assert.ok(got.length >= 1 && got.every((m) => /symbolic link loop/.test(m)), got.join('\n'));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('SARIF regions and the text report give "missing" results the same line', () => {
  const r = check([{ path: 'config/puma.rb', text: 'threads 3, 3\n\nworkers 2\npreload_app!\n' }, { path: 'config/database.yml', text: 'production:\n  adapter: postgresql\n  database: app\n' }]);
  const missing = r.findings.filter((f) => f.rule === 'missing');
  assert.ok(missing.length > 0);
  const text = reportText(r).split('\n');
  const sarif = JSON.parse(reportSarif(r)).runs[0].results.filter((x) => x.ruleId === 'missing');
  missing.forEach((f, k) => {
    const line = text.find((l) => l.startsWith(`${f.file}:`) && l.includes(`[missing] ${f.setting}:`));
    assert.ok(line, `${f.setting} in the text report`);
    assert.equal(Number(line.split(':')[1]), sarif[k].locations[0].physicalLocation.region.startLine, line);
  });
});

test('GoodJob async from the Procfile web line’s prefix and its initializer: threads + 3 next to Puma’s', () => {
  const lock = { path: 'Gemfile.lock', text: 'GEM\n  remote: https://rubygems.org/\n  specs:\n    good_job (4.9.0)\n    pg (1.5.9)\n    puma (7.1.0)\n    rails (8.0.2)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  good_job\n  pg\n  puma\n  rails\n' };
  const base = [lock, { path: 'config/puma.rb', text: 'threads 3, 3\n' }, { path: 'config/database.yml', text: 'production:\n  adapter: postgresql\n  database: app\n  pool: 10\n' },
    { path: 'config/initializers/good_job.rb', text: 'Rails.application.configure do\n  config.good_job.queues = "latency_low:3;latency_medium:4;*"\nend\n' }];
  const r = check([...base, { path: 'Procfile', text: 'web: GOOD_JOB_EXECUTION_MODE=async GOOD_JOB_MAX_THREADS=1 bundle exec puma -C config/puma.rb\n' }]);
  const f = r.findings.find((x) => x.rule === 'pool-below-concurrency');
  assert.equal(f?.severity, 'error', JSON.stringify(r.findings.map((x) => x.rule)));
  assert.match(f.message, /\(8 execution threads \+ 3 .*next to 3 Puma threads.*need 14 connections/);
  // External mode (GoodJob's production default): no job threads in the web process.
  assert.equal(check(base).findings.find((x) => x.rule === 'pool-below-concurrency'), undefined);
});
