// Misses of the second blind trial of --check in what the deployment runs (issue 25, 2026-11-26): a production
// Dockerfile that runs Rails in development, a job process whose task no gem provides, the Ruby-mismatch text,
// versions assumed without Gemfile.lock, and the Compose file and config/application.rb. Each proven on real
// lines: trial fixtures (tests/fixtures/trial-apps, SOURCE.json) and corpus apps (tests/fixtures/real-apps), or
// lines reproduced inline with repository and commit where the repository states no licence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, mkdirSync, writeFileSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../../guide/engine/index.mjs';
import { ROOT } from './helpers.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';
import { readFile } from '../../guide/check/read.mjs';
import { classify } from '../../guide/check/classify.mjs';
import { envOf } from '../../guide/check/crossfile.mjs';
import { serverConfigPaths, resolveCompose } from '../../guide/check/read-deploy.mjs';
import { satisfies } from '../../guide/check/read-gems.mjs';
import { LIMITS } from '../../guide/check/limits.mjs';

const TRIAL = join(ROOT, 'tests', 'fixtures', 'trial-apps');
const CORPUS = join(ROOT, 'tests', 'fixtures', 'real-apps');
const text = (dir, p) => readFileSync(join(dir, p), 'utf8');
const run = (dir) => check(collect([dir], undefined, dir));
const strong = (r) => r.findings.filter((f) => f.severity !== 'note').map((f) => `${f.severity} ${f.rule} ${f.file}:${f.line}`);
const files = (o) => Object.entries(o).map(([path, t]) => ({ path, text: t }));

// alphagov/publishing-api 9e923d71 (2020-10-08, MIT): Dockerfile line 11 `ENV RAILS_ENV development`, one stage;
// the maintainers' 95fedafdb (2021-01-15, "Make Dockerfile more production focused") set it to production.
const PAPI = join(TRIAL, 'publishing-api-2020-10');

test('RAILS_ENV=development in the final stage of Dockerfile: a warning on that line, not a note on puma.rb', () => {
  const r = run(PAPI);
  assert.deepEqual(strong(r), ['warning development-env Dockerfile:11']);
  const f = r.findings.find((x) => x.rule === 'development-env');
  assert.match(f.message, /sets RAILS_ENV=development \(line 11\).*code reloading.*no eager loading.*debug-level logs.*backtraces/);
  assert.deepEqual([f.found, f.expected], ['development', 'production']);
  assert.deepEqual(r.findings.filter((x) => x.setting === 'environment' && x.rule === 'differs'), []);
  // The maintainers' fix, applied to the same files: no warning.
  const fixed = check(collect([PAPI], undefined, PAPI).map((x) => (x.path === 'Dockerfile' ? { ...x, text: x.text.replace('ENV RAILS_ENV development', 'ENV RAILS_ENV production') } : x)));
  assert.deepEqual(strong(fixed), []);
});

test('development images are not judged: Dockerfile.dev, a final stage named dev, a build stage, RACK_ENV under RAILS_ENV', () => {
  const dock = text(PAPI, 'Dockerfile');
  const warn = (o) => check(files(o)).findings.filter((f) => f.rule === 'development-env').map((f) => `${f.file}:${f.line} ${f.setting}`);
  assert.equal(classify('Dockerfile.dev'), null);
  assert.deepEqual(warn({ 'Dockerfile.dev': dock }), []);
  // hitobito's shape (hitobito/hitobito, AGPL-3.0, lines reproduced): `FROM base as dev` with ENV RAILS_ENV=development.
  assert.deepEqual(warn({ Dockerfile: 'FROM ruby:3.3 AS base\nFROM base as dev\nENV RAILS_ENV=development\nCMD [ "rails", "server", "-b", "0.0.0.0" ]\n' }), []);
  assert.deepEqual(warn({ Dockerfile: 'FROM ruby:3.3 AS build\nENV RAILS_ENV=development\nFROM ruby:3.3-slim\nENV RAILS_ENV=production\n' }), []);
  assert.deepEqual(warn({ Dockerfile: 'FROM ruby:3.3\nENV RAILS_ENV=production RACK_ENV=development\n' }), []);
  assert.deepEqual(warn({ Dockerfile: 'FROM ruby:3.3\nENV RACK_ENV=development\n' }), ['Dockerfile:2 RACK_ENV']);
  // rails server -e development as the container's command.
  assert.deepEqual(warn({ Dockerfile: 'FROM ruby:3.3\nCMD ["bundle", "exec", "rails", "server", "-e", "development", "-b", "0.0.0.0"]\n' }), ['Dockerfile:2 CMD']);
  // Kamal's production config; a staging destination file is not production.
  const kamal = 'service: app\nimage: app\nenv:\n  clear:\n    RAILS_ENV: development\n';
  assert.deepEqual(warn({ 'config/deploy.yml': kamal }), ['config/deploy.yml:5 RAILS_ENV']);
  assert.deepEqual(warn({ 'config/deploy.staging.yml': kamal }), []);
  // A production Compose service that sets RAILS_ENV=production overrides the image's ENV.
  assert.deepEqual(warn({ Dockerfile: dock, 'docker-compose.yml': 'services:\n  web:\n    build: .\n    environment:\n      RAILS_ENV: production\n' }), []);
});

