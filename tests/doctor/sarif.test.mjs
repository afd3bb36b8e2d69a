// SARIF output against the OASIS 2.1.0 schema (schemas/sarif-schema-2.1.0.json, vendored with its source), and what
// code scanning needs of it: relative URIs under %SRCROOT% wherever the app is, originalUriBaseIds, fingerprints that
// are stable, unique and hold no absolute path, a helpUri that is an anchor on the built /guide/checks/ page, and
// "missing" results on the block that should hold the setting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readFileSync, readdirSync, existsSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import Ajv from 'ajv';
import { ROOT, FIXTURES } from './helpers.mjs';

// The schema is draft-04 (`id`, draft-04 $schema); Ajv 8 reads it as draft-07 once those two are adapted (the
// schema uses no other draft-04-only keyword: no boolean exclusiveMinimum/Maximum, checked below). Formats are
// checked with the URL parser and Date.parse rather than another package.
const raw = readFileSync(join(ROOT, 'schemas', 'sarif-schema-2.1.0.json'), 'utf8');
assert.doesNotMatch(raw, /exclusiveM(in|ax)imum/);
const { $schema, id, ...schema } = JSON.parse(raw);
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addFormat('uri', (s) => { try { new URL(s); return true; } catch { return false; } });
ajv.addFormat('uri-reference', (s) => { try { new URL(s, 'file:///base/'); return !/\s/.test(s); } catch { return false; } });
ajv.addFormat('date-time', (s) => !Number.isNaN(Date.parse(s)));
const validate = ajv.compile({ $id: id, ...schema });
const RULES = JSON.parse(readFileSync(join(ROOT, '_data', 'doctor_rules.json'), 'utf8'));

function sarif(args, cwd) {
  const r = spawnSync(process.execPath, [join(ROOT, 'guide', 'cli.mjs'), '--check', ...args, '--format', 'sarif'], { cwd, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.signal, null);
  const log = JSON.parse(r.stdout);
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5), null, 1));
  return log;
}

function checkRun(log, dir) {
  const [run] = log.runs;
  assert.ok(run.results.length > 0);
  assert.match(run.originalUriBaseIds['%SRCROOT%'].uri, /^file:\/\/\/.*\/$/);
  const locations = run.results.flatMap((r) => [...r.locations, ...(r.relatedLocations || [])]);
  for (const l of locations) {
    const a = l.physicalLocation.artifactLocation;
    assert.equal(a.uriBaseId, '%SRCROOT%');
    assert.doesNotMatch(a.uri, /^(file:|\/)|\.\.\//, a.uri);
    assert.ok(l.physicalLocation.region.startLine >= 1);
  }
  const prints = run.results.map((r) => JSON.stringify(r.partialFingerprints));
  assert.equal(new Set(prints).size, prints.length, 'fingerprints unique within the run');
  for (const p of prints) assert.ok(!p.includes(dir) && !p.includes(tmpdir()), `no absolute path in ${p}`);
  return run;
}

test('SARIF is valid and relative to %SRCROOT%, inside and outside the working directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-sarif-'));
  try {
    cpSync(join(FIXTURES, 'rails-7.0'), join(dir, 'app'), { recursive: true });
    cpSync(join(FIXTURES, 'puma-docs', 'nginx.conf'), join(dir, 'nginx.conf'));
    writeFileSync(join(dir, 'app', 'config', 'broken.yml'), 'x');
    writeFileSync(join(dir, 'database.yml'), 'production:\n  pool: <%= ENV.fetch("X") \n');
    const inside = checkRun(sarif(['app', 'nginx.conf', 'database.yml'], dir), dir);
    assert.equal(inside.originalUriBaseIds['%SRCROOT%'].uri, `file://${dir}/`);
    // The same files from another working directory, named by absolute paths: same URIs, same fingerprints.
    const outside = checkRun(sarif([join(dir, 'app'), join(dir, 'nginx.conf'), join(dir, 'database.yml')], ROOT), dir);
    const key = (run) => run.results.map((r) => `${r.ruleId} ${r.locations[0].physicalLocation.artifactLocation.uri} ${JSON.stringify(r.partialFingerprints)}`).sort();
    assert.deepEqual(key(outside), key(inside));
    assert.ok(inside.results.some((r) => r.ruleId === 'unreadable' && /erb-syntax/.test(r.message.text)), 'the unclosed ERB tag is a result');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lobsters from the repository and from inside the app: %SRCROOT% is the app, URIs config/…, same fingerprints', () => {
  // User trial (issue 25): from the repository %SRCROOT% was …/lobsters/config/ (the folder of the files with
  // findings) and the URI database.yml; from inside the app, config/database.yml.
  const app = join(ROOT, 'tests', 'fixtures', 'real-apps', 'lobsters');
  const fromRepo = checkRun(sarif(['tests/fixtures/real-apps/lobsters'], ROOT), app);
  const fromApp = checkRun(sarif(['.'], app), app);
  for (const run of [fromRepo, fromApp]) assert.equal(run.originalUriBaseIds['%SRCROOT%'].uri, `file://${app}/`);
  const key = (run) => run.results.map((r) => `${r.ruleId} ${r.locations[0].physicalLocation.artifactLocation.uri} ${JSON.stringify(r.partialFingerprints)}`).sort();
  assert.deepEqual(key(fromRepo), key(fromApp));
  const pool = fromRepo.results.find((r) => r.ruleId === 'pool-below-threads');
  assert.equal(pool.locations[0].physicalLocation.artifactLocation.uri, 'config/database.yml');
  for (const r of fromRepo.results) assert.doesNotMatch(JSON.stringify(r.partialFingerprints), /fixtures|real-apps/);
  // One file of the app, passed alone: the root is still the app (the folder above config/), the result the same.
  const alone = checkRun(sarif(['tests/fixtures/real-apps/lobsters/config/puma.rb'], ROOT), app);
  assert.equal(alone.originalUriBaseIds['%SRCROOT%'].uri, `file://${app}/`);
  const ignored = (run) => run.results.filter((r) => r.ruleId === 'ignored-setting').map((r) => `${r.locations[0].physicalLocation.artifactLocation.uri} ${JSON.stringify(r.partialFingerprints)}`);
  assert.deepEqual(ignored(alone), ignored(fromRepo));
  assert.equal(ignored(alone).length, 1);
});

