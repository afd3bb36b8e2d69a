// Builds a rebench dataset: one row per configuration (cell × measurement) with the median of
// its runs, the spread (min, max), and the comparison against a stated baseline with its verdict.
import os from 'node:os';
import { author as gitAuthor } from '../measure/common.mjs';
import { spread, compare, median, METHOD_TEXT, METHOD_TEXT_V7 } from './stats.mjs';
import { hardwareText } from './machine.mjs';
import { gradeRun, minGoodRuns, readIsolation, countsIn, protocolVersionOf, PROTOCOL } from './protocol.mjs';

export const YEAR = 2026;
const r = (v, d) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 10 ** d) / 10 ** d);

const PRIMARY = {
  rps: { label: 'Requests per second', unit: 'req/s', higherIsBetter: true, decimals: 1 },
  time_s: { label: 'Time', unit: 's', higherIsBetter: false, decimals: 3 },
  cpu_s: { label: 'CPU time (user + system)', unit: 's', higherIsBetter: false, decimals: 3 },
  cpu_ms: { label: 'CPU time per iteration, warm', unit: 'ms', higherIsBetter: false, decimals: 2 },
  p50_ms: { label: 'Median latency', unit: 'ms', higherIsBetter: false, decimals: 2 },
  p99_ms: { label: '99th percentile latency', unit: 'ms', higherIsBetter: false, decimals: 2 },
  jps: { label: 'Jobs per second', unit: 'jobs/s', higherIsBetter: true, decimals: 1 },
};

const LATENCY = {
  p50: 'p50 latency (median of runs)', p99: 'p99 latency (median of runs)', failed: 'Failed requests (all runs)', failedUnit: 'requests',
  failedDescription: 'Socket errors, timeouts, non-2xx/3xx responses (wrk) or failed and non-2xx requests (ab), summed over the runs.',
};

/**
 * spec: {
 *   labels: [{ key, label, of(cell, measurement) }],   columns naming the configuration
 *   primary: 'rps' | 'time_s' | 'p50_ms',
 *   latency: bool (p50/p99 columns), latencyText: { p50, p99, failed, failedUnit, failedDescription } (other words),
 *   memory: bool (PSS columns), extra: [{ key, label, unit, decimals, description, of(goodResults) }] more columns,
 *   baseline(cell, measurement) → { cell, measurement } | null, baselineLabel(cell, m) → text
 * }
 */
