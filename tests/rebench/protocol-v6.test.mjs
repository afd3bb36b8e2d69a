// Protocol version 6 in the dataset: a load run still unsteady after its last try is left out and said, runs without
// per-window counts are counted as not judged, the host-speed probe's figures are a record that repeats, leaves out
// and grades nothing (a probe reading every window slow, as on this host, leaves a clean dataset a benchmark), the
// schema, validator and dataset page carry both records, and version 5's output is still read by version 5's rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../tools/util.mjs';
import { gradeRun, isDisturbed, driverParams, PROTOCOL } from '../../scripts/lib/rebench/protocol.mjs';
import { summaryRows } from '../../scripts/lib/rebench/dataset.mjs';
import { pinnedRaw } from '../helpers/pinned-raw.mjs';
import { validateDataset, knownDatasetIds } from '../../scripts/lib/dataset-validate.mjs';
import { qualityHtml } from '../../scripts/lib/dataset-html.mjs';

const S = PROTOCOL.http.steadiness;
const V6 = { RB_PROTOCOL_VERSION: 6, RB_TRIES: 3, RB_DURATION_S: 10 };
// What the driver records for a clean load run on this host: monitor and gate fine, the probe reading every window
// slow (speed_slow_pct 100, as with a CPU-bound task beside it) but deciding nothing, and the run judged steady.
const clean = {
  exit: 0, foreign_pct: 1.1, steal_pct: 0.2, steal_pct_cpu_max: 0.4, foreign_cpu_pct_worst_interval: 4, steal_pct_worst_interval: 1, load1: 1.2, gate_ok: 1,
  speed_windows: 10, speed_measured_pct: 100, speed_slow_pct: 100, speed_cpu0_ratio_median: 1.66, speed_cpu1_ratio_median: 1.3,
  steady_judged: 1, steady_windows: 9, steady_slow: 0, steady_fast: 0, steady_off_pct: 0,
  disturbed: 0, unsteady: 0, slow_host: 0, unsteady_throughput: 0, repeats_unsteady_throughput: 0, repeats_slow_host: 0, tries: 1, repeats_disturbed: 0, repeats_unsteady: 0, warmup_stable: 1,
};
const notJudged = { ...clean, steady_judged: 0, steady_why: 'no_windows' };
const wrkCell = { id: 'puma', measurements: [{ id: 'api', tool: 'wrk', openLoop: true }] };
const abCell = { id: 'unicorn', measurements: [{ id: 'api', tool: 'ab' }] };

/** Ten rounds of a wrk cell (with one open-loop run each) and an ab cell; CHANGE(run) alters the wrk run's record. */
function results(change = () => ({})) {
  const out = [];
  for (let run = 1; run <= 10; run += 1) {
    const protocol = { ...clean, ...change(run) };
    out.push({ cell: wrkCell, measurement: wrkCell.measurements[0], entry: { run }, metrics: { rps: protocol.unsteady_throughput ? 40 : 100 + run, errors: 0 }, protocol, openLoop: { 50: { p50_ms: 5, protocol: notJudged } } });
    out.push({ cell: abCell, measurement: abCell.measurements[0], entry: { run }, metrics: { rps: 200 + run, errors: 0 }, protocol: notJudged });
  }
  return out;
}

