// What a fourth blind trial of --check missed (issue 25, 2026-11-26), proven on the public apps' own files, copied
// into the corpus (tests/fixtures/real-apps, SOURCE.json: repository, commit, MIT licence): GoodJob's CLI as a
// process of its own against the pool (zealot), the production image's Ruby against .ruby-version/.tool-versions and
// the Gemfile (zealot 2024-04, fat_free_crm), `url:` from DATABASE_URL with no pool: under Solid Queue (apply for
// QTS), and a puma.rb judged on the Puma Gemfile.lock locks even in a development group (fat_free_crm 2017-12).
// Variations change one line of the real files in memory, to show what each judgement rests on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import '../../guide/engine/index.mjs';
import { ROOT } from './helpers.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';

const CORPUS = join(ROOT, 'tests', 'fixtures', 'real-apps');
const files = (name) => collect([join(CORPUS, name)], undefined, join(CORPUS, name));
const strong = (r) => r.findings.filter((f) => f.severity !== 'note').map((f) => `${f.severity} ${f.rule} ${f.file}:${f.line}`).sort();
/** The app's files with one file's text changed (a string replaced, which must be there). */
const edit = (fs, path, from, to) => fs.map((x) => {
  if (x.path !== path) return x;
  assert.ok(x.text.includes(from), `${path} holds ${JSON.stringify(from)}`);
  return { ...x, text: x.text.replace(from, to) };
});
const goodJob = (r) => r.findings.filter((f) => f.setting === 'good_job');