export function summaryRows(ctx, spec) {
  const P = PRIMARY[spec.primary];
  const L = { ...LATENCY, ...(spec.latencyText || {}) };
  const groups = new Map();
  for (const res of ctx.results) {
    const key = `${res.cell.id}\u0000${res.measurement.id}`;
    if (!groups.has(key)) groups.set(key, { cell: res.cell, measurement: res.measurement, results: [] });
    groups.get(key).results.push(res);
  }
  // Rows in the experiment's own order (cells, then measurements), not in the random run order.
  const pos = (g) => ctx.cells.findIndex((c) => c.id === g.cell.id) * 100 + g.cell.measurements.findIndex((m) => m.id === g.measurement.id);
  const ordered = [...groups.values()].sort((a, b) => pos(a) - pos(b));
  const markers = new Set();
  const columns = [
    ...spec.labels.map((l) => ({ key: l.key, label: l.label, type: 'string' })),
    { key: 'runs_ok', label: 'Runs measured', type: 'integer', unit: 'count', description: `Good runs, out of the runs per configuration in the method. A run that completed no request, had more than ${PROTOCOL.failure.max_error_pct} % errors or timeouts, or whose server or load tool crashed is a failed run: it is left out, never counted as a zero. A run still disturbed by other programs or the hypervisor after its last try is left out too (the quality record counts them). Fewer than ${minGoodRuns(ctx.runs)} good runs: no verdict.` },
    { key: `${spec.primary}_median`, label: `${P.label} (median)`, type: 'number', unit: P.unit, decimals: P.decimals, description: 'Median over the runs.' },
    { key: `${spec.primary}_min`, label: `${P.label} (min)`, type: 'number', unit: P.unit, decimals: P.decimals },
    { key: `${spec.primary}_max`, label: `${P.label} (max)`, type: 'number', unit: P.unit, decimals: P.decimals },
    ...(spec.latency ? [
      { key: 'p50_ms', label: L.p50, type: 'number', unit: 'ms', decimals: 2 },
      { key: 'p99_ms', label: L.p99, type: 'number', unit: 'ms', decimals: 2 },
      { key: 'failed_requests', label: L.failed, type: 'integer', unit: L.failedUnit, description: L.failedDescription },
    ] : []),
    ...(spec.memory ? [
      { key: 'pss_total_mib', label: 'PSS, whole server (median of run peaks)', type: 'number', unit: 'MiB', decimals: 1, description: 'Proportional set size of the server process tree at its highest sample during the run (smaps_rollup, every 0.5 s).' },
      { key: 'processes', label: 'Processes', type: 'integer', unit: 'processes' },
      { key: 'pss_per_process_mib', label: 'PSS per process', type: 'number', unit: 'MiB', decimals: 1, description: 'Whole-tree PSS divided by the number of processes.' },
    ] : []),
    ...(spec.extra || []).map((x) => ({ key: x.key, label: x.label, type: x.decimals ? 'number' : 'integer', unit: x.unit, ...(x.decimals ? { decimals: x.decimals } : {}), ...(x.description ? { description: x.description } : {}) })),
    { key: 'baseline', label: 'Compared with', type: 'string' },
    { key: 'ratio', label: 'Ratio of medians', type: 'number', unit: 'ratio', decimals: 3, description: 'This configuration\'s median divided by the baseline\'s.' },
    { key: 'ci_low', label: '95% CI low', type: 'number', unit: 'ratio', decimals: 3, description: 'Percentile bootstrap interval of the ratio of medians.' },
    { key: 'ci_high', label: '95% CI high', type: 'number', unit: 'ratio', decimals: 3 },
    { key: 'p_value', label: 'Mann-Whitney p', type: 'number', unit: 'ratio', decimals: 4 },
    { key: 'verdict', label: 'Verdict', type: 'string', description: protocolVersionOf(ctx.params) >= 7 ? METHOD_TEXT + METHOD_TEXT_V7 : METHOD_TEXT },
  ];
  const isGoodRun = countsIn(ctx);
  const values = (g, k) => g.results.filter(isGoodRun).map((x) => x.metrics[k]);
  // Leaving disturbed runs out must not decide a verdict: where counting them (as measured) gives another verdict,
  // the comparison is "unsettled", no verdict (perf review: disturbance can depend on the configuration).
  const withDisturbed = (g, k) => g.results.filter((x) => !x.metrics.error).map((x) => x.metrics[k]);
  // Nor may repeating runs (protocol v4): with every run's first try in place of the try that counted, as if the
  // driver had never repeated, the verdict must be the same (a repeat chosen by its outcome could select fast tries).
  const firstTries = (g, k) => g.results.filter((x) => !x.metrics.error).flatMap((x) => (x.firstTry ? (x.firstTry.metrics.error ? [] : [x.firstTry.metrics[k]]) : [x.metrics[k]]));
  const sensitive = (cmp, a, b) => {
    if (cmp.verdict === 'too few runs') return cmp;
    const opts = { higherIsBetter: P.higherIsBetter, seed: ctx.seed, minRuns: minGoodRuns(ctx.runs) };
    const left = [a, b].some((grp) => grp.results.some((x) => !isGoodRun(x) && !x.metrics.error));
    if (left && compare(withDisturbed(a, spec.primary), withDisturbed(b, spec.primary), opts).verdict !== cmp.verdict) return { ...cmp, verdict: 'unsettled' };
    const repeated = [a, b].some((grp) => grp.results.some((x) => x.firstTry));
    const first = repeated ? compare(firstTries(a, spec.primary), firstTries(b, spec.primary), opts) : null;
    if (first && first.verdict !== cmp.verdict) return { ...cmp, verdict: 'unsettled' };
    // Version 7: nor may repeats move the size of the comparison by more than half the smallest effect a verdict
    // was given for (the first version 7 run: kept tries faster than first tries in 6 of 7 repeated runs).
    const shift = PROTOCOL.runs.max_first_try_shift;
    if (first && shift && protocolVersionOf(ctx.params) >= 7 && Number.isFinite(first.ratio) && Number.isFinite(cmp.ratio) && Math.abs(first.ratio / cmp.ratio - 1) > shift) return { ...cmp, verdict: 'unsettled' };
    return cmp;
  };
  const rows = [];
  const records = [];
  for (const g of ordered) {
    const ok = g.results.filter(isGoodRun);
    const failMarker = g.results.some((x) => x.metrics.skipped) ? 'NOT-INSTALLED' : g.results.every((x) => !x.metrics.error) ? 'DISTURBED' : 'FAILED';
    const s = spread(values(g, spec.primary));
    const mem = ok.filter((x) => x.memory).map((x) => x.memory);
    const base = spec.baseline(g.cell, g.measurement);
    const baseGroup = base && groups.get(`${base.cell}\u0000${base.measurement}`);
    const isBase = baseGroup === g;
    const cmp = baseGroup && !isBase ? sensitive(compare(values(baseGroup, spec.primary), values(g, spec.primary), { higherIsBetter: P.higherIsBetter, seed: ctx.seed, minRuns: minGoodRuns(ctx.runs) }), baseGroup, g) : null;
    const num = (v, d) => {
      if (ok.length) return r(v, d);
      markers.add(failMarker);
      return failMarker;
    };
    const row = [
      ...spec.labels.map((l) => l.of(g.cell, g.measurement)),
      ok.length,
      num(s.median, P.decimals), num(s.min, P.decimals), num(s.max, P.decimals),
      ...(spec.latency ? [num(median(values(g, 'p50_ms')), 2), num(median(values(g, 'p99_ms')), 2), g.results.reduce((t, x) => t + (x.metrics.errors || 0), 0)] : []),
      ...(spec.memory ? [
        mem.length ? r(median(mem.map((m) => m.peak_total_mib)), 1) : null,
        mem.length ? Math.round(median(mem.map((m) => m.processes))) : null,
        mem.length ? r(median(mem.map((m) => m.per_process_mib)), 1) : null,
      ] : []),
      ...(spec.extra || []).map((x) => { const v = x.of(ok); return v === null || v === undefined || !Number.isFinite(v) ? null : r(v, x.decimals || 0); }),
      baseGroup ? (isBase ? 'baseline' : spec.baselineLabel(baseGroup.cell, baseGroup.measurement)) : 'none',
      cmp ? r(cmp.ratio, 3) : isBase ? 1 : null,
      cmp ? r(cmp.ci_low, 3) : null,
      cmp ? r(cmp.ci_high, 3) : null,
      cmp ? r(cmp.p, 4) : null,
      cmp ? cmp.verdict : isBase ? 'baseline' : 'not compared',
    ];
    rows.push(row);
    // values: the primary readings of the runs that count, for comparisons made from the records (verdictSentence).
    records.push({ group: g, row, cmp, spread: s, baseGroup, values: values(g, spec.primary) });
  }
  return { columns, rows, markers: [...markers].sort(), records };
}