test('version 6: an unsteady run is left out and said; the probe, reading every window slow, decides nothing', (t) => {
  const raw = pinnedRaw(t, 'protocol-v6');
  // A clean batch: a benchmark, whatever the probe read, with both records.
  const ok = gradeRun({ quick: false, runs: 10, params: V6, raw, results: results() });
  assert.deepEqual(ok.reasons, []);
  assert.equal(ok.grade, 'benchmark');
  assert.ok(ok.protocol.startsWith('scaling-rails/rebench-protocol@6'), ok.protocol);
  assert.deepEqual(ok.host_speed_probe, { judges_runs: false, load_runs: 30, runs_with_figures: 30, slow_pct_median: 100, slow_pct_max: 100 });
  assert.deepEqual(ok.steadiness, { judged: 10, not_judged: 20, not_judged_why: { no_windows: 20 }, runs_unsteady_throughput: 0, off_pct_max: 0 });
  assert.equal(ok.runs_slow_host, 0);
  // Run 4 still unsteady after 3 tries (2 repeats), run 7 steady on its second try: the repeats are counted, run 4 is
  // left out of the medians and named in the reasons.
  const rs = results((run) => (run === 4 ? { steady_off_pct: 22.2, steady_slow: 2, steady_unsteady: 1, unsteady_throughput: 1, repeats_unsteady_throughput: 2, tries: 3 } : run === 7 ? { repeats_unsteady_throughput: 1, tries: 2 } : {}));
  assert.equal(isDisturbed(rs[6]), true, 'unsteady_throughput=1 is left out like a disturbed run');
  const q = gradeRun({ quick: false, runs: 10, params: V6, raw, results: rs });
  assert.equal(q.grade, 'smoke');
  assert.deepEqual(q.reasons, [`the throughput of 1 of 30 load runs was unsteady (more than ${S.max_off_pct} % of their blocks off the run's median by over ${S.slow_ratio}× and ${S.sigmas} Poisson standard deviations) after 3 tries; they are left out of the medians and verdicts`]);
  assert.deepEqual([q.steadiness.runs_unsteady_throughput, q.steadiness.off_pct_max], [1, 22.2]);
  assert.deepEqual(q.repeats, {
    disturbed: 0, unsteady: 0, slow_host: 0, unsteady_throughput: 3,
    by_configuration: { 'puma / api': { disturbed: 0, unsteady: 0, slow_host: 0, unsteady_throughput: 3 }, 'unicorn / api': { disturbed: 0, unsteady: 0, slow_host: 0, unsteady_throughput: 0 } },
  });
  const spec = { labels: [{ key: 'c', label: 'C', of: (c) => c.id }], primary: 'rps', latency: false, baseline: () => ({ cell: 'puma', measurement: 'api' }), baselineLabel: () => 'puma' };
  const { rows, columns } = summaryRows({ results: rs, cells: [wrkCell, abCell], runs: 10, seed: 1, params: V6 }, spec);
  assert.equal(rows[0][columns.findIndex((c) => c.key === 'runs_ok')], 9);
  assert.equal(rows[0][columns.findIndex((c) => c.key === 'rps_min')], 101, 'the unsteady run\'s 40 req/s is not counted');
  // A load run the steadiness script did not record is said; an in-process run needs no record (it has the plateau).
  const bare = gradeRun({ quick: false, runs: 10, params: V6, raw, results: [{ ...rs[0], openLoop: null, protocol: { ...clean, steady_judged: undefined } }, { ...rs[1], metrics: { cpu_ms: 3, in_process: true } }].map((r) => ({ ...r, protocol: Object.fromEntries(Object.entries(r.protocol).filter(([, v]) => v !== undefined)) })) });
  assert.ok(bare.reasons.some((x) => /^1 of 1 load runs have no steadiness record/.test(x)), bare.reasons.join(' | '));
  // The driver: the steadiness thresholds, and no slow-host limit (the probe only records); none of it with --quick.
  const full = driverParams({ quick: false });
  assert.deepEqual([full.RB_STEADY_MAX_OFF_PCT, full.RB_STEADY_SIGMAS, full.RB_SPEED_MAX_SLOW_PCT, full.RB_SPEED_CALIBRATE_S > 0], [S.max_off_pct, S.sigmas, '', true]);
  assert.equal(driverParams({ quick: true }).RB_STEADY_MAX_OFF_PCT, '');
});

