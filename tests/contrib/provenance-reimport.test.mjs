// Provenance the importer asks for (software, command line, the server's own header, a human title,
// TODOs the validator reports) and safe re-imports with --force (hand edits kept, or a refusal with a diff).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, copyFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, fixture, problemsOf, ROOT, META } from './tools.mjs';
import { importDataset } from '../../scripts/lib/importers/index.mjs';
import { main as importMain } from '../../scripts/lib/importers/cli.mjs';

let root;
before(() => {
  root = tempDir('contrib-reimport-');
  mkdirSync(join(root, '_data/datasets'), { recursive: true });
  mkdirSync(join(root, 'measurements'), { recursive: true });
  copyFileSync(join(ROOT, '_data/vocabulary.json'), join(root, '_data/vocabulary.json'));
});
after(() => rmSync(root, { recursive: true, force: true }));

// scripts/import in this process (its checks compile Vega-Lite's schema once, not per run):
// { code, stdout, stderr } as scripts/lib/importers/run.mjs would print them.
async function importCli(args) {
  const out = [];
  const log = console.log;
  console.log = (...a) => out.push(a.join(' '));
  try {
    const code = await importMain(['--root', root, ...args]);
    return { code, stdout: `${out.join('\n')}\n`, stderr: '', output: out.join('\n') };
  } catch (e) {
    return { code: 2, stdout: `${out.join('\n')}\n`, stderr: `import: ${e.message}\n`, output: `${out.join('\n')}\n${e.message}` };
  } finally {
    console.log = log;
  }
}
const datasetPath = (id) => join(root, '_data/datasets', `${id}.json`);
const readDataset = (id) => JSON.parse(readFileSync(datasetPath(id), 'utf8'));
const writeDataset = (id, ds) => writeFileSync(datasetPath(id), `${JSON.stringify(ds, null, 2)}\n`);
const BASE = ['--topic', 'app-server', '--author', 'Test Suite', '--software', 'puma=8.0.0', '--software', 'rails=8.1.4'];

