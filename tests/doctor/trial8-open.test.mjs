// Open items of the seventh blind trial of --check (issue 25, /work/notes/trial7-review.md), one test each: the jobs
// answer beside an implicit :async warning (metasmoke), a Puma cluster of one worker (octobox's shape), prune_bundler
// in single mode (postal), RAILS_ENV passed empty by Compose (tracks' shape), end-of-life Ruby and Rails (metasmoke),
// a regexp literal after a method name (tracks' rake file), Puma threads above Rails' implicit pool with no
// database.yml, and dotenv's load order. Real files where the public apps show the case (tests/fixtures/trial-apps,
// SOURCE.json), shapes in our own words otherwise (tests/fixtures/trial7-shapes/NOTE.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import '../../guide/engine/index.mjs';
import { ROOT } from './helpers.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check, exitStatus } from '../../guide/check/index.mjs';
import { tokenize } from '../../guide/check/ruby-tokens.mjs';

const TRIAL = join(ROOT, 'tests', 'fixtures', 'trial-apps');
const SHAPES = join(ROOT, 'tests', 'fixtures', 'trial7-shapes');
const files = (dir) => collect([dir], undefined, dir);
const edit = (fs, path, from, to) => fs.map((x) => {
  if (x.path !== path) return x;
  assert.ok(x.text.includes(from), `${path} holds ${JSON.stringify(from)}`);
  return { ...x, text: x.text.replace(from, to) };
});
const rules = (r, rule) => r.findings.filter((f) => f.rule === rule).map((f) => `${f.severity} ${f.file}:${f.line}`);
const LOCK = (gems) => `GEM\n  remote: https://rubygems.org/\n  specs:\n${gems.map(([n, v]) => `    ${n} (${v})\n`).join('')}\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n${gems.map(([n]) => `  ${n}\n`).join('')}`;

test('a regexp literal after a method name without parentheses is read, and the rest of the file with it (tracks)', () => {
  // tracks lib/tasks/rewrite_locales_utf8.rake:11 has this shape: `decoded.gsub! /"/, '\\"'`.
  const rake = 'namespace :locales do\n  task :utf8 do\n    decoded = File.read("x")\n    decoded.gsub! /"/, \'\\\\"\'\n  end\nend\ntask :import do\nend\n';
  const app = [
    { path: 'Gemfile.lock', text: LOCK([['puma', '7.2.0'], ['rails', '8.0.2']]) },
    { path: 'Procfile', text: 'web: bundle exec puma -C config/puma.rb\nworker: bundle exec rake import\n' },
    { path: 'lib/tasks/rewrite_locales_utf8.rake', text: rake },
  ];
  const r = check(app);
  assert.equal(exitStatus(r), 0);
  assert.deepEqual(r.files.find((f) => f.path.endsWith('.rake')).notes, []);
  assert.equal(rules(r, 'task-missing').length, 0);
  // The file is read, so a task it does not define is reported again (it was unknown before).
  assert.deepEqual(rules(check(edit(app, 'Procfile', 'rake import', 'rake jobs:work')), 'task-missing'), ['warning Procfile:2']);
  // The fifth trial's two regexps (sharetribe, collectif-objets) are read too.
  const tok = (s) => tokenize(s).filter((t) => t.t !== 'nl').map((t) => t.t);
  assert.deepEqual(tok('text.gsub(/^\\s*T = <<JSON.*JSON/m, "")'), ['id', 'op', 'id', 'op', 'regexp', 'op', 'str', 'op']);
  assert.deepEqual(tok("m = /^([A-Z' \\-]{2,30}) /.match(line)"), ['id', 'op', 'regexp', 'op', 'id', 'op', 'id', 'op']);
  // Division stays division: after a local variable, a value, a closing bracket, or with spaces on both sides.
  for (const s of ['n = 4\nworkers n /2', 'workers Etc.nprocessors / 2', 'workers Integer(x) /2', 'x /= 2', 'threads 10/2']) {
    assert.ok(!tokenize(s).some((t) => t.t === 'regexp'), s);
  }
  assert.ok(tokenize('a = %r{"x}i').some((t) => t.t === 'regexp' && t.v === '"x'));
});