test('each rule has a helpUri that is an anchor on the built checks page; every rule the doctor emits is listed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-sarif-'));
  try {
    cpSync(join(FIXTURES, 'rails-7.0'), join(dir, 'app'), { recursive: true });
    const run = sarif(['app'], dir).runs[0];
    const page = join(ROOT, '_site', 'guide', 'checks', 'index.html');
    assert.ok(existsSync(page), '_site is built (scripts/build)');
    const html = readFileSync(page, 'utf8');
    const config = readFileSync(join(ROOT, '_config.yml'), 'utf8');
    const site = /^url:\s*"?([^"\n]+)"?/m.exec(config)[1];
    for (const rule of run.tool.driver.rules) {
      assert.equal(rule.helpUri, `${site}/guide/checks/#${rule.id}`);
      assert.match(html, new RegExp(`id="${rule.id}"`), `the page has an anchor for ${rule.id}`);
    }
    for (const r of run.results) assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);
    const emitted = new Set(readdirSync(join(ROOT, 'guide', 'check')).filter((f) => f.endsWith('.mjs'))
      .flatMap((f) => [...readFileSync(join(ROOT, 'guide', 'check', f), 'utf8').matchAll(/\brule: '([\w-]+)'/g)].map((m) => m[1])));
    assert.ok(emitted.size >= 4);
    for (const id of emitted) assert.ok(RULES.rules.some((x) => x.id === id), `rule ${id} is described in _data/doctor_rules.json`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('"missing" results point at the block that should hold the setting, not at the last line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-sarif-'));
  try {
    mkdirSync(join(dir, 'config'));
    const lines = ['# Puma', 'workers 2', 'threads 3, 3', ...Array.from({ length: 12 }, (_, k) => `# note ${k}`), 'port 3000'];
    writeFileSync(join(dir, 'config', 'puma.rb'), `${lines.join('\n')}\n`);
    const run = sarif([join(dir, 'config', 'puma.rb')], dir).runs[0];
    const missing = run.results.filter((r) => r.ruleId === 'missing');
    assert.ok(missing.length > 0);
    for (const r of missing) assert.equal(r.locations[0].physicalLocation.region.startLine, 2, r.message.text.split('\n')[0]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