test('zealot: bin/good_job in the Procfile runs 5 threads + LISTEN/NOTIFY + cron = 8 connections on pool 5, a warning; GoodJob :async in the web process stays an error', () => {
  const r = check(files('zealot'));
  assert.deepEqual(strong(r), ['error pool-below-concurrency config/database.yml:7', 'warning pool-below-concurrency Procfile:2']);
  const [f] = goodJob(r);
  assert.deepEqual([f.severity, f.file, f.line, f.found, f.expected], ['warning', 'Procfile', 2, '5', '8']);
  assert.match(f.message, /`bin\/good_job 2>&1` runs GoodJob's CLI/);
  assert.match(f.message, /5 execution threads \(config\.good_job\.max_threads .* \(config\/initializers\/good_job\.rb:45\); cron enabled \(config\/initializers\/good_job\.rb:50\)\) \+ 1 for LISTEN\/NOTIFY \+ 2 for cron = 8 connections/);
  assert.match(f.message, /production's pool is 5 \(config\/database\.yml:7, pool: 5\)/);
  assert.match(f.message, /GoodJob counts 8 and warns at boot/);
  assert.deepEqual(f.related, [{ file: 'config/database.yml', line: 7 }, { file: 'config/initializers/good_job.rb', line: 45 }, { file: 'config/initializers/good_job.rb', line: 50 }]);
  assert.ok(f.evidence.some((e) => /good_job#database-connections/.test(e.url)) && f.evidence.some((e) => /configuration\.rb/.test(e.url)));
});

test('zealot variations: what the GoodJob process count rests on (threads alone above the pool, cron off, GoodJob’s max_threads order, another task, a larger pool)', () => {
  const fs = files('zealot');
  // --max-threads 10 on the command line wins over config.good_job.max_threads: the threads alone exceed the pool.
  const ten = goodJob(check(edit(fs, 'Procfile', 'worker: bin/good_job', 'worker: bin/good_job start --max-threads=10')));
  assert.deepEqual(ten.map((f) => [f.severity, f.expected]), [['error', '13']]);
  assert.match(ten[0].message, /10 execution threads \(--max-threads 10; cron enabled/);
  assert.match(ten[0].message, /execution threads alone exceed the pool/);
  // Without cron GoodJob counts 5 + 1; its notifier takes its connection out of the pool: a note only.
  const noCron = goodJob(check(edit(fs, 'config/initializers/good_job.rb', 'config.good_job.enable_cron = true', 'config.good_job.enable_cron = false')));
  assert.deepEqual(noCron.map((f) => [f.severity, f.expected]), [['note', '6']]);
  // config.good_job.max_threads comes before GOOD_JOB_MAX_THREADS (Configuration#max_threads): a prefix of 2 changes nothing …
  const prefixed = edit(fs, 'Procfile', 'worker: bin/good_job', 'worker: GOOD_JOB_MAX_THREADS=2 bin/good_job');
  assert.deepEqual(goodJob(check(prefixed)).map((f) => f.expected), ['8']);
  // … but without that line the variable is read: 2 + 1 + 2 = 5, within the pool.
  assert.deepEqual(goodJob(check(edit(prefixed, 'config/initializers/good_job.rb', "config.good_job.max_threads = (ENV['ZEALOT_WORKER_CONCURRENCY'] || '5').to_i", ''))), []);
  // Another task of the CLI runs no jobs.
  assert.deepEqual(goodJob(check(edit(fs, 'Procfile', 'worker: bin/good_job', 'worker: bin/good_job cleanup_preserved_jobs'))), []);
  // Two processes on one line: each is judged on its own threads.
  const two = goodJob(check(edit(fs, 'Procfile', 'worker: bin/good_job 2>&1 | tee -a log/worker.log', 'worker: bundle exec good_job --max-threads=2 & bundle exec good_job --queues="batch:9" & wait -n')));
  assert.deepEqual(two.map((f) => [f.severity, f.expected]), [['error', '12']]);
  // A pool of 8 is what GoodJob counts: nothing for the worker (the web process's :async error stays).
  const pool8 = check(edit(fs, 'config/database.yml', '  pool: 5', '  pool: 8'));
  assert.deepEqual(goodJob(pool8), []);
  assert.deepEqual(strong(pool8), ['error pool-below-concurrency config/database.yml:7']);
});

test('GoodJob :async without max_threads takes RAILS_MAX_THREADS when GOOD_JOB_MAX_THREADS is unset, as Configuration#max_threads does (zealot variation)', () => {
  const fs = edit(files('zealot'), 'config/initializers/good_job.rb', "config.good_job.max_threads = (ENV['ZEALOT_WORKER_CONCURRENCY'] || '5').to_i", '');
  const r = check([...fs, { path: '.env.production', text: 'RAILS_MAX_THREADS=2\n' }]);
  const web = r.findings.find((f) => f.rule === 'pool-below-concurrency' && f.file === 'config/database.yml');
  assert.match(web.message, /GoodJob in async mode \(2 execution threads \+ 3/);
  // The bin/good_job process reads it the same way: 2 + 1 + 2 = 5 on pool 5, nothing to say.
  assert.deepEqual(goodJob(r), []);
});

test('zealot 2024-04: the same GoodJob worker (:external), and the image on ruby:3.0-alpine while .tool-versions says 3.3.0', () => {
  const r = check(files('zealot-2024-04'));
  assert.deepEqual(strong(r), ['warning pool-below-concurrency Procfile:2', 'warning ruby-mismatch Dockerfile:61']);
  const f = r.findings.find((x) => x.rule === 'ruby-mismatch');
  assert.deepEqual([f.found, f.expected], ['3.0', '3.3.0']);
  assert.match(f.message, /the production image runs Ruby 3\.0 \(`FROM ruby:3\.0-alpine`, the newest 3\.0\.x when the image is built\), but \.tool-versions says 3\.3\.0 \(\.tool-versions:1\): production runs another minor version/);
  assert.deepEqual(f.related, [{ file: '.tool-versions', line: 1 }]);
});

test('the image’s Ruby: a floating tag of the same minor is fine, another patch a note, a Gemfile requirement no tag meets an error (zealot 2024-04 variations)', () => {
  const fs = files('zealot-2024-04');
  const ruby = (x) => check(x).findings.filter((f) => f.rule === 'ruby-mismatch').map((f) => `${f.severity} ${f.file}:${f.line}`);
  assert.deepEqual(ruby(edit(fs, '.tool-versions', 'ruby 3.3.0', 'ruby 3.0.6')), []);
  const pinned = edit(edit(fs, '.tool-versions', 'ruby 3.3.0', 'ruby 3.0.6'), 'Dockerfile', 'FROM ruby:3.0-alpine\n\nARG BUILD_DATE', 'FROM ruby:3.0.7-alpine\n\nARG BUILD_DATE');
  assert.deepEqual(ruby(pinned), ['note Dockerfile:61']);
  const gemfile = fs.map((x) => (x.path === 'Gemfile' ? { ...x, text: x.text.replace("source 'https://rubygems.org'", "source 'https://rubygems.org'\nruby '3.3.0'") } : x));
  const r = check(gemfile).findings.filter((f) => f.rule === 'ruby-mismatch' && f.file === 'Dockerfile');
  assert.deepEqual(r.map((f) => f.severity), ['error']);
  assert.match(r[0].message, /Gemfile:\d+ requires ruby "3\.3\.0"/);
  assert.match(r[0].message, /Bundler refuses/);
  // `ruby "~> 3.0.0"` admits some 3.0.x: nothing certain, and .tool-versions' 3.3.0 still makes it a warning.
  const tilde = check(fs.map((x) => (x.path === 'Gemfile' ? { ...x, text: `${x.text}\nruby '~> 3.0.0'\n` } : x))).findings.filter((f) => f.rule === 'ruby-mismatch' && f.file === 'Dockerfile');
  assert.deepEqual(tilde.map((f) => f.severity), ['warning']);
});

test('fat_free_crm: FROM ruby:3.3 while .ruby-version says 3.4.5, a warning on the FROM line', () => {
  const r = check(files('fat-free-crm'));
  assert.deepEqual(strong(r), ['warning ruby-mismatch Dockerfile:8']);
  assert.match(r.findings.find((f) => f.rule === 'ruby-mismatch').message, /Ruby 3\.3 \(`FROM ruby:3\.3`, the newest 3\.3\.x when the image is built\), but \.ruby-version says 3\.4\.5 \(\.ruby-version:1\)/);
  // Puma 7.1.0 is production's (group :heroku): the deprecation note names it as before.
  const ob = r.findings.find((f) => f.rule === 'obsolete' && f.setting === 'on_worker_boot');
  assert.match(ob.message, /Puma 7\.1\.0 still runs it/);
});

test('fat_free_crm 2017-12: puma.rb is judged on the locked Puma 3.11.0 of group :development, not an assumed Puma 8; the Procfile’s unicorn hint says puma is development-only', () => {
  const fs = files('fat-free-crm-2017-12');
  const r = check(fs);
  assert.deepEqual(strong(r), ['warning task-missing Procfile:1']);
  assert.deepEqual(r.findings.filter((f) => f.rule === 'obsolete'), [], 'on_worker_boot exists in Puma 3.11');
  assert.ok(!r.findings.some((f) => /assumed: the wizard's default/.test(f.message) && f.file === 'config/puma.rb' && f.rule === 'obsolete'));
  const t = r.findings.find((f) => f.rule === 'task-missing');
  assert.match(t.message, /`puma` is locked only for the Gemfile's development group \(Gemfile:\d+\): a production bundle installed without those groups has no puma either/);
  assert.doesNotMatch(t.message, /start that server instead/);
  // A Passenger image is read too, but the Gemfile's group :heroku (rails_12factor) shows Heroku runs this Procfile: a warning.
  assert.match(t.message, /the Gemfile prepares the bundle for Heroku/);
  const noHeroku = edit(fs, 'Gemfile', "group :heroku do\n  gem 'rails_12factor'\nend", '').map((x) => (x.path === 'Gemfile.lock' ? { ...x, text: x.text.replace(/^.*rails_12factor.*\n/gm, '') } : x));
  assert.equal(check(noHeroku).findings.find((f) => f.rule === 'task-missing').severity, 'note');
  // A hook Puma 3.11 lacks: said against the locked version, a note since this Puma is development's only.
  const renamed = check(edit(fs, 'config/puma.rb', 'on_worker_boot do', 'before_worker_boot do')).findings.filter((f) => f.rule === 'obsolete');
  assert.deepEqual(renamed.map((f) => `${f.severity} ${f.file}:${f.line}`), ['note config/puma.rb:25']);
  assert.match(renamed[0].message, /before_worker_boot does not exist before Puma 7\.0 \(Puma 3\.11\.0 \(Gemfile\.lock:233; only in the Gemfile's development group \(Gemfile:\d+\), so production's bundle has no Puma/);
});

test('apply for QTS: url: from DATABASE_URL with no pool: is Rails’ 5 unless the URL carries ?pool=: Solid Queue’s 5 threads + 2 above it are a note', () => {
  const fs = files('apply-for-qts');
  const r = check(fs);
  assert.deepEqual(strong(r), []);
  const sq = r.findings.filter((f) => f.rule === 'pool-below-concurrency');
  assert.deepEqual(sq.map((f) => `${f.severity} ${f.file}:${f.line} ${f.found}`), ['note config/queue.yml:7 5']);
  assert.match(sq[0].message, /needs 7 connections .* the queue database's pool is 5 \(no pool: beside url: from DATABASE_URL: Rails’ default, 5, unless DATABASE_URL carries \?pool=\): if DATABASE_URL has no \?pool=/);
  assert.deepEqual(sq[0].related, [{ file: 'config/database.yml', line: 4 }]);
  // A pool in the URL's default or a pool: key: nothing to say.
  const url = "url: <%= ENV.fetch('DATABASE_URL', 'postgres://postgres@localhost:5432') %>";
  assert.deepEqual(check(edit(fs, 'config/database.yml', url, "url: <%= ENV.fetch('DATABASE_URL', 'postgres://postgres@localhost:5432?pool=10') %>")).findings.filter((f) => f.rule === 'pool-below-concurrency'), []);
  assert.deepEqual(check(edit(fs, 'config/database.yml', url, `${url}\n  pool: 10`)).findings.filter((f) => f.rule === 'pool-below-concurrency'), []);
  // Puma's threads against the same url:-only pool: 10 threads on Rails' 5 is a note too, for the same reason.
  const puma10 = check(edit(fs, 'config/puma.rb', 'ENV.fetch("RAILS_MAX_THREADS", 5)', 'ENV.fetch("RAILS_MAX_THREADS", 10)')).findings.filter((f) => f.rule === 'pool-below-threads');
  assert.deepEqual(puma10.map((f) => `${f.severity} ${f.file}:${f.line} ${f.found} ${f.expected}`), ['note config/database.yml:4 5 10']);
  assert.match(puma10[0].message, /under load \(if DATABASE_URL has no \?pool=\) threads wait/);
  // The image's ruby:3.4.8 agrees with .ruby-version, .tool-versions and ruby "3.4.8".
  assert.ok(!r.findings.some((f) => f.rule === 'ruby-mismatch'));
});

test('bounded: a 1 MB Procfile line of `good_job &` segments and a 200 KB FROM line are read in linear time, with one finding per line', () => {
  const yml = 'production:\n  adapter: postgresql\n  pool: 2\n';
  const procfile = `worker: ${'bundle exec good_job --max-threads=5 & '.repeat(25000)}\n`;
  let t = Date.now();
  const r = check([{ path: 'Procfile', text: procfile }, { path: 'config/database.yml', text: yml }]);
  assert.ok(Date.now() - t < 20000, `${Date.now() - t} ms`);
  assert.deepEqual(goodJob(r).map((f) => `${f.severity} ${f.file}:${f.line} ${f.expected}`), ['error Procfile:1 6']);
  t = Date.now();
  const d = check([{ path: 'Dockerfile', text: `ARG RUBY_VERSION=3.3\nFROM ruby:\${RUBY_VERSION${'$'.repeat(200000)}\n` }, { path: '.ruby-version', text: '3.4.1\n' }]);
  assert.ok(Date.now() - t < 20000, `${Date.now() - t} ms`);
  assert.deepEqual(d.findings.filter((f) => f.rule === 'ruby-mismatch'), []);
});
