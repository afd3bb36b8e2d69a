// What an eighth blind trial of --check got wrong or missed (issue 25, /work/notes/trial8-review.md), on apps chosen
// because their production config had a known problem (most at the commit before their maintainers fixed it).
// Permissive apps are copied under tests/fixtures/trial-apps/ (SOURCE.json, LICENSE.upstream); the AGPL ones are
// written in their shape under tests/fixtures/trial8-shapes/ (NOTE.md names them).
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
const at = (r, rule) => r.findings.filter((f) => f.rule === rule).map((f) => `${f.severity} ${f.file}:${f.line} ${f.found}→${f.expected}`);

test('Sidekiq 4.0/5.0 with no concurrency runs 25 threads, against a pool of 5 (dlme 2017-08, prison-visits-2 2016-05)', () => {
  // dlme: sidekiq 5.0.4, sidekiq.yml lists queues only, production has no pool: (Rails' 5). Its maintainers set
  // RAILS_MAX_THREADS=5 after ConnectionTimeoutErrors (PR #106); Sidekiq 4.2+ reads that variable.
  const dlme = files(join(TRIAL, 'dlme-2017-08'));
  assert.deepEqual(at(check(dlme), 'pool-below-concurrency'), ['error config/sidekiq.yml:1 25→5']);
  assert.match(check(dlme).findings.find((f) => f.rule === 'pool-below-concurrency').message, /Sidekiq runs 25 threads \(Sidekiq 5\.0's default, sidekiq 5\.0\.4 at Gemfile\.lock:\d+; RAILS_MAX_THREADS unset\)/);
  const withRmt = [...dlme, { path: '.env.production', text: 'RAILS_MAX_THREADS=5\n' }];
  assert.deepEqual(at(check(withRmt), 'pool-below-concurrency'), []);
  // prison-visits-2: sidekiq 4.0.1, which does not read RAILS_MAX_THREADS (cli.rb reads it from 4.2.0): 25 even with it set.
  const pvb = files(join(TRIAL, 'prison-visits-2-2016-05'));
  assert.deepEqual(at(check(pvb), 'pool-below-concurrency'), ['error config/sidekiq.yml:1 25→5']);
  const pvbRmt = [...pvb, { path: '.env.production', text: 'RAILS_MAX_THREADS=5\n' }];
  assert.match(check(pvbRmt).findings.find((f) => f.rule === 'pool-below-concurrency')?.message ?? '', /sidekiq 4\.0\.1 at Gemfile\.lock:\d+, which does not read RAILS_MAX_THREADS/);
  // Sidekiq 5.2 lowered the default to 10; 10 > 5 is still an error, a pool of 10 is not.
  const v52 = edit(dlme, 'Gemfile.lock', '    sidekiq (5.0.4)', '    sidekiq (5.2.0)');
  assert.deepEqual(at(check(v52), 'pool-below-concurrency'), ['error config/sidekiq.yml:1 10→5']);
  const pool10 = edit(v52, 'config/database.yml', '  adapter: postgresql\n  encoding: unicode\n', '  adapter: postgresql\n  encoding: unicode\n  pool: 10\n');
  assert.deepEqual(at(check(pool10), 'pool-below-concurrency'), []);
});

test('Puma plugins are a set: the wizard\'s plugin :tmp_restart is added beside plugin :solid_queue, never in its place (mushroom-observer 2026-07)', () => {
  // The folder holds no Gemfile, so collect() walks it: its two systemd units are read too; left out here.
  const mo = files(join(TRIAL, 'mushroom-observer-2026-07')).filter((f) => !f.path.startsWith('config/etc/'));
  const plugin = check(mo).findings.filter((f) => f.setting === 'plugin');
  assert.deepEqual(plugin.map((f) => `${f.rule} ${f.severity} ${f.found}→${f.expected}`), ['missing note null→:tmp_restart']);
  assert.match(plugin[0].message, /^plugin :tmp_restart is not set \(the file loads :solid_queue\)/);
  assert.doesNotMatch(plugin[0].diff, /^-plugin :solid_queue/m);
  assert.match(plugin[0].diff, /^\+plugin :tmp_restart$/m);
  // Both loaded: nothing to say; a file with no plugin keeps the plain "plugin is not set".
  const both = edit(mo, 'config/puma.rb', 'plugin :solid_queue\n', 'plugin :solid_queue\nplugin :tmp_restart\n');
  assert.deepEqual(check(both).findings.filter((f) => f.setting === 'plugin'), []);
  const none = check(edit(mo, 'config/puma.rb', 'plugin :solid_queue\n', '\n')).findings.filter((f) => f.setting === 'plugin');
  assert.match(none[0]?.message ?? '', /^plugin is not set;/);
});

// YACS-RCOS/yacs (AGPL-3.0) at 4866ab4716fb4b269db70858a042a4d9a0a3f6c2, core/: its image and its Gemfile name one
// Ruby, while Gemfile.lock still records the one the bundle was first resolved with. Written in that shape, not copied.
const yacsShape = (lockRuby) => [
  { path: 'Dockerfile', text: 'FROM ruby:2.6.3\nWORKDIR /srv\nCOPY . .\nRUN bundle install\n' },
  { path: 'Gemfile', text: "source 'https://rubygems.org'\nruby '2.6.3'\ngem 'rails', '~> 5.1.4'\ngem 'puma'\ngem 'pg'\n" },
  { path: 'Gemfile.lock', text: `GEM\n  remote: https://rubygems.org/\n  specs:\n    pg (0.21.0)\n    puma (3.11.0)\n    rails (5.1.4)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  pg\n  puma\n  rails (~> 5.1.4)\n\nRUBY VERSION\n   ruby ${lockRuby}\n\nBUNDLED WITH\n   1.16.1\n` },
];

test('a Gemfile.lock RUBY VERSION that the Gemfile\'s ruby line rejects is stale, not the Ruby of development and CI (yacs 2019-10)', () => {
  const mismatch = (fs) => check(fs).findings.filter((f) => f.rule === 'ruby-mismatch').map((f) => `${f.severity} ${f.found}→${f.expected}`);
  assert.deepEqual(mismatch(yacsShape('2.4.2p198')), []);
  // A lock the Gemfile allows still speaks for development: another minor in the image is the warning it was.
  const loose = yacsShape('2.5.1p57').map((f) => (f.path === 'Gemfile' ? { ...f, text: f.text.replace("ruby '2.6.3'", "ruby '>= 2.5'") } : f));
  assert.deepEqual(mismatch(loose), ['warning 2.6.3→2.5.1']);
  // .ruby-version, when present, is what the version managers pick, whatever the lock says.
  assert.ok(mismatch([...yacsShape('2.4.2p198'), { path: '.ruby-version', text: '2.5.1\n' }]).includes('warning 2.6.3→2.5.1'));
});

test('an alias named by ERB (`<<: *<%= ENV[\'DB\'] || "mysql" %>`) is read as its default, not refused as aliases that "expand too far" (lagotto 2015-06)', () => {
  const lagotto = files(join(TRIAL, 'lagotto-2015-06'));
  const r = check(lagotto);
  assert.deepEqual(r.problems, []);
  const db = r.files.find((f) => f.path === 'config/database.yml');
  assert.deepEqual(db.notes.map((n) => `${n.line} ${n.message}`), ['19 the alias <%= ENV[\'DB\'] || "mysql" %> is read as *mysql (DB unset)']);
  // The merged section is mysql's: the adapter is mysql2, from the alias's default.
  assert.equal(r.detected.adapter?.value, 'mysql2');
  // No default: the anchor is unknown, and the refusal says so (not "expand too far").
  const unknown = check(edit(lagotto, 'config/database.yml', `<<: *<%= ENV['DB'] || "mysql" %>`, `<<: *<%= ENV['DB'] %>`));
  assert.deepEqual(unknown.problems.map((p) => `${p.code} ${p.file}`), ['erb-anchor config/database.yml']);
  assert.match(unknown.problems[0].message, /anchor or alias named by ERB/);
});

test('Solid Queue run twice: an unconditional plugin :solid_queue and a systemd unit that runs solid_queue:start beside the Puma unit (mushroom-observer 2026-07)', () => {
  const withUnits = files(join(TRIAL, 'mushroom-observer-2026-07'));
  assert.deepEqual(withUnits.filter((f) => f.path.startsWith('config/etc/')).map((f) => f.path).sort(), ['config/etc/puma.service', 'config/etc/solidqueue.service']);
  const twice = (fs) => check(fs).findings.filter((f) => f.rule === 'jobs-run-twice').map((f) => `${f.severity} ${f.file}:${f.line}`);
  assert.deepEqual(twice(withUnits), ['warning config/puma.rb:32']);
  // The maintainers' fix (PR #4657): the plugin left out of production.
  assert.deepEqual(twice(edit(withUnits, 'config/puma.rb', 'plugin :solid_queue\n', 'plugin :solid_queue unless rails_env == "production"\n')), []);
  // The jobs unit alone (a jobs-only host may share the repository's puma.rb): nothing claimed.
  assert.deepEqual(twice(withUnits.filter((f) => !f.path.endsWith('puma.service'))), []);
});
