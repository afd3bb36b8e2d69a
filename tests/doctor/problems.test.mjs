// Reading Ruby and YAML as they run, and the problem rules (guide/check/problems.mjs), on small inputs
// written to show one behaviour each. In-process: check() gets [{path, text}] as from the CLI or the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../guide/engine/index.mjs';
import { check } from '../../guide/check/index.mjs';
import { readGemfile, lowerBound } from '../../guide/check/read-gems.mjs';
import { readFile } from '../../guide/check/read.mjs';

const LOCK = (gems, ruby = '3.4.5') => `GEM\n  remote: https://rubygems.org/\n  specs:\n${gems.map((g) => `    ${g}\n`).join('')}\nRUBY VERSION\n   ruby ${ruby}p0\n`;
const app = (files) => Object.entries(files).map(([path, text]) => ({ path, text }));
const strong = (r) => r.findings.filter((f) => f.severity !== 'note').map((f) => `${f.severity} ${f.rule}`);
const BASE = { 'Gemfile.lock': LOCK(['pg (1.6.0)', 'puma (7.1.0)', 'rails (8.1.1)']), Gemfile: 'gem "rails"\ngem "puma"\ngem "pg"\n' };

test('10 threads on Rails’ implicit pool of 5 is an error that names Rails’ default', () => {
  const r = check(app({ ...BASE, 'config/puma.rb': 'threads 10, 10\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  database: shop\n' }));
  const f = r.findings.find((x) => x.rule === 'pool-below-threads');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /Rails’ default, 5/);
  assert.equal(f.line, 3);
});

test('a pool from DATABASE_URL is unknown; a literal url: carries ?pool=', () => {
  const env = check(app({ ...BASE, 'config/puma.rb': 'threads 10, 10\n', 'config/database.yml': 'production:\n  url: <%= ENV["DATABASE_URL"] %>\n' }));
  assert.deepEqual(strong(env), []);
  const lit = check(app({ ...BASE, 'config/puma.rb': 'threads 10, 10\n', 'config/database.yml': 'production:\n  url: postgres://db/shop?pool=8\n' }));
  assert.match(lit.findings.find((x) => x.rule === 'pool-below-threads').message, /pool is 8/);
  // No production: section at all: DATABASE_URL decides, nothing is claimed.
  assert.deepEqual(strong(check(app({ ...BASE, 'config/puma.rb': 'threads 10, 10\n', 'config/database.yml': 'development:\n  adapter: postgresql\n' }))), []);
});

test('threads and pool from the same variable agree only with the same default; a threads call in a development branch is not production', () => {
  // Set in production, RAILS_MAX_THREADS sizes both; unset, Puma runs its default 10 on the pool's default 5 (issue 25).
  const same = check(app({ ...BASE, 'config/puma.rb': 't = ENV.fetch("RAILS_MAX_THREADS") { 10 }\nthreads t, t\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>\n' }));
  assert.deepEqual(strong(same), ['error pool-below-threads']);
  const agree = check(app({ ...BASE, 'config/puma.rb': 't = ENV.fetch("RAILS_MAX_THREADS") { 10 }\nthreads t, t\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 10 } %>\n' }));
  assert.deepEqual(strong(agree), []);
  const dev = check(app({ ...BASE, 'config/puma.rb': 'if ENV["RAILS_ENV"] == "development"\n  threads 10, 10\nend\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: 5\n' }));
  assert.deepEqual(strong(dev), []);
});

test('prune_bundler with preload_app! is a warning, in the same branch; in different arms it is not', () => {
  const both = check(app({ ...BASE, 'config/puma.rb': 'workers 2\nif ENV["X"]\n  prune_bundler\n  preload_app!\nend\n' }));
  assert.ok(strong(both).includes('warning ignored-setting'), strong(both).join());
  const apart = check(app({ ...BASE, 'config/puma.rb': 'workers 2\nif ENV["X"]\n  prune_bundler\nelse\n  preload_app!\nend\n' }));
  assert.ok(!strong(apart).includes('warning ignored-setting'));
  // A setting in a branch counts as present: no "missing preload_app!".
  assert.ok(!both.findings.some((f) => f.rule === 'missing' && f.setting === 'preload_app!'));
});