/** Who else used the machine, from the monitor's figures: idle apart from the hypervisor, or busy with other work. */
function busyText(q) {
  const f = q?.foreign_load;
  if (!f || typeof f.foreign_cpu_pct_median !== 'number') return 'that other programs were using at the same time';
  const steal = typeof f.steal_pct_max === 'number' && f.steal_pct_max > 5 ? `; the hypervisor's steal time reached ${f.steal_pct_max} %` : '';
  return f.foreign_cpu_pct_median < 5
    ? `that was otherwise idle (other programs' CPU: median ${f.foreign_cpu_pct_median} %, at most ${f.foreign_cpu_pct_max} %${steal})`
    : `that other programs were using at the same time (their CPU: median ${f.foreign_cpu_pct_median} %, at most ${f.foreign_cpu_pct_max} %${steal})`;
}

export function failuresOf(markers) {
  return {
    markers,
    meaning: 'FAILED: no run of this configuration produced a reading: the server did not start, the load tool could not connect, or more than 1 % of the responses were HTTP errors or timeouts (error responses are not throughput); driver.log and runs.csv in the raw output say which. ' +
      'NOT-INSTALLED: the software is not available in the lab on this machine, so the configuration was not run. ' +
      'DISTURBED: every run was still disturbed after its last try (other programs or the hypervisor took CPU, the host did not hold its fast speed, or the throughput within the run was unsteady; the quality record says how much), so none counts. Individual failed requests are counted in failed_requests, not hidden.',
  };
}

export function softwareOf(ctx, places) {
  const seen = new Set();
  const out = [];
  for (const place of places) {
    for (const s of ctx.versions[place] || []) {
      const name = `${s.name}${places.length > 1 ? ` (${place})` : ''}`;
      if (seen.has(name)) continue;
      seen.add(name);
      out.push({ name, version: s.version });
    }
  }
  out.push({ name: 'Host kernel', version: ctx.machine.kernel });
  out.push({ name: 'Host distribution', version: ctx.machine.distribution });
  out.push({ name: 'Node.js (scripts/rebench)', version: ctx.machine.node.replace(/^v/, '') });
  return out;
}