test('provenance: ab Server header, rebuilt command, --command override, TODOs for app server and Rails', () => {
  const text = fixture('ab-non2xx.txt').replace(/^Server Software:.*$/m, 'Server Software:        nginx/1.26.3');
  const input = [{ label: 'c3', file: 'ab-nginx.txt', text }];
  const bare = importDataset('ab', input, { id: 'prov-ab', topic: 'proxy', author: 'Tess' });
  const sw = Object.fromEntries(bare.software.map((s) => [s.name, s.version]));
  assert.equal(sw.nginx, '1.26.3 (from the Server response header)');
  assert.match(sw['App server'], /^TODO: /);
  assert.match(sw.Rails, /^TODO: /);
  assert.match(bare.method.command, /^ab -n 60 -c 3 http:\/\/127\.0\.0\.1:18080\/err$/);
  assert.match(bare.method.description, /reconstructed from the output/);
  assert.equal(bare.title, 'Requests per second and time per request of /err on 127.0.0.1:18080 at concurrency 3 (ab)');
  // The validator reports exactly the two TODOs, on the lines where they stand.
  const problems = problemsOf(bare);
  const lines = JSON.stringify(bare, null, 2).split('\n');
  assert.deepEqual(problems.map((p) => p.field).sort(), ['/software/1/version', '/software/2/version']);
  for (const p of problems) assert.match(lines[p.line - 1], /"version": "TODO: /);

  const named = importDataset('ab', input, { id: 'prov-ab', topic: 'proxy', author: 'Tess', software: ['Puma=8.0.0', 'Rails=8.1.4'], command: 'ab -k -n 60 -c 3 http://127.0.0.1:18080/err' });
  assert.deepEqual(problemsOf(named), []);
  assert.equal(named.method.command, 'ab -k -n 60 -c 3 http://127.0.0.1:18080/err');
  assert.doesNotMatch(named.method.description, /reconstructed/);
  assert.match(named.title, /^Puma 8\.0\.0, Rails 8\.1\.4: /);
  assert.throws(() => importDataset('ab', input, { id: 'x', software: ['puma 8'] }), /--software "puma 8": write NAME=VERSION/);

  const wrk = importDataset('wrk', [{ label: 'c2', file: 'w.txt', text: fixture('wrk-no-latency-flag.txt') }], { id: 'prov-wrk', ...META });
  assert.match(wrk.method.command, /^wrk -t1 -c2 -d1s http:\/\/127\.0\.0\.1:\d+\/$/);
  // Titles for the tools that do not measure a web server: what ran, in words, and no web TODOs.
  const hf = importDataset('hyperfine', [{ label: 'h', file: 'h.json', text: fixture('hyperfine-nonzero-exit.json') }], { id: 'prov-hf', topic: 'ruby', author: 'Tess' });
  assert.equal(hf.title, 'Run time of false vs sh -c "exit 3" (hyperfine)');
  assert.ok(!hf.software.some((x) => x.name === 'App server' || x.name === 'Rails'));
  const ips = importDataset('benchmark-ips', [{ label: 'i', file: 'i.txt', text: fixture('benchmark-ips-2.15.txt') }], { id: 'prov-ips', topic: 'ruby', author: 'Tess', software: ['rails=8.1.4'] });
  assert.equal(ips.title, 'Rails 8.1.4: iterations per second of Array#map vs Array#each+push vs sleep (benchmark-ips)');
  assert.match(wrk.title, /^Node\.js [\d.]+ http module: throughput and latency of \/ on 127\.0\.0\.1:\d+ at 2 connections \(wrk\)$/);
});

test('--force keeps hand-edited fields, regenerates the rest and shows the data changes', async () => {
  const raw = join(root, 'measurements/run.txt');
  writeFileSync(raw, fixture('wrk-non2xx.txt'));
  const first = await importCli(['--tool', 'wrk', '--id', 'keep', ...BASE, raw]);
  assert.equal(first.code, 0, first.output);
  const before = readDataset('keep');
  const edited = structuredClone(before);
  edited.title = 'Hello endpoint under Puma: a hand-written title';
  edited.caveats.push('Written by hand: the server logged to a terminal during the run.');
  edited.related = ['some-other-dataset'];
  writeDataset('keep', edited);

  writeFileSync(raw, fixture('wrk-no-latency-flag.txt')); // a new run, same file name
  const again = await importCli(['--tool', 'wrk', '--id', 'keep', ...BASE, '--force', raw]);
  assert.equal(again.code, 0, again.output);
  const after = readDataset('keep');
  const fresh = importDataset('wrk', [{ label: 'run', file: raw, rawPath: 'raw-output/keep/run.txt', text: fixture('wrk-no-latency-flag.txt') }], { id: 'keep', topic: 'app-server', author: 'Test Suite', software: ['puma=8.0.0', 'rails=8.1.4'] });
  assert.equal(after.title, edited.title);
  assert.deepEqual(after.caveats, edited.caveats);
  assert.deepEqual(after.related, ['some-other-dataset']);
  assert.deepEqual(after.rows, fresh.rows, 'the data comes from the new output');
  assert.deepEqual(after.columns, fresh.columns);
  assert.equal(after.summary, fresh.summary, 'an untouched generated summary follows the new numbers');
  assert.notEqual(after.summary, before.summary);
  assert.match(again.stdout, /kept your edits to: title, caveats, related/);
  assert.match(again.stdout, /data changes:\n(  .*\n)*  ~ row run: [^\n]*requests_per_s \S+ → \S+/);
  assert.equal(readFileSync(join(root, 'raw-output/keep/run.txt'), 'utf8'), fixture('wrk-no-latency-flag.txt'));
});

test('--force refuses to drop hand-edited data, and shows it; --discard-edits replaces it', async () => {
  const raw = join(root, 'measurements/rows.txt');
  writeFileSync(raw, fixture('wrk-non2xx.txt'));
  assert.equal((await importCli(['--tool', 'wrk', '--id', 'rows', ...BASE, raw])).code, 0);
  const edited = readDataset('rows');
  const rps = edited.columns.findIndex((c) => c.key === 'requests_per_s');
  const printed = edited.rows[0][rps];
  edited.rows[0][rps] = 99999;
  writeDataset('rows', edited);
  const text = readFileSync(datasetPath('rows'), 'utf8');
  const refused = await importCli(['--tool', 'wrk', '--id', 'rows', ...BASE, '--force', raw]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /the data was edited by hand after the last import/);
  assert.match(refused.stderr, /  rows\n    - \[\[.*99999.*\n    \+ \[\[/);
  assert.match(refused.stderr, /Nothing was written/);
  assert.equal(readFileSync(datasetPath('rows'), 'utf8'), text, 'file untouched');
  const discarded = await importCli(['--tool', 'wrk', '--id', 'rows', ...BASE, '--force', '--discard-edits', raw]);
  assert.equal(discarded.code, 0, discarded.output);
  assert.equal(readDataset('rows').rows[0][rps], printed);
});

test('--force without the earlier raw output: refuses with a diff; --keep-edits keeps the file\'s values', async () => {
  const raw = join(root, 'measurements/noraw.txt');
  writeFileSync(raw, fixture('wrk-non2xx.txt'));
  assert.equal((await importCli(['--tool', 'wrk', '--id', 'noraw', ...BASE, '--no-copy-raw', raw])).code, 0);
  const edited = readDataset('noraw');
  edited.summary = 'A summary written by a person.';
  writeDataset('noraw', edited);
  writeFileSync(raw, fixture('wrk-no-latency-flag.txt'));
  const refused = await importCli(['--tool', 'wrk', '--id', 'noraw', ...BASE, '--no-copy-raw', '--force', raw]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /cannot tell hand edits from old generated text/);
  assert.match(refused.stderr, /  summary\n    - "A summary written by a person\."\n    \+ "The run reached/);
  assert.match(refused.stderr, /--keep-edits/);
  const kept = await importCli(['--tool', 'wrk', '--id', 'noraw', ...BASE, '--no-copy-raw', '--force', '--keep-edits', raw]);
  assert.equal(kept.code, 0, kept.output);
  const after = readDataset('noraw');
  assert.equal(after.summary, 'A summary written by a person.');
  assert.equal(after.method.duration_s, 1, 'the data is the new run (wrk -d1s)');
  assert.ok(!existsSync(join(root, 'raw-output/noraw')));
});