test('puma.rb requiring config/environment is a warning; other requires are not', () => {
  const r = check(app({ ...BASE, 'config/puma.rb': 'require_relative "environment"\nrequire "etc"\nthreads 3, 3\n' }));
  assert.deepEqual(strong(r), ['warning boots-in-master']);
  assert.deepEqual(strong(check(app({ ...BASE, 'config/puma.rb': 'require "etc"\nthreads 3, 3\n' }))), []);
});

test('.tool-versions against the Gemfile’s ruby requirement (sixth blind trial: alphagov/collections@a30c4b3, MIT)', () => {
  // collections' own lines: Gemfile:3 `ruby "~> 3.4.5"`, .ruby-version 3.4.5, .tool-versions `ruby 3.1.2`.
  const files = { ...BASE, Gemfile: 'source "https://rubygems.org"\n\nruby "~> 3.4.5"\n\ngem "rails"\n', '.ruby-version': '3.4.5\n', '.tool-versions': 'ruby 3.1.2\n' };
  const f = check(app(files)).findings.filter((x) => x.rule === 'ruby-mismatch');
  assert.deepEqual(f.map((x) => `${x.severity} ${x.file}:${x.line} ${x.found}/${x.expected}`), ['warning .tool-versions:1 3.1.2/~> 3.4.5']);
  assert.match(f[0].message, /asdf, mise.*Bundler refuses to load the bundle/);
  // Agreeing, or a version without a patch (any 3.4.x), says nothing.
  for (const tv of ['ruby 3.4.5\n', 'ruby 3.4\n', 'nodejs 22.1.0\n']) assert.deepEqual(check(app({ ...files, '.tool-versions': tv })).findings.filter((x) => x.rule === 'ruby-mismatch'), [], tv);
});

test('.ruby-version against Gemfile.lock’s RUBY VERSION', () => {
  const r = check(app({ ...BASE, '.ruby-version': '3.2.2\n' }));
  assert.deepEqual(strong(r), ['warning ruby-mismatch']);
  assert.deepEqual(strong(check(app({ ...BASE, '.ruby-version': 'ruby-3.4.5\n' }))), []);
  assert.deepEqual(strong(check(app({ ...BASE, '.ruby-version': '3.4\n' }))), []);
});

test('Sidekiq concurrency above a literal pool is an error; above an ENV-sized pool that no file sets for the worker too (its default applies); a Procfile prefix that sets it, none', () => {
  const lit = check(app({ ...BASE, 'config/sidekiq.yml': ':concurrency: 10\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: 5\n' }));
  assert.ok(strong(lit).includes('error pool-below-concurrency'));
  const env = check(app({ ...BASE, 'config/sidekiq.yml': ':concurrency: 10\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>\n' }));
  assert.equal(env.findings.find((f) => f.rule === 'pool-below-concurrency').severity, 'error');
  assert.match(env.findings.find((f) => f.rule === 'pool-below-concurrency').message, /with RAILS_MAX_THREADS unset/);
  const set = check(app({ ...BASE, 'config/sidekiq.yml': ':concurrency: 10\n', Procfile: 'worker: RAILS_MAX_THREADS=10 bundle exec sidekiq\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>\n' }));
  assert.equal(set.findings.find((f) => f.rule === 'pool-below-concurrency'), undefined);
});

test('Gemfile groups and constraint direction', () => {
  const g = readGemfile('group :development, :test do\n  gem "puma", "< 7"\nend\ngem "unicorn"\ngem "x", group: :test\n');
  assert.deepEqual(g.settings.map((s) => [s.name, s.devOnly]), [['puma', true], ['unicorn', false], ['x', true]]);
  assert.equal(lowerBound('< 7'), null);
  assert.equal(lowerBound('~> 6.4'), '6.4');
  const r = check(app({ Gemfile: 'group :development, :test do\n  gem "puma"\nend\ngem "unicorn"\n', 'Gemfile.lock': LOCK(['puma (7.0.0)', 'unicorn (6.1.0)']) }));
  assert.equal(r.answers.server, 'unicorn');
  assert.equal(check(app({ Gemfile: 'gem "puma", "< 7"\n' })).detected.server_version, undefined);
});

