// What a seventh blind trial of --check got wrong or missed (issue 25, /work/notes/trial7-review.md): a "missing"
// diff into a database.yml whose keys ERB writes (baw-server, Apache-2.0), `bind unix` suggested to apps reached
// over TCP, jobs on Active Job's implicit :async adapter (metasmoke, CC0-1.0), Solid Queue run both in Puma and by
// a Kamal role, and detected answers the files contradict. Permissive apps are copied under tests/fixtures/trial-apps/
// (SOURCE.json); the others are written in their shape (tests/fixtures/trial7-shapes/NOTE.md names them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import '../../guide/engine/index.mjs';
import { ROOT } from './helpers.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';

const TRIAL = join(ROOT, 'tests', 'fixtures', 'trial-apps');
const files = (dir) => collect([dir], undefined, dir);
const edit = (fs, path, from, to) => fs.map((x) => {
  if (x.path !== path) return x;
  assert.ok(x.text.includes(from), `${path} holds ${JSON.stringify(from)}`);
  return { ...x, text: x.text.replace(from, to) };
});
const BAW = files(join(TRIAL, 'baw-server-2026-08'));

test('database.yml whose keys an ERB loop writes: no "missing" note, no top-level diff (baw-server)', () => {
  const r = check(BAW);
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.findings.filter((f) => f.file === 'config/database.yml').map((f) => `${f.rule} ${f.setting}`), []);
  // The same sections with a literal key beside the loop: still unknown, the loop may write the adapter.
  const lit = check(edit(BAW, 'config/database.yml', 'production:\n  _: _\n', 'production:\n  _: _\n  pool: 5\n'));
  assert.deepEqual(lit.findings.filter((f) => f.setting === 'adapter').map((f) => f.rule), []);
});

test('a missing key in a database.yml with ERB statements is at most a note without a diff; never a top-level key', () => {
  const lock = { path: 'Gemfile.lock', text: 'GEM\n  remote: https://rubygems.org/\n  specs:\n    pg (1.5.8)\n    rails (8.0.2)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  pg\n  rails\n' };
  const branch = check([lock, { path: 'config/database.yml', text: 'production:\n  database: app\n<% if ENV["REPLICA"] %>\n  host: replica\n<% end %>\n' }]);
  const a = branch.findings.find((f) => f.rule === 'missing' && f.setting === 'adapter');
  assert.ok(a, JSON.stringify(branch.findings.map((f) => f.setting)));
  assert.equal(a.diff, null);
  // Without ERB the same note keeps its diff, inside the production section.
  const plain = check([lock, { path: 'config/database.yml', text: 'production:\n  database: app\n' }]);
  assert.match(plain.findings.find((f) => f.rule === 'missing' && f.setting === 'adapter').diff, /\n\+  adapter: postgresql/);
});

const SHAPES = join(ROOT, 'tests', 'fixtures', 'trial7-shapes');
const shape = (a) => check(files(join(SHAPES, a)));
const binds = (r) => r.findings.filter((f) => f.setting === 'bind').map((f) => `${f.rule} ${f.file}:${f.line}`);

test('no `bind unix` for apps reached over TCP: Thruster in the Procfile (dradis-ce), Heroku $PORT (octobox), a container on PORT (lago-api)', () => {
  for (const a of ['dradis-ce', 'octobox', 'lago-api']) assert.deepEqual(binds(shape(a)), [], a);
  // What each rests on: without it, the note comes back.
  const dradis = files(join(SHAPES, 'dradis-ce'));
  assert.equal(binds(check(edit(dradis, 'Procfile', './bin/thrust ./bin/rails server', 'bundle exec puma -C config/puma.rb'))).length, 0, 'a Procfile web server with Puma on PORT');
  const noPort = edit(edit(dradis, 'Procfile', './bin/thrust ./bin/rails server', 'bundle exec puma -C config/puma.rb'), 'config/puma.rb', 'port ENV.fetch("PORT", 3000)', 'threads 5, 5');
  assert.equal(binds(check(noPort.filter((x) => x.path !== 'Dockerfile'))).length, 1, 'Procfile Puma, no port: nothing says TCP');
  const lago = files(join(SHAPES, 'lago-api'));
  assert.equal(binds(check(edit(lago, 'config/puma.rb', 'port ENV.fetch("PORT", 3000)', 'threads 3, 3'))).length, 1, 'a start script and no PORT: unknown');
  // A port or TCP bind flag on the web line, and a published Compose port of a production service that builds the app.
  assert.deepEqual(binds(check([...noPort.filter((x) => x.path !== 'Procfile' && x.path !== 'Dockerfile'), { path: 'Procfile', text: 'web: bundle exec rails server -p 3000\n' }])), []);
  const compose = (env) => ({ path: 'compose.yaml', text: `services:\n  web:\n    build: .\n    ports:\n      - "3000:3000"\n    environment:\n      RAILS_ENV: ${env}\n` });
  const bare = noPort.filter((x) => x.path !== 'Procfile' && x.path !== 'Dockerfile');
  assert.deepEqual(binds(check([...bare, compose('production')])), []);
  assert.equal(binds(check([...bare, compose('development')])).length, 1, 'a development Compose file says nothing of production');
});