// gnpashi/sahki-rails (no licence stated: lines reproduced, not copied): Dockerfile 0f6743a8 and docker-compose.yml
// 629afe52, both as written (the Dockerfile sets development and a development DATABASE_URL; Compose's web service
// overrides DATABASE_URL with the production database and sets no RAILS_ENV).
const SAHKI = {
  Dockerfile: '# Base image\nFROM ruby:3.2.2-bullseye\nRUN apt update && apt install -y nodejs\nENV RAILS_ENV=development\nENV NODE_ENV=development \nENV DATABASE_URL=postgres://postgres:password@db:5432/sahki_rails_development\nWORKDIR /app\nCOPY Gemfile* ./\nRUN bundle install\nCOPY . .\nEXPOSE 3000\n# RUN rails assets:precompile\nCMD ["rails", "server", "-b", "0.0.0.0"]',
  'docker-compose.yml': "version: '3'\n\nservices:\n  db:\n    image: postgres:13-alpine\n    environment:\n      POSTGRES_PASSWORD: password\n    volumes:\n      - postgres_data:/var/lib/postgresql/data\n\n  web:\n    build: .\n    environment:\n      DATABASE_URL: postgres://postgres:password@db:5432/sahki_rails_production\n    volumes:\n      - .:/app\n    ports:\n      - \"80:80\"\n    depends_on:\n      - db\n  nginx:\n    image: nginx:1.23.4\n    volumes:\n      - ./nginx.conf:/etc/nginx/\n      - ./public:/app/public\n    ports:\n      - \"80:80\"\n    depends_on:\n      - web\n\nvolumes:\n  postgres_data:\n",
  'config/application.rb': 'require_relative "boot"\n\nrequire "rails/all"\n\nBundler.require(*Rails.groups)\n\nmodule SahkiRails\n  class Application < Rails::Application\n    config.load_defaults 7.0\n    config.assets.enabled = true\n  end\nend\n',
};

test('Compose: a service without RAILS_ENV runs the image’s; a production one’s environment overrides the image’s (sahki-rails)', () => {
  const r = check(files(SAHKI));
  assert.deepEqual(strong(r), ['warning development-env Dockerfile:4']);
  // The web service sets no RAILS_ENV: it runs the image's development, so its environment is not production's.
  const read = (o) => { const fs = files(o).map(readFile); resolveCompose(fs); return fs; };
  assert.deepEqual(envOf(read(SAHKI)).get('DATABASE_URL'), { value: 'postgres://postgres:password@db:5432/sahki_rails_development', file: 'Dockerfile', line: 6 });
  // With the image made production, the service is production's and its DATABASE_URL overrides the image's.
  const fixed = { ...SAHKI, Dockerfile: SAHKI.Dockerfile.replace('ENV RAILS_ENV=development', 'ENV RAILS_ENV=production') };
  assert.deepEqual(envOf(read(fixed)).get('DATABASE_URL'), { value: 'postgres://postgres:password@db:5432/sahki_rails_production', file: 'docker-compose.yml', line: 14 });
  const rf = check(files(fixed));
  assert.deepEqual(strong(rf), []);
  assert.ok(rf.facts.some((f) => f.name === 'DATABASE_URL' && f.value === 'host db, database sahki_rails_production' && f.file === 'docker-compose.yml'), JSON.stringify(rf.facts));
  assert.doesNotMatch(JSON.stringify(rf.facts), /password/, 'credentials are never repeated');
  // config.load_defaults 7.0: a fact, and with no Gemfile.lock the Rails version assumed from it, saying so.
  assert.ok(r.facts.some((f) => f.name === 'config.load_defaults' && f.value === '7.0' && f.line === 9));
  assert.equal(r.detected.rails.value, '7.0');
  assert.match(r.detected.rails.assumed, /config\.load_defaults 7\.0 \(Rails is at least that version\)/);
});

