// What a sixth blind trial of --check got wrong or missed (issue 25): an environment file's "missing" variables taken
// from the wizard's own env files (planningalerts' .env.production: DATABASE_PASSWORD, JOBS_STATEMENT_TIMEOUT and
// RAILS_MAX_THREADS "read by database.yml", which takes its password from credentials and has a literal pool), on a
// fixture written in the shape of openaustralia/planningalerts (GPL-2.0, not copied: tests/fixtures/planningalerts-shape/
// NOTE.md); and Sidekiq's `-c 10` with no database.yml (catarse/catarse, MIT, its files copied under
// tests/fixtures/trial-apps/, SOURCE.json). Variations change one file in memory, to show what each judgement rests on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import '../../guide/engine/index.mjs';
import { ROOT } from './helpers.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';
import { readFile } from '../../guide/check/read.mjs';
import { appEnvReads } from '../../guide/check/env-reads.mjs';

const SHAPE = join(ROOT, 'tests', 'fixtures', 'planningalerts-shape');
const TRIAL = join(ROOT, 'tests', 'fixtures', 'trial-apps');
const CATARSE = join(TRIAL, readdirSync(TRIAL).find((n) => n.startsWith('catarse')));
const files = (dir) => collect([dir], undefined, dir);
const envNotes = (r) => r.findings.filter((f) => f.rule === 'missing' && /(^|\/)\.env|\.env$/.test(f.file)).map((f) => f.setting).sort();
const edit = (fs, path, from, to) => fs.map((x) => {
  if (x.path !== path) return x;
  assert.ok(x.text.includes(from), `${path} holds ${JSON.stringify(from)}`);
  return { ...x, text: x.text.replace(from, to) };
});
const strong = (r) => r.findings.filter((f) => f.severity !== 'note').map((f) => `${f.severity} ${f.rule} ${f.file}:${f.line}`).sort();

const shape = check(files(SHAPE));

test('planningalerts shape: nothing of the app reads DATABASE_PASSWORD or JOBS_STATEMENT_TIMEOUT, so .env.production is not "missing" them', () => {
  const r = shape;
  assert.ok(r.compared.some((c) => c.kind === 'env' && c.files.includes('.env.production')), 'the env file is compared');
  const notes = envNotes(r);
  // Before: WEB_CONCURRENCY, MALLOC_ARENA_MAX, RAILS_MAX_THREADS, JOBS_STATEMENT_TIMEOUT, RAILS_MASTER_KEY, DATABASE_PASSWORD.
  assert.deepEqual(notes.filter((v) => v !== 'RAILS_MAX_THREADS'), []);
  // The wizard's job-process env file is the job runner's, not the app's .env.production.
  assert.ok(r.notCompared.some((n) => n.generated === 'config/jobs.env'), JSON.stringify(r.notCompared));
  // puma.rb reads RAILS_MAX_THREADS: a note only if the wizard's threads differ from its default 5, naming puma.rb:2.
  for (const f of r.findings.filter((x) => x.rule === 'missing' && x.setting === 'RAILS_MAX_THREADS')) {
    assert.match(f.message, /config\/puma\/production\.rb:2 \(`max_threads = ENV\.fetch\("RAILS_MAX_THREADS"\) \{ 5 \}`\)/);
    assert.doesNotMatch(`${f.message} ${f.reason}`, /The app reads .*database\.yml/);
  }
});