const META = files(join(TRIAL, 'metasmoke-2025-07'));
const lost = (r) => r.findings.filter((f) => f.rule === 'jobs-lost').map((f) => `${f.severity} ${f.file}:${f.line}`);

test('jobs on Rails’ implicit :async adapter: a warning where job classes exist and nothing sets queue_adapter (metasmoke)', () => {
  assert.deepEqual(META.filter((x) => /^app\/jobs\//.test(x.path)).map((x) => x.path), ['app/jobs/application_job.rb', 'app/jobs/autoflag_job.rb', 'app/jobs/scheduled_mail_job.rb']);
  const r = check(META);
  assert.deepEqual(lost(r), ['warning config/environments/production.rb:1']);
  assert.match(r.findings.find((f) => f.rule === 'jobs-lost').message, /Rails' default :async adapter.*app\/jobs\/autoflag_job\.rb:3/);
  // An adapter set anywhere the app's Ruby sets it: an initializer (baw-server's line), a job class, application.rb.
  const init = { path: 'config/initializers/active_job.rb', kind: 'initializer', text: 'Rails.application.config.active_job.queue_adapter = :resque\n' };
  assert.deepEqual(lost(check([...META, init])), []);
  assert.deepEqual(lost(check(edit(META, 'app/jobs/application_job.rb', 'class ApplicationJob < ActiveJob::Base\n', 'class ApplicationJob < ActiveJob::Base\n  self.queue_adapter = :sidekiq\n'))), []);
  assert.deepEqual(lost(check([...META, { ...init, text: 'if ENV["QUEUE"]\n  Rails.application.config.active_job.queue_adapter = :sidekiq\nend\n' }])), [], 'a conditional one may be production’s');
  // No job but ApplicationJob (every Rails app has it), or Rails 4.2 (its default was :inline): nothing.
  assert.deepEqual(lost(check(META.filter((x) => !/_job\.rb$/.test(x.path) || /application_job/.test(x.path)))), []);
  assert.deepEqual(lost(check(edit(META, 'Gemfile.lock', '    rails (5.2.6.2)\n', '    rails (4.2.11)\n'))), []);
});

test('the collector reads initializers only where they name queue_adapter, and job classes only after that scan (baw-server)', () => {
  assert.deepEqual(BAW.filter((x) => /initializers|app\/jobs/.test(x.path)).map((x) => `${x.path} ${x.kind}`), ['config/initializers/active_job.rb initializer']);
  assert.deepEqual(lost(check(BAW)), []);
});

test('Solid Queue in Puma with no condition and a Kamal job role on the same host: started twice, a warning naming both lines (rails-new-io)', () => {
  const sq = files(join(SHAPES, 'rails-new-io'));
  const twice = (fs) => check(fs).findings.filter((f) => f.rule === 'jobs-run-twice');
  const [w, ...more] = twice(sq);
  assert.equal(more.length, 0);
  assert.deepEqual([w.severity, w.file, w.line], ['warning', 'config/puma.rb', 8]);
  assert.match(w.message, /config\/puma\.rb:8 .*role `job` \(config\/deploy\.yml:14: `bundle exec rails solid_queue:start`\)/);
  // The template's guard, a job role on another host, or no job role: started once.
  assert.deepEqual(twice(edit(sq, 'config/puma.rb', 'plugin :solid_queue\n', 'plugin :solid_queue if ENV["SOLID_QUEUE_IN_PUMA"]\n')), []);
  assert.deepEqual(twice(edit(sq, 'config/deploy.yml', '  job:\n    hosts:\n      - 192.0.2.10\n', '  job:\n    hosts:\n      - 192.0.2.11\n')), []);
  assert.deepEqual(twice(edit(sq, 'config/deploy.yml', '    cmd: bundle exec rails solid_queue:start\n', '    cmd: bin/jobs\n')).length, 1, 'bin/jobs is the same start');
  assert.deepEqual(twice(sq.filter((x) => x.path !== 'config/deploy.yml')), []);
});

test('detected answers the files contradicted: Resque from an initializer (baw-server), MariaDB from Compose (tracks), no pick among several adapter gems (fizzy)', () => {
  const baw = check(BAW);
  assert.deepEqual([baw.detected.jobs.value, baw.detected.jobs.file, baw.detected.jobs.line], ['none', 'config/initializers/active_job.rb', 4]);
  assert.match(baw.detected.jobs.from, /queue_adapter = :resque/);
  assert.equal(baw.undetected.some((u) => u.key === 'jobs'), false);
  const tracks = shape('tracks');
  assert.deepEqual([tracks.detected.database.value, tracks.detected.adapter.value, tracks.detected.adapter.file], ['mariadb', 'mysql2', 'docker-compose.yml']);
  const fizzy = shape('fizzy');
  assert.equal(fizzy.detected.database, undefined);
  assert.equal(fizzy.detected.adapter, undefined);
  assert.ok(fizzy.facts.some((f) => f.name === 'database adapter gems' && /trilogy, sqlite3/.test(f.value)), JSON.stringify(fizzy.facts));
  // One adapter gem is still taken from the lockfile, as before.
  const one = check(edit(files(join(SHAPES, 'fizzy')), 'Gemfile.lock', '    trilogy (2.12.6)\n', ''));
  assert.equal(one.detected.database.value, 'sqlite');
});