test('Compose files: dev and override files are not read; a development service is not production; its command is followed', () => {
  for (const p of ['docker-compose.dev.yml', 'compose.override.yaml', 'docker-compose-test.yml', 'docker-compose.development.yml']) assert.equal(classify(p), null, p);
  for (const p of ['docker-compose.yml', 'compose.yaml', 'docker-compose.production.yml']) assert.equal(classify(p), 'compose', p);
  const c = readFile({ path: 'docker-compose.yml', text: 'services:\n  web:\n    command: bundle exec puma -C config/puma/production.rb\n    environment:\n      - RAILS_ENV=production\n      - WEB_CONCURRENCY=${WEB_CONCURRENCY:-3}\n      - RAILS_MAX_THREADS\n  dev:\n    command: bin/rails server\n    environment:\n      RAILS_ENV: development\n      WEB_CONCURRENCY: 9\n' });
  assert.deepEqual(c.services.map((s) => `${s.name} ${s.production}`), ['web true', 'dev false']);
  assert.deepEqual([...envOf([c])].map(([k, v]) => `${k}=${v.value}@${v.line}`), ['RAILS_ENV=production@5', 'WEB_CONCURRENCY=3@6']);
  assert.deepEqual(serverConfigPaths([c]).map((x) => `${x.path} ${x.file}:${x.line}`), ['config/puma/production.rb docker-compose.yml:3']);
  // The production service's RAILS_MAX_THREADS reaches the cross-file checks: 10 Puma threads on a literal pool of 5.
  const app = (compose) => check(files({ 'docker-compose.yml': compose, 'config/puma.rb': 'threads_count = ENV.fetch("RAILS_MAX_THREADS") { 5 }\nthreads threads_count, threads_count\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  database: app\n  pool: 5\n' }));
  const prod = app('services:\n  web:\n    command: bundle exec puma -C config/puma.rb\n    environment:\n      RAILS_ENV: production\n      RAILS_MAX_THREADS: 10\n');
  assert.deepEqual(strong(prod), ['error pool-below-threads config/database.yml:4']);
  assert.deepEqual(strong(app('services:\n  web:\n    command: bin/rails server\n    environment:\n      RAILS_ENV: development\n      RAILS_MAX_THREADS: 10\n')), []);
});

// rubyforgood/abalone 28e6bd82 (MIT, tests/fixtures/real-apps/abalone): Procfile `worker: bundle exec rake jobs:work`
// with delayed_job in Gemfile.lock. The trial's miss is that Procfile after the gem is gone (a backend switched,
// the Procfile forgotten): the same lockfile without its delayed_job lines.
const ABALONE = join(CORPUS, 'abalone');
const withoutDj = (lock) => lock.split('\n').filter((l) => !/delayed_job/.test(l)).join('\n');