test('planningalerts shape variations: the app’s own read makes the note, and names its line; a secret gets no diff', () => {
  const fs = files(SHAPE);
  const pw = edit(fs, 'config/database.yml', 'password: "<%= Rails.application.credentials.dig(:database, :password) %>"', 'password: <%= ENV["DATABASE_PASSWORD"] %>');
  const r = check(pw);
  const f = r.findings.find((x) => x.rule === 'missing' && x.setting === 'DATABASE_PASSWORD');
  assert.ok(f, envNotes(r).join(', '));
  assert.equal(f.file, '.env.production');
  assert.equal(f.severity, 'note');
  assert.match(f.message, /DATABASE_PASSWORD is not set in \.env\.production, and the app reads it \(config\/database\.yml:28 \(`password: <%= ENV\["DATABASE_PASSWORD"\] %>`\)\)/);
  assert.match(f.message, /set it where the app's secrets are kept/);
  assert.equal(f.diff, null, 'a secret is never suggested into a file');
  assert.deepEqual(f.related, [{ file: 'config/database.yml', line: 28 }]);
  // Read only in the development section (not merged into production), or in a comment: production does not read it.
  const dev = edit(fs, 'config/database.yml', '  username: postgres\n  password: password\n\ntest:', '  username: postgres\n  password: <%= ENV["DATABASE_PASSWORD"] %>\n\ntest:');
  const commented = edit(dev, 'config/database.yml', '#   password: "<%= Rails.application.credentials.dig(:database, :readonly_password) %>"', '#   password: <%= ENV["DATABASE_PASSWORD"] %>');
  assert.ok(!envNotes(check(commented)).includes('DATABASE_PASSWORD'));
  // Another file sets it for the process (the image's ENV): not missing from this one.
  assert.ok(!envNotes(check([...pw, { path: 'Dockerfile', text: 'FROM ruby:3.3\nENV DATABASE_PASSWORD=x\n' }])).includes('DATABASE_PASSWORD'));
  // A read whose default is the wizard's value: unset is the same.
  const wizardThreads = shape.bundle.files.find((x) => x.path === 'config/ruby.env')?.content.match(/^RAILS_MAX_THREADS=(\d+)/m)?.[1];
  assert.ok(wizardThreads, 'the wizard writes RAILS_MAX_THREADS');
  const same = edit(fs, 'config/puma/production.rb', 'ENV.fetch("RAILS_MAX_THREADS") { 5 }', `ENV.fetch("RAILS_MAX_THREADS") { ${wizardThreads} }`);
  assert.ok(!envNotes(check(same)).includes('RAILS_MAX_THREADS'));
  const other = edit(fs, 'config/puma/production.rb', 'ENV.fetch("RAILS_MAX_THREADS") { 5 }', `ENV.fetch("RAILS_MAX_THREADS") { ${Number(wizardThreads) + 1} }`);
  const t = check(other).findings.find((x) => x.rule === 'missing' && x.setting === 'RAILS_MAX_THREADS');
  assert.match(t.message, new RegExp(`config/puma/production\\.rb:2 .*the wizard's preference for these answers is RAILS_MAX_THREADS=${wizardThreads}, a choice`));
  assert.equal(t.diff, null, 'a wizard number gets no diff');
});

test('a job env file is compared with the wizard’s config/jobs.env: JOBS_STATEMENT_TIMEOUT only where database.yml reads it', () => {
  const fs = files(SHAPE);
  const jobs = { path: 'config/jobs.env', text: 'RAILS_MAX_THREADS=10\n' };
  assert.ok(!envNotes(check([...fs, jobs])).includes('JOBS_STATEMENT_TIMEOUT'));
  const pw = '  password: "<%= Rails.application.credentials.dig(:database, :password) %>"\n';
  const reads = edit(fs, 'config/database.yml', pw, `${pw}  variables:\n    statement_timeout: <%= ENV["JOBS_STATEMENT_TIMEOUT"] %>\n`);
  const r = check([...reads, jobs]);
  const n = r.findings.find((f) => f.rule === 'missing' && f.setting === 'JOBS_STATEMENT_TIMEOUT');
  assert.equal(n?.file, 'config/jobs.env', envNotes(r).join(', '));
  assert.match(n.message, /the app reads it \(config\/database\.yml:30 /);
  // …and the app's .env.production is not told to set the job process's timeout.
  assert.ok(!r.findings.some((f) => f.file === '.env.production' && f.setting === 'JOBS_STATEMENT_TIMEOUT'));
});

test('appEnvReads: Ruby and ERB reads with their line and default; comments, =begin blocks and development sections are not reads', () => {
  const f = (path, text) => readFile({ path, text });
  const m = appEnvReads([
    f('config/puma.rb', '# ENV["A"]\nthreads ENV.fetch("B") { 3 }, ENV.fetch("B", 4)\n=begin\nENV["C"]\n=end\nworkers 2 unless ENV.key?("WEB_CONCURRENCY")\nport ENV["PORT"] || 3000 # ENV["D"]\n'),
    f('config/database.yml', 'development:\n  password: <%= ENV["E"] %>\nproduction:\n  password: <%= ENV["F"] %>\n'),
    f('Procfile', 'worker: bundle exec sidekiq -c $SIDEKIQ_THREADS\n'),
  ]);
  assert.deepEqual([...m.keys()].sort(), ['B', 'F', 'PORT', 'SIDEKIQ_THREADS', 'WEB_CONCURRENCY']);
  assert.deepEqual(m.get('B').map((r) => `${r.file}:${r.line} ${r.fallback}`), ['config/puma.rb:2 3', 'config/puma.rb:2 4']);
  assert.equal(m.get('PORT')[0].fallback, '3000');
  assert.equal(m.get('WEB_CONCURRENCY')[0].fallback, undefined);
  assert.deepEqual(m.get('F').map((r) => `${r.file}:${r.line}`), ['config/database.yml:4']);
  assert.deepEqual(m.get('SIDEKIQ_THREADS').map((r) => `${r.file}:${r.line}`), ['Procfile:1']);
});

test('catarse: sidekiq -c 10 with no database.yml is a note (the pool is DATABASE_URL\'s, not in the files); -c wins over sidekiq.yml\'s 5', () => {
  const r = check(files(CATARSE));
  const notes = r.findings.filter((f) => f.rule === 'pool-below-concurrency');
  assert.deepEqual(notes.map((f) => `${f.severity} ${f.file}:${f.line} ${f.found}`), ['note Procfile:2 10']);
  assert.match(notes[0].message, /Sidekiq runs 10 threads and needs a pool of at least 10, but production's pool is not in the files read \(no config\/database\.yml was read\): Rails then takes it from DATABASE_URL, and it is Rails' default, 5, unless the URL carries \?pool=10 or more/);
  assert.deepEqual(strong(r), []);
  // The Procfile's -c 10 is what runs, though config/sidekiq.yml said `:concurrency: 5` for production (as it did at
  // catarse 0265db06): Sidekiq's CLI merges its options over the file's.
  const five = edit(files(CATARSE), 'config/sidekiq.yml', ':queues:', 'production:\n  :concurrency: 5\n:queues:');
  assert.equal(check(five).findings.find((f) => f.rule === 'pool-below-concurrency')?.found, '10');
  const yml = { path: 'config/database.yml', text: 'production:\n  adapter: postgresql\n  pool: 8\n' };
  const e = check([...five, yml]).findings.find((f) => f.rule === 'pool-below-concurrency');
  assert.deepEqual([e.severity, `${e.file}:${e.line}`, e.found, e.expected], ['error', 'Procfile:2', '10', '8']);
});

test('catarse variations: a visible pool is judged by the existing rules; -c 5, or no Active Record, says nothing', () => {
  const fs = files(CATARSE);
  const pools = (x) => check(x).findings.filter((f) => f.rule === 'pool-below-concurrency').map((f) => `${f.severity} ${f.file}:${f.line}`);
  // database.yml with pool: 10: the 10 threads fit.
  assert.deepEqual(pools([...fs, { path: 'config/database.yml', text: 'production:\n  adapter: postgresql\n  pool: 10\n' }]), []);
  // DATABASE_URL with ?pool= in an env file: visible; 25 is enough, 6 is an error on the worker's line.
  assert.deepEqual(pools([...fs, { path: '.env', text: 'DATABASE_URL=postgres://db/app?pool=25\n' }]), []);
  assert.deepEqual(pools([...fs, { path: '.env', text: 'DATABASE_URL=postgres://db/app?pool=6\n' }]), ['error Procfile:2']);
  // production url: from DATABASE_URL with no pool: the same note, naming that line.
  const u = check([...fs, { path: 'config/database.yml', text: 'production:\n  url: <%= ENV["DATABASE_URL"] %>\n' }]).findings.find((f) => f.rule === 'pool-below-concurrency');
  assert.equal(u.severity, 'note');
  assert.match(u.message, /config\/database\.yml:2 takes url: from DATABASE_URL with no pool: beside it/);
  // Sidekiq at Rails' default or below: nothing to say.
  assert.deepEqual(pools(edit(fs, 'Procfile', 'sidekiq -c 10 -C', 'sidekiq -c 5 -C')), []);
  // No Active Record in the lockfile: no pool to speak of.
  assert.deepEqual(pools(edit(fs, 'Gemfile.lock', '    activerecord (4.2.11)\n', '')), []);
});
