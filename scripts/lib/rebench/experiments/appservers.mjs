// Experiment 2: application servers (thesis Tables 5.15–5.18) on the reference Rails 8.1 app.
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { verdictSentence, dbName, placementCaveat, warmupText } from './common.mjs';

export const PAGES = [
  { id: 'api', label: 'API (small JSON)' },
  { id: 'regular', label: 'Regular page' },
  { id: 'heavy', label: 'Heavy page (many records)' },
];
const SERVERS = [
  { id: 'puma-single', label: 'Puma 8, single process' },
  { id: 'puma-cluster', label: 'Puma 8, clustered' },
  { id: 'unicorn', label: 'Unicorn' },
  { id: 'pitchfork', label: 'Pitchfork' },
  { id: 'falcon', label: 'Falcon' },
  { id: 'webrick', label: 'WEBrick (floor)' },
  { id: 'passenger', label: 'Passenger' },
  // Today's Ruby as readers run it: the lab's Ruby 3.4 built from Debian's source with YJIT, clustered Puma,
  // YJIT off (LAB_YJIT=off) and on (Rails 8.1's default). PSS per process is the YJIT memory figure.
  { id: 'puma-34-yjit-off', label: 'Puma 8, clustered, Ruby 3.4 YJIT build, YJIT off', ruby: '3.4-yjit' },
  { id: 'puma-34-yjit', label: 'Puma 8, clustered, Ruby 3.4 + YJIT', ruby: '3.4-yjit' },
];
export const YJIT_SERVERS = ['puma-34-yjit-off', 'puma-34-yjit'];

