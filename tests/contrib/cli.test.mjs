// The contributor commands as a contributor runs them: scripts/new-dataset, scripts/import, scripts/validate.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { runTool, tempDir, ROOT } from './tools.mjs';

let root;
before(() => {
  root = tempDir('contrib-cli-');
  mkdirSync(join(root, '_data/datasets'), { recursive: true });
  copyFileSync(join(ROOT, '_data/vocabulary.json'), join(root, '_data/vocabulary.json'));
});
after(() => rmSync(root, { recursive: true, force: true }));

const script = (name) => join(ROOT, 'scripts', name);
const LINE = /^(\S+):(\d+):\d+: (\S+): (.+) — fix: (.+)$/;

test('new-dataset: every required field present, machine facts detected, every placeholder rejected by validate', async () => {
  const made = await runTool(script('new-dataset'), ['scaffold-test', '--topic', 'gc', '--tool', 'wrk', '--root', root]);
  assert.equal(made.code, 0, made.output);
  const file = join(root, '_data/datasets/scaffold-test.json');
  const text = readFileSync(file, 'utf8');
  const ds = JSON.parse(text);
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/dataset-1.schema.json'), 'utf8'));
  for (const key of schema.required) assert.ok(key in ds, `has ${key}`);
  for (const key of schema.properties.method.required) assert.ok(key in ds.method, `has method.${key}`);
  for (const key of schema.properties.source.required) assert.ok(key in ds.source, `has source.${key}`);
  assert.equal(ds.topic, 'gc');
  assert.equal(ds.method.tool, 'wrk');

  // Facts from this machine, read independently here.
  const cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1].trim().replace(/\s+/g, ' ');
  if (cpu) assert.ok(ds.hardware.includes(cpu), `hardware names the CPU "${cpu}"`);
  assert.ok(ds.hardware.includes(`${os.cpus().length} logical cores`));
  const memKiB = Number(/^MemTotal:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))[1]);
  assert.ok(ds.hardware.includes(`${Math.round((memKiB / 2 ** 20) * 10) / 10} GiB RAM`));
  const sw = Object.fromEntries(ds.software.map((s) => [s.name, s.version]));
  assert.equal(sw['Linux kernel'], execFileSync('uname', ['-r'], { encoding: 'utf8' }).trim());
  assert.equal(sw.Ruby, execFileSync('ruby', ['-v'], { encoding: 'utf8' }).trim());
  const pretty = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))[1];
  assert.equal(sw['Operating system'], pretty);
  assert.match(sw.wrk, /\d/, 'wrk version detected');

  // Every TODO is reported, on the line where it stands.
  const v = await runTool(script('validate'), [file]);
  assert.equal(v.code, 1);
  const problems = v.stdout.split('\n').filter((l) => LINE.test(l)).map((l) => LINE.exec(l));
  const lines = text.split('\n');
  const todoLines = lines.map((l, i) => (/"TODO/.test(l) ? i + 1 : null)).filter(Boolean);
  const reported = new Set(problems.filter((p) => /placeholder not filled in/.test(p[4])).map((p) => Number(p[2])));
  assert.deepEqual([...reported].sort((a, b) => a - b), todoLines, 'one placeholder problem per TODO line');
  for (const p of problems) assert.match(lines[Number(p[2]) - 1], /TODO/, `line ${p[2]} holds the TODO it reports`);

  // Once the placeholders hold real values, the scaffold is a valid dataset: nothing else was wrong.
  const fill = (node) => {
    if (typeof node === 'string') return node.startsWith('TODO') ? 'Filled in by the test suite' : node;
    if (Array.isArray(node)) return node.map(fill);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, x]) => [k, fill(x)]));
    return node;
  };
  const filled = fill(ds);
  filled.source.raw_output = 'https://example.org/raw.txt';
  filled.method.aggregation = 'single run';
  filled.columns[1].unit = 'req/s';
  filled.rows = [['1 thread', 10], ['2 threads', 19.5]];
  filled.software = filled.software.filter((s) => s.name !== 'Filled in by the test suite');
  writeFileSync(file, JSON.stringify(filled, null, 2));
  const ok = await runTool(script('validate'), [file]);
  assert.equal(ok.code, 0, ok.stdout);
  assert.match(ok.stdout, /^ok: 1 dataset\(s\) valid/m);

  const again = await runTool(script('new-dataset'), ['scaffold-test', '--root', root]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /already exists \(use --force to overwrite\)/);
  const badTopic = await runTool(script('new-dataset'), ['x-y', '--topic', 'speed', '--root', root]);
  assert.match(badTopic.stderr, /unknown topic "speed"; use one of: method, os/);
});

