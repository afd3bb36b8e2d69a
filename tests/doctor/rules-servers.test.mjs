// The process-layout rules (guide/check/servers.mjs, jobs.mjs §4) and the notes that must not be said
// (absent.mjs), on small inputs shaped like the corpus apps (tests/fixtures/real-apps): each rule fires on
// the problem and stays silent on the near miss an expert would accept. In-process, as the page runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../guide/engine/index.mjs';
import { check } from '../../guide/check/index.mjs';

const LOCK = (gems, ruby = '3.4.5') => `GEM\n  remote: https://rubygems.org/\n  specs:\n${gems.map((g) => `    ${g}\n`).join('')}\nRUBY VERSION\n   ruby ${ruby}p0\n`;
const app = (files) => Object.entries(files).map(([path, text]) => ({ path, text }));
const strong = (r) => r.findings.filter((f) => f.severity !== 'note').map((f) => `${f.severity} ${f.rule}`);
const find = (r, rule) => r.findings.find((f) => f.rule === rule);
const PUMA = (v) => ({ 'Gemfile.lock': LOCK(['pg (1.6.0)', `puma (${v})`, 'rails (8.1.1)', 'solid_queue (1.2.0)']), Gemfile: 'gem "rails"\ngem "puma"\ngem "pg"\n' });
const DB = 'production:\n  adapter: postgresql\n  database: shop\n  pool: <%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>\n';
const TEMPLATE_PUMA = 'threads_count = ENV.fetch("RAILS_MAX_THREADS", 3)\nthreads threads_count, threads_count\nport ENV.fetch("PORT", 3000)\nplugin :solid_queue if ENV["SOLID_QUEUE_IN_PUMA"]\n';

test('workers above the given cores: WEB_CONCURRENCY from Kamal is a warning at its line; no cores given, no claim', () => {
  const files = app({ ...PUMA('7.1.0'), 'config/puma.rb': TEMPLATE_PUMA, 'config/database.yml': DB,
    'config/deploy.yml': 'service: shop\nenv:\n  clear:\n    WEB_CONCURRENCY: 4\n' });
  const r = check(files, { answers: { cores: 2 } });
  const f = find(r, 'workers-above-cores');
  assert.equal(f.severity, 'warning');
  assert.equal(f.file, 'config/deploy.yml');
  assert.equal(f.line, 4);
  assert.match(f.message, /4 workers .*WEB_CONCURRENCY=4.* on 2 cores/);
  // The same files without the host's cores: nothing about cores is claimed (no file tells them).
  assert.equal(find(check(files), 'workers-above-cores'), undefined);
  // Workers equal to the cores, or `auto`, are what Puma's docs advise.
  assert.equal(find(check(files, { answers: { cores: 4 } }), 'workers-above-cores'), undefined);
  const auto = app({ ...PUMA('7.2.0'), 'config/puma.rb': 'workers :auto\nthreads 3, 3\n', 'config/database.yml': DB });
  assert.equal(find(check(auto, { answers: { cores: 2 } }), 'workers-above-cores'), undefined);
});

test('workers above the cores from a literal in puma.rb, from the Dockerfile, and from the Procfile web line', () => {
  const lit = check(app({ ...PUMA('7.1.0'), 'config/puma.rb': 'threads 3, 3\nworkers ENV.fetch("WEB_CONCURRENCY") { 8 }\n', 'config/database.yml': DB }), { answers: { cores: 4 } });
  assert.deepEqual([find(lit, 'workers-above-cores').file, find(lit, 'workers-above-cores').line], ['config/puma.rb', 2]);
  const docker = check(app({ ...PUMA('7.1.0'), 'config/puma.rb': TEMPLATE_PUMA, 'config/database.yml': DB, Dockerfile: 'FROM ruby:3.4\nENV RAILS_ENV="production" \\\n    WEB_CONCURRENCY="3"\n' }), { answers: { cores: 2 } });
  assert.equal(find(docker, 'workers-above-cores').file, 'Dockerfile');
  const proc = check(app({ ...PUMA('7.1.0'), 'config/puma.rb': TEMPLATE_PUMA, 'config/database.yml': DB, Procfile: 'web: WEB_CONCURRENCY=6 bundle exec puma -C config/puma.rb\n' }), { answers: { cores: 2 } });
  assert.match(find(proc, 'workers-above-cores').message, /WEB_CONCURRENCY=6 \(Procfile\)/);
});

