// Every experiment's dataset builder, fed known run results (no lab needed): the datasets validate and
// render, keep failures as markers, and state verdicts that follow from the numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXPERIMENTS } from '../../scripts/lib/rebench/experiments/index.mjs';
import { drawPlan } from '../../scripts/lib/rebench/plan.mjs';
import { validate } from '../../scripts/lib/rebench/cli.mjs';
import { thenNowDataset, thenNowBlocked, writeThenNow, PAIRS } from '../../scripts/lib/rebench/thennow.mjs';

const machine = { cpu_model: 'Test CPU', logical_cpus: 2, ram_gib: 8, virtualisation: 'kvm', kernel: '6.1.0', distribution: 'Debian GNU/Linux 12 (bookworm)', cpu_governor: 'performance', node: 'v20.0.0' };
const versions = { 'lab-3.3': [{ name: 'Ruby 3.3', version: 'ruby 3.3.8' }, { name: 'nginx (Debian package)', version: '1.26.3-3' }], host: [{ name: 'Ruby 3.1', version: 'ruby 3.1.2p20' }] };

// Run k of cell index i: the second-to-last cell is clearly faster (×2); every other cell overlaps the baseline
// (the last cell is reported as not installed).
// With a single cell (caching) the second measurement is the fast one, with two cells (bundle-vs-defaults) the
// second cell; in both nothing is skipped.
function metricsFor(i, k, tool, n, mi) {
  const factor = (n > 2 ? i === n - 2 : n === 2 ? i === 1 : mi === 1) ? 2 : 1;
  const jitter = [0.97, 1.0, 1.03, 0.99, 1.01][k % 5];
  if (tool === 'hyperfine') return { time_s: (1.2 / factor) * jitter, cpu_s: (1 / factor) * jitter, errors: 0 };
  if (tool === 'warm') return { cpu_ms: (10 / factor) * jitter, wall_ms: (12 / factor) * jitter, warmup_drift: 0.01, errors: 0 };
  if (tool === 'replica') return { p50_ms: (10 / factor) * jitter, p99_ms: (30 / factor) * jitter, rps: 10, requests: 240, errors: 0, replica: { write_p50_ms: 12 * jitter, read_found_pct: 100, read_on_reading_pct: factor === 2 ? 100 : 0, lag_p50_ms: 2 * jitter, lag_p99_ms: 8 * jitter, lag_max_ms: 9 * jitter } };
  if (tool === 'jobs') return { jps: 100 * factor * jitter, p50_ms: (10 / factor) * jitter, p99_ms: (30 / factor) * jitter, requests: 300, errors: 0, jobs: { pg_connections_max: 6, pg_connections_queue_max: 3, pg_active_max: 2, pg_cpu_ms_queue: 150 / factor } };
  return { rps: 100 * factor * jitter, p50_ms: (10 / factor) * jitter, p99_ms: (30 / factor) * jitter, requests: 500, errors: 0 };
}

/** route-proof.rb's record in ID's raw output: /cpu runnable for CPU_SHARE of its wall time, /io waiting. */
function writeRouteProof(out, id, cpuShare) {
  const dir = path.join(out, 'raw-output', id);
  fs.mkdirSync(dir, { recursive: true });
  const lines = [1, 2, 3, 4, 5].flatMap(() => [`cpu\t200\t${cpuShare * 40}\t${cpuShare * 50}\t50\t`, 'io\t200\t0.4\t0.6\t50\tPostgreSQL pg_sleep']);
  fs.writeFileSync(path.join(dir, 'route-proof-lab-3.3.tsv'), `${lines.join('\n')}\n`);
}

function fakeContext(exp, { skipLast = false } = {}) {
  const cells = exp.cells(exp.full);
  const plan = drawPlan(cells, 5, 7);
  const results = [];
  for (const entry of plan) {
    const i = cells.findIndex((c) => c.id === entry.cell);
    const cell = cells[i];
    for (const [mi, m] of cell.measurements.entries()) {
      const skipped = skipLast && cells.length > 2 && i === cells.length - 1;
      const series = [0, 0.5, 1, 1.5].map((t, j) => ({ t, total_kib: 300000 + j * 1000 + i * 5000, processes: 3 }));
      results.push({
        entry, cell, measurement: m,
        metrics: skipped ? { error: 'not installed in the lab', skipped: true } : metricsFor(i, entry.run, m.tool, cells.length, mi),
        memory: m.memory ? { peak_total_mib: 300, processes: 3, per_process_mib: 100, largest_process_mib: 150, series } : null,
        load: '1.00 1.00 1.00 -> 1.10 1.00 1.00', file: 'x.txt',
      });
    }
  }
  return {
    exp, quick: false, runs: 5, seed: 7, plan, cells, results, machine,
    started: new Date('2026-11-23T18:00:00Z'), finished: new Date('2026-11-23T18:05:00Z'),
    load: { before: [1, 1, 1], after: [1.1, 1, 1] }, invocations: [], params: exp.full.params, raw: '/nonexistent', versions,
  };
}

