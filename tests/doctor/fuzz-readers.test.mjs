// Every reader returns within a time bound on generated hostile inputs (tests/doctor/hostile-inputs.mjs: unclosed
// braces and tags, deep nesting, many tags and keys, control bytes, huge lines), with settings or a named problem,
// never an exception or a stack overflow; and the CLI on a folder of them exits 2 in bounded time.
// The bound is loose for a shared 2-core machine, but the quadratic readers this replaced took 15 s to minutes on
// inputs of this size (nginx "${" without "}" never returned).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { readFile } from '../../guide/check/read.mjs';
import { check } from '../../guide/check/index.mjs';
import '../../guide/engine/index.mjs'; // installs the text catalog for check()
import { hostileInputs, READER_PATHS } from './hostile-inputs.mjs';
import { runCli } from './helpers.mjs';

// 96 KB each: the slowest linear reading takes about 2 s here with 8 other jobs on the 2 cores, the old quadratic
// ones 30 s and more (Apache's "<aaa…" line: 15 s at 64 KB), nginx's unclosed "${" forever.
const SIZE = 96 * 1024;
const BOUND_MS = 15000;
const inputs = hostileInputs(SIZE);

test('every reader on every hostile input: bounded time, settings or a named problem', () => {
  const slow = [];
  let worst = { ms: 0 };
  for (const { name, text } of inputs) {
    for (const path of READER_PATHS) {
      const started = performance.now();
      const r = readFile({ path, text });
      const ms = performance.now() - started;
      if (ms > worst.ms) worst = { ms, name, path };
      if (ms > BOUND_MS) slow.push(`${name} as ${path}: ${Math.round(ms)} ms`);
      assert.ok(Array.isArray(r.settings), `${name} as ${path}`);
      if (r.problem) {
        assert.ok(r.problem.code && r.problem.message && r.problem.fix, `${name} as ${path}: a named problem`);
        assert.doesNotMatch(r.problem.message, /call stack|undefined|null/, `${name} as ${path}: ${r.problem.message}`);
      }
    }
  }
  assert.deepEqual(slow, [], `slowest: ${worst.name} as ${worst.path}, ${Math.round(worst.ms)} ms`);
});

test('the issue\'s reproductions: nginx ${ without }, 1 MB of <%, 40,000 ERB tags, 20,000 keys, 900 levels of YAML, 20,000 services and tasks', () => {
  const cases = [
    ['nginx.conf', `server {\n  set $x "\${a";\n  return 200 \${oops;\n}\n`, 'nginx-syntax'],
    ['config/database.yml', `production:\n  pool: ${'<%'.repeat(512 * 1024)}`, 'erb-syntax'],
    ['config/database.yml', `production:\n  adapter: postgresql\n${Array.from({ length: 40000 }, (_, k) => `  k${k}: <%= ENV.fetch("V${k}") { ${k} } %>`).join('\n')}\n`, null],
    ['config/database.yml', `production:\n${Array.from({ length: 20000 }, (_, k) => `  key${k}: ${k}`).join('\n')}\n`, null],
    ['config/database.yml', `${Array.from({ length: 900 }, (_, k) => `${' '.repeat(k)}k${k}:`).join('\n')} 1\n`, 'yaml-depth'],
    // The second trial's readers: 20,000 Compose services, 20,000 rake tasks in namespaces.
    ['docker-compose.yml', `services:\n${Array.from({ length: 20000 }, (_, k) => `  s${k}:\n    environment:\n      - RAILS_ENV=\${E${k}:-production}`).join('\n')}\n`, null],
    ['lib/tasks/many.rake', `namespace :jobs do\n${Array.from({ length: 20000 }, (_, k) => `  task t${k}: :environment`).join('\n')}\nend\n`, null],
  ];
  for (const [path, text, code] of cases) {
    const started = performance.now();
    const r = readFile({ path, text });
    const ms = performance.now() - started;
    assert.ok(ms < BOUND_MS, `${path} (${text.length} chars): ${Math.round(ms)} ms`);
    assert.equal(r.problem?.code ?? null, code, `${path}: ${r.problem?.message}`);
    if (!code) assert.ok(r.settings.length >= 20000, 'every key read');
  }
});

test('check() on hostile inputs together: bounded, one named problem per refused file', () => {
  const picked = ['unclosed ${', 'unclosed <%', 'nested YAML flow', 'one line of <', 'many calls'];
  const files = picked.map((name, k) => ({ path: [`nginx.conf`, 'config/database.yml', 'db/database.yml', 'apache2.conf', 'config/puma.rb'][k], text: inputs.find((x) => x.name === name).text }));
  const started = performance.now();
  const report = check(files);
  assert.ok(performance.now() - started < BOUND_MS * 2);
  assert.deepEqual(report.problems.map((p) => p.code).sort(), ['erb-syntax', 'nginx-syntax', 'yaml-depth']);
});

test('the CLI on a folder of hostile files exits 2 in bounded time, naming each refused file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-fuzz-'));
  try {
    const picked = [['unclosed ${', 'nginx/conf.d/a.conf'], ['unclosed <%', 'app1/database.yml'], ['nested YAML maps', 'app2/database.yml'],
      ['one line of spaces then #x', 'env/app.env'], ['one line of <', 'httpd/conf.d/x.conf'], ['unclosed (', 'puma/puma.rb'], ['ESC/OSC sequences', 'unicorn/unicorn.rb']];
    for (const [name, rel] of picked) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), inputs.find((x) => x.name === name).text);
    }
    const started = Date.now();
    const r = runCli(['--check', dir, '--format', 'json'], { timeout: 120000 });
    assert.equal(r.signal, null, 'no timeout');
    assert.ok(Date.now() - started < 60000, `${Date.now() - started} ms`);
    assert.equal(r.code, 2);
    const report = JSON.parse(r.stdout);
    const codes = report.problems.map((p) => `${p.file.replace(`${dir}/`, '')} ${p.code}`).sort();
    for (const want of ['app1/database.yml erb-syntax', 'app2/database.yml yaml-depth', 'nginx/conf.d/a.conf nginx-syntax']) assert.ok(codes.includes(want), `${want} in ${codes.join(', ')}`);
    assert.ok(!report.problems.some((p) => /call stack/.test(p.message)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every limit in limits.mjs is stated with its value in guide/check/README.md', async () => {
  const { LIMITS } = await import('../../guide/check/limits.mjs');
  const { readFileSync } = await import('node:fs');
  const readme = readFileSync(new URL('../../guide/check/README.md', import.meta.url), 'utf8');
  for (const [key, value] of Object.entries(LIMITS)) {
    const row = readme.split('\n').find((l) => l.startsWith(`| \`${key}\` |`));
    assert.ok(row, `${key} has a row in the limits table`);
    assert.ok(row.replace(/,/g, '').includes(`| ${value}`), `${key} = ${value}: ${row}`);
  }
});
