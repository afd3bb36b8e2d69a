// Experiment 6: Rails code patterns (thesis Tables 5.21–5.24) on PostgreSQL 17, MariaDB 11.8 and SQLite.
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { placementCaveat, warmupText } from './common.mjs';

// Each pattern is compared with the way the thesis measured as the slow one.
export const PATTERNS = [
  { id: 'n_plus_one', label: 'N+1 queries (author per post, 100 posts)', pair: 'n_plus_one' },
  { id: 'eager', label: 'includes (eager loading)', pair: 'n_plus_one' },
  { id: 'preload', label: 'preload (eager loading, separate query)', pair: 'n_plus_one' },
  { id: 'all_each', label: 'all.each (every comment at once)', pair: 'all_each' },
  { id: 'find_each', label: 'find_each (batches of 1000)', pair: 'all_each' },
  { id: 'transaction_per_row', label: 'One transaction per row (100 rows)', pair: 'transaction_per_row' },
  { id: 'transaction_single', label: 'One transaction for all rows', pair: 'transaction_per_row' },
  { id: 'dynamic_finder', label: 'Dynamic finder (find_by_title, 100 lookups)', pair: 'dynamic_finder' },
  { id: 'where', label: 'where(title:).first (100 lookups)', pair: 'dynamic_finder' },
];
const DATABASES = [
  { id: 'postgresql', label: 'PostgreSQL 17' },
  { id: 'mariadb', label: 'MariaDB 11.8' },
  { id: 'sqlite', label: 'SQLite 3' },
];

export default {
  name: 'patterns',
  title: 'Rails code patterns on PostgreSQL, MariaDB and SQLite',
  mirrors: 'thesis Tables 5.21–5.24',
  full: { dbs: DATABASES.map((d) => d.id), params: { RB_DATABASES: 'postgresql,mariadb,sqlite', RB_DURATION_S: 2, RB_WARMUP_S: 1 }, timeoutPerCellS: 150, setupS: 420 },
  quick: { dbs: ['sqlite'], params: { RB_DATABASES: 'sqlite', RB_DURATION_S: 1, RB_WARMUP_S: 0 }, timeoutPerCellS: 90, setupS: 240 },
  cells(size) {
    return DATABASES.filter((d) => size.dbs.includes(d.id)).map((d) => ({ ...d, measurements: PATTERNS.map((p) => ({ id: p.id, tool: 'wrk' })) }));
  },
  datasetIds: () => ['rebench-2026-rails-patterns'],
  datasets(ctx) {
    const p = ctx.params;
    const spec = {
      labels: [
        { key: 'database', label: 'Database', of: (c) => c.label },
        { key: 'pattern', label: 'Code', of: (c, m) => PATTERNS.find((x) => x.id === m.id).label },
      ],
      primary: 'p50_ms', latency: true, memory: false,
      baseline: (c, m) => ({ cell: c.id, measurement: PATTERNS.find((x) => x.id === m.id).pair }),
      baselineLabel: (c, m) => PATTERNS.find((x) => x.id === m.id).label,
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    const wins = records.filter((r) => r.cmp && r.cmp.verdict === 'better');
    const summary = records.some((r) => typeof r.row[3] === 'number')
      ? `Per request, ${wins.length} of ${records.filter((r) => r.cmp).length} database-and-pattern pairs showed the recommended code faster beyond the noise${wins.length ? ` (the largest gap: ${wins.reduce((a, b) => (b.cmp.ratio < a.cmp.ratio ? b : a)).row.slice(0, 2).join(', ')} at ${Math.round(Math.min(...wins.map((w) => w.cmp.ratio)) * 1000) / 1000} times the time of its counterpart)` : ''}.`
      : 'No pattern produced a reading; see the raw output for why.';
    return [base(ctx, {
      id: 'rebench-2026-rails-patterns',
      title: 'Rails 8.1 code patterns in 2026: eager loading, find_each, transactions and finders on three databases',
      topic: 'rails',
      summary,
      measured: `Median time per request (wrk over one connection for ${p.RB_DURATION_S} s, so one request at a time) of the reference app's /patterns/<name> routes, each pair doing the same work two ways, on PostgreSQL 17, MariaDB 11.8 and SQLite; the ratio compares each recommended way with its counterpart on the same database.`,
      software: softwareOf(ctx, ['lab-3.3']),
      method: methodOf(ctx, {
        tool: 'rebench',
        description: 'The reference app is prepared (migrated and seeded) once per database; every run boots a single-process, single-thread Puma on that database and requests the eight routes in a random order, each with wrk -t1 -c1.',
        concurrency: 1,
        duration: p.RB_DURATION_S,
        warmup: p.RB_WARMUP_S ? `${warmupText(p, 1)} on each route right before it is measured, not recorded` : 'none (quick run)',
      }),
      columns, rows, markers,
      caveats: [
        'The two transaction routes insert 100 rows and delete them again within each request, so the tables do not grow during a run.',
        placementCaveat(ctx),
        'The database server runs without tuning (lab defaults).',
      ],
      related: ['thesis-rails-eager-loading', 'thesis-rails-find-each', 'thesis-rails-explicit-transactions', 'thesis-rails-magic-finders'],
      charts: [medianChart({
        id: 'time', title: 'Time per request by code pattern and database',
        caption: 'Bars: median per-request time over the runs; lines: slowest to fastest run. Compare each pair on the same database.',
        alt: records.map((r) => `${r.row[0]}, ${r.row[1]}: ${typeof r.row[3] === 'number' ? `${r.row[3]} ms` : r.row[3]}`).join('; ') + '.',
        yField: 'pattern', offsetField: 'database', yTitle: 'Code', key: 'p50_ms', xTitle: 'Median time per request (ms)',
        columns: ['database', 'pattern', 'p50_ms_median', 'p50_ms_min', 'p50_ms_max', 'ratio', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
      })],
    })];
  },
};