test('plugin :solid_queue with workers and no preload on Puma 6 is an error; preload_app!, Puma 7 or single mode are fine', () => {
  const puma = 'threads 3, 3\nworkers 2\nplugin :solid_queue\n';
  const r = check(app({ ...PUMA('6.4.3'), 'config/puma.rb': puma, 'config/database.yml': DB }));
  const f = find(r, 'jobs-not-run');
  assert.equal(f.severity, 'error');
  assert.equal(f.line, 3);
  assert.match(f.evidence.map((e) => e.url).join(' '), /solid_queue\/issues\/77/);
  assert.deepEqual(strong(check(app({ ...PUMA('6.4.3'), 'config/puma.rb': `${puma}preload_app!\n`, 'config/database.yml': DB }))), []);
  assert.deepEqual(strong(check(app({ ...PUMA('7.1.0'), 'config/puma.rb': puma, 'config/database.yml': DB }))), []);
  assert.deepEqual(strong(check(app({ ...PUMA('6.4.3'), 'config/puma.rb': 'threads 3, 3\nplugin :solid_queue\n', 'config/database.yml': DB }))), []);
  // Puma 5–6 preload by default when WEB_CONCURRENCY is set: set in the Dockerfile, no problem; read but not set, a note.
  const wc = 'threads 3, 3\nworkers ENV.fetch("WEB_CONCURRENCY") { 2 }\nplugin :solid_queue\n';
  assert.deepEqual(strong(check(app({ ...PUMA('6.4.3'), 'config/puma.rb': wc, 'config/database.yml': DB, Dockerfile: 'FROM ruby:3.4\nENV WEB_CONCURRENCY=2\n' }))), []);
  assert.equal(find(check(app({ ...PUMA('6.4.3'), 'config/puma.rb': wc, 'config/database.yml': DB })), 'jobs-not-run').severity, 'note');
});

test('SOLID_QUEUE_IN_PUMA switches the conditional plugin on: set in Kamal it counts, unset it does not', () => {
  const puma = 'threads 3, 3\nworkers 2\nplugin :solid_queue if ENV["SOLID_QUEUE_IN_PUMA"]\n';
  const on = check(app({ ...PUMA('6.4.3'), 'config/puma.rb': puma, 'config/database.yml': DB, 'config/deploy.yml': 'service: shop\nenv:\n  clear:\n    SOLID_QUEUE_IN_PUMA: true\n' }));
  assert.deepEqual(strong(on), ['error jobs-not-run']);
  const off = check(app({ ...PUMA('6.4.3'), 'config/puma.rb': puma, 'config/database.yml': DB }));
  assert.deepEqual(strong(off), []);
});

test('embedded Sidekiq next to Puma threads on a pool sized by the same variable is an error; a pool with room is not', () => {
  const puma = 'threads_count = ENV.fetch("RAILS_MAX_THREADS") { 5 }\nthreads threads_count, threads_count\nworkers 2\npreload_app!\nx = nil\nbefore_worker_boot do\n  x = Sidekiq.configure_embed do |config|\n    config.queues = %w[default]\n    config.concurrency = 2\n  end\n  x.run\nend\n';
  const r = check(app({ ...PUMA('7.1.0'), 'config/puma.rb': puma, 'config/database.yml': DB }));
  const f = find(r, 'pool-below-concurrency');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /Embedded Sidekiq runs 2 job threads .*config\/puma\.rb:9.* 5 Puma threads.*need 7 connections.*RAILS_MAX_THREADS, the same variable/);
  const roomy = check(app({ ...PUMA('7.1.0'), 'config/puma.rb': puma, 'config/database.yml': 'production:\n  adapter: postgresql\n  pool: 10\n' }));
  assert.deepEqual(strong(roomy), []);
});

test('GoodJob in async mode counts its threads (max_threads, 5 by default, or its queues’ :N pools) + 3 with Puma’s; external mode does not', () => {
  const files = (mode, extra = '', pool = 8, init = null) => app({ ...PUMA('7.1.0'), 'config/puma.rb': 'threads 5, 5\n', 'config/database.yml': `production:\n  adapter: postgresql\n  pool: ${pool}\n`,
    'config/environments/production.rb': `Rails.application.configure do\n  config.good_job.execution_mode = ${mode}\n${extra}end\n`, ...(init ? { 'config/initializers/good_job.rb': init } : {}) });
  const f = find(check(files(':async')), 'pool-below-concurrency');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /GoodJob in async mode \(5 execution threads \+ 3 for LISTEN\/NOTIFY, cron and the executor\) runs 8 job threads .* need 13 connections/);
  assert.match(find(check(files(':async', '  config.good_job.max_threads = 3\n')), 'pool-below-concurrency').message, /need 11 connections/);
  assert.deepEqual(strong(check(files(':async', '  config.good_job.max_threads = 3\n', 11))), []);
  // config/initializers/good_job.rb: queues with :N thread suffixes (a pool without one gets max_threads).
  const q = find(check(files(':async', '', 13, 'Rails.application.configure do\n  config.good_job.max_threads = 2\n  config.good_job.queues = "latency_low:3;latency_medium:4;*"\nend\n')), 'pool-below-concurrency');
  assert.match(q.message, /\(9 execution threads \+ 3 .*need 17 connections/);
  assert.deepEqual(strong(check(files(':external'))), []);
});

