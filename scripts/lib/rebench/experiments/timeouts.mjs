// Timeouts and overload (the Timeouts article; no research table): a slow-query storm with and without PostgreSQL's
// statement_timeout from database.yml `variables:`. Lab side: lab/bench/exp/timeouts.sh; the fast route's phases
// are open-loop reports (overload-read.mjs), where errors and timeouts are figures, not failed runs.
import fs from 'node:fs';
import path from 'node:path';
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { median } from '../stats.mjs';
import { readStorm } from '../overload-read.mjs';

const CELLS = [
  { id: 'none', label: 'No statement_timeout (PostgreSQL\'s default)', short: 'No timeout' },
  { id: 'statement-timeout', label: 'statement_timeout through database.yml variables', short: 'statement_timeout' },
];
const PHASES = [
  { id: 'calm', label: 'Fast route alone' },
  { id: 'storm', label: 'Fast route during the slow-query storm' },
  { id: 'after', label: 'Fast route right after the storm' },
];

const share = (ok) => median(ok.map((x) => x.metrics.overload && x.metrics.overload.failed_pct).filter(Number.isFinite));

export default {
  name: 'timeouts',
  title: 'Timeouts: a slow-query storm with and without statement_timeout',
  mirrors: 'the Timeouts and overload article (no research table)',
  full: { params: { RB_WORKERS: 2, RB_THREADS: 3, RB_DURATION_S: 10, RB_AFTER_S: 10, RB_WARMUP_S: 1, RB_FAST_RATE: 20, RB_FAST_TIMEOUT_MS: 10000, RB_SLOW_MS: 10000, RB_STORM_RATE: 1, RB_STORM_LEAD_S: 5, RB_STATEMENT_TIMEOUT: '2s' }, timeoutPerCellS: 240, setupS: 300 },
  quick: { params: { RB_WORKERS: 1, RB_THREADS: 3, RB_DURATION_S: 2, RB_AFTER_S: 2, RB_WARMUP_S: 0, RB_FAST_RATE: 10, RB_FAST_TIMEOUT_MS: 5000, RB_SLOW_MS: 3000, RB_STORM_RATE: 1, RB_STORM_LEAD_S: 1, RB_STATEMENT_TIMEOUT: '1s' }, timeoutPerCellS: 120, setupS: 300 },
  cells() {
    return CELLS.map((c) => ({ id: c.id, label: c.label, measurements: PHASES.map((p) => ({ id: p.id, tool: 'overload' })) }));
  },
  datasetIds: () => ['rebench-2026-timeouts'],
  datasets(ctx) {
    const p = ctx.params;
    const versions = Object.fromEntries((ctx.versions['lab-3.3'] || []).map((v) => [v.name, v.version]));
    const setting = (id) => versions[`statement_timeout as the app connection reports it (${id})`] || 'not recorded';
    // The storm's slow requests, from each storm phase's own report: how many the timeout ended with an error.
    const storm = (ok) => ok.filter((x) => x.measurement.id === 'storm' && x.file && ctx.raw)
      .map((x) => { const f = path.join(ctx.raw, x.file.replace(/\.txt$/, '.slow.txt')); return fs.existsSync(f) ? readStorm(fs.readFileSync(f, 'utf8')) : null; })
      .filter(Boolean);
    const spec = {
      labels: [
        { key: 'setting', label: 'Database timeout', of: (c) => CELLS.find((x) => x.id === c.id).short },
        { key: 'phase', label: 'Phase', of: (c, m) => PHASES.find((x) => x.id === m.id).label },
        { key: 'recorded', label: 'statement_timeout (as the connection reported it)', of: (c) => setting(c.id) },
      ],
      primary: 'p99_ms', latency: true, memory: false,
      latencyText: { failed: 'Fast requests failed or timed out (all runs)', failedDescription: `Fast-route requests answered with an HTTP error, a socket error, or not within ${p.RB_FAST_TIMEOUT_MS} ms of their scheduled send time, summed over the runs. Here they are the outcome being measured: a run fails only when no request was answered.` },
      extra: [
        { key: 'failed_pct', label: 'Fast requests failed or timed out (median share of runs)', unit: '%', decimals: 2, description: 'Failed fast-route requests as a share of those scheduled in the phase, median over the runs.', of: share },
        { key: 'answered_per_s', label: 'Fast requests answered per second (median of runs)', unit: 'req/s', decimals: 2, description: `The generator offered ${p.RB_FAST_RATE} per second.`, of: (ok) => median(ok.map((x) => x.metrics.rps)) },
        { key: 'slow_cancelled', label: 'Slow requests ended by an error (median per run)', unit: 'requests', description: 'Storm phase only: slow requests answered with an HTTP error (a cancelled statement raises ActiveRecord::QueryCanceled, a 500), from the storm generator\'s own report.', of: (ok) => { const s = storm(ok); return s.length ? median(s.map((x) => x.http_errors)) : null; } },
        { key: 'slow_sent', label: 'Slow requests sent (median per run)', unit: 'requests', description: 'Storm phase only: slow requests the storm generator scheduled.', of: (ok) => { const s = storm(ok); return s.length ? median(s.map((x) => x.scheduled)) : null; } },
      ],
      baseline: (c, m) => ({ cell: 'none', measurement: m.id }),
      baselineLabel: (c, m) => `no statement_timeout, same phase (${PHASES.find((x) => x.id === m.id).label.toLowerCase()})`,
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    const col = (k) => columns.findIndex((c) => c.key === k);
    const stormRows = records.filter((r) => r.group.measurement.id === 'storm');
    const say = (r) => `${r.row[0]}: p99 ${typeof r.row[col('p99_ms_median')] === 'number' ? `${r.row[col('p99_ms_median')]} ms` : r.row[col('p99_ms_median')]}, ${r.row[col('failed_pct')] ?? '?'} % failed`;
    return [base(ctx, {
      id: 'rebench-2026-timeouts',
      title: 'A slow-query storm in 2026 with and without statement_timeout: the fast route\'s latency and errors on Puma and PostgreSQL',
      topic: 'rails',
      summary: `During the storm, fast route: ${stormRows.map(say).join('; ')}; verdicts against no timeout: ${records.filter((r) => r.cmp).map((r) => `${r.row[1].toLowerCase()} ${r.cmp.verdict}`).join(', ') || 'none'}.`,
      measured: `The 99th-percentile latency, failures and answered rate of a fast route (/api, one small query) offered ${p.RB_FAST_RATE} requests per second open-loop, alone, during a storm of slow requests (/slow?ms=${p.RB_SLOW_MS}: one ${p.RB_SLOW_MS / 1000} s statement each, ${p.RB_STORM_RATE} per second), and right after it, on clustered Puma (${p.RB_WORKERS} × ${p.RB_THREADS}) and PostgreSQL 17, without and with statement_timeout = ${p.RB_STATEMENT_TIMEOUT} in database.yml variables.`,
      software: softwareOf(ctx, ['lab-3.3']),
      method: methodOf(ctx, {
        tool: 'rebench',
        description: `Every run boots Puma fresh and measures three phases in this fixed order (a sequence): the fast route alone for ${p.RB_DURATION_S} s; then the storm starts, and after ${p.RB_STORM_LEAD_S} s the fast route is measured for ${p.RB_DURATION_S} s while it goes on; the storm stops sending and the fast route is measured for ${p.RB_AFTER_S} s more. Both generators are scripts/lib/measure/openloop-cli.mjs (constant arrivals, latency from the scheduled send time, so without coordinated omission), pinned to the load CPU; a fast request not answered within ${p.RB_FAST_TIMEOUT_MS} ms counts as failed. statement_timeout ${p.RB_STATEMENT_TIMEOUT} is far above the app's slowest legitimate query and below the storm's ${p.RB_SLOW_MS / 1000} s.`,
        concurrency: null,
        duration: p.RB_DURATION_S,
        warmup: p.RB_WARMUP_S ? 'wrk on the fast route until throughput is stable (the protocol\'s warm-up), before the calm phase' : 'none (quick run)',
      }),
      columns, rows, markers,
      caveats: [
        'The p99 columns cover answered requests only: a request that failed or timed out has no latency, and is counted in the failed columns instead. Read both.',
        'The storm and after phases follow each other without an idle gate between them (the storm cannot pause for one); only the calm phase and the start of the storm are gated.',
        'Puma has no request timeout: without statement_timeout a slow request holds its thread until the statement ends, with it until the limit cancels the statement and the request ends with a 500.',
      ],
      related: ['rebench-2026-concurrency'],
      charts: [(() => {
        const c = medianChart({
          id: 'storm-p99', title: 'Fast route p99 latency by phase, without and with statement_timeout',
          caption: 'Bars: median of the runs; lines: slowest to fastest run. Failed and timed-out requests are not in these bars (see the table). Read the grade above the chart first.',
          alt: records.map((r) => `${r.row[0]}, ${r.row[1]}: ${typeof r.row[col('p99_ms_median')] === 'number' ? `p99 ${r.row[col('p99_ms_median')]} ms` : r.row[col('p99_ms_median')]}, ${r.row[col('failed_pct')] ?? 'no'} % failed`).join('; ') + '.',
          yField: 'phase', yTitle: 'Phase', key: 'p99_ms', xTitle: 'Fast route p99 (ms, median of runs)', offsetField: 'setting',
          columns: ['setting', 'phase', 'p99_ms_median', 'p99_ms_min', 'p99_ms_max', 'failed_pct', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
        });
        return c;
      })()],
    })];
  },
};