test('branches are named, ENV.fetch defaults with if/else keep each arm, RAILS_ENV from ENV is no finding', () => {
  const f = readFile({ path: 'config/puma.rb', text: 'n = ENV.fetch("RAILS_MAX_THREADS") {\n  if ENV.fetch("RAILS_ENV") == "production"\n    10\n  else\n    3\n  end\n}\nthreads n, n\nif ENV["A"]\n  workers 2\nelse\n  workers 4\nend\n' });
  assert.deepEqual(f.settings.find((s) => s.name === 'threads').args[1].alternatives.map((a) => a.value), [10, 3]);
  const ws = f.settings.filter((s) => s.name === 'workers');
  assert.deepEqual(ws.map((s) => s.branch[0].arm), [0, 1]);
  assert.match(ws[0].branch[0].cond, /^if ENV\["A"\]/);
  const r = check(app({ ...BASE, 'config/puma.rb': 'environment ENV.fetch("RAILS_ENV") { "development" }\n' }));
  assert.ok(!r.findings.some((x) => x.setting === 'environment' && x.rule === 'differs'));
});

test('ERB reading files is unknown (no exit 2); an output tag writing whole lines is left out', () => {
  const r = check(app({ ...BASE, 'config/database.yml': 'production:\n  adapter: postgresql\n  host: <%= File.exist?("/x") ? "a" : "b" %>\n  <%= "url: #{ENV[\'U\']}" if ENV[\'U\'] %>\n' }));
  assert.deepEqual(r.problems, []);
  assert.ok(r.files.find((f) => f.kind === 'database-yml').notes.length >= 2);
});

test('Procfile and Dockerfile are read', () => {
  const p = readFile({ path: 'Procfile', text: '# c\nweb: bundle exec puma -C config/puma.rb\nworker: bundle exec sidekiq -c 5\n' });
  assert.deepEqual(p.settings.map((s) => [s.name, s.line]), [['web', 2], ['worker', 3]]);
  const d = readFile({ path: 'Dockerfile', text: 'ARG RUBY_VERSION=3.4.5\nFROM ruby:$RUBY_VERSION-slim\nENV RAILS_ENV="production" \\\n    WEB_CONCURRENCY=2\nCMD ["./bin/thrust", "./bin/rails", "server"]\n' });
  assert.deepEqual(d.settings.map((s) => `${s.name}=${s.value}@${s.line}`), ['RUBY_VERSION=3.4.5@1', 'FROM=ruby:$RUBY_VERSION-slim@2', 'RAILS_ENV=production@3', 'WEB_CONCURRENCY=2@3', 'CMD=["./bin/thrust", "./bin/rails", "server"]@5']);
});

