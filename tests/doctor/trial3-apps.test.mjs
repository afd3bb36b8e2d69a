// False and missed findings a third blind trial of --check found (issue 25, 2026-11-26), each proven on the lines of
// the app's own files: MIT/BSD apps are copied under tests/fixtures/trial-apps/ (SOURCE.json: repository, commit,
// licence); apps under a copyleft licence or none stated are reproduced inline in the shape of their lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import '../../guide/engine/index.mjs';
import { ROOT } from './helpers.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';
import { reportText } from '../../guide/check/report-text.mjs';
import { readYaml } from '../../guide/check/read-yaml.mjs';

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

test('no config/puma.rb, Procfile `puma -p $PORT`, Puma 3.6: Puma’s default 16 threads on Rails’ implicit pool of 5, an error (adopt-a-hydrant 2016-10)', () => {
  const r = real('adopt-a-hydrant-2016-10');
  assert.deepEqual(strong(r), ['error pool-below-threads config/database.yml:3']);
  const f = r.findings.find((x) => x.rule === 'pool-below-threads');
  assert.deepEqual([f.found, f.expected], ['5', '16']);
  assert.match(f.message, /Puma runs 16 threads per process \(Puma 3\.6\.0's default: no Puma config, Procfile:1\)/);
  // The same app on Puma 5 and later: the default is 5 threads on MRI, equal to the pool: nothing.
  const files = collect([join(TRIAL, 'adopt-a-hydrant-2016-10')], undefined, join(TRIAL, 'adopt-a-hydrant-2016-10'));
  const bump = (v) => files.map((x) => (x.path === 'Gemfile.lock' ? { ...x, text: x.text.replace('    puma (3.6.0)', `    puma (${v})`) } : x));
  for (const v of ['5.6.9', '6.6.1', '7.2.0', '8.0.2']) assert.deepEqual(strong(check(bump(v))), [], v);
  // The app's 2013 snapshots ran Rails 3.2, whose Rack::Lock serves one request at a time per process: not judged.
  assert.deepEqual(strong(check(files.map((x) => (x.path === 'Gemfile.lock' ? { ...x, text: x.text.replace('    rails (4.2.7.1)', '    rails (3.2.12)') } : x)))), []);
  // Puma ≥ 5 reads MAX_THREADS for its default: 10 set for the web process is above the pool.
  const env = check(bump('6.6.1').map((x) => (x.path === 'Procfile' ? { ...x, text: 'web: MAX_THREADS=10 bundle exec puma -p $PORT\n' } : x)));
  assert.deepEqual(env.findings.filter((x) => x.rule === 'pool-below-threads').map((x) => x.expected), ['10']);
});

test('a puma.rb without a threads line (Puma 4: 16), `puma -t 5:10` in a Procfile: the threads Puma runs, against the pool (trial 3 R1b, R1c)', () => {
  const db = 'production:\n  adapter: postgresql\n  database: app\n';
  const r1b = check(app({ 'config/puma.rb': 'port ENV.fetch("PORT") { 3000 }\nworkers 2\npreload_app!\n', 'config/database.yml': db, 'Gemfile.lock': lock([['pg', '1.2.3'], ['puma', '4.3.12'], ['rails', '6.1.7']]) }));
  assert.deepEqual(strong(r1b), ['error pool-below-threads config/database.yml:3']);
  assert.match(r1b.findings[0].message, /Puma 4\.3\.12's default: config\/puma\.rb has no threads line/);
  // The defaults table is MRI's: on JRuby nothing is claimed.
  const r1bFiles = app({ 'config/puma.rb': 'workers 2\n', 'config/database.yml': db, 'Gemfile.lock': lock([['pg', '1.2.3'], ['puma', '4.3.12'], ['rails', '6.1.7']]) });
  assert.deepEqual(strong(check(r1bFiles)), ['error pool-below-threads config/database.yml:3']);
  assert.deepEqual(strong(check(r1bFiles, { answers: { ruby: 'jruby' } })), []);
  const gems = lock([['pg', '1.5.4'], ['puma', '6.4.2'], ['rails', '7.1.3']]);
  const r1c = check(app({ Procfile: 'web: bundle exec puma -t 5:10 -p $PORT\n', 'config/database.yml': `${db}  pool: 5\n`, 'Gemfile.lock': gems }));
  assert.deepEqual(strong(r1c), ['error pool-below-threads config/database.yml:4']);
  assert.match(r1c.findings.find((x) => x.rule === 'pool-below-threads').message, /Puma runs 10 threads per process \(-t 5:10 on the command line, Procfile:1\)/);
  // -t wins over the config file's threads line: threads 10, 10 in puma.rb with `-t 5:5` runs 5 (pool 5: nothing), and the other way round 10.
  assert.deepEqual(strong(check(app({ Procfile: 'web: bundle exec puma -C config/puma.rb -t 5:5\n', 'config/puma.rb': 'threads 10, 10\n', 'config/database.yml': `${db}  pool: 5\n`, 'Gemfile.lock': gems }))), []);
  assert.deepEqual(check(app({ Procfile: 'web: bundle exec puma -C config/puma.rb -t 10\n', 'config/puma.rb': 'threads 5, 5\n', 'config/database.yml': `${db}  pool: 5\n`, 'Gemfile.lock': gems }))
    .findings.filter((x) => x.severity === 'error').map((x) => x.expected), ['10']);
  // --threads N means N:N; a pool at or above it, a config that hands itself to a library, or an unknown -C file: nothing.
  assert.deepEqual(strong(check(app({ Procfile: 'web: bundle exec puma --threads 5 -p $PORT\n', 'config/database.yml': `${db}  pool: 5\n`, 'Gemfile.lock': gems }))), []);
  assert.deepEqual(strong(check(app({ 'config/puma.rb': 'require "govuk_app_config/govuk_puma"\nGovukPuma.configure_rails(self)\n', 'config/database.yml': `${db}  pool: 2\n`, 'Gemfile.lock': gems }))), []);
  assert.deepEqual(strong(check(app({ Procfile: 'web: bundle exec puma -C /etc/puma.rb\n', 'config/database.yml': `${db}  pool: 2\n`, 'Gemfile.lock': gems }))), []);
});

// codidact/qpixel 604edb32dd27d0024a64e5ecb90c7b0d23d33459 (AGPL-3.0) config/environments/production.rb line 106 and
// medusa-project/ideals d1a7b0a61d1dfb28290480c9f1421f8290653b46 (no licence stated) line 66, reproduced in shape: an
// unconditional `config.active_job.queue_adapter = :async` near the end of the production block.
const PROD = (body) => `Rails.application.configure do\n  config.eager_load = true\n  config.active_record.dump_schema_after_migration = false\n\n${body}end\n`;
const ASYNC_APP = (body) => app({ 'config/environments/production.rb': PROD(body), 'config/puma.rb': 'threads 5, 5\n', 'config/database.yml': 'production:\n  adapter: mysql2\n  database: app\n', 'Gemfile.lock': lock([['mysql2', '0.5.6'], ['puma', '5.6.9'], ['rails', '7.2.2']]) });

test('queue_adapter = :async in production.rb: a warning, with the Rails API’s words (qpixel 2025-10, ideals 2023-10)', () => {
  const r = check(ASYNC_APP('  config.active_job.queue_adapter = :async\n'));
  assert.deepEqual(strong(r), ['warning jobs-lost config/environments/production.rb:5']);
  const f = r.findings.find((x) => x.rule === 'jobs-lost');
  assert.match(f.message, /every restart or deploy drops those not yet run/);
  assert.ok(f.evidence.some((e) => e.url === 'https://api.rubyonrails.org/classes/ActiveJob/QueueAdapters/AsyncAdapter.html' && /poor fit for production since it drops pending jobs on restart/.test(e.label)));
  // Commented out, another adapter, a development-only branch or a later line that replaces it: nothing.
  for (const body of ['  # config.active_job.queue_adapter = :async\n', '  config.active_job.queue_adapter = :sidekiq\n',
    '  if Rails.env.development?\n    config.active_job.queue_adapter = :async\n  end\n', '  config.active_job.queue_adapter = :async\n  config.active_job.queue_adapter = :good_job\n']) {
    assert.deepEqual(check(ASYNC_APP(body)).findings.filter((x) => x.rule === 'jobs-lost'), [], body);
  }
});

test('Sidekiq 7 capsules: their concurrency is counted with the top level, 32 + 2 = 34 threads (email-alert-api 2026-07)', () => {
  const files = collect([join(TRIAL, 'email-alert-api-2026-07')], undefined, join(TRIAL, 'email-alert-api-2026-07'));
  // pool: 50 covers 34: nothing.
  assert.deepEqual(strong(check(files)), []);
  // The same files with pool: 33: one thread short, an error that names the capsule.
  const r = check(files.map((x) => (x.path === 'config/database.yml' ? { ...x, text: x.text.replace('pool: 50', 'pool: 33') } : x)));
  assert.deepEqual(strong(r), ['error pool-below-concurrency config/sidekiq.yml:3']);
  const f = r.findings.find((x) => x.rule === 'pool-below-concurrency');
  assert.deepEqual([f.found, f.expected], ['34', '33']);
  assert.match(f.message, /Sidekiq runs 34 threads \(32 \+ 2 in 1 capsule \(config\/sidekiq\.yml:21\)\)/);
});

test('`sidekiq -C config/workers/default.yml` in the Procfile: that file is read as Sidekiq’s config, per line (manyfold shape, trial 3 R8)', () => {
  // manyfold3d/manyfold b14858c880c5b913ec15dcb0a9a2930441adab77 (AGPL-3.0), Procfile lines reproduced:
  // `default_worker: bundle exec sidekiq -C config/workers/default.yml`, `performance_worker: … -C config/workers/performance.yml`.
  const dir = mkdtempSync(join(tmpdir(), 'trial3-sidekiq-c-'));
  try {
    const put = (p, t) => { mkdirSync(join(dir, dirname(p)), { recursive: true }); writeFileSync(join(dir, p), t); };
    put('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "sidekiq"\n');
    put('Gemfile.lock', lock([['pg', '1.6.3'], ['puma', '8.0.2'], ['rails', '8.0.5'], ['sidekiq', '8.1.7']]));
    put('Procfile', 'rails: bundle exec rails server -p $PORT -b [::]\ndefault_worker: bundle exec sidekiq -C config/workers/default.yml\nperformance_worker: bundle exec sidekiq -C config/workers/performance.yml\n');
    put('config/puma.rb', 'threads 3, 3\n');
    put('config/database.yml', 'production:\n  adapter: postgresql\n  pool: 5\n');
    put('config/workers/default.yml', ':concurrency: 4\n:queues:\n  - default\n');
    put('config/workers/performance.yml', ':concurrency: 20\n:queues:\n  - performance\n');
    // config/sidekiq.yml is not what these processes read: its 50 must not count.
    put('config/sidekiq.yml', ':concurrency: 50\n');
    const inputs = collect([dir], undefined, dir);
    assert.equal(inputs.find((x) => x.path === 'config/workers/performance.yml')?.kind, 'sidekiq-yml');
    const r = check(inputs);
    assert.deepEqual(strong(r), ['error pool-below-concurrency config/workers/performance.yml:1']);
    assert.deepEqual(r.findings.filter((x) => x.rule === 'pool-below-concurrency').map((x) => x.found), ['20']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Sidekiq `:timeout: 120` on Heroku (a Procfile release: phase, 30 s to SIGKILL): a warning, jobs in flight are lost (hound 2023-06)', () => {
  const r = real('hound-2023-06');
  assert.deepEqual(strong(r), ['warning env-compare config/database.yml:13', 'warning jobs-lost config/sidekiq.yml:1']);
  const f = r.findings.find((x) => x.rule === 'jobs-lost');
  assert.deepEqual([f.found, f.expected], ['120', '25']);
  assert.match(f.message, /Heroku \(the Procfile has a release: phase, line 4\) kills the process 30 s after TERM/);
  // Without the release: line nothing proves Heroku: nothing is claimed.
  const files = collect([join(TRIAL, 'hound-2023-06')], undefined, join(TRIAL, 'hound-2023-06'));
  const noRelease = files.map((x) => (x.path === 'Procfile' ? { ...x, text: x.text.replace(/^release:.*$/m, '') } : x));
  assert.deepEqual(check(noRelease).findings.filter((x) => x.rule === 'jobs-lost'), []);
});

test('Sidekiq timeout against a systemd unit’s TimeoutStopSec (90 s by default); -t on ExecStart wins over sidekiq.yml', () => {
  const unit = (extra) => `[Unit]\nDescription=sidekiq\n\n[Service]\nExecStart=/usr/bin/bundle exec sidekiq -e production\n${extra}Restart=always\n`;
  const base = { 'config/sidekiq.yml': ':concurrency: 5\n:timeout: 60\n', 'Gemfile.lock': lock([['rails', '7.1.3'], ['sidekiq', '7.3.9']]) };
  const lost = (files) => check(app(files)).findings.filter((x) => x.rule === 'jobs-lost').map((x) => `${x.severity} ${x.file}:${x.line} ${x.found}`);
  assert.deepEqual(lost({ ...base, 'etc/systemd/system/sidekiq.service': unit('TimeoutStopSec=30s\n') }), ['warning config/sidekiq.yml:2 60']);
  assert.deepEqual(lost({ ...base, 'etc/systemd/system/sidekiq.service': unit('') }), []);
  // hound's 2019 form, `:timeout: <%= ENV.fetch("JOB_TIMEOUT", 120).to_i %>`: its default, and the message says so.
  const envForm = check(app({ ...base, 'config/sidekiq.yml': ':timeout: <%= ENV.fetch("JOB_TIMEOUT", 120).to_i %>\n', 'etc/systemd/system/sidekiq.service': unit('TimeoutStopSec=30s\n') }));
  assert.match(envForm.findings.find((x) => x.rule === 'jobs-lost')?.message ?? '', /up to 120 s for running jobs after TERM \(the default of JOB_TIMEOUT, which nothing in these files sets\)/);
  assert.deepEqual(lost({ ...base, 'etc/systemd/system/sidekiq.service': unit('TimeoutStopSec=infinity\n') }), []);
  assert.deepEqual(lost({ ...base, 'etc/systemd/system/sidekiq.service': unit('TimeoutStopSec=1min\n').replace('-e production', '-e production -t 25') }), []);
  // Sidekiq Pro (super_fetch recovers jobs): not judged.
  assert.deepEqual(lost({ ...base, 'Gemfile.lock': lock([['rails', '7.1.3'], ['sidekiq', '7.3.9'], ['sidekiq-pro', '7.3.0']]), 'etc/systemd/system/sidekiq.service': unit('TimeoutStopSec=30s\n') }), []);
});

test('`plugin \'tmp_restart\'` is `plugin :tmp_restart` (Puma loads plugins by name.to_s): no difference reported (osem 2026-06)', () => {
  const r = real('osem-2026-06');
  assert.deepEqual(r.findings.filter((x) => x.setting === 'plugin'), []);
  assert.ok(r.facts.some((x) => /plugin/.test(x.label ?? x.key ?? JSON.stringify(x))), 'the plugin line was read');
});

test('"cannot read" notes only where production reads the line; the summary counts the note lines it prints', () => {
  const db = 'default: &default\n  adapter: postgresql\n  pool: <%= [ENV.fetch("MAX_THREADS", 5), ENV.fetch("DB_POOL", 5)].max %>\n\ndevelopment:\n  <<: *default\n  host: <%= dev_host_for(Dir.pwd) %>\n\ntest:\n  <<: *default\n  database: app_test<%= ENV["TEST_ENV_NUMBER"].presence && "_" + ENV["TEST_ENV_NUMBER"] %>\n\nproduction:\n  <<: *default\n  username: <%= creds.user %>\n';
  const r = check(app({ 'config/database.yml': db }));
  // Line 15 is production's own; 7 and 11 are development's and test's. Line 3 (hound's pool line, in shape, in the
  // anchor production merges) is read now: the defaults' max, with the env-compare warning (next test).
  assert.deepEqual(r.files[0].notes.map((n) => n.line), [15]);
  const text = reportText(r);
  const printed = text.split('\n').filter((l) => l.startsWith('note: ')).length;
  assert.equal(printed, 1);
  assert.match(text, /; 0 unreadable input\(s\), 1 reading note\(s\)\.\n$/);
});

// hound's production pool, `[ENV.fetch("MAX_THREADS", 5), ENV.fetch("DB_POOL", 5)].max` (judged by the third trial: a
// warning that depends on ENV, missed as "cannot read"): ENV values are Strings, so with one variable set Ruby's
// Array#max raises ArgumentError while Rails loads database.yml, and with both set they compare as text. Read as the
// defaults' max (5) with a warning; `.to_i` on every element, or no ENV in the list, is not judged.
test('`[ENV.fetch(A, 5), ENV.fetch(B, 5)].max` in database.yml: a warning (Strings once set), the pool read as 5 (hound 2023-06)', () => {
  const r = real('hound-2023-06');
  const f = r.findings.filter((x) => x.rule === 'env-compare');
  assert.deepEqual(f.map((x) => `${x.severity} ${x.file}:${x.line} ${x.setting}`), ['warning config/database.yml:13 pool']);
  assert.match(f[0].message, /with one of them set Ruby raises ArgumentError \(comparison of String with Integer failed\)/);
  assert.match(f[0].message, /ENV\.fetch\("MAX_THREADS", …\)\.to_i, ENV\.fetch\("DB_POOL", …\)\.to_i$/);
  const pool = readYaml(readFileSync(join(TRIAL, 'hound-2023-06', 'config', 'database.yml'), 'utf8')).settings.find((x) => x.name === 'production.pool');
  assert.deepEqual([pool.value, pool.known, pool.compare.raw], [5, true, ['MAX_THREADS', 'DB_POOL']], 'the pool is read as the defaults\' max');
  const db = (pool) => `production:\n  adapter: postgresql\n  pool: ${pool}\n`;
  const cmp = (pool) => check(app({ 'config/database.yml': db(pool) })).findings.filter((x) => x.rule === 'env-compare').length;
  assert.equal(cmp('<%= [ENV.fetch("MAX_THREADS", 5).to_i, ENV.fetch("DB_POOL", 5).to_i].max %>'), 0);
  assert.equal(cmp('<%= [ENV.fetch("RAILS_MAX_THREADS") { 5 }, 10].max %>'), 1);
  assert.equal(cmp('<%= [3, 10].max %>'), 0);
  // Development's pool line with the same shape is not production's: not judged.
  assert.equal(check(app({ 'config/database.yml': `development:\n  pool: <%= [ENV.fetch("A", 5), 2].max %>\nproduction:\n  adapter: postgresql\n` })).findings.filter((x) => x.rule === 'env-compare').length, 0);
});

// email-alert-api 2023-04 (judged by the third trial: a warning, missed): the Procfile's web line still ran
// `bundle exec unicorn` after the Gemfile had moved to Puma (the Dockerfile runs puma). Bundler would refuse the
// command, so that process never serves. The Dockerfile's `CMD ["puma"]` (Puma in the lockfile) is not judged.
test('Procfile `web: bundle exec unicorn` with no unicorn in Gemfile.lock: a warning naming the server the lockfile has (email-alert-api 2023-04)', () => {
  const r = real('email-alert-api-2023-04');
  const f = r.findings.filter((x) => x.rule === 'task-missing');
  // Its Dockerfile runs Puma, so the Procfile may be a leftover: a note; on a platform that runs the Procfile, a warning.
  assert.deepEqual(f.map((x) => `${x.severity} ${x.file}:${x.line} ${x.found}`), ['note Procfile:1 bundle exec unicorn']);
  assert.match(f[0].message, /if production runs that image this line is only stale$/);
  assert.match(f[0].message, /bundler: command not found: unicorn\) and serves no request \(Gemfile\.lock has `puma`: start that server instead/);
  // With the gem in the lockfile, or without `bundle exec` (an image's own gem), nothing is said.
  const files = collect([join(TRIAL, 'email-alert-api-2023-04')], undefined, join(TRIAL, 'email-alert-api-2023-04'));
  const procfile = (text) => files.map((x) => (x.path === 'Procfile' ? { ...x, text } : x));
  assert.deepEqual(check(procfile('web: bundle exec puma -C config/puma.rb\n')).findings.filter((x) => x.rule === 'task-missing'), []);
  const noImage = files.filter((x) => x.path !== 'Dockerfile');
  assert.deepEqual(check(noImage).findings.filter((x) => x.rule === 'task-missing').map((x) => x.severity), ['warning']);
  assert.deepEqual(check(procfile('web: unicorn -c config/unicorn.rb\n')).findings.filter((x) => x.rule === 'task-missing'), []);
});