test('version 5\'s output is read as it was measured: its probe still leaves a slow run out, no steadiness record', (t) => {
  const raw = pinnedRaw(t, 'protocol-v6');
  const v5 = results((run) => ({ steady_judged: undefined, unsteady_throughput: undefined, repeats_unsteady_throughput: undefined, ...(run === 3 ? { slow_host: 1, repeats_slow_host: 2, tries: 3 } : { speed_slow_pct: 0 }) }))
    // A version 5 driver wrote none of version 6's keys, for the ab runs either.
    .map((r) => ({ ...r, protocol: Object.fromEntries(Object.entries(r.protocol).filter(([k, v]) => v !== undefined && !/^(steady_|unsteady_throughput|repeats_unsteady_throughput)/.test(k))), openLoop: null }));
  const q = gradeRun({ quick: false, runs: 10, params: { ...V6, RB_PROTOCOL_VERSION: 5 }, raw, results: v5 });
  assert.equal(isDisturbed(v5[4]), true, 'slow_host=1 from version 5 is still left out');
  assert.ok(q.reasons.some((x) => /the host ran this machine slow .* of 1 of 20 load runs after 3 tries/.test(x)), q.reasons.join(' | '));
  assert.equal(q.steadiness, undefined);
  assert.equal(q.host_speed_probe, undefined);
  // Its slow-host repeats are in the one record of repeats; it has no unsteady_throughput count (version 5 made none).
  assert.deepEqual(q.repeats, { disturbed: 0, unsteady: 0, slow_host: 2, by_configuration: { 'puma / api': { disturbed: 0, unsteady: 0, slow_host: 2 }, 'unicorn / api': { disturbed: 0, unsteady: 0, slow_host: 0 } } });
  assert.match(q.protocol, /^scaling-rails\/rebench-protocol@5 \(measured under it; .*version 5's load runs judged by its probe/);
});

test('schema, validator and dataset page: the version 6 records, and a benchmark grade needs the steadiness one', () => {
  const file = path.join(ROOT, '_data/datasets/rebench-2026-caching.json');
  const base = { ...JSON.parse(fs.readFileSync(file, 'utf8')), charts: [] };
  const knownIds = knownDatasetIds();
  const check = (ds) => validateDataset({ file, text: JSON.stringify(ds, null, 2), knownIds }).map((p) => `${p.field}: ${p.message}`);
  const records = {
    protocol: `scaling-rails/rebench-protocol@6`,
    runs_slow_host: 0,
    repeats: { disturbed: 0, unsteady: 0, slow_host: 0, unsteady_throughput: 2, by_configuration: { 'puma / api': { disturbed: 0, unsteady: 0, slow_host: 0, unsteady_throughput: 2 } } },
    host_speed_probe: { judges_runs: false, load_runs: 20, runs_with_figures: 20, slow_pct_median: 100, slow_pct_max: 100 },
    steadiness: { judged: 10, not_judged: 10, not_judged_why: { no_windows: 10 }, runs_unsteady_throughput: 0, off_pct_max: 11.1 },
  };
  const smoke = { ...base, quality: { ...base.quality, ...records } };
  assert.deepEqual(check(smoke), []);
  const benchmark = { ...smoke, method: { ...smoke.method, runs: 10 }, quality: { ...smoke.quality, grade: 'benchmark', reasons: [], runs_disturbed: 0, foreign_load: { ...smoke.quality.foreign_load, foreign_cpu_pct_max: 2, steal_pct_max: 0.5 } } };
  assert.deepEqual(check(benchmark), []);
  const { steadiness, ...without } = benchmark.quality;
  assert.ok(check({ ...benchmark, quality: without }).some((m) => /protocol version 6 without the steadiness record/.test(m)), check({ ...benchmark, quality: without }).join(' | '));
  const leftOut = { ...benchmark, quality: { ...benchmark.quality, steadiness: { ...steadiness, runs_unsteady_throughput: 1 } } };
  assert.ok(check(leftOut).some((m) => /runs_unsteady_throughput/.test(m)), 'a benchmark with a run left out as unsteady is rejected');
  assert.ok(check({ ...smoke, quality: { ...smoke.quality, host_speed_probe: { ...records.host_speed_probe, judges_runs: true } } }).some((m) => /judges_runs/.test(m)));
  // The page prints the repeats and the steadiness side by side; the probe, recording only, leaves nothing out.
  assert.match(qualityHtml(benchmark), /Tries repeated: 2 unsteady throughput in all; puma \/ api \(2 unsteady throughput\)\. Throughput steadiness: 10 load runs judged, 10 not judged \(10 without per-window counts\); 0 left out as unsteady\. The host-speed probe, recorded only, read a median of 100 % of its windows slow\./);
});