test('each experiment builds valid, renderable datasets from known runs, with verdicts that follow from them', { timeout: 300000 }, async (t) => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'rebench-ds-'));
  t.after(() => fs.rmSync(out, { recursive: true, force: true }));
  const dir = path.join(out, '_data', 'datasets');
  fs.mkdirSync(dir, { recursive: true });
  for (const exp of EXPERIMENTS) {
    const datasets = exp.datasets(fakeContext(exp, { skipLast: true }));
    assert.deepEqual(datasets.map((d) => d.id), exp.datasetIds());
    for (const ds of datasets) {
      const file = path.join(dir, `${ds.id}.json`);
      fs.writeFileSync(file, `${JSON.stringify(ds, null, 2)}\n`);
      assert.deepEqual(await validate(file), [], `${ds.id} validates and renders`);
      assert.equal(ds.year, 2026);
    }
    const main = datasets[0];
    const col = (k) => main.columns.findIndex((c) => c.key === k);
    // The clearly faster second cell is "better"; cells equal to the baseline are "within noise".
    const cells = exp.cells(exp.full);
    const verdicts = main.rows.map((r) => r[col('verdict')]);
    assert.ok(verdicts.includes('better') || exp.name === 'patterns', `${exp.name}: a better verdict in ${verdicts}`);
    assert.ok(!verdicts.includes('worse'), `${exp.name}: nothing is worse in ${verdicts}`);
    // Replica: the lag and read-your-writes columns come from each run's own figures.
    if (exp.name === 'replica') assert.ok(main.rows.filter((r) => !r.includes('NOT-INSTALLED')).every((r) => typeof r[col('lag_p50_ms')] === 'number' && r[col('read_found_pct')] === 100), 'replica: lag and read-your-writes columns filled');
    // The skipped (last) cell is a NOT-INSTALLED marker, not a missing row.
    const last = cells[cells.length - 1];
    if (cells.length > 2) {
      assert.ok(main.rows.some((r) => r.includes('NOT-INSTALLED')), `${exp.name}: ${last.id} kept as a failure marker`);
      assert.deepEqual(main.failures.markers, ['NOT-INSTALLED']);
    }
  }
  // Then and now from these datasets and the research's (read from the repository).
  for (const pair of PAIRS) {
    if (pair.nowProof) {
      // Concurrency: no chart until the 2026 run's routes are proven (route-proof.rb's record in its raw output).
      assert.equal(thenNowDataset(pair, [out, path.resolve('.')]), null, `${pair.exp}: no then-and-now without route proof`);
      assert.match(thenNowBlocked(pair, [out]), /no route proof/);
      writeRouteProof(out, pair.newId, 0.5);
      assert.match(thenNowBlocked(pair, [out]), /runnable for only 50 %/, 'a /cpu route that waits half the time is not CPU-bound');
      writeRouteProof(out, pair.newId, 0.96);
      assert.equal(thenNowBlocked(pair, [out]), null);
    }
    const ds = thenNowDataset(pair, [out, path.resolve('.')]);
    assert.ok(ds, `${pair.exp}: then-and-now built`);
    const file = path.join(dir, `${ds.id}.json`);
    fs.writeFileSync(file, `${JSON.stringify(ds, null, 2)}\n`);
    assert.deepEqual(await validate(file), [], `${ds.id} validates and renders`);
    const eras = new Set(ds.rows.map((r) => r[0].slice(0, 4)));
    assert.equal(eras.size, 2, `${pair.exp}: two eras`);
    // Each era's baseline is 1 where it exists.
    assert.ok(ds.rows.some((r) => r[0].startsWith('2026') && r[6] === 1) || pair.exp === 'patterns', `${pair.exp}: 2026 baseline at 1`);
  }
});

test('the published concurrency run predates its route proof: no then-and-now from it, and a stale one is removed', () => {
  const pair = PAIRS.find((p) => p.exp === 'concurrency');
  assert.match(thenNowBlocked(pair, [path.resolve('.')]), /no route proof/);
  assert.equal(fs.existsSync(path.resolve('_data/datasets/rebench-2026-then-now-concurrency.json')), false, 'not published');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'rebench-thennow-'));
  try {
    const dir = path.join(out, '_data', 'datasets');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.resolve('_data/datasets/rebench-2026-concurrency.json'), path.join(dir, 'rebench-2026-concurrency.json'));
    fs.writeFileSync(path.join(dir, 'rebench-2026-then-now-concurrency.json'), '{}\n');
    const lines = [];
    const written = writeThenNow(out, (l) => lines.push(l));
    assert.equal(fs.existsSync(path.join(dir, 'rebench-2026-then-now-concurrency.json')), false, 'the stale derived dataset is gone');
    assert.ok(!written.some((f) => /then-now-concurrency/.test(f)));
    assert.ok(lines.some((l) => /then-and-now concurrency: not written \(the earlier file removed\): rebench-2026-concurrency: .*no route proof/.test(l)), lines.join('\n'));
  } finally { fs.rmSync(out, { recursive: true, force: true }); }
});