test('job runners: Procfile sidekiq -c with its own DB_POOL, Solid Queue threads + 2, SOLID_QUEUE_IN_PUMA without the plugin', () => {
  const yml = { 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: <%= ENV.fetch("DB_POOL") { 5 } %>\n' };
  const own = check(app({ ...BASE, ...yml, Procfile: 'web: bundle exec puma\nworker: DB_POOL=10 bundle exec sidekiq -c 10\n' }));
  assert.ok(!own.findings.some((f) => f.rule === 'pool-below-concurrency'), 'the worker line sets its own pool');
  const low = check(app({ ...BASE, ...yml, Procfile: 'worker: DB_POOL=4 bundle exec sidekiq -c 10\n' }));
  assert.equal(low.findings.find((f) => f.rule === 'pool-below-concurrency').severity, 'error');
  const queue = 'production:\n  workers:\n    - queues: "*"\n      threads: 5\n';
  const sq = check(app({ ...BASE, 'config/database.yml': 'production:\n  adapter: postgresql\n  database: x\n', 'config/queue.yml': queue }));
  const f = sq.findings.find((x) => x.rule === 'pool-below-concurrency');
  assert.equal(f.severity, 'warning');
  assert.equal(f.line, 4);
  assert.ok(!check(app({ ...BASE, 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: 7\n', 'config/queue.yml': queue })).findings.some((x) => x.rule === 'pool-below-concurrency'));
  const kamal = { 'config/deploy.yml': 'service: x\nenv:\n  clear:\n    SOLID_QUEUE_IN_PUMA: true\n' };
  const none = check(app({ ...BASE, ...kamal, 'config/puma.rb': 'threads 3, 3\n' }));
  assert.deepEqual(none.findings.filter((x) => x.rule === 'jobs-not-run').map((x) => [x.severity, x.file, x.line]), [['error', 'config/deploy.yml', 4]]);
  assert.ok(!check(app({ ...BASE, ...kamal, 'config/puma.rb': 'threads 3, 3\nplugin :solid_queue if ENV["SOLID_QUEUE_IN_PUMA"]\n' })).findings.some((x) => x.rule === 'jobs-not-run'));
});

test('Kamal env and Dockerfile ENV are the container environment', () => {
  const r = check(app({ ...BASE, 'config/deploy.yml': 'env:\n  clear:\n    RAILS_MAX_THREADS: 10\n', 'config/puma.rb': 't = ENV.fetch("RAILS_MAX_THREADS") { 3 }\nthreads t, t\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: 5\n' }));
  assert.match(r.findings.find((f) => f.rule === 'pool-below-threads').message, /10 threads/);
  const d = check(app({ ...BASE, Dockerfile: 'ENV RAILS_MAX_THREADS=8\n', 'config/puma.rb': 't = ENV.fetch("RAILS_MAX_THREADS") { 3 }\nthreads t, t\n', 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: 5\n' }));
  assert.match(d.findings.find((f) => f.rule === 'pool-below-threads').message, /8 threads/);
});

test('no phantom notes: database.yml without production:, a missing pool at Rails’ default; insertions stay out of branches', () => {
  const none = check(app({ ...BASE, 'config/database.yml': 'development:\n  adapter: postgresql\n  database: dev\n' }));
  assert.deepEqual(none.findings.filter((f) => f.file === 'config/database.yml'), []);
  const nopool = check(app({ ...BASE, 'config/database.yml': 'production:\n  adapter: postgresql\n  database: x\n' }));
  assert.ok(!nopool.findings.some((f) => /pool|max_connections/.test(f.setting)), nopool.findings.map((f) => f.setting).join());
  const r = check(app({ ...BASE, 'config/puma.rb': 'threads 3, 3\nif ENV["RAILS_ENV"] == "development"\n  worker_timeout 3600\n  port 3000\nend\n' }));
  for (const f of r.findings.filter((x) => x.rule === 'missing' && x.diff)) assert.match(f.diff, /@@ -1,1 \+1,2 @@\n threads 3, 3\n\+/, f.setting);
});

test('.ruby-version against Gemfile.lock\'s RUBY VERSION: another minor is a warning, a patch apart a note (fifth blind trial, ifme)', () => {
  const mismatch = (rv, locked) => check(app({ ...BASE, 'Gemfile.lock': LOCK(['pg (1.6.0)', 'puma (7.1.0)', 'rails (8.1.1)'], locked), '.ruby-version': `${rv}\n` }))
    .findings.filter((f) => f.rule === 'ruby-mismatch').map((f) => `${f.severity} ${f.found}/${f.expected}`);
  assert.deepEqual(mismatch('3.3.0', '3.3.11'), ['note 3.3.0/3.3.11']);
  assert.deepEqual(mismatch('3.2.4', '3.3.1'), ['warning 3.2.4/3.3.1']);
  assert.deepEqual(mismatch('3.4.5', '3.4.5'), []);
});

test('a call without parentheses as an argument takes the arguments after it: environment ENV.fetch \'RAILS_ENV\', \'production\' (fifth blind trial, helpy)', () => {
  const f = readFile({ path: 'config/puma.rb', text: "environment ENV.fetch 'RAILS_ENV', 'production'\nthreads 5, 5\n" });
  assert.equal(f.problem, undefined);
  const env = f.settings.find((s) => s.name === 'environment');
  assert.equal(env.value, 'production', 'one value, the default, not "production, production"');
  assert.equal(env.env, 'RAILS_ENV');
  assert.equal(f.settings.find((s) => s.name === 'threads').value, '5, 5', 'other calls keep their arguments');
});
