// Scaling the database beyond one primary (the database-scaling article; no research table): a PostgreSQL 17
// streaming replica on the same machine, the app with a reading role on it and Rails' automatic role switching.
// Lab side: lab/bench/exp/replica.sh and lab/bench/replica-client.rb. On 2 cores the app, the primary and the
// replica share the server CPU, so read scaling is not measured: the figures are the replication lag under the
// pairs' write load, and what a write followed by a read costs and sees under each role-switching setting.
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { median } from '../stats.mjs';
import { verdictSentence } from './common.mjs';

const CELLS = [
  { id: 'primary-only', label: 'No reading role: every query on the primary', short: 'Primary only' },
  { id: 'selector-2s', label: 'connects_to reading: :primary_replica, database_selector delay 2 s', short: 'Role switching, delay 2 s' },
  { id: 'selector-0s', label: 'connects_to reading: :primary_replica, database_selector delay 0 s', short: 'Role switching, delay 0 s' },
];

const of = (ok, k) => median(ok.map((x) => x.metrics.replica && x.metrics.replica[k]).filter((v) => typeof v === 'number' && Number.isFinite(v)));

export default {
  name: 'replica',
  title: 'Replica: replication lag and read-your-writes with Rails\' automatic role switching (PostgreSQL 17)',
  mirrors: 'the database-scaling article (no research table)',
  full: { params: { RB_THREADS: 3, RB_PAIRS: 120, RB_RATE: 10, RB_WARM_PAIRS: 30, RB_POLL_MS: 2, RB_LAG_TIMEOUT_S: 10 }, timeoutPerCellS: 150, setupS: 420 },
  quick: { params: { RB_THREADS: 3, RB_PAIRS: 20, RB_RATE: 10, RB_WARM_PAIRS: 0, RB_POLL_MS: 2, RB_LAG_TIMEOUT_S: 10 }, timeoutPerCellS: 120, setupS: 420 },
  cells() {
    return CELLS.map((c) => ({ id: c.id, label: c.label, measurements: [{ id: 'pairs', tool: 'replica' }] }));
  },
  datasetIds: () => ['rebench-2026-replica'],
  datasets(ctx) {
    const p = ctx.params;
    const versions = Object.fromEntries((ctx.versions['lab-3.3'] || []).map((v) => [v.name, v.version]));
    const spec = {
      labels: [
        { key: 'setting', label: 'Reads', of: (c) => CELLS.find((x) => x.id === c.id).short },
      ],
      primary: 'p50_ms', latency: true, memory: false,
      latencyText: { p50: 'Read right after a write, p50 (median of runs)', p99: 'Read right after a write, p99 (median of runs)', failed: 'Failed requests (all runs)', failedDescription: 'Writes or reads answered with an HTTP error or not at all, summed over the runs; a run with more than the protocol\'s error share is a failed run.' },
      extra: [
        { key: 'write_p50_ms', label: 'Write (POST), p50 (median of runs)', unit: 'ms', decimals: 2, description: 'One row inserted on the primary, the request\'s own latency.', of: (ok) => of(ok, 'write_p50_ms') },
        { key: 'read_found_pct', label: 'Reads that saw the write just made (median of runs)', unit: '%', decimals: 2, description: 'Share of the reads, sent as soon as the write was answered, whose answer included the row written: below 100 % is a read-your-writes miss.', of: (ok) => of(ok, 'read_found_pct') },
        { key: 'read_on_reading_pct', label: 'Reads served by the reading role (median of runs)', unit: '%', decimals: 2, description: 'Share of those reads the app answered with ActiveRecord::Base.current_role = reading (on the replica).', of: (ok) => of(ok, 'read_on_reading_pct') },
        { key: 'lag_p50_ms', label: 'Replication lag, p50 (median of runs)', unit: 'ms', decimals: 2, description: `Per row written: the time from a poller on the primary first seeing it to a poller on the replica first seeing it, both polling every ${p.RB_POLL_MS} ms; the run's median.`, of: (ok) => of(ok, 'lag_p50_ms') },
        { key: 'lag_p99_ms', label: 'Replication lag, p99 (median of runs)', unit: 'ms', decimals: 2, description: 'The same, the run\'s 99th percentile.', of: (ok) => of(ok, 'lag_p99_ms') },
        { key: 'lag_max_ms', label: 'Replication lag, largest in any run', unit: 'ms', decimals: 2, description: 'The largest lag of any row in any good run.', of: (ok) => { const v = ok.map((x) => x.metrics.replica && x.metrics.replica.lag_max_ms).filter(Number.isFinite); return v.length ? Math.max(...v) : null; } },
      ],
      baseline: (c, m) => ({ cell: 'primary-only', measurement: m.id }),
      baselineLabel: () => 'no reading role (primary only)',
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    const col = (k) => columns.findIndex((c) => c.key === k);
    const say = (r) => `${r.row[0]}: ${r.row[col('read_found_pct')] ?? '?'} % of reads saw the write, ${r.row[col('read_on_reading_pct')] ?? '?'} % on the reading role, lag p50 ${r.row[col('lag_p50_ms')] ?? '?'} ms`;
    return [base(ctx, {
      id: 'rebench-2026-replica',
      title: 'A PostgreSQL 17 streaming replica in 2026: replication lag and read-your-writes with Rails\' automatic role switching',
      topic: 'rails',
      summary: `${records.map(say).join('; ')}. ${verdictSentence(records, spec, 'read-after-write latency (p50)', (r) => r.row[0])}`,
      measured: `For ${p.RB_PAIRS} write-then-read pairs at ${p.RB_RATE} pairs per second in one session: the latency of the read sent right after each write, whether it saw the row just written and which role served it, and each row's replication lag from the primary to a streaming replica, with no reading role and with connects_to and automatic role switching (database_selector delay 2 s and 0 s).`,
      software: softwareOf(ctx, ['lab-3.3']),
      method: methodOf(ctx, {
        tool: 'rebench',
        description: `Setup: the reference app's PostgreSQL 17 primary is copied with pg_basebackup -R (${versions['replica: primary_conninfo (pg_basebackup -R)'] ? 'primary_conninfo written by -R' : 'primary_conninfo'}) into a second data directory and started as a hot standby on port 5433 (asynchronous streaming: sync_state ${versions['replica: sync_state'] || 'not recorded'}); primary, replica and Puma (one process, ${p.RB_THREADS} threads) are pinned to the server CPU, lab/bench/replica-client.rb to the load CPU. Every run boots Puma fresh, sends ${p.RB_WARM_PAIRS} pairs not measured, then ${p.RB_PAIRS} measured pairs at ${p.RB_RATE} per second: POST /bench/replica (one INSERT on the writing role), then as soon as it is answered GET /bench/replica/ID with the same session cookie. The role-switching cells use Rails' default resolver with its session context: a GET goes to the reading role unless the session wrote within the delay.`,
        concurrency: 1,
        duration: null,
        warmup: p.RB_WARM_PAIRS ? `${p.RB_WARM_PAIRS} pairs after boot, not measured` : 'none (quick run)',
      }),
      columns, rows, markers,
      caveats: [
        'Read scaling is not measured: on this 2-core machine the app, the primary and the replica share one CPU, so a replica adds no capacity here and its cost competes with the primary. What a replica buys in production (reads on other hardware) needs a second machine.',
        'The lag is between two servers on one machine over loopback, under a light write load (one INSERT per pair): it is a floor for what a replica over a network and under heavy writes shows, not a forecast.',
        `The lag resolution is the pollers' interval (${p.RB_POLL_MS} ms) plus one query on each server; the pollers' queries run on the server CPU too.`,
      ],
      related: [],
      charts: [medianChart({
        id: 'read-after-write', title: 'Read right after a write, p50 latency, by role-switching setting',
        caption: 'Bars: median of the runs; lines: slowest to fastest run. Read the grade above the chart first; the table says whether each read saw the write.',
        alt: records.map((r) => `${r.row[0]}: ${typeof r.row[col('p50_ms_median')] === 'number' ? `p50 ${r.row[col('p50_ms_median')]} ms` : r.row[col('p50_ms_median')]}, ${r.row[col('read_found_pct')] ?? 'no'} % saw the write`).join('; ') + '.',
        yField: 'setting', yTitle: 'Reads', key: 'p50_ms', xTitle: 'Read after write, p50 (ms, median of runs)',
        columns: ['setting', 'p50_ms_median', 'p50_ms_min', 'p50_ms_max', 'read_found_pct', 'lag_p50_ms', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
      })],
    })];
  },
};
