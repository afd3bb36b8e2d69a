// What a fifth blind trial of --check missed or got wrong (issue 25, 2026-11-26, /tmp/trial5/JUDGEMENT.md), proven on
// the public apps' own files, copied into the corpus (tests/fixtures/real-apps, SOURCE.json: repository, commit, MIT
// licence): the development image inaturalist builds on purpose (a note, not a warning), spree_starter's
// `bin/rake sidekiq` (a note: only the app's and Sidekiq's tasks are known), helpy's sucker_punch (jobs = none, a note
// that jobs are lost on restart); and, on a fixture written in the shape of theforeman/foreman (GPL-3.0, not copied:
// tests/fixtures/foreman-shape/NOTE.md), DATABASE_URL's ?pool= from a Compose service against Puma's threads
// and the Compose worker's `sidekiq -c 15`, and the Gemfile's bundler.d/*.rb read for Puma's pin.
// Variations change one line of the real files in memory, to show what each judgement rests on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import '../../guide/engine/index.mjs';
import { ROOT } from './helpers.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';
import { partPatterns, partFiles } from '../../guide/check/gemfile-parts.mjs';

const CORPUS = join(ROOT, 'tests', 'fixtures', 'real-apps');
// Outside tests/doctor/fixtures: its Gemfile's `Dir[…].each` is not a shape the Ruby reader/Prism parity test covers.
const FOREMAN = join(ROOT, 'tests', 'fixtures', 'foreman-shape');
const files = (dir) => collect([dir], undefined, dir);
const app = (name) => files(join(CORPUS, name));
const strong = (r) => r.findings.filter((f) => f.severity !== 'note').map((f) => `${f.severity} ${f.rule} ${f.file}:${f.line}`).sort();
/** The app's files with one file's text changed (a string replaced, which must be there). */
const edit = (fs, path, from, to) => fs.map((x) => {
  if (x.path !== path) return x;
  assert.ok(x.text.includes(from), `${path} holds ${JSON.stringify(from)}`);
  return { ...x, text: x.text.replace(from, to) };
});
const without = (fs, path) => { assert.ok(fs.some((x) => x.path === path), path); return fs.filter((x) => x.path !== path); };

