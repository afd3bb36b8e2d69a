// bundle-vs-defaults' memory verdict: whole-server PSS compared with the same statistics as throughput (lower is
// better), from known runs and from the published run's own raw output; adding those columns to the published
// dataset changes nothing else; a run whose server did not report the Ruby and YJIT state it needs is failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, tmpDir } from '../tools/util.mjs';
import { byName } from '../../scripts/lib/rebench/experiments/index.mjs';
import { drawPlan } from '../../scripts/lib/rebench/plan.mjs';
import { readResults } from '../../scripts/lib/rebench/readback.mjs';
import { compare, median } from '../../scripts/lib/rebench/stats.mjs';
import { minGoodRuns } from '../../scripts/lib/rebench/protocol.mjs';
import { PSS_KEYS } from '../../scripts/lib/rebench/pss-verdict.mjs';
import { addColumns, backfillPss } from '../../scripts/lib/rebench/backfill.mjs';
import { validate } from '../../scripts/lib/rebench/cli.mjs';

const exp = byName('bundle-vs-defaults');
const ID = 'rebench-2026-bundle-vs-defaults';
const PUBLISHED = path.join(ROOT, '_data/datasets', `${ID}.json`);
const RAW = path.join(ROOT, 'raw-output', ID);
const machine = { cpu_model: 'Test CPU', logical_cpus: 2, ram_gib: 8, virtualisation: 'kvm', kernel: '6.1.0', distribution: 'Debian GNU/Linux 12 (bookworm)', cpu_governor: 'performance', node: 'v20.0.0' };
const col = (ds, row, key) => row[ds.columns.findIndex((c) => c.key === key)];

/** Ten runs of both cells; PSS per page: the wizard lower on the API page, the same on the regular, higher on the heavy. */
function context(raw) {
  const cells = exp.cells(exp.full);
  const plan = drawPlan(cells, 10, 3);
  const wizard = { api: 129, regular: 138, heavy: 146 };
  const results = [];
  for (const entry of plan) {
    const cell = cells.find((c) => c.id === entry.cell);
    for (const m of cell.measurements) {
      const jitter = [-0.6, -0.3, 0, 0.3, 0.6][entry.run % 5];
      const peak = (cell.id === 'wizard' ? wizard[m.id] : 138) + jitter;
      // One wizard run failed (its server answered errors): its tiny PSS must not count.
      const failed = cell.id === 'wizard' && m.id === 'api' && entry.run === 4;
      results.push({
        entry, cell, measurement: m,
        metrics: failed ? { error: '40 HTTP error responses among 100 requests', errors: 40 } : { rps: 100 + jitter, p50_ms: 10, p99_ms: 30, requests: 1000, errors: 0 },
        memory: { peak_total_mib: failed ? 50 : peak, processes: 1, per_process_mib: peak, largest_process_mib: peak },
        load: '1.00 1.00 1.00 -> 1.00 1.00 1.00', file: 'x.txt',
      });
    }
  }
  return {
    exp, quick: false, runs: 10, seed: 11, plan, cells, results, machine, raw,
    started: new Date('2026-11-26T10:00:00Z'), finished: new Date('2026-11-26T11:00:00Z'),
    load: { before: [1, 1, 1], after: [1, 1, 1] }, invocations: [], params: exp.full.params, versions: {},
  };
}

