// Experiment 3: a proxy in front of Puma (thesis Tables 5.15, 5.16, 5.19): none, nginx, Apache, Caddy, Thruster.
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { verdictSentence, dbName, warmupText } from './common.mjs';
import { PAGES, alt } from './appservers.mjs';

const PROXIES = [
  { id: 'none', label: 'No proxy (Puma direct)' },
  { id: 'nginx', label: 'nginx' },
  { id: 'apache', label: 'Apache (mod_proxy_http)' },
  { id: 'caddy', label: 'Caddy' },
  { id: 'thruster', label: 'Thruster' },
];

export default {
  name: 'proxies',
  title: 'A proxy in front: none, nginx, Apache, Caddy, Thruster',
  mirrors: 'thesis Tables 5.15, 5.16 and 5.19',
  full: { proxies: PROXIES.map((x) => x.id), params: { RB_WORKERS: 2, RB_THREADS: 3, RB_CONNECTIONS: 10, RB_DURATION_S: 3, RB_WARMUP_S: 1, RB_THRUSTER: 1 }, timeoutPerCellS: 60, setupS: 300 },
  quick: { proxies: ['none', 'nginx'], params: { RB_DB: 'sqlite', RB_WORKERS: 2, RB_THREADS: 3, RB_CONNECTIONS: 4, RB_DURATION_S: 1, RB_WARMUP_S: 0, RB_THRUSTER: 0 }, timeoutPerCellS: 30, setupS: 300 },
  cells(size) {
    return PROXIES.filter((x) => size.proxies.includes(x.id)).map((x) => ({ ...x, measurements: PAGES.map((pg) => ({ id: pg.id, tool: 'wrk' })) }));
  },
  datasetIds: () => ['rebench-2026-proxies'],
  datasets(ctx) {
    const p = ctx.params;
    const spec = {
      labels: [
        { key: 'proxy', label: 'In front of Puma', of: (c) => c.label },
        { key: 'page', label: 'Page', of: (c, m) => PAGES.find((x) => x.id === m.id).label },
      ],
      primary: 'rps', latency: true, memory: false,
      baseline: (c, m) => ({ cell: 'none', measurement: m.id }),
      baselineLabel: () => 'Puma direct, same page',
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    return [base(ctx, {
      id: 'rebench-2026-proxies',
      title: 'A proxy in front of Puma in 2026: none, nginx, Apache, Caddy, Thruster',
      topic: 'proxy',
      summary: verdictSentence(records, spec, 'requests per second', (r) => `${r.group.cell.label} on the ${r.group.measurement.id} page`),
      measured: `Requests per second, median and 99th-percentile latency and failed requests for the reference Rails 8.1 app (${dbName(p)}) on one clustered Puma (${p.RB_WORKERS} workers × ${p.RB_THREADS} threads), requested directly and through each proxy with ${p.RB_CONNECTIONS} wrk connections for ${p.RB_DURATION_S} s per page.`,
      software: softwareOf(ctx, ['lab-3.3']),
      method: methodOf(ctx, {
        tool: 'rebench',
        description: 'One Puma runs for the whole batch; nginx (upstream keep-alive), Apache (event MPM, mod_proxy_http), Caddy (reverse_proxy) and Thruster (its own child Puma with the same flags) proxy to it over loopback with minimal configurations. Each run measures the three pages through one front in a random order.',
        concurrency: p.RB_CONNECTIONS,
        duration: p.RB_DURATION_S,
        warmup: p.RB_WARMUP_S ? `${warmupText(p, p.RB_CONNECTIONS)} on each page through the same front right before it is measured, not recorded` : 'none (quick run)',
      }),
      columns, rows, markers,
      caveats: ['No TLS, no compression and no static files here: the proxy only forwards dynamic requests, which is the case where it costs the most relative to what it does. Its benefits (buffering slow clients, serving assets, TLS) are not measured.'],
      related: ['thesis-webserver-reverse-proxy'],
      charts: [medianChart({
        id: 'rps', title: 'Requests per second with and without a proxy',
        caption: 'Bars: median of the runs; lines: slowest to fastest run. The proxy shares the two cores with Puma and wrk.',
        alt: alt(records, 'requests per second'),
        yField: 'proxy', offsetField: 'page', yTitle: 'In front of Puma', key: 'rps', xTitle: 'Requests per second (median)',
        columns: ['proxy', 'page', 'rps_median', 'rps_min', 'rps_max', 'p99_ms', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
      })],
    })];
  },
};
