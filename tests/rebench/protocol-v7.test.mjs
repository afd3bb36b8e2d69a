// Protocol version 7 in the dataset (review of version 6, blocker B2): a load run nobody judged for steadiness (no
// per-window counts, too short, or too few responses per block to see a dip) can have run through a slow stretch
// unseen, so from version 7 it grades the dataset smoke, with the reason named; version 6's output keeps version 6's
// rule. The record also carries the noise-model check (each configuration's median dispersion of its counts) and
// the runs whose halves trended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pinnedRaw } from '../helpers/pinned-raw.mjs';
import { gradeRun } from '../../scripts/lib/rebench/protocol.mjs';

const clean = {
  exit: 0, foreign_pct: 1.1, steal_pct: 0.2, steal_pct_cpu_max: 0.4, foreign_cpu_pct_worst_interval: 4, steal_pct_worst_interval: 1, load1: 1.2, gate_ok: 1,
  speed_windows: 10, speed_measured_pct: 100, speed_slow_pct: 0,
  steady_judged: 1, steady_windows: 9, steady_slow: 0, steady_fast: 0, steady_off_pct: 0, steady_dispersion: 1.1, steady_trend_pct: 1.2, steady_trend_z: 0.4, steady_trending: 0,
  disturbed: 0, unsteady: 0, slow_host: 0, unsteady_throughput: 0, repeats_unsteady_throughput: 0, repeats_slow_host: 0, tries: 1, repeats_disturbed: 0, repeats_unsteady: 0,
  warmup_stable: 1, warmup_s: 12, warmup_requests: 1500, warmup_connections: 10,
};
const cells = ['off', 'on'].map((id) => ({ id, measurements: [{ id: 'heavy', tool: 'wrk' }] }));

/** Ten rounds of two wrk cells; CHANGE(cell, run) alters a run's record. */
function results(change = () => ({})) {
  const out = [];
  for (let run = 1; run <= 10; run += 1) {
    for (const cell of cells) {
      const protocol = { ...clean, steady_dispersion: cell.id === 'on' ? 0.5 + run / 10 : 0.2, ...change(cell.id, run) };
      out.push({ cell, measurement: cell.measurements[0], entry: { run }, metrics: { rps: 100 + run, errors: 0 }, protocol });
    }
  }
  return out;
}
const raw = (t) => pinnedRaw(t, 'protocol-v7');
const V = (version) => ({ RB_PROTOCOL_VERSION: version, RB_TRIES: 3, RB_DURATION_S: 10 });

test('version 7: every run judged and steady grades benchmark, with the dispersion per configuration', (t) => {
  const q = gradeRun({ quick: false, runs: 10, params: V(7), raw: raw(t), results: results() });
  assert.deepEqual(q.reasons, []);
  assert.equal(q.grade, 'benchmark');
  // off: every run 0.2 (under-dispersed, a saturated closed loop); on: 0.6 to 1.5, median of the ten 1.05.
  assert.deepEqual(q.steadiness.dispersion, { median: 0.4, min: 0.2, max: 1.5, by_configuration: { 'off / heavy': 0.2, 'on / heavy': 1.05 } });
  assert.equal(q.steadiness.runs_trending, 0);
});

