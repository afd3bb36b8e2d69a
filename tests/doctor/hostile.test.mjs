// Hostile inputs: each gives a named problem (file, code, fix) and exit status 2; nothing is executed,
// nothing crashes, nothing outside the PATH is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './helpers.mjs';

function withDir(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-hostile-'));
  try { return fn(dir); } finally { rmSync(dir, { recursive: true, force: true }); }
}

function checkJson(paths) {
  const r = runCli(['--check', ...paths, '--format', 'json']);
  assert.equal(r.signal, null, 'no crash or timeout');
  assert.doesNotMatch(r.stderr, /at .*\.mjs:\d+/, 'no stack trace');
  return { ...r, report: JSON.parse(r.stdout) };
}

const codes = (report) => report.problems.map((p) => p.code);

test('a huge file is refused by size, with exit 2', () => withDir((dir) => {
  const p = join(dir, 'config', 'database.yml');
  mkdirSync(join(dir, 'config'));
  writeFileSync(p, `production:\n  adapter: postgresql\n${'# padding\n'.repeat(200000)}`);
  const { code, report } = checkJson([dir]);
  assert.equal(code, 2);
  assert.deepEqual(codes(report), ['too-large']);
  assert.match(report.problems[0].message, /over the 1048576-byte limit/);
}));

test('a YAML alias bomb stops at the alias limit, with exit 2', () => withDir((dir) => {
  const rows = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (const [x, y] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e'], ['g', 'f'], ['h', 'g']]) rows.push(`${x}: &${x} [${Array(9).fill(`*${y}`).join(',')}]`);
  rows.push('production:\n  adapter: postgresql\n  bomb: *h');
  writeFileSync(join(dir, 'database.yml'), `${rows.join('\n')}\n`);
  const started = Date.now();
  const { code, report } = checkJson([join(dir, 'database.yml')]);
  assert.equal(code, 2);
  assert.deepEqual(codes(report), ['yaml-aliases']);
  assert.ok(Date.now() - started < 20000, 'refused quickly');
}));

test('a binary file is skipped with a named problem, with exit 2', () => withDir((dir) => {
  writeFileSync(join(dir, 'puma.rb'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0xff, 0xfe]));
  const { code, report } = checkJson([join(dir, 'puma.rb')]);
  assert.equal(code, 2);
  assert.deepEqual(codes(report), ['binary']);
}));

test('ERB with backticks or system() is never evaluated, with exit 2', () => withDir((dir) => {
  const marker = join(dir, 'pwned');
  for (const erb of [`<%= \`touch ${marker}\` %>`, `<%= system("touch ${marker}") %>`, `<%= %x(touch ${marker}) %>`, `<% IO.popen("touch ${marker}") %>`]) {
    mkdirSync(join(dir, 'app', 'config'), { recursive: true });
    writeFileSync(join(dir, 'app', 'Gemfile'), 'source "https://rubygems.org"\ngem "rails"\n');
    writeFileSync(join(dir, 'app', 'config', 'database.yml'), `production:\n  adapter: postgresql\n  password: ${erb}\n`);
    const { code, report } = checkJson([join(dir, 'app')]);
    assert.equal(code, 2, erb);
    assert.deepEqual(codes(report), ['erb-command'], erb);
    assert.equal(report.problems[0].line, 3);
    assert.equal(existsSync(marker), false, 'the command did not run');
  }
}));

test('Ruby config with backticks is read, never run', () => withDir((dir) => {
  const marker = join(dir, 'pwned');
  writeFileSync(join(dir, 'puma.rb'), `workers \`touch ${marker}\`.to_i\nthreads 3, 3\nsystem("touch ${marker}")\n`);
  const { code, report } = checkJson([join(dir, 'puma.rb')]);
  assert.notEqual(code, 2);
  assert.equal(existsSync(marker), false);
  assert.ok(report.files[0].notes.some((n) => /not run/.test(n.message)));
}));

test('symlinks leading outside PATH are not followed, with exit 2', () => withDir((dir) => {
  mkdirSync(join(dir, 'outside'));
  writeFileSync(join(dir, 'outside', 'secret.conf'), 'shared_buffers = 1GB\n');
  mkdirSync(join(dir, 'etc', 'postgresql', '16', 'main', 'conf.d'), { recursive: true });
  symlinkSync(join(dir, 'outside', 'secret.conf'), join(dir, 'etc', 'postgresql', '16', 'main', 'conf.d', 'evil.conf'));
  symlinkSync('../../../../outside', join(dir, 'etc', 'postgresql', '16', 'main', 'up'));
  const { code, report } = checkJson([join(dir, 'etc')]);
  assert.equal(code, 2);
  assert.deepEqual(codes(report).sort(), ['symlink-outside', 'symlink-outside']);
  assert.ok(!report.files.some((f) => f.kind && /secret|evil/.test(f.path)), 'the target was not read');
}));

test('too many files stop with a named problem', () => withDir((dir) => {
  mkdirSync(join(dir, 'sysctl.d'));
  for (let k = 0; k < 310; k++) writeFileSync(join(dir, 'sysctl.d', `${String(k).padStart(3, '0')}.conf`), `vm.swappiness = ${k % 60}\n`);
  const { code, report } = checkJson([dir]);
  assert.equal(code, 2);
  assert.ok(codes(report).includes('too-many-files'));
}));

test('a missing PATH and broken YAML are named problems', () => withDir((dir) => {
  writeFileSync(join(dir, 'database.yml'), 'production:\n  adapter: postgresql\n   pool: [5\n');
  const { code, report } = checkJson([join(dir, 'nope'), join(dir, 'database.yml')]);
  assert.equal(code, 2);
  assert.deepEqual(codes(report).sort(), ['unreadable', 'yaml-syntax']);
}));

test('usage errors exit 64', () => {
  assert.equal(runCli(['--check', '.', '--format', 'files']).code, 64);
  assert.equal(runCli(['--check', '.', '--fail-on', 'fatal']).code, 64);
});

test('random and truncated text in every reader: a report, never an exception', async () => {
  await import('../../guide/engine/index.mjs'); // installs the catalog
  const { check } = await import('../../guide/check/index.mjs');
  const { generate } = await import('../../guide/engine/index.mjs');
  const names = ['config/puma.rb', 'config/database.yml', 'Gemfile', 'Gemfile.lock', '.ruby-version', 'nginx.conf', 'apache2.conf', 'Caddyfile',
    'postgresql.conf', 'pgbouncer.ini', 'my.cnf', 'app.service', 'sysctl.d/x.conf', 'app.env', 'config/environments/production.rb', 'config/unicorn.rb'];
  const seeds = generate({}).files.map((f) => f.content);
  let state = 42;
  const rand = (n) => { state = (state * 1103515245 + 12345) % 2147483648; return state % n; };
  const alphabet = 'a{}[]();:"\'`#%<>=|&!?\\\n\t ,.$@*-+/0123456789ENV.fetch do end if <%= %> &a *a <<: ';
  for (let k = 0; k < 120; k++) {
    const seed = seeds[rand(seeds.length)];
    const cut = seed.slice(0, rand(seed.length + 1));
    const noise = Array.from({ length: rand(200) }, () => alphabet[rand(alphabet.length)]).join('');
    const text = rand(2) ? cut + noise : noise + cut.slice(rand(cut.length + 1));
    const report = check([{ path: names[rand(names.length)], text }]);
    assert.ok(Array.isArray(report.findings) && Array.isArray(report.problems));
  }
});