test('PSS gets its own verdict, lower is better, from the good runs only, and a summary sentence', async () => {
  const dir = tmpDir('bundle-pss');
  try {
    const [ds] = exp.datasets(context(dir));
    const rows = Object.fromEntries(ds.rows.map((r) => [`${col(ds, r, 'config').slice(0, 5)} ${col(ds, r, 'page').slice(0, 3)}`, r]));
    assert.deepEqual(ds.columns.slice(-PSS_KEYS.length).map((c) => c.key), PSS_KEYS);
    const v = (k, key) => col(ds, rows[k], key);
    assert.equal(v('Rails API', 'pss_verdict'), 'baseline');
    assert.equal(v("The w API", 'pss_verdict'), 'better', 'less memory beyond the noise');
    assert.equal(v('The w Reg', 'pss_verdict'), 'within noise');
    assert.equal(v('The w Hea', 'pss_verdict'), 'worse');
    assert.equal(v('The w API', 'pss_runs'), 9, 'the failed run is left out');
    assert.equal(v('The w API', 'pss_min_mib'), 128.4, 'its 50 MiB is not the minimum');
    assert.ok(v('The w API', 'pss_ci_high') < 1 && v('The w API', 'pss_p_value') < 0.05);
    assert.match(ds.summary, /had the lowest median whole-server PSS \(129 MiB\), a difference beyond the noise; of 3 comparisons with a baseline, 1 came out better, 1 worse and 1 within the noise\.$/);
    fs.mkdirSync(path.join(dir, '_data/datasets'), { recursive: true });
    const file = path.join(dir, '_data/datasets', `${ds.id}.json`);
    fs.writeFileSync(file, `${JSON.stringify(ds, null, 2)}\n`);
    assert.deepEqual(await validate(file), [], 'validates and renders');
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('the published dataset gets the PSS columns from its own raw output and nothing else changes', async () => {
  const dir = tmpDir('bundle-backfill');
  try {
    const committed = JSON.parse(fs.readFileSync(PUBLISHED, 'utf8'));
    assert.ok(committed.columns.some((c) => c.key === 'pss_verdict'), 'the published dataset carries the PSS verdict');
    // The dataset as it was before: without the PSS columns and the PSS sentence.
    const keep = committed.columns.map((c, i) => (PSS_KEYS.includes(c.key) ? -1 : i)).filter((i) => i >= 0);
    const before = {
      ...committed,
      summary: committed.summary.replace(/ [^.]*whole-server PSS.*$/, ''),
      columns: keep.map((i) => committed.columns[i]),
      rows: committed.rows.map((r) => keep.map((i) => r[i])),
    };
    assert.doesNotMatch(before.summary, /PSS/);
    fs.mkdirSync(path.join(dir, '_data/datasets'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'raw-output'));
    fs.symlinkSync(RAW, path.join(dir, 'raw-output', ID)); // read only
    const file = path.join(dir, '_data/datasets', `${ID}.json`);
    fs.writeFileSync(file, `${JSON.stringify(before, null, 2)}\n`);
    const first = backfillPss(exp, dir);
    assert.equal(first.changed, true);
    // Exactly the committed file: the tool wrote it, and nothing but the new columns and sentence differ.
    assert.deepEqual(first.dataset, committed);
    for (const k of Object.keys(before)) if (!['summary', 'columns', 'rows'].includes(k)) assert.deepEqual(first.dataset[k], before[k], k);
    assert.ok(first.dataset.summary.startsWith(`${before.summary} `));
    first.dataset.rows.forEach((r, i) => assert.deepEqual(r.slice(0, before.columns.length), before.rows[i]));
    assert.deepEqual(await validate(file), []);
    assert.equal(backfillPss(exp, dir).changed, false, 'a second run changes nothing');

    // The verdicts again, independently: from runs.csv's PSS peaks with stats.mjs directly.
    const [head, ...lines] = fs.readFileSync(path.join(RAW, 'runs.csv'), 'utf8').trim().split('\n');
    const keys = head.split(',');
    const runs = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i], v])));
    const peaks = (cell, m) => runs.filter((x) => x.cell === cell && x.measurement === m && !x.error && x.pss_peak_mib).map((x) => Number(x.pss_peak_mib));
    const prov = JSON.parse(fs.readFileSync(path.join(RAW, 'provenance.json'), 'utf8'));
    for (const [i, m] of ['api', 'regular', 'heavy'].entries()) {
      const row = committed.rows[3 + i];
      const c = compare(peaks('defaults', m), peaks('wizard', m), { higherIsBetter: false, seed: prov.seed, minRuns: minGoodRuns(prov.runs_per_cell) });
      assert.equal(col(committed, row, 'pss_verdict'), c.verdict, `${m}: verdict`);
      assert.ok(Math.abs(col(committed, row, 'pss_ratio') - c.ratio) < 0.002, `${m}: ratio ${col(committed, row, 'pss_ratio')} against ${c.ratio}`);
      assert.equal(col(committed, row, 'pss_runs'), peaks('wizard', m).length);
      assert.ok(Math.abs(col(committed, row, 'pss_total_mib') - median(peaks('wizard', m))) <= 0.1);
    }

    // Rows that are not the same runs are refused, saying where.
    const other = structuredClone(before);
    other.rows[4][other.columns.findIndex((c) => c.key === 'rps_median')] += 1;
    assert.throws(() => addColumns(other, first.dataset, PSS_KEYS), /row 5 has rps_median .* not the same runs/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test("a run whose server did not report the Ruby and YJIT state the experiment needs is a failed run", () => {
  const raw = tmpDir('bundle-ruby');
  try {
    const want = exp.full.params.RB_SERVER_RUBY;
    assert.equal(want, '/opt/ruby-3.4-yjit/bin/ruby; YJIT on');
    const cell = exp.cells(exp.full).find((c) => c.id === 'wizard');
    const only = { ...cell, measurements: cell.measurements.filter((m) => m.id === 'api').map((m) => ({ ...m, openLoop: false })) };
    const plan = [1, 2, 3].map((idx) => ({ idx, cell: 'wizard', run: idx }));
    // A real wrk report of this page from the published run, for each.
    for (const idx of [1, 2, 3]) fs.copyFileSync(path.join(RAW, '001-defaults-r1-api.txt'), path.join(raw, `00${idx}-wizard-r${idx}-api.txt`));
    fs.writeFileSync(path.join(raw, '001-wizard-r1.ruby'), `${want}\n`);
    fs.writeFileSync(path.join(raw, '002-wizard-r2.ruby'), '/opt/ruby-3.4-yjit/bin/ruby; YJIT off\n');
    const [ok, off, none] = readResults(plan, [only], raw, { RB_SERVER_RUBY: want });
    assert.ok(ok.metrics.rps > 0 && !ok.metrics.error, JSON.stringify(ok.metrics));
    assert.equal(ok.server, want);
    assert.match(off.metrics.error, /ran \/opt\/ruby-3\.4-yjit\/bin\/ruby; YJIT off, not .*YJIT on/);
    assert.match(none.metrics.error, /not recorded/);
    // A run from before the record (no RB_SERVER_RUBY in its parameters) is read as it always was.
    assert.ok(readResults(plan, [only], raw, {}).every((x) => x.metrics.rps > 0));
  } finally { fs.rmSync(raw, { recursive: true, force: true }); }
});
