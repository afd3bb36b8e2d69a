// scripts/bench-host --quick --runs 1 on a small file: real dd/gzip/xz under GNU time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tool, tmpDir, run, loadDataset, col } from './util.mjs';

const BH = tool('bench-host');

test('bench-host --quick --runs 1 measures five tests and writes a valid dataset', async () => {
  const out = tmpDir('bh');
  const r = await run(BH, ['--no-validate', '--quick', '--runs', '1', '--size-mb', '4', '--seed', '42', '--out', out, '--id', 'bh-test'], { timeoutMs: 90000 });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.ms < 60000, `--quick must stay under a minute, took ${r.ms} ms`);
  const { data, problems } = loadDataset(r.stdout);
  assert.deepEqual(problems, [], JSON.stringify(problems, null, 2));
  assert.equal(data.method.tool, 'bench-host');
  assert.equal(data.method.seed, 42);
  assert.equal(data.method.runs, 1);
  assert.deepEqual(col(data, 'test'), ['read', 'gzip', 'gunzip', 'encode', 'all']);
  assert.deepEqual(col(data, 'runs_ok'), [1, 1, 1, 1, 1]);
  const cpu = col(data, 'cpu_median');
  const wall = col(data, 'wall_median');
  for (let i = 0; i < cpu.length; i += 1) {
    assert.equal(typeof cpu[i], 'number');
    assert.ok(wall[i] > 0, `wall time of ${data.rows[i][0]} is positive`);
  }
  // gzip of 4 MiB of text takes measurable CPU; all-at-once does at least the work of gzip.
  assert.ok(cpu[1] > 0, 'gzip used CPU time');
  assert.ok(cpu[4] >= cpu[1] * 0.8, 'all-at-once includes the gzip work');
  assert.ok(col(data, 'throughput_median')[0] > 50, 'a cached read runs faster than 50 MB/s');
  assert.ok(col(data, 'max_rss')[3] > 1024 * 1024, 'xz peak RSS converted from KiB to bytes');
  assert.ok(data.caveats.some((c) => /page cache/.test(c)), 'says the read is a cached read');
  assert.match(data.hardware, /logical CPUs/);
  assert.ok(data.software.some((s) => s.name === 'gzip' && /\d/.test(s.version)));
  assert.match(data.method.order, /seed 42/);

  const raw = path.join(out, 'raw-output', 'bh-test');
  const runs = fs.readFileSync(path.join(raw, 'runs.csv'), 'utf8').trim().split('\n');
  assert.equal(runs.length, 1 + 5, 'one CSV row per test and run');
  const prov = JSON.parse(fs.readFileSync(path.join(raw, 'provenance.json'), 'utf8'));
  assert.ok(prov.host.filesystem, 'filesystem of the output directory recorded');
  assert.deepEqual(fs.readdirSync(raw).filter((f) => f.startsWith('work-')), [], 'generated data files removed');
});

test('bench-host rejects wrong invocations', async () => {
  const cases = [
    [['--runs', '0'], /--runs must be at least 1/],
    [['--runs', 'three'], /--runs must be a number/],
    [['--size-mb', '1.5'], /whole number/],
    [['quick'], /unexpected argument "quick"/],
    [['--fast'], /unknown option --fast/],
    [['--', 'ls'], /unexpected arguments after --/],
  ];
  for (const [args, re] of cases) {
    const r = await run(BH, args, { timeoutMs: 20000 });
    assert.equal(r.code, 2, `${args.join(' ')} → ${r.code}: ${r.stderr}`);
    assert.match(r.stderr, re);
  }
  const help = await run(BH, ['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--quick/);
  assert.match(help.stdout, /page cache/);
});