test('rake jobs:work with no delayed_job in Gemfile.lock: a warning naming the task and the gem; lib/tasks defining it, none', () => {
  const real = run(ABALONE);
  assert.deepEqual(real.findings.filter((f) => f.rule === 'task-missing'), []);
  const tmp = mkdtempSync(join(tmpdir(), 'doctor-task-'));
  try {
    cpSync(ABALONE, tmp, { recursive: true });
    writeFileSync(join(tmp, 'Gemfile.lock'), withoutDj(text(ABALONE, 'Gemfile.lock')));
    const r = run(tmp);
    const f = r.findings.filter((x) => x.rule === 'task-missing');
    assert.deepEqual(f.map((x) => `${x.severity} ${x.file}:${x.line} ${x.setting}`), ['warning Procfile:2 jobs:work']);
    assert.match(f[0].message, /the Procfile's worker process runs `rake jobs:work`, a task Delayed Job defines, but Gemfile\.lock has no `delayed_job` gem.*Don't know how to build task 'jobs:work'/);
    // The app's own task (lib/tasks/jobs.rake, namespace :jobs … task work:) is a task that exists.
    mkdirSync(join(tmp, 'lib', 'tasks'), { recursive: true });
    writeFileSync(join(tmp, 'lib', 'tasks', 'jobs.rake'), 'namespace :jobs do\n  desc "Work the queue"\n  task work: :environment do\n    Worker.run\n  end\nend\n');
    const own = run(tmp);
    assert.ok(own.files.some((x) => x.path === 'lib/tasks/jobs.rake' && x.kind === 'rake'));
    assert.deepEqual(own.findings.filter((x) => x.rule === 'task-missing'), []);
    // At most LIMITS.rakeFiles rake files are read (two folders deep), in name order.
    mkdirSync(join(tmp, 'lib', 'tasks', 'a', 'b', 'c'), { recursive: true });
    for (const n of ['x', 'y', 'z']) writeFileSync(join(tmp, 'lib', 'tasks', 'a', `${n}.rake`), 'task :noop\n');
    writeFileSync(join(tmp, 'lib', 'tasks', 'a', 'b', 'c', 'deep.rake'), 'task :deep\n');
    const rakes = (limits) => collect([tmp], limits, tmp).filter((x) => x.path.endsWith('.rake')).map((x) => x.path);
    assert.deepEqual(rakes(undefined), ['lib/tasks/a/x.rake', 'lib/tasks/a/y.rake', 'lib/tasks/a/z.rake', 'lib/tasks/jobs.rake']);
    assert.deepEqual(rakes({ ...LIMITS, rakeFiles: 2 }), ['lib/tasks/a/x.rake', 'lib/tasks/a/y.rake']);
    // A task name the reader cannot tell (built in a loop): nothing is claimed.
    writeFileSync(join(tmp, 'lib', 'tasks', 'jobs.rake'), '%w[work].each do |t|\n  task "jobs:#{t}" do\n  end\nend\n');
    assert.deepEqual(run(tmp).findings.filter((x) => x.rule === 'task-missing'), []);
  } finally { rmSync(tmp, { recursive: true, force: true }); }
});