test('import: writes the dataset and a copy of the raw output, then reports it valid', async () => {
  const fx = join(ROOT, 'tests/contrib/fixtures/ab-non2xx.txt');
  const r = await runTool(script('import'), ['--tool', 'ab', '--id', 'cli-ab', '--topic', 'proxy', '--author', 'Test Suite', '--software', 'puma=8.0.0', '--software=rails=8.1.4', '--root', root, `non2xx=${fx}`]);
  assert.equal(r.code, 0, r.output);
  assert.match(r.stdout, /wrote .*cli-ab\.json \(1 rows, 2 charts\)/);
  assert.match(r.stdout, /valid: no problems found/);
  const ds = JSON.parse(readFileSync(join(root, '_data/datasets/cli-ab.json'), 'utf8'));
  assert.equal(ds.rows[0][0], 'non2xx', 'LABEL=FILE names the row');
  assert.equal(ds.source.raw_output, 'raw-output/cli-ab/ab-non2xx.txt');
  assert.equal(readFileSync(join(root, 'raw-output/cli-ab/ab-non2xx.txt'), 'utf8'), readFileSync(fx, 'utf8'));

  // Provenance: the Server header ab saw, the command rebuilt from its output, a title a person would write.
  assert.match(ds.method.command, /^ab -n 60 -c 3 http:\/\/127\.0\.0\.1:\d+\/err$/);
  assert.match(ds.title, /^Puma 8\.0\.0, Rails 8\.1\.4: requests per second and time per request of \/err on 127\.0\.0\.1:\d+ at concurrency 3 \(ab\)$/);

  const twice = await runTool(script('import'), ['--tool', 'ab', '--id', 'cli-ab', '--root', root, fx]);
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /cli-ab\.json exists\. To re-import new output into it, add --force: the data is replaced and fields you edited by hand are kept/);

  // The file is named, and the tool's own reason for not producing a report is quoted.
  const wrongTool = await runTool(script('import'), ['--tool', 'wrk', '--id', 'cli-wrong', '--root', root, fx]);
  assert.equal(wrongTool.code, 2);
  assert.match(wrongTool.stderr, /^import: \S*ab-non2xx\.txt: this does not look like wrk output/);
  // wrk refuses -t2 -c1 before it connects anywhere (the trap the old worked example set): its own output is imported.
  const refusedRun = await runTool('wrk', ['-t2', '-c1', '-d1s', 'http://127.0.0.1:9/']);
  assert.notEqual(refusedRun.code, 0);
  const refused = join(root, 'wrk-refused-to-run.txt');
  writeFileSync(refused, refusedRun.output);
  const usage = await runTool(script('import'), ['--tool', 'wrk', '--id', 'cli-wrong', '--root', root, refused]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /wrk-refused-to-run\.txt: this does not look like wrk output[^\n]*\n  the file says:\n(    .*\n)*    number of connections must be >= threads/);
  const noId = await runTool(script('import'), ['--tool', 'ab', fx]);
  assert.match(noId.stderr, /--id is required/);
  assert.ok(!existsSync(join(root, '_data/datasets/cli-wrong.json')));
});

test('validate: one readable line per problem, exit status 1, on a dataset broken in typical ways', async () => {
  const good = JSON.parse(readFileSync(join(ROOT, 'tests/contrib/fixtures/hyperfine-nonzero-exit.json'), 'utf8'));
  assert.ok(good.results);
  const imported = await runTool(script('import'), ['--tool', 'hyperfine', '--id', 'cli-broken', '--topic', 'method', '--author', 'Test Suite', '--stdout', join(ROOT, 'tests/contrib/fixtures/hyperfine-nonzero-exit.json')]);
  const ds = JSON.parse(imported.stdout);
  ds.rows[2][ds.columns.findIndex((c) => c.key === 'time_s')] = '12 ms';
  ds.columns.find((c) => c.key === 'time_s').unit = 'seconds';
  ds.rows[5].pop();
  const file = join(root, 'cli-broken.json');
  writeFileSync(file, JSON.stringify(ds, null, 2));
  const v = await runTool(script('validate'), [file], { cwd: root });
  assert.equal(v.code, 1);
  const out = v.stdout.split('\n').filter((l) => LINE.test(l));
  assert.ok(out.some((l) => /^cli-broken\.json:\d+:\d+: \/rows\/2\/\d: row 3, column "time_s": "12 ms" is not a number — fix: write a number/.test(l)), v.stdout);
  assert.ok(out.some((l) => /\/columns\/\d\/unit: "seconds" is not in vocabulary\.units — fix: did you mean "s"\? Otherwise use one of: s, ms/.test(l)), v.stdout);
  assert.ok(out.some((l) => /\/rows\/5: row 6 has 4 cells but there are 5 columns/.test(l)), v.stdout);
  assert.match(v.stdout, /problem\(s\) in 1 of 1 dataset\(s\)/);
});

test('validate without arguments picks the datasets changed against origin/main, plus new files', async () => {
  const { changedDatasets } = await import('../../scripts/lib/importers/validate-cli.mjs');
  const repo = tempDir('contrib-git-');
  const g = (...args) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.org', ...args], { cwd: repo, encoding: 'utf8' });
  mkdirSync(join(repo, '_data/datasets'), { recursive: true });
  for (const n of ['a', 'b', 'c']) writeFileSync(join(repo, `_data/datasets/${n}.json`), '{}\n');
  g('init', '-q', '-b', 'main');
  g('add', '.');
  g('commit', '-q', '-m', 'base');
  // A pull request branch: b changed and committed, c changed but not committed, d new, a untouched.
  g('update-ref', 'refs/remotes/origin/main', 'HEAD');
  g('checkout', '-q', '-b', 'contribution');
  writeFileSync(join(repo, '_data/datasets/b.json'), '{"changed": true}\n');
  g('commit', '-q', '-am', 'change b');
  writeFileSync(join(repo, '_data/datasets/c.json'), '{"changed": true}\n');
  writeFileSync(join(repo, '_data/datasets/d.json'), '{}\n');
  writeFileSync(join(repo, 'notes.json'), '{}\n');
  const rel = (files) => files.map((f) => f.slice(repo.length + 1));
  assert.deepEqual(rel(changedDatasets(repo)), ['_data/datasets/b.json', '_data/datasets/c.json', '_data/datasets/d.json']);
  rmSync(repo, { recursive: true, force: true });
});
