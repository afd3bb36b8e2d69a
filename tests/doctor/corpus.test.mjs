// --check on 25 public Rails apps (tests/fixtures/real-apps, configs only; repository, commit and licence
// in each SOURCE.json): precision and recall against the problems judged by hand in expected.json, the
// README table generated from the same run, and the defects the first corpus run showed (issue 25).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCorpus, table, apps, CORPUS } from '../../scripts/lib/doctor-corpus.mjs';
import { ROOT, undefinedInSuggestions } from './helpers.mjs';
import { invalidYamlSuggestions } from './yaml-suggestions.mjs';

const result = runCorpus();
const byApp = Object.fromEntries(result.rows.map((r) => [r.app, r]));

test('the corpus: at least 20 apps, each with its source, commit and a permissive licence', () => {
  assert.ok(apps().length >= 20, `${apps().length} apps`);
  for (const a of apps()) {
    const src = JSON.parse(readFileSync(join(CORPUS, a, 'SOURCE.json'), 'utf8'));
    assert.match(src.repository, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/, a);
    assert.match(src.commit, /^[0-9a-f]{40}$/, a);
    assert.ok(['MIT', 'BSD-3-Clause', 'CC0-1.0', 'Apache-2.0'].includes(src.licence), `${a}: ${src.licence}`);
    assert.ok(existsSync(join(CORPUS, a, 'LICENSE.upstream')), `${a}: licence text kept`);
    for (const f of src.files) assert.ok(existsSync(join(CORPUS, a, f)), `${a}: ${f}`);
    assert.ok(result.expected.apps[a], `${a} judged in expected.json`);
  }
});

test('precision ≥ 95 % and recall ≥ 90 % against the judged problems', () => {
  const fp = result.rows.flatMap((r) => r.falsePositives.map((f) => `${r.app}: ${f.severity} ${f.rule} ${f.file}:${f.line} ${f.message}`));
  const missed = result.rows.flatMap((r) => r.missed.map((p) => `${r.app}: ${p.rule} ${p.file} (${p.why})`));
  assert.ok(result.precision >= 0.95, `precision ${result.tp}/${result.strong}; not judged problems:\n${fp.join('\n')}`);
  assert.ok(result.recall >= 0.9, `recall ${result.found}/${result.judged}; missed:\n${missed.join('\n')}`);
  assert.ok(result.judged >= 3, 'the corpus holds judged problems to find');
});

test('no app is refused except where expected.json says why', () => {
  for (const r of result.rows) assert.deepEqual(r.unexpectedProblems, [], r.app);
});

test('notes are true: nothing the file sets is "not set", nothing a library configures is "missing"', () => {
  for (const r of result.rows) {
    const text = (file) => { try { return readFileSync(join(CORPUS, r.app, file), 'utf8'); } catch { return ''; } };
    for (const f of r.report.findings.filter((x) => x.rule === 'missing')) {
      const t = text(f.file);
      // sidekiq.yml's `:concurrency:` is Sidekiq's concurrency.
      assert.doesNotMatch(t, new RegExp(`^\\s*:?${f.setting}:`, 'm'), `${r.app}: ${f.file} sets ${f.setting}, yet "${f.message}"`);
      assert.doesNotMatch(t, /\.configure\w*\(\s*self\s*\)/, `${r.app}: ${f.file} hands its configuration to a library, yet "${f.message}"`);
    }
  }
});

test('every suggested YAML edit, applied, still parses (sidekiq.yml, database.yml, queue.yml, deploy.yml)', () => {
  let n = 0;
  for (const r of result.rows) {
    n += r.report.findings.filter((f) => f.diff && /\.ya?ml$/.test(f.file)).length;
    assert.deepEqual(invalidYamlSuggestions(r.report, join(CORPUS, r.app)), [], r.app);
  }
  // Few since notes no longer carry diffs with wizard numbers (choice.mjs): the pool fixes are what is left.
  assert.ok(n >= 3, `${n} YAML suggestions checked`);
});

test('README prints the table of this run', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(readme.includes(table(result)), 'README table is stale: run node scripts/doctor-corpus.mjs and paste its output');
});

