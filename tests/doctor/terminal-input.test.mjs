// What the CLI does with awkward but legitimate input: control characters from a config never reach the
// terminal raw, a file that is not UTF-8 is read with a note, and a PATH with nothing to check exits 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers.mjs';

function withDir(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-input-'));
  try { return fn(dir); } finally { rmSync(dir, { recursive: true, force: true }); }
}

// ESC, BEL (OSC title), CSI as C1, CR, a bidi override, DEL.
const HOSTILE = '\u001b]0;owned\u0007\u001b[2J\u009b31m\r\u202eevil\u007f';
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test('control characters from a config are escaped in text, JSON and SARIF output', () => withDir((dir) => {
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'Gemfile'), 'source "https://rubygems.org"\ngem "puma"\n');
  writeFileSync(join(dir, 'config', 'puma.rb'), `workers 2\nthreads 3, 3 # ${HOSTILE}\nbind "unix:///x${HOSTILE}"\n`);
  const text = runCli(['--check', dir, '--fail-on', 'error']);
  assert.equal(text.signal, null);
  assert.doesNotMatch(text.stdout, RAW, 'no raw control character on the terminal');
  assert.match(text.stdout, /\\x1B\]0;owned\\x07/, 'shown as visible escapes');
  assert.match(text.stdout, /\\u202E/);
  for (const format of ['json', 'sarif']) {
    const r = runCli(['--check', dir, '--format', format]);
    assert.doesNotMatch(r.stdout, RAW, format);
    // Still JSON, and the data is kept: the escapes decode to the original characters.
    assert.ok(JSON.stringify(JSON.parse(r.stdout)).includes('\\u001b]0;owned'), `${format}: data unchanged`);
  }
}));

test('a Latin-1 byte in a comment: the file is read, with a note naming the line', () => withDir((dir) => {
  writeFileSync(join(dir, 'puma.rb'), Buffer.concat([Buffer.from('workers 2\n# caf'), Buffer.from([0xe9]), Buffer.from('\nthreads 4, 4\n')]));
  const r = runCli(['--check', join(dir, 'puma.rb'), '--format', 'json']);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(report.problems, [], 'not refused as binary');
  assert.notEqual(r.code, 2);
  const notes = report.files[0].notes;
  assert.ok(notes.some((n) => n.line === 2 && /not valid UTF-8/.test(n.message)), JSON.stringify(notes));
  assert.equal(report.detected.server?.value ?? report.answers.server, 'puma');
  assert.ok(report.facts.some((f) => /threads/.test(f.name) && /4, 4/.test(String(f.value))) || report.files[0].settings >= 2, 'the lines after the byte are read');
}));

test('an empty folder and a folder with no config exit 2 with a clear message, even with --fail-on note', () => withDir((dir) => {
  mkdirSync(join(dir, 'empty'));
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'README.md'), '# hello\n');
  for (const [p, format] of [[join(dir, 'empty'), 'text'], [join(dir, 'docs'), 'json'], [join(dir, 'docs', 'README.md'), 'text']]) {
    {
      const r = runCli(['--check', p, '--fail-on', 'note', '--format', format]);
      assert.equal(r.code, 2, `${p} ${format}`);
      const out = format === 'json' ? JSON.parse(r.stdout).problems.map((x) => `${x.code} ${x.message}`).join('\n') : r.stderr;
      assert.match(out, /nothing-to-check|no file the doctor reads|not a file the doctor reads/, p);
    }
  }
  // A folder that has something to read next to an empty one: the empty one is still named.
  writeFileSync(join(dir, 'nginx.conf'), 'events {}\nhttp { server { listen 80; } }\n');
  const both = JSON.parse(runCli(['--check', join(dir, 'nginx.conf'), join(dir, 'empty'), '--format', 'json']).stdout);
  assert.deepEqual(both.problems.map((x) => x.code), ['nothing-to-check']);
}));

test('a path with nothing to read prints the error alone: no assumed answers, no "No findings" (user trial)', () => withDir((dir) => {
  mkdirSync(join(dir, 'empty'));
  const cases = [['/nonexistent', /cannot read \(?ENOENT/], [join(dir, 'empty'), /no file the doctor reads was found/], ['/etc/passwd', /not a file the doctor reads/], ['/dev/zero', /not a regular file/]];
  for (const [p, why] of cases) {
    const r = runCli(['--check', p], { timeout: 20000 });
    assert.equal(r.code, 2, p);
    assert.equal(r.stdout, '', `${p}: nothing on stdout`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${p}: one error line\n${r.stderr}`);
    assert.match(lines[0], new RegExp(`^error: ${p.replace(/[/.]/g, '\\$&')}: `), p);
    assert.match(lines[0], why, p);
    assert.match(lines[0], / — fix: /, p);
    assert.doesNotMatch(r.stderr, /Detected answers|defaults assumed|No findings/, p);
  }
}));

test('--time-limit stops a check that runs too long: exit 2 with the problem time-limit', () => withDir((dir) => {
  // 1,000 KB of ERB tags, twice: seconds of reading, far over a 0.2 s limit.
  const text = `production:\n${'  a: <%= ENV.fetch("X") { 5 } %>\n'.repeat(30000)}`;
  mkdirSync(join(dir, 'a'));
  writeFileSync(join(dir, 'database.yml'), text);
  writeFileSync(join(dir, 'a', 'database.yml'), text);
  const started = Date.now();
  const r = runCli(['--check', join(dir, 'database.yml'), join(dir, 'a', 'database.yml'), '--format', 'json', '--time-limit', '0.2']);
  assert.equal(r.code, 2);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(report.problems.map((p) => p.code), ['time-limit']);
  assert.match(report.problems[0].message, /stopped after 0\.2 s/);
  assert.ok(Date.now() - started < 30000);
  assert.equal(runCli(['--check', dir, '--time-limit', '0']).code, 64);
}));