const META = files(join(TRIAL, 'metasmoke-2025-07'));

test('the jobs answer beside the implicit :async warning is none from those files, not an assumed backend (metasmoke)', () => {
  const r = check(META);
  assert.deepEqual(rules(r, 'jobs-lost'), ['warning config/environments/production.rb:1']);
  assert.equal(r.undetected.some((u) => u.key === 'jobs'), false, JSON.stringify(r.undetected));
  assert.deepEqual([r.detected.jobs.value, r.detected.jobs.file], ['none', 'config/environments/production.rb']);
  assert.match(r.detected.jobs.from, /Rails' default :async runs the Active Job classes \(app\/jobs\/autoflag_job\.rb:3\)/);
  // An adapter set in an initializer: that one is the answer (baw-server's shape), and no warning.
  const init = { path: 'config/initializers/active_job.rb', kind: 'initializer', text: 'Rails.application.config.active_job.queue_adapter = :sidekiq\n' };
  const set = check([...META, init]);
  assert.deepEqual([set.detected.jobs.value, set.detected.jobs.file], ['sidekiq', 'config/initializers/active_job.rb']);
  // No job class but ApplicationJob: nothing says how jobs run, so the answer stays undetected as before.
  const none = check(META.filter((x) => !/_job\.rb$/.test(x.path) || /application_job/.test(x.path)));
  assert.equal(none.detected.jobs, undefined);
  assert.ok(none.undetected.some((u) => u.key === 'jobs'));
});

const OCTOBOX = files(join(SHAPES, 'octobox'));

test('a Puma cluster of one worker is a note, only where the files leave it at one and nothing needs the master (octobox)', () => {
  const one = (fs) => check(fs).findings.filter((f) => f.rule === 'cluster-of-one');
  const [n, ...more] = one(OCTOBOX);
  assert.equal(more.length, 0);
  assert.deepEqual([n.severity, n.file, n.line, n.found, n.expected], ['note', 'config/puma.rb', 7, '1', '0']);
  assert.match(n.message, /WEB_CONCURRENCY unset: its default.*preload_app! the master keeps a loaded copy.*Puma 8\.0\.2 says so at boot/);
  assert.deepEqual(n.assumes, ['WEB_CONCURRENCY unset']);
  // Two workers, a Procfile that sets them, a conditional line, or a feature that needs the master (fork_worker): no note.
  const procfile = (web) => edit(OCTOBOX, 'Procfile', 'web: bundle exec puma -C config/puma.rb', web);
  assert.deepEqual(one(edit(OCTOBOX, 'config/puma.rb', '{ 1 }', '{ 2 }')), []);
  assert.deepEqual(one(procfile('web: WEB_CONCURRENCY=3 bundle exec puma -C config/puma.rb')), []);
  assert.deepEqual(one(edit(OCTOBOX, 'config/puma.rb', 'workers ENV.fetch("WEB_CONCURRENCY") { 1 }', 'workers 1 if ENV["CLUSTER"]')), []);
  assert.deepEqual(one(edit(OCTOBOX, 'config/puma.rb', 'preload_app!', 'preload_app!\nfork_worker')), []);
  // A literal 1 is the app's own choice, still one worker: the note without the variable.
  const lit = one(edit(OCTOBOX, 'config/puma.rb', 'workers ENV.fetch("WEB_CONCURRENCY") { 1 }', 'workers 1'));
  assert.equal(lit.length, 1);
  assert.equal(lit[0].assumes, undefined);
  assert.doesNotMatch(lit[0].message, /unset/);
});

const POSTAL = files(join(TRIAL, 'postal-2026-04'));

test('prune_bundler in single mode is a note: Puma prunes only in a cluster (postal)', () => {
  const ignored = (fs) => check(fs).findings.filter((f) => f.rule === 'ignored-setting').map((f) => `${f.severity} ${f.file}:${f.line}`);
  const n = check(POSTAL).findings.find((f) => f.rule === 'ignored-setting');
  assert.deepEqual([n.severity, n.file, n.line], ['note', 'config/puma.rb', 11]);
  assert.match(n.message, /config\/puma\.rb sets no workers.*WEB_CONCURRENCY/);
  assert.deepEqual(n.assumes, ['WEB_CONCURRENCY unset']);
  // A cluster (a workers line, even from a variable; WEB_CONCURRENCY the files set; -w on the command): not ignored.
  assert.deepEqual(ignored(edit(POSTAL, 'config/puma.rb', 'prune_bundler\n', 'prune_bundler\nworkers 2\n')), []);
  assert.deepEqual(ignored(edit(POSTAL, 'config/puma.rb', 'prune_bundler\n', 'prune_bundler\nworkers ENV.fetch("PUMA_WORKERS", 0)\n')), []);
  assert.deepEqual(ignored([...POSTAL, { path: '.env.production', text: 'WEB_CONCURRENCY=2\n' }]), []);
  assert.deepEqual(ignored([...POSTAL, { path: 'Procfile', text: 'web: bundle exec puma -w 2 -C config/puma.rb\n' }]), []);
  // workers 0 said outright: single mode, the note names that line.
  assert.match(check(edit(POSTAL, 'config/puma.rb', 'prune_bundler\n', 'prune_bundler\nworkers 0\n')).findings.find((f) => f.rule === 'ignored-setting').message, /workers is 0 \(line 12\)/);
  // With preload_app! it is problems.mjs's warning, once.
  assert.deepEqual(ignored(edit(POSTAL, 'config/puma.rb', 'prune_bundler\n', 'prune_bundler\npreload_app!\n')), ['warning config/puma.rb:11']);
});

test('Puma threads above Rails’ implicit pool of 5 with no database.yml read: a note naming DATABASE_URL', () => {
  const app = (puma, extra = [], pumaVersion = '6.6.0') => [
    { path: 'Gemfile.lock', text: LOCK([['activerecord', '8.0.2'], ['pg', '1.5.9'], ['puma', pumaVersion], ['rails', '8.0.2']]) },
    ...(puma === null ? [] : [{ path: 'config/puma.rb', text: puma }]),
    { path: 'Procfile', text: puma === null ? 'web: bundle exec puma -p $PORT\n' : 'web: bundle exec puma -C config/puma.rb\n' },
    ...extra,
  ];
  const notes = (fs) => check(fs).findings.filter((f) => f.rule === 'pool-below-threads').map((f) => `${f.severity} ${f.file}:${f.line} ${f.found}`);
  const [n, ...more] = check(app('port 3000\nthreads 10, 10\n')).findings.filter((f) => f.rule === 'pool-below-threads');
  assert.deepEqual([more.length, n.severity, n.file, n.line, n.found], [0, 'note', 'config/puma.rb', 2, '10']);
  assert.match(n.message, /no config\/database\.yml was read.*DATABASE_URL.*Rails' default, 5, unless the URL carries \?pool=10/);
  // From a variable's default: the note says it assumes the variable unset.
  const v = check(app('threads ENV.fetch("RAILS_MAX_THREADS") { 8 }, ENV.fetch("RAILS_MAX_THREADS") { 8 }\n')).findings.find((f) => f.rule === 'pool-below-threads');
  assert.deepEqual([v.severity, v.found, v.assumes], ['note', '8', ['RAILS_MAX_THREADS unset']]);
  // Puma 4's default of 16 threads with no config read but the Procfile's command.
  assert.deepEqual(notes(app(null, [], '4.3.12')), ['note Procfile:1 16']);
  // Five threads or fewer, a pool the files show (database.yml, DATABASE_URL ?pool= in an env file), or a database.yml
  // with a production section (problems.mjs judges that one): no note from here.
  assert.deepEqual(notes(app('threads 5, 5\n')), []);
  assert.deepEqual(notes(app('threads 10, 10\n', [{ path: '.env.production', text: 'DATABASE_URL=postgres://db/app?pool=10\n' }])), []);
  assert.deepEqual(notes(app('threads 10, 10\n', [{ path: 'config/database.yml', text: 'production:\n  adapter: postgresql\n  pool: 10\n' }])), []);
  assert.deepEqual(notes(app('threads 10, 10\n', [{ path: 'config/database.yml', text: 'production:\n  adapter: postgresql\n' }])), ['error config/database.yml:2 5']);
  // A database.yml with no production section: the note, naming that.
  assert.match(check(app('threads 10, 10\n', [{ path: 'config/database.yml', text: 'development:\n  adapter: postgresql\n' }])).findings.find((f) => f.rule === 'pool-below-threads').message, /config\/database\.yml has no production: section/);
  // No Active Record (no lockfile entry for it): nothing to say.
  assert.deepEqual(notes([{ path: 'Gemfile.lock', text: LOCK([['puma', '6.6.0'], ['sinatra', '4.0.0']]) }, { path: 'config/puma.rb', text: 'threads 10, 10\n' }]), []);
});

test('dotenv’s load order: .env.production.local over .env.local over .env.production over .env; other environments’ files unread', () => {
  const url = (pool) => `DATABASE_URL=postgres://db/app?pool=${pool}\n`;
  const base = [
    { path: 'Gemfile.lock', text: LOCK([['activerecord', '8.0.2'], ['dotenv-rails', '3.1.8'], ['pg', '1.5.9'], ['puma', '6.6.0'], ['rails', '8.0.2']]) },
    { path: 'config/puma.rb', text: 'threads 10, 10\n' },
  ];
  const pools = (envs) => check([...base, ...envs.map(([path, pool]) => ({ path, text: url(pool) }))]).findings
    .filter((f) => /^pool-below/.test(f.rule)).map((f) => `${f.severity} ${f.file} ${f.found}`);
  // The file dotenv reads first wins, in whatever order the files are handed in.
  for (const order of [[['.env.production.local', 10], ['.env.production', 5]], [['.env.production', 5], ['.env.production.local', 10]]]) assert.deepEqual(pools(order), []);
  assert.deepEqual(pools([['.env.local', 5], ['.env.production', 10]]), ['error .env.local 5']);
  assert.deepEqual(pools([['.env.production', 5], ['.env', 10]]), ['error .env.production 5']);
  // .env.development, .env.test.local and an example are not loaded in production: only .env.production counts.
  assert.deepEqual(pools([['.env.production', 10], ['.env.development', 5], ['.env.test.local', 5], ['.env.example', 5]]), []);
  // dotenv does not replace what the process already has: the image's ENV and other env files (config/app.env) win.
  assert.deepEqual(pools([['.env.production', 10], ['config/app.env', 5]]), ['error config/app.env 5']);
  const image = { path: 'Dockerfile', text: `FROM ruby:3.4\nENV RAILS_ENV=production\nENV ${url(5).trim()}\nCMD ["bundle", "exec", "puma"]\n` };
  assert.deepEqual(check([...base, image, { path: '.env.production', text: url(10) }]).findings.filter((f) => /^pool-below/.test(f.rule)).map((f) => `${f.file} ${f.found}`), ['Dockerfile 5']);
  // Without dotenv locked nothing loads them in that order: the files count as given (the last one read wins), as before.
  const plain = (envs) => check([{ ...base[0], text: base[0].text.replace(/ {4}dotenv-rails \(3\.1\.8\)\n/, '').replace(/ {2}dotenv-rails\n/, '') }, base[1], ...envs.map(([path, pool]) => ({ path, text: url(pool) }))])
    .findings.filter((f) => /^pool-below/.test(f.rule)).map((f) => `${f.file} ${f.found}`);
  assert.deepEqual(plain([['.env.production.local', 10], ['.env.production', 5]]), ['.env.production 5']);
});

test('end-of-life Ruby and Rails are notes, dated from end-of-life.json (metasmoke: Ruby 2.7.4, Rails 5.2.6.2)', () => {
  const eol = (fs) => check(fs).findings.filter((f) => f.rule === 'end-of-life').map((f) => `${f.severity} ${f.file}:${f.line} ${f.setting} ${f.found}`);
  assert.deepEqual(eol(META), ['note .ruby-version:1 ruby 2.7.4', 'note Gemfile.lock:309 rails 5.2.6.2']);
  const [ruby, rails] = check(META).findings.filter((f) => f.rule === 'end-of-life');
  assert.match(ruby.message, /Ruby 2\.7 reached its end of life on 2023-03-31 \(ruby-lang\.org; as of 2026-11-27\)/);
  assert.match(rails.message, /only for 8\.0 and 8\.1 \(its release post of 2026-09-24; as of 2026-11-27\)/);
  // Maintained series: nothing. Ruby 3.3 is in security maintenance until 2027 (not past), Rails 8.0 is still fixed.
  const now = edit(edit(META, '.ruby-version', '2.7.4', '3.3.6'), 'Gemfile.lock', '    rails (5.2.6.2)\n', '    rails (8.0.2)\n');
  assert.deepEqual(eol(now), []);
  // Without .ruby-version, Gemfile.lock's RUBY VERSION; another implementation (JRuby) has its own schedule: nothing.
  const lock = { path: 'Gemfile.lock', text: 'GEM\n  remote: https://rubygems.org/\n  specs:\n    rails (7.2.2)\n\nRUBY VERSION\n   ruby 3.1.4p223\n' };
  assert.deepEqual(eol([lock]), ['note Gemfile.lock:4 rails 7.2.2', 'note Gemfile.lock:7 ruby 3.1.4']);
  assert.deepEqual(eol([lock, { path: '.ruby-version', text: 'jruby-9.4.5.0\n' }]), ['note Gemfile.lock:4 rails 7.2.2']);
  // A Gemfile requirement alone is not the version the app runs: nothing from it.
  assert.deepEqual(eol([{ path: 'Gemfile', text: 'source "https://rubygems.org"\nruby "~> 2.7.0"\ngem "rails", "~> 5.2"\n' }]), []);
});

const TRACKS = files(join(SHAPES, 'tracks'));

test('RAILS_ENV taken from the shell by Compose with no default: a note on the service that builds the app (tracks)', () => {
  const unset = (fs) => check(fs).findings.filter((f) => f.rule === 'rails-env-unset');
  const [n, ...more] = unset(TRACKS);
  assert.equal(more.length, 0);
  assert.deepEqual([n.severity, n.file, n.line, n.found, n.expected], ['note', 'docker-compose.yml', 11, '$RAILS_ENV', '${RAILS_ENV:-production}']);
  assert.match(n.message, /service `web` builds the app \(stage `production`\).*empty RAILS_ENV.*Rails runs in development/);
  // The braced form too; a default, a literal, a development stage, a RACK_ENV Rails falls back to, or an image the
  // app does not build: nothing.
  const env = (to) => edit(TRACKS, 'docker-compose.yml', 'RAILS_ENV: $RAILS_ENV', to);
  assert.equal(unset(env('RAILS_ENV: ${RAILS_ENV}')).length, 1);
  for (const to of ['RAILS_ENV: ${RAILS_ENV:-production}', 'RAILS_ENV: production', 'RAILS_ENV: $RAILS_ENV\n      RACK_ENV: production']) assert.deepEqual(unset(env(to)), [], to);
  assert.deepEqual(unset(edit(TRACKS, 'docker-compose.yml', 'target: production', 'target: development')), []);
  assert.deepEqual(unset(edit(TRACKS, 'docker-compose.yml', '    build:\n      context: .\n      target: production\n', '    image: tracks:latest\n')), []);
});