test('version 7: runs nobody could judge grade smoke and are named; version 6 output is read by its own rule', (t) => {
  const dir = raw(t);
  const under = (cell, run) => (cell === 'on' && run <= 3 ? { steady_judged: 0, steady_why: 'underpowered' } : cell === 'off' && run === 5 ? { steady_judged: 0, steady_why: 'no_windows' } : {});
  const q = gradeRun({ quick: false, runs: 10, params: V(7), raw: dir, results: results(under) });
  assert.equal(q.grade, 'smoke');
  assert.deepEqual(q.steadiness.not_judged_why, { underpowered: 3, no_windows: 1 });
  assert.equal(q.reasons.length, 1, q.reasons.join(' | '));
  assert.match(q.reasons[0], /^4 of 20 load runs could not be judged for steadiness \(3 with too few responses per block to tell a dip from noise, 1 without per-window counts/);
  // The same records measured under version 6: not judged is counted but grades nothing (as version 6 published).
  const v6 = gradeRun({ quick: false, runs: 10, params: V(6), raw: dir, results: results(under) });
  assert.deepEqual([v6.grade, v6.reasons], ['benchmark', []]);
  assert.equal(v6.steadiness.dispersion, undefined, 'version 6 records no dispersion');
});

test('version 7: a kept run whose halves trended is counted; one still trending after its last try is left out', (t) => {
  const trend = (cell, run) => (cell === 'on' && run === 2 ? { steady_trending: 1, steady_trend_pct: 9.4, steady_unsteady: 1, unsteady_throughput: 1, repeats_unsteady_throughput: 2, tries: 3 } : {});
  const q = gradeRun({ quick: false, runs: 10, params: V(7), raw: raw(t), results: results(trend) });
  assert.equal(q.grade, 'smoke');
  assert.deepEqual([q.steadiness.runs_trending, q.steadiness.runs_unsteady_throughput], [1, 1]);
  assert.ok(q.reasons.some((r) => /throughput of 1 of 20 load runs was unsteady/.test(r)), q.reasons.join(' | '));
});

test('version 7: a configuration whose kept runs spread more than 1.3x grades smoke (the host ran the same work at two speeds)', (t) => {
  const dir = raw(t);
  // The first version 7 run's shape: the heavy page with YJIT on at 31 and 61 req/s in one batch.
  const rs = results().map((r) => (r.cell.id === 'on' ? { ...r, metrics: { ...r.metrics, rps: r.entry.run % 2 ? 31 : 61 } } : r));
  const q = gradeRun({ quick: false, runs: 10, params: V(7), raw: dir, results: rs });
  assert.equal(q.grade, 'smoke');
  assert.deepEqual(q.run_spread, { max_ratio: 1.97, by_configuration: { 'off / heavy': 1.09, 'on / heavy': 1.97 } });
  assert.equal(q.reasons.length, 1, q.reasons.join(' | '));
  assert.match(q.reasons[0], /^the kept runs of 1 of 2 configurations spread more than 1\.3× from the slowest to the fastest \(on \/ heavy: 1\.97×\)/);
  // Version 6 output is not held to it.
  assert.equal(gradeRun({ quick: false, runs: 10, params: V(6), raw: dir, results: rs }).grade, 'benchmark');
});

test('version 7: repeats that move the ratio of medians by more than 3.5 % make the comparison unsettled', async () => {
  const { summaryRows } = await import('../../scripts/lib/rebench/dataset.mjs');
  // YJIT on: 160 req/s kept in every run; in runs 1 to 6 that try was a repeat whose first try read 140 (the kept
  // try ran on a warmer server). Off: 100 every run. Kept ratio 1.6, first-try ratio 1.4: 12.5 % apart.
  const rs = results().map((r) => {
    if (r.cell.id === 'off') return { ...r, metrics: { ...r.metrics, rps: 100 + (r.entry.run % 3) } };
    const m = { ...r.metrics, rps: 160 + (r.entry.run % 3) };
    return r.entry.run <= 6 ? { ...r, metrics: m, firstTry: { metrics: { ...m, rps: 140 + (r.entry.run % 3) } } } : { ...r, metrics: m };
  });
  const spec = { labels: [{ key: 'c', label: 'C', of: (c) => c.id }], primary: 'rps', latency: false, baseline: () => ({ cell: 'off', measurement: 'heavy' }), baselineLabel: () => 'off' };
  const verdictOf = (version) => {
    const { rows, columns } = summaryRows({ results: rs, cells, runs: 10, seed: 1, params: V(version) }, spec);
    const on = rows.find((row) => row[0] === 'on');
    return [on[columns.findIndex((c) => c.key === 'ratio')], on[columns.findIndex((c) => c.key === 'verdict')]];
  };
  const [ratio7, verdict7] = verdictOf(7);
  assert.ok(Math.abs(ratio7 - 1.6) < 0.03, `kept ratio ${ratio7}`);
  assert.equal(verdict7, 'unsettled', 'the first tries give 1.4, not 1.6: the size rests on the repeats');
  assert.equal(verdictOf(6)[1], 'better', 'version 6 checked only whether the verdict flips');
});