test('resque:work, sidekiq and bin/jobs: judged from Gemfile.lock; bin/jobs only when the file read loads Solid Queue; no lockfile, nothing', () => {
  // CoursAvenue/CoursAvenue a7661d4b (2015-09-09, no licence stated: lines reproduced): three Delayed Job processes.
  const procfile = '# For Passenger\nweb: bundle exec passenger start -p $PORT --max-pool-size ${MAX_POOL_SIZE:-15}\nworker: QUEUE=default bundle exec rake jobs:work\nmailers: QUEUE=mailers bundle exec rake jobs:work\ncards: QUEUE=cards bundle exec rake jobs:work\n';
  const papiLock = text(PAPI, 'Gemfile.lock'); // sidekiq 5.2.9, no delayed_job, resque or solid_queue
  const missing = (o) => check(files(o)).findings.filter((f) => f.rule === 'task-missing').map((f) => `${f.file}:${f.line} ${f.setting}`);
  // (publishing-api's lockfile has no passenger either: the web line is the app-server check's, deploy.mjs SERVER_COMMANDS.)
  assert.deepEqual(missing({ Procfile: procfile, 'Gemfile.lock': papiLock }), ['Procfile:2 passenger', 'Procfile:3 jobs:work', 'Procfile:4 jobs:work', 'Procfile:5 jobs:work']);
  assert.deepEqual(missing({ Procfile: procfile, 'Gemfile.lock': text(ABALONE, 'Gemfile.lock') }), ['Procfile:2 passenger'], 'delayed_job is there; passenger is not');
  assert.deepEqual(missing({ Procfile: procfile }), [], 'no Gemfile.lock: the bundle is unknown');
  // publishing-api's own worker runs Sidekiq, which its lockfile has; without the gem, bundler cannot find the command.
  assert.deepEqual(missing({ Procfile: text(PAPI, 'Procfile'), 'Gemfile.lock': papiLock }), []);
  const noSidekiq = papiLock.split('\n').filter((l) => !/^ {4}sidekiq \(/.test(l)).join('\n');
  assert.deepEqual(missing({ Procfile: text(PAPI, 'Procfile'), 'Gemfile.lock': noSidekiq }), ['Procfile:2 sidekiq']);
  // Resque's task in a Compose worker and a Kamal role.
  const worker = 'services:\n  worker:\n    command: bundle exec rake environment resque:work QUEUE=*\n';
  assert.deepEqual(missing({ 'docker-compose.yml': `${worker}    environment:\n      RAILS_ENV: production\n`, 'Gemfile.lock': papiLock }), ['docker-compose.yml:3 resque:work']);
  // No RAILS_ENV in the service or an image: Rails' development, not production's worker.
  assert.deepEqual(missing({ 'docker-compose.yml': worker, 'Gemfile.lock': papiLock }), []);
  // bin/jobs: Solid Queue's when the script read requires it (Rails 8's generated bin/jobs), else unknown.
  const kamal = 'service: app\nimage: app\nservers:\n  web:\n    - 10.0.0.1\n  job:\n    hosts:\n      - 10.0.0.1\n    cmd: bin/jobs\n';
  const binJobs = '#!/usr/bin/env ruby\n\nrequire_relative "../config/environment"\nrequire "solid_queue/cli"\n\nSolidQueue::Cli.start(ARGV)\n';
  assert.deepEqual(missing({ 'config/deploy.yml': kamal, 'bin/jobs': binJobs, 'Gemfile.lock': papiLock }), ['config/deploy.yml:9 bin/jobs']);
  assert.deepEqual(missing({ 'config/deploy.yml': kamal, 'Gemfile.lock': papiLock }), []);
  assert.deepEqual(missing({ 'config/deploy.yml': kamal, 'bin/jobs': '#!/bin/sh\nexec bundle exec sidekiq\n', 'Gemfile.lock': papiLock }), []);
});

// rubyforgood/circulate 1779624f (2019-12-17, MIT): .ruby-version ruby-2.6.1, Gemfile `ruby "2.6.5"`, lockfile 2.6.5;
// the maintainers deleted .ruby-version in e2f8d90f (2020-01-06).
const CIRCULATE = join(TRIAL, 'circulate-2019-12');

test('.ruby-version outside the Gemfile’s ruby requirement: Bundler refuses, said with which file says what (circulate 2019-12)', () => {
  const r = run(CIRCULATE);
  assert.deepEqual(strong(r), ['warning ruby-mismatch .ruby-version:1']);
  const f = r.findings.find((x) => x.rule === 'ruby-mismatch');
  assert.match(f.message, /^\.ruby-version says Ruby 2\.6\.1, but Gemfile requires ruby "2\.6\.5" \(line 4\):.*Bundler refuses to load the bundle \("Your Ruby version is 2\.6\.1, but your Gemfile specified 2\.6\.5"\)/);
  assert.ok(f.evidence.some((e) => e.url === 'https://bundler.io/guides/gemfile_ruby.html'));
  const fixed = check(collect([CIRCULATE], undefined, CIRCULATE).filter((x) => x.path !== '.ruby-version'));
  assert.deepEqual(strong(fixed), []);
});

test('.ruby-version vs the lockfile’s RUBY VERSION: informational to Bundler, installed by buildpacks (human-essentials 2023-06)', () => {
  const r = run(join(CORPUS, 'human-essentials-2023-06'));
  const f = r.findings.find((x) => x.rule === 'ruby-mismatch');
  assert.match(f.message, /\.ruby-version says Ruby 3\.1\.2, but Gemfile\.lock's RUBY VERSION records 3\.2\.2 \(Gemfile\.lock:\d+\); the Gemfile's ruby "3\.1\.2" \(Gemfile:\d+\) accepts 3\.1\.2: Bundler does not refuse to run on another Ruby.*buildpacks install the Ruby it names/);
  assert.doesNotMatch(f.message, /Bundler checks/);
  assert.deepEqual([satisfies('3.3.5', '~> 3.3.0'), satisfies('3.4.0', '~> 3.3.0'), satisfies('3.9.1', '~> 3.3'), satisfies('4.0.0', '~> 3.3'),
    satisfies('3.2.2', '>= 3.2, < 3.5'), satisfies('3.1.2', '3.1.2'), satisfies('3.1', '3.1.0'), satisfies('3.1.2', 'x')], [true, false, true, false, true, true, true, null]);
});

test('no Gemfile.lock: the Puma version is assumed, and the finding says so and from what (errbit’s puma.default.rb)', () => {
  const puma = text(join(TRIAL, 'errbit-2025-03-07'), 'config/puma.default.rb');
  // errbit's Gemfile line 88 `gem 'puma'`: no version → the wizard's default, a note.
  const bare = check(files({ 'config/puma.rb': puma, Gemfile: "source 'https://rubygems.org'\ngem 'puma'\n" })).findings.find((f) => f.setting === 'rackup');
  assert.equal(bare.severity, 'note');
  assert.match(bare.message, /Puma \d+\.\d+ \(assumed: the wizard's default; no file read names the version\) stops at boot/);
  // A requirement: its lower bound, said to be assumed. Every version "~> 6.0" allows is ≥ 6.0: still an error.
  const req = check(files({ 'config/puma.rb': puma, Gemfile: "source 'https://rubygems.org'\ngem 'puma', '~> 6.0'\n" })).findings.find((f) => f.setting === 'rackup');
  assert.equal(req.severity, 'error');
  assert.match(req.message, /Puma 6\.0 \(assumed: the lower bound of Gemfile's gem "puma", "~> 6\.0" at Gemfile:2; no Gemfile\.lock gives the version\) stops at boot/);
  // With the lockfile, the version is a fact and said plainly.
  const lock = check(files({ 'config/puma.rb': puma, 'Gemfile.lock': text(join(TRIAL, 'errbit-2025-03-07'), 'Gemfile.lock') })).findings.find((f) => f.setting === 'rackup');
  assert.match(lock.message, /Puma 6\.6\.0 stops at boot/);
  assert.doesNotMatch(lock.message, /assumed/);
});

test('assumed versions elsewhere: Puma for the Solid Queue plugin (a note), PostgreSQL without a versioned path (a note that says so)', () => {
  // Without Gemfile.lock the Puma of `gem "puma", "~> 6.4"` is assumed 6.4: a Puma 7 would preload, so not an error.
  const sq = check(files({ Gemfile: 'gem "rails"\ngem "puma", "~> 6.4"\n', 'config/puma.rb': 'threads 3, 3\nworkers 2\nplugin :solid_queue\n' })).findings.find((f) => f.rule === 'jobs-not-run');
  assert.equal(sq.severity, 'note');
  assert.match(sq.message, /on Puma 6\.4 \(assumed: the lower bound of Gemfile's gem "puma", "~> 6\.4" at Gemfile:2; no Gemfile\.lock gives the version\)/);
  const pg = (path) => check(files({ [path]: 'wal_keep_segments = 32\n' })).findings.find((f) => f.setting === 'wal_keep_segments');
  assert.match(pg('postgresql.conf').message, /PostgreSQL \d+ \(assumed: the wizard's default; no file read names the version\) refuses to start/);
  const versioned = pg('etc/postgresql/16/main/conf.d/60-rails.conf');
  assert.match(versioned.message, /PostgreSQL 16 refuses to start/);
  assert.doesNotMatch(versioned.message, /assumed/);
});