test('Unicorn preload_app true without an after_fork reconnect: an error on Rails 3.2, nothing on Rails 4+ or with the hook', () => {
  const lock = (rails) => ({ 'Gemfile.lock': LOCK(['pg (0.14.1)', 'unicorn (4.6.2)', `rails (${rails})`], '1.9.3'), Gemfile: 'gem "rails"\ngem "unicorn"\ngem "pg"\n' });
  const conf = 'worker_processes 3\ntimeout 30\npreload_app true\n';
  const r = check(app({ ...lock('3.2.13'), 'config/unicorn.rb': conf }));
  const f = find(r, 'fork-reconnect');
  assert.equal(f.severity, 'error');
  assert.equal(f.line, 3);
  assert.equal(find(check(app({ ...lock('4.2.11'), 'config/unicorn.rb': conf })), 'fork-reconnect'), undefined);
  const hooked = `${conf}after_fork do |server, worker|\n  defined?(ActiveRecord::Base) and\n    ActiveRecord::Base.establish_connection\nend\n`;
  assert.equal(find(check(app({ ...lock('3.2.13'), 'config/unicorn.rb': hooked })), 'fork-reconnect'), undefined);
  // An after_fork that does something else does not reconnect.
  const other = `${conf}after_fork do |server, worker|\n  Rails.logger.info("forked")\nend\n`;
  assert.ok(find(check(app({ ...lock('3.2.13'), 'config/unicorn.rb': other })), 'fork-reconnect'));
});

test('Unicorn timeout above nginx’s proxy_read_timeout (written, or its default 60 s) is a warning; below it is fine', () => {
  const base = { 'Gemfile.lock': LOCK(['pg (1.6.0)', 'unicorn (6.1.0)', 'rails (8.1.1)']), Gemfile: 'gem "rails"\ngem "unicorn"\ngem "pg"\n' };
  const site = (t) => `upstream app {\n  server unix:/srv/app/tmp/unicorn.sock fail_timeout=0;\n}\nserver {\n  location / {\n${t}    proxy_pass http://app;\n  }\n}\n`;
  const r = check(app({ ...base, 'config/unicorn.rb': 'worker_processes 4\ntimeout 90\n', 'etc/nginx/sites-enabled/app': site('    proxy_read_timeout 30s;\n') }));
  const f = find(r, 'timeout-above-proxy');
  assert.equal(f.severity, 'warning');
  assert.match(f.message, /after 90 s, but the proxy gives up after 30 s .*sites-enabled\/app:6/);
  const dflt = find(check(app({ ...base, 'config/unicorn.rb': 'worker_processes 4\ntimeout 90\n', 'etc/nginx/sites-enabled/app': site('') })), 'timeout-above-proxy');
  assert.match(dflt.message, /60 s .*default proxy_read_timeout/);
  assert.equal(find(check(app({ ...base, 'config/unicorn.rb': 'worker_processes 4\ntimeout 30\n', 'etc/nginx/sites-enabled/app': site('') })), 'timeout-above-proxy'), undefined);
  // No proxy config given: nothing to compare.
  assert.equal(find(check(app({ ...base, 'config/unicorn.rb': 'worker_processes 4\ntimeout 90\n' })), 'timeout-above-proxy'), undefined);
});

test('notes that would be false are not said: sidekiq.yml :concurrency:, url: sections, delegated configs, defaults equal to the wizard’s', () => {
  const base = { 'Gemfile.lock': LOCK(['mysql2 (0.5.6)', 'puma (7.1.0)', 'rails (8.1.1)', 'sidekiq (8.0.0)']), Gemfile: 'gem "rails"\ngem "puma"\ngem "mysql2"\ngem "sidekiq"\n' };
  const r = check(app({ ...base,
    'config/sidekiq.yml': '---\n:concurrency: 8\n:queues:\n  - default\n',
    'config/puma.rb': 'require "govuk_app_config/govuk_puma"\nGovukPuma.configure_rails(self)\n',
    'config/database.yml': 'production:\n  url: <%= ENV["DATABASE_URL"] %>\n  pool: 10\n' }));
  const notes = r.findings.map((f) => `${f.rule} ${f.file} ${f.setting}`);
  // :concurrency: is read (a difference from the wizard's 3, not "not set"); Sidekiq's default timeout is the wizard's 25.
  assert.ok(notes.includes('differs config/sidekiq.yml concurrency'), notes.join('\n'));
  assert.ok(!notes.some((n) => /^missing config\/sidekiq\.yml/.test(n)), notes.join('\n'));
  // puma.rb hands itself to a library: nothing in it is "missing".
  assert.ok(!notes.some((n) => /^missing config\/puma\.rb/.test(n)), notes.join('\n'));
  // url: carries adapter, host and credentials.
  assert.ok(!notes.some((n) => /^missing config\/database\.yml (adapter|host|password|username|database)/.test(n)), notes.join('\n'));
});