test('the defects of the first corpus run stay fixed', () => {
  for (const r of result.rows) {
    const seen = new Set();
    for (const f of r.report.findings) {
      assert.doesNotMatch(f.message, /\(empty\)/, `${r.app}: ${f.message}`);
      assert.ok(!(f.setting === 'environment' && f.rule === 'differs'), `${r.app}: environment ENV.fetch("RAILS_ENV") is not a difference`);
      if (f.diff) assert.doesNotMatch(f.diff, /^-.*plugin :solid_queue/m, `${r.app}: never suggest removing plugin :solid_queue`);
      const key = `${f.rule} ${f.file} ${f.line} ${f.setting}`;
      assert.ok(!seen.has(key), `${r.app}: duplicate ${key}`);
      seen.add(key);
    }
  }
  // Resque apps get no Solid Queue advice.
  for (const a of ['campfire', 'writebook']) assert.ok(!byApp[a].report.findings.some((f) => /solid.?queue/i.test(f.message)), a);
  // `gem "puma", "< 7"` is not Puma 7; a Pitchfork app is a Pitchfork app.
  assert.equal(byApp.solidus.report.detected.server_version, undefined);
  assert.equal(byApp.feedbin.report.detected.server.value, 'pitchfork');
  // File.exist? in database.yml ERB: the value is unknown, the run goes on.
  assert.deepEqual(byApp.huginn.report.problems, []);
  assert.ok(byApp.huginn.report.files.find((f) => f.kind === 'database-yml').notes.some((n) => /not evaluated/.test(n.message)));
  // prune_bundler/preload_app! inside `if ENV.fetch("RAILS_ENV") == "production"` are read (not "missing preload_app!").
  assert.ok(!byApp.lobsters.report.findings.some((f) => f.rule === 'missing' && f.setting === 'preload_app!'));
  const pool = byApp.lobsters.report.findings.find((f) => f.rule === 'pool-below-threads');
  assert.match(pool.message, /Rails’ default, 5/);
  assert.match(pool.message, /10 threads/);
  assert.match(pool.message, /production/);
});

test('every Ruby suggestion on the corpus, applied, names only what the file defines (no NameError at load)', () => {
  let checked = 0;
  for (const r of result.rows) {
    const u = undefinedInSuggestions(join(CORPUS, r.app), r.report);
    assert.deepEqual(u.problems, [], r.app);
    checked += u.checked;
  }
  // Wizard numbers and assumed paths get no diff (choice.mjs): what remains are number-free lines (plugin :tmp_restart).
  assert.ok(checked >= 2, `${checked} Ruby suggestions checked`);
});

test('vita-min: production\'s pool is the deploy anchor\'s RAILS_MAX_THREADS + 1 = 6, not the test environment\'s 10', () => {
  // User trial (issue 25): expected.json said "pool 10 in the shared deploy anchor"; 10 is `test:`'s pool.
  const r = byApp['vita-min'].report;
  const pool = r.facts.find((f) => f.name === 'database.yml pool');
  assert.equal(String(pool.value), '6');
  assert.equal(pool.line, 12);
  const yml = readFileSync(join(CORPUS, 'vita-min', 'config', 'database.yml'), 'utf8').split('\n');
  assert.match(yml[11], /pool: <%= ENV\.fetch\("RAILS_MAX_THREADS"\) \{ 5 \}\.to_i \+ 1 %>/);
  assert.match(yml[25], /pool: 10/);
  assert.ok(!r.findings.some((f) => /database\.yml$/.test(f.file) && f.line === 26), 'nothing built on the test pool');
  const judged = result.expected.apps['vita-min'].clean;
  assert.match(judged, /RAILS_MAX_THREADS \+ 1 = 6/);
  assert.doesNotMatch(judged, /pool 10 in the (shared )?deploy/);
  // 6 ≥ 5 threads: no pool problem is judged or reported at warning or above.
  assert.deepEqual(result.expected.apps['vita-min'].problems, []);
  assert.equal(r.findings.filter((f) => f.severity !== 'note').length, 0);
});