export function methodOf(ctx, { tool, description, concurrency = null, duration = null, requests = null, warmup }) {
  return {
    tool,
    description: `${description} ${ctx.runs} runs per configuration; ${METHOD_TEXT}${ctx.quick ? ' This is a --quick run: tiny sizes, for testing the pipeline, not for conclusions.' : ''}`,
    requests,
    concurrency,
    duration_s: duration,
    runs: ctx.runs,
    aggregation: 'median',
    warmup,
    order: `random: ${ctx.runs} rounds, each configuration once per round in an order drawn from the seed; order in raw-output provenance.json`,
    seed: ctx.seed,
  };
}

export function base(ctx, { id, title, topic, summary, measured, software, method, columns, rows, markers, caveats = [], related = [], charts = [] }) {
  const who = process.env.SCALING_RAILS_AUTHOR || gitAuthor();
  const quality = ctx.quality || gradeRun(ctx);
  return {
    $schema: '../../schemas/dataset-1.schema.json',
    format: 'scaling-rails/dataset@1',
    id,
    title: ctx.quick ? `${title} (quick run)` : title,
    topic,
    year: YEAR,
    summary,
    source: {
      document: 'Scaling Rails re-measurement with scripts/rebench',
      author: who,
      location: `raw-output/${id}/ (runs.csv lists every run, its order and its raw file; provenance.json the machine, versions and commands)`,
      raw_output: `raw-output/${id}/`,
    },
    measured,
    quality,
    hardware: hardwareText(ctx.machine, ctx.load, readIsolation(ctx.raw)),
    software,
    method,
    columns,
    rows,
    failures: failuresOf(markers),
    errata: [],
    caveats: [
      `Measured ${ctx.started.toISOString().slice(0, 16).replace('T', ' ')}–${ctx.finished.toISOString().slice(11, 16)} UTC on a ${ctx.machine.logical_cpus}-core machine ${busyText(quality)} (load average ${ctx.load.before[0]} before, ${ctx.load.after[0]} after); the spread columns show how much that moved the results.`,
      'Absolute numbers belong to this machine only; compare configurations within this dataset, and read a difference only where the verdict column says better or worse.',
      ...(ctx.subset ? [`A partial re-run: only ${ctx.subset.join(', ')} were measured (scripts/rebench --cells), in their own random rounds; compare them with each other, not with rows of the full run.`] : []),
      ...caveats,
    ],
    attribution: `Measured by ${who} with scripts/rebench (Scaling Rails), ${YEAR}.`,
    license: 'CC-BY-4.0',
    ...(related.length ? { related } : {}),
    charts,
  };
}

/** Bar of the median with a min–max rule per row; text marks rows that failed. */
export function medianChart({ id, title, caption, alt, yField, yTitle, key, xTitle, offsetField, columns, hasFailures, hasValues = true }) {
  // Grouped bars: one band per configuration, one bar per page (or load) inside it.
  const enc = { y: { field: yField, type: 'nominal', sort: null, title: yTitle, axis: { labelLimit: 200 } }, ...(offsetField ? { yOffset: { field: offsetField, type: 'nominal', sort: null } } : {}) };
  // A layer without data makes Vega warn (and the build fail): bars only when some run measured something.
  const layers = !hasValues ? [] : [
    { mark: { type: 'bar' }, encoding: { ...enc, x: { field: `${key}_median`, type: 'quantitative', title: xTitle }, ...(offsetField ? { color: { field: offsetField, type: 'nominal', sort: null, legend: { orient: 'bottom', direction: 'vertical', labelLimit: 400 } } } : {}) } },
    { mark: { type: 'rule' }, encoding: { ...enc, x: { field: `${key}_min`, type: 'quantitative' }, x2: { field: `${key}_max` } } },
  ];
  if (hasFailures) {
    layers.push({
      transform: [{ calculate: `datum.${key}_median_failure || datum.${key}_min_failure || datum.${key}_max_failure`, as: 'failure' }, { filter: 'datum.failure' }],
      mark: { type: 'text', align: 'left', baseline: 'middle', dx: 4 },
      encoding: { ...enc, x: { value: 0 }, text: { field: 'failure' } },
    });
  }
  return { id, title, caption, alt, columns, spec: { width: 420, height: { step: offsetField ? 14 : 22 }, layer: layers } };
}

export const hostCores = () => os.cpus().length;