test('foreman shape: DATABASE_URL …?pool=5 in the Compose app service is the pool: Puma’s 16 threads and the worker’s sidekiq -c 15 are errors there', () => {
  const r = check(files(FOREMAN));
  assert.deepEqual(strong(r), ['error pool-below-concurrency docker-compose.yml:23', 'error pool-below-threads docker-compose.yml:15']);
  const web = r.findings.find((f) => f.rule === 'pool-below-threads');
  assert.deepEqual([web.found, web.expected, web.setting], ['5', '16', 'pool']);
  assert.match(web.message, /production's pool is 5 \(DATABASE_URL …\?pool=5\) but Puma runs 16 threads per process \(config\/puma\/production\.rb:2\) with FOREMAN_PUMA_THREADS_MAX unset/);
  assert.match(web.message, /Set pool: 16 .* in DATABASE_URL's \?pool= \(docker-compose\.yml:15\)/);
  assert.equal(web.diff, null, 'a URL is not database.yml: no diff');
  const job = r.findings.find((f) => f.rule === 'pool-below-concurrency');
  assert.deepEqual([job.found, job.expected], ['15', '5']);
  assert.match(job.message, /Sidekiq runs 15 threads but production's pool is 5 \(docker-compose\.yml:15, DATABASE_URL …\?pool=5\)/);
  assert.deepEqual(job.related, [{ file: 'docker-compose.yml', line: 15 }]);
});

test('foreman shape variations: a URL without ?pool= claims nothing, a larger ?pool= is enough, ?pool= wins over database.yml’s pool:, a Procfile or Kamal worker is read the same', () => {
  const fs = files(FOREMAN);
  assert.deepEqual(strong(check(edit(fs, 'docker-compose.yml', 'db/app?pool=5', 'db/app'))), []);
  assert.deepEqual(strong(check(edit(fs, 'docker-compose.yml', 'db/app?pool=5', 'db/app?sslmode=disable&pool=20'))), []);
  // Rails merges the URL over production's primary: database.yml's 30 does not apply while the URL says 5.
  const yml = { path: 'config/database.yml', text: 'production:\n  adapter: postgresql\n  database: app\n  pool: 30\n' };
  assert.deepEqual(strong(check([...fs, yml])), ['error pool-below-concurrency docker-compose.yml:23', 'error pool-below-threads docker-compose.yml:15']);
  // …unless production's url: is a literal of its own (a URL config: Rails reads that one, not DATABASE_URL).
  const own = { path: 'config/database.yml', text: 'production:\n  url: postgres://db/app?pool=30\n' };
  assert.deepEqual(strong(check([...fs, own])), []);
  // The worker's own environment: a service that sets another DATABASE_URL gets that pool.
  const ownUrl = edit(fs, 'docker-compose.yml', '    ports: []\n', '    ports: []\n    environment:\n      - DATABASE_URL=postgres://app:app@db/app?pool=15\n      - RAILS_ENV=production\n');
  assert.deepEqual(strong(check(ownUrl)), ['error pool-below-threads docker-compose.yml:15']);
  // Compose's list form of command.
  const list = edit(fs, 'docker-compose.yml', 'command: bundle exec sidekiq -r ./extras/jobs.rb -c 15 -q default,1', 'command: ["bundle", "exec", "sidekiq", "-c", "15"]');
  assert.ok(strong(check(list)).includes('error pool-below-concurrency docker-compose.yml:23'));
  // A Procfile line and a Kamal role cmd with the same pool.
  const noWorker = edit(fs, 'docker-compose.yml', 'command: bundle exec sidekiq -r ./extras/jobs.rb -c 15 -q default,1', 'command: bundle exec bin/rails runner "sleep"');
  assert.ok(strong(check([...noWorker, { path: 'Procfile', text: 'web: bundle exec bin/rails server\nworker: bundle exec sidekiq -c 12\n' }])).includes('error pool-below-concurrency Procfile:2'));
  const kamal = { path: 'config/deploy.yml', text: 'service: app\nimage: app\nservers:\n  web:\n    - 192.0.2.1\n  job:\n    hosts:\n      - 192.0.2.2\n    cmd: bundle exec sidekiq -c 12\nenv:\n  clear:\n    DATABASE_URL: postgres://db/app?pool=5\n' };
  assert.ok(strong(check([...noWorker, kamal])).includes('error pool-below-concurrency config/deploy.yml:9'));
});

test('the trial’s url-pool repro: database.yml url: from DATABASE_URL with a Compose URL carrying ?pool=5 is an error, no longer a vanished note', () => {
  const yml = { path: 'config/database.yml', text: 'production:\n  adapter: postgresql\n  url: <%= ENV["DATABASE_URL"] %>\n' };
  const puma = { path: 'config/puma.rb', text: 'threads 10, 10\n' };
  const note = check([yml, puma]).findings.filter((f) => f.rule === 'pool-below-threads');
  assert.deepEqual(note.map((f) => `${f.severity} ${f.file}:${f.line}`), ['note config/database.yml:3']);
  const compose = { path: 'docker-compose.yml', text: 'services:\n  web:\n    command: bundle exec puma -C config/puma.rb\n    environment:\n      RAILS_ENV: production\n      DATABASE_URL: postgres://db/app?pool=5\n' };
  const r = check([yml, puma, compose]).findings.filter((f) => f.rule === 'pool-below-threads');
  assert.deepEqual(r.map((f) => `${f.severity} ${f.file}:${f.line} ${f.found}`), ['error docker-compose.yml:6 5']);
});

test('foreman shape: bundler.d/*.rb that the Gemfile instance_evals are read, so Puma is pinned below 7 and on_worker_boot gets no before_worker_boot advice; unread, the version is unknown', () => {
  const fs = files(FOREMAN);
  assert.deepEqual(fs.filter((x) => x.kind === 'gemfile-part').map((x) => x.path), ['bundler.d/jobs.rb', 'bundler.d/service.rb']);
  const r = check(fs);
  assert.deepEqual([r.detected.server.value, r.detected.server_version.value, r.detected.server_version.file, r.detected.server_version.line], ['puma', '5.1', 'bundler.d/service.rb', 1]);
  assert.equal(r.detected.jobs.value, 'sidekiq');
  assert.deepEqual(r.findings.filter((f) => f.rule === 'obsolete'), []);
  // Without the parts (a Gemfile whose evaluated files are not there): Puma's version is unknown, said as such.
  const bare = check(fs.filter((x) => x.kind !== 'gemfile-part'));
  assert.equal(bare.detected.server_version, undefined);
  const ob = bare.findings.filter((f) => f.rule === 'obsolete');
  assert.deepEqual(ob.map((f) => `${f.severity} ${f.file}:${f.line} ${f.setting}`), ['note config/puma/production.rb:10 on_worker_boot']);
  assert.match(ob[0].message, /deprecated since Puma 7\.0 .*before_worker_boot there; it does not exist in earlier releases.*Puma's version is unknown: no Gemfile\.lock is read and Gemfile:10 evaluates files that were not read/);
  assert.doesNotMatch(ob[0].message, /assumed: the wizard's default/);
});

test('Gemfile parts: literal paths only, inside the app, bounded', () => {
  assert.deepEqual(partPatterns('Dir["#{File.dirname(F)}/bundler.d/*.rb"].each { |f| instance_eval(Bundler.read_file(f)) }'), [{ dir: 'bundler.d', glob: '.rb', name: null }]);
  assert.deepEqual(partPatterns('eval_gemfile "gemfiles/common.rb"\neval_gemfile "../outside.rb"\neval_gemfile "/etc/x.rb"\n'), [{ dir: 'gemfiles', glob: null, name: 'common.rb' }]);
  assert.deepEqual(partPatterns('gem "puma", "6.4"\n# instance_eval "x.rb"\n'), []);
  const many = Array.from({ length: 50 }, (_, k) => `p${String(k).padStart(2, '0')}.rb`);
  assert.equal(partFiles([{ dir: 'bundler.d', glob: '.rb', name: null }], () => many).length, 20);
  // A 1 MB line of quotes and word characters is skipped (lines over 500 characters), in linear time.
  const t = Date.now();
  assert.deepEqual(partPatterns(`instance_eval ${'"a'.repeat(500000)}`), []);
  assert.ok(Date.now() - t < 2000);
});

test('inaturalist: RAILS_ENV=development in an image whose config/database.yml is "an example of a local database setup" is a note; without that file, a warning again', () => {
  const fs = app('inaturalist');
  const r = check(fs);
  assert.deepEqual(strong(r), []);
  const f = r.findings.find((x) => x.rule === 'development-env');
  assert.deepEqual([f.severity, f.file, f.line, f.found], ['note', 'Dockerfile', 3, 'development']);
  assert.match(f.message, /the image's config\/database\.yml is config\/database\.docker\.yml \(copied at Dockerfile:45\), whose header says "Example of a local database setup\.": a development image by design/);
  assert.deepEqual(strong(check(without(fs, 'config/database.docker.yml'))), ['warning development-env Dockerfile:3']);
  // A header that names no local or example setup (Rails' generated one) changes nothing.
  assert.deepEqual(strong(check(edit(fs, 'config/database.docker.yml', '# Example of a local database setup.', '# PostgreSQL. Versions 9.3 and up are supported.'))), ['warning development-env Dockerfile:3']);
});

test('the true development-env warnings stay: spree_starter 2025-04 ("designed for production"), publishing-api 2017-05, whitehall 2018-07', () => {
  assert.deepEqual(strong(check(app('spree_starter-2025-04'))), ['warning development-env Dockerfile:19']);
  for (const a of ['publishing-api-2017-05', 'whitehall-2018-07']) assert.ok(strong(check(app(a))).includes('warning development-env Dockerfile:10'), a);
});

test('spree_starter: `worker: bin/rake sidekiq` is a note (no rake file read defines it, Sidekiq ships none, another gem could); a task of that name, or rake files the reader cannot follow, silence it', () => {
  const fs = app('spree_starter');
  const r = check(fs);
  assert.deepEqual(strong(r), []);
  const f = r.findings.filter((x) => x.rule === 'task-missing');
  assert.deepEqual(f.map((x) => `${x.severity} ${x.file}:${x.line} ${x.setting}`), ['note Procfile:3 sidekiq']);
  assert.match(f[0].message, /the Procfile's worker process runs `rake sidekiq`, but no rake file read \(Rakefile\) defines a `sidekiq` task and the sidekiq gem \(Gemfile\.lock:\d+\) ships none: Sidekiq runs as its own executable, `bundle exec sidekiq`/);
  assert.match(f[0].message, /production's jobs go to Sidekiq \(config\/environments\/production\.rb:65\)/);
  assert.deepEqual(f[0].related, [{ file: 'config/environments/production.rb', line: 65 }]);
  const own = [...fs, { path: 'lib/tasks/sidekiq.rake', text: 'task :sidekiq do\n  exec "bundle exec sidekiq"\nend\n' }];
  assert.deepEqual(check(own).findings.filter((x) => x.rule === 'task-missing'), []);
  const dynamic = [...fs, { path: 'lib/tasks/gen.rake', text: '%w[a b].each do |n|\n  task n do\n  end\nend\n' }];
  assert.deepEqual(check(dynamic).findings.filter((x) => x.rule === 'task-missing'), []);
  assert.deepEqual(check(without(fs, 'Rakefile')).findings.filter((x) => x.rule === 'task-missing'), []);
  // The real task (as before e8555a8) is nothing to say.
  assert.deepEqual(check(edit(fs, 'Procfile', 'bin/rake sidekiq', 'bundle exec sidekiq')).findings.filter((x) => x.rule === 'task-missing'), []);
});

test('helpy: sucker_punch from config/application.rb is production’s adapter: jobs = none (no Solid Queue comparison) and a jobs-lost note with its README', () => {
  const fs = app('helpy');
  const r = check(fs);
  assert.deepEqual(strong(r), ['error pool-below-threads config/database.yml:6', 'warning ruby-mismatch Dockerfile:1']);
  assert.deepEqual([r.detected.jobs.value, r.detected.jobs.file, r.detected.jobs.line], ['none', 'config/application.rb', 25]);
  assert.match(r.detected.jobs.from, /queue_adapter = :sucker_punch, a backend the wizard writes no configuration for/);
  const f = r.findings.filter((x) => x.rule === 'jobs-lost');
  assert.deepEqual(f.map((x) => `${x.severity} ${x.file}:${x.line}`), ['note config/application.rb:25']);
  assert.match(f[0].message, /jobs wait in the memory of each web process .* a restart, deploy or crash drops those still queued/);
  assert.ok(f[0].evidence.some((e) => /sucker_punch/.test(e.url)));
  assert.ok(!r.findings.some((x) => x.rule !== 'jobs-lost' && /solid.?queue/i.test(x.message)), 'no Solid Queue advice');
  // production.rb's own adapter wins; Resque is a backend the wizard has no option for either.
  const resque = [...fs.filter((x) => x.path !== 'config/environments/production.rb'), { ...fs.find((x) => x.path === 'config/environments/production.rb'), text: `${fs.find((x) => x.path === 'config/environments/production.rb').text}\nRails.application.configure do\n  config.active_job.queue_adapter = :resque\nend\n` }];
  const rr = check(resque);
  assert.equal(rr.detected.jobs.value, 'none');
  assert.match(rr.detected.jobs.from, /:resque/);
  assert.deepEqual(rr.findings.filter((x) => x.rule === 'jobs-lost'), []);
});