export default {
  name: 'appservers',
  title: 'Application servers: Puma, Unicorn, Pitchfork, Falcon, WEBrick',
  mirrors: 'thesis Tables 5.15–5.18',
  full: { servers: SERVERS.map((s) => s.id), params: { RB_WORKERS: 2, RB_THREADS: 3, RB_CONNECTIONS: 10, RB_DURATION_S: 3, RB_WARMUP_S: 1 }, timeoutPerCellS: 150, setupS: 240, prepareGems: true },
  quick: { servers: ['puma-single', 'puma-cluster'], params: { RB_DB: 'sqlite', RB_WORKERS: 2, RB_THREADS: 3, RB_CONNECTIONS: 4, RB_DURATION_S: 1, RB_WARMUP_S: 0 }, timeoutPerCellS: 120, setupS: 240 },
  cells(size) {
    return SERVERS.filter((s) => size.servers.includes(s.id)).map((s) => ({ ...s, measurements: PAGES.map((p) => ({ id: p.id, tool: 'wrk', memory: true })) }));
  },
  datasetIds: () => ['rebench-2026-app-servers'],
  datasets(ctx) {
    const p = ctx.params;
    const spec = {
      labels: [
        { key: 'server', label: 'Server', of: (c) => c.label },
        { key: 'page', label: 'Page', of: (c, m) => PAGES.find((x) => x.id === m.id).label },
      ],
      primary: 'rps', latency: true, memory: true,
      // The YJIT run against the same build with YJIT off; every other server against clustered Puma on Ruby 3.3.
      baseline: (c, m) => ({ cell: c.id === 'puma-34-yjit' ? 'puma-34-yjit-off' : 'puma-cluster', measurement: m.id }),
      baselineLabel: (c) => `${c.label}, same page`,
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    const id = 'rebench-2026-app-servers';
    // Only the YJIT pair measured (--cells puma-34-yjit-off,puma-34-yjit --tag yjit): the dataset says so.
    const yjitOnly = ctx.cells.every((c) => YJIT_SERVERS.includes(c.id));
    return [base(ctx, {
      id,
      title: yjitOnly ? 'Ruby 3.4 with YJIT off and on: the same Rails 8.1 app on clustered Puma, throughput, latency and memory per process'
        : 'Application servers in 2026: the same Rails 8.1 app under six servers',
      topic: yjitOnly ? 'jit' : 'app-server',
      summary: verdictSentence(records, spec, 'requests per second', (r) => `${r.group.cell.label} on the ${r.group.measurement.id} page`),
      measured: `Requests per second, median and 99th-percentile latency, failed requests and the proportional set size (PSS) of the server's whole process tree for the lab's reference Rails 8.1 app on ${dbName(p)}, under each server with ${p.RB_WORKERS} processes where it forks (Puma clustered: ${p.RB_WORKERS} workers × ${p.RB_THREADS} threads; single: 1 × ${p.RB_THREADS}), ${p.RB_CONNECTIONS} wrk connections for ${p.RB_DURATION_S} s per page.`,
      software: softwareOf(ctx, ['lab-3.3']),  // lists the YJIT build too (mounted in every lab run)
      method: methodOf(ctx, {
        tool: 'rebench',
        description: `Every run boots the server fresh (${bootText(ctx.cells, p)}), waits for /up, then measures the three pages in a random order with wrk -c ${p.RB_CONNECTIONS} while a sampler reads /proc/PID/smaps_rollup of every process in the server's tree every 0.5 s.`,
        concurrency: p.RB_CONNECTIONS,
        duration: p.RB_DURATION_S,
        warmup: p.RB_WARMUP_S ? `${warmupText(p, p.RB_CONNECTIONS)} on each page right before it is measured, not recorded` : 'none (quick run)',
      }),
      columns, rows, markers,
      caveats: caveatsOf(ctx),
      related: ['thesis-thin-vs-unicorn', 'thesis-passenger-apache-vs-nginx', 'thesis-webserver-memory-workers'],
      charts: [
        medianChart({
          id: 'rps', title: 'Requests per second by server and page',
          caption: 'Bars: median of the runs; lines: slowest to fastest run. Read a difference only where the verdict column says better or worse.',
          alt: alt(records, 'requests per second'),
          yField: 'server', offsetField: 'page', yTitle: 'Server', key: 'rps', xTitle: 'Requests per second (median)',
          columns: ['server', 'page', 'rps_median', 'rps_min', 'rps_max', 'p99_ms', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
        }),
        ...(records.some((r) => r.group.results.some((x) => x.memory && x.memory.series.length)) ? [memoryChart(records)] : []),
      ],
    })];
  },
};

const has = (cells, ...ids) => cells.some((c) => ids.includes(c.id));

/** How each measured server was started: only the servers this run measured (a --cells subset names no others). */
function bootText(cells, p) {
  const parts = [];
  if (has(cells, 'puma-single', 'puma-cluster', ...YJIT_SERVERS)) parts.push('Puma with no config file, puma -C -');
  const forking = ['unicorn', 'pitchfork'].filter((id) => has(cells, id)).map((id) => SERVERS.find((x) => x.id === id).label);
  if (forking.length) parts.push(`${forking.join(' and ')} with ${p.RB_WORKERS} workers and preload where the server offers it`);
  if (has(cells, 'falcon')) parts.push(`Falcon --count ${p.RB_WORKERS}`);
  if (has(cells, 'webrick')) parts.push('WEBrick through bin/rails server');
  return parts.join('; ');
}

/** The caveats that hold for the servers this run measured, and where its processes ran (its isolation record). */
function caveatsOf(ctx) {
  const cells = ctx.cells;
  const yjit = has(cells, ...YJIT_SERVERS);
  const others = cells.some((c) => !YJIT_SERVERS.includes(c.id));
  return [
    placementCaveat(ctx, { waits: 'PostgreSQL' }),
    ...(yjit ? [`The "Ruby 3.4 YJIT build" rows run on the lab's Ruby 3.4 built from Debian's ruby3.4 source package with YJIT (3.4.5-1~exp1, scripts/lib/lab/build-ruby-yjit.sh)${others ? "; every other row runs on Debian 13's Ruby 3.3" : ''}. Compare the YJIT row with the YJIT-off row (same binary, same gems; only config.yjit differs; every response names the Ruby and the YJIT state of the process that served it, and each run checked that header on /up before it was measured)${others ? ', not with the Ruby 3.3 rows' : ''}.`,
      'YJIT memory: the YJIT rows\' PSS per process is whole-tree PSS divided by the processes (the Puma master and its workers); the difference between the YJIT-on and YJIT-off rows is what this run measured YJIT\'s compiled code and metadata to add per process under this load, at Ruby 3.4\'s default --yjit-mem-size (a median of run peaks, averaged over the master and its workers, with no verdict of its own).'] : []),
    'PSS divides pages shared between forked workers among them, so the whole-tree PSS is the memory the server really holds; RSS summed over workers would count shared pages several times.',
    ...(has(cells, 'unicorn') ? ['Unicorn does not keep connections alive: it closes the connection after every response, and wrk counts each close as a socket read error, so Unicorn\'s failed-request count equals its request count without any request failing, and each of its requests pays for a new connection.'] : []),
    ...(has(cells, 'falcon') ? ['Falcon runs each request in a fiber of one thread per process; for Falcon the reference app switches Rails to the fiber isolation level (config.active_support.isolation_level = :fiber, set when LAB_ISOLATION_LEVEL=fiber), as Rails asks for fiber-based servers, so each request holds its own database connection. Without it (the first 2026 run) concurrent requests shared a connection and part of them failed with HTTP 500.'] : []),
  ];
}

export function alt(records, what) {
  return records.map((r) => `${r.row[0]}, ${r.row[1]}: ${typeof r.row[3] === 'number' ? `${Math.round(r.row[3])} ${what}` : r.row[3]}`).join('; ') + '.';
}

function memoryChart(records) {
  const measured = records.filter((r) => r.group.results.some((x) => x.memory));
  return {
    id: 'memory', title: 'Memory of the whole server (PSS) by server',
    caption: 'Highest whole-tree PSS during the run, median of the runs; the heavy page needs the most.',
    alt: `PSS of the server process tree: ${measured.map((r) => `${r.row[0]} on ${r.row[1]}`).join(', ') || 'not measured'}; values in the table.`,
    columns: ['server', 'page', 'pss_total_mib', 'processes', 'pss_per_process_mib'],
    spec: {
      width: 480, height: { step: 22 },
      transform: [{ filter: 'isValid(datum.pss_total_mib)' }, { calculate: "datum.server + ' · ' + datum.page", as: 'configuration' }],
      mark: { type: 'bar' },
      encoding: {
        y: { field: 'configuration', type: 'nominal', sort: null, title: 'Server and page' },
        x: { field: 'pss_total_mib', type: 'quantitative', title: 'PSS of the whole server (MiB)' },
        color: { field: 'page', type: 'nominal' },
      },
    },
  };
}
