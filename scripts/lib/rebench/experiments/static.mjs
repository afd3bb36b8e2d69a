// Experiment 1: static files (thesis Tables 5.4–5.9). nginx, Apache and Caddy serve the same 10 KiB file.
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { verdictSentence, placementCaveat, warmupText } from './common.mjs';

const SERVERS = [
  { id: 'nginx', label: 'nginx' },
  { id: 'apache', label: 'Apache (event MPM)' },
  { id: 'caddy', label: 'Caddy' },
];
const TOOLS = { ab: 'ab, 1 connection per request', wrk: 'wrk, keep-alive' };

export default {
  name: 'static',
  title: 'Static files: nginx, Apache and Caddy',
  mirrors: 'thesis Tables 5.4–5.9',
  full: { params: { RB_AB_REQUESTS: 10000, RB_AB_CONCURRENCY: 1000, RB_WRK_CONNECTIONS: 100, RB_DURATION_S: 3, RB_WARMUP_S: 1 }, timeoutPerCellS: 60, setupS: 60 },
  quick: { params: { RB_AB_REQUESTS: 500, RB_AB_CONCURRENCY: 50, RB_WRK_CONNECTIONS: 10, RB_DURATION_S: 1, RB_WARMUP_S: 0 }, timeoutPerCellS: 30, setupS: 60 },
  cells() {
    return SERVERS.map((s) => ({ ...s, measurements: [{ id: 'ab', tool: 'ab' }, { id: 'wrk', tool: 'wrk' }] }));
  },
  datasetIds: () => ['rebench-2026-static-files'],
  datasets(ctx) {
    const p = ctx.params;
    const spec = {
      labels: [
        { key: 'server', label: 'Server', of: (c) => c.label },
        { key: 'load', label: 'Load', of: (c, m) => (m.id === 'ab' ? `ab -n ${p.RB_AB_REQUESTS} -c ${p.RB_AB_CONCURRENCY}` : `wrk -c ${p.RB_WRK_CONNECTIONS}, ${p.RB_DURATION_S} s, keep-alive`) },
      ],
      primary: 'rps', latency: true, memory: false,
      baseline: (c, m) => ({ cell: 'nginx', measurement: m.id }),
      baselineLabel: (c, m) => `${c.label}, same load`,
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    const id = 'rebench-2026-static-files';
    return [base(ctx, {
      id,
      title: 'Static files in 2026: nginx, Apache and Caddy on the same file',
      topic: 'proxy',
      summary: verdictSentence(records, spec, 'requests per second', (rec) => `${rec.group.cell.label} with ${TOOLS[rec.group.measurement.id]}`),
      measured: `Requests per second and latency for one 10 KiB HTML file served by nginx, Apache httpd (event MPM) and Caddy, each with a minimal configuration (access log off, sendfile on), measured with ApacheBench (${p.RB_AB_REQUESTS} requests, ${p.RB_AB_CONCURRENCY} concurrent, a new connection per request, as in the thesis) and with wrk (${p.RB_WRK_CONNECTIONS} keep-alive connections for ${p.RB_DURATION_S} s).`,
      software: softwareOf(ctx, ['lab-3.3']),
      method: methodOf(ctx, {
        tool: 'rebench',
        description: 'All three servers run at once inside the lab\'s private network namespace; only the one being measured gets load. Each run is ab followed by wrk (or the reverse, in a random order per run) against http://127.0.0.1:PORT/rebench.html.',
        concurrency: p.RB_AB_CONCURRENCY,
        requests: p.RB_AB_REQUESTS,
        duration: p.RB_DURATION_S,
        warmup: p.RB_WARMUP_S ? `${warmupText(p)} against the same URL before each run's measurements, not recorded` : 'none (quick run)',
      }),
      columns, rows, markers,
      caveats: [
        placementCaveat(ctx, { server: 'The web server', load: 'ab and wrk', waits: null }),
        'At these rates the load generator needs about as much CPU as the server, so the figures are a floor, and the order between servers matters more than the absolute rate.',
      ],
      related: ['thesis-os-ab-nginx-10k-1k', 'thesis-os-ab-apache-10k-1k'],
      charts: [medianChart({
        id: 'rps', title: 'Requests per second for one static file',
        caption: 'Bars: median of the runs; lines: the slowest to the fastest run. Both load tools on the same two cores as the server.',
        alt: altText(records, spec),
        yField: 'server', offsetField: 'load', yTitle: 'Server', key: 'rps', xTitle: 'Requests per second (median)',
        columns: ['server', 'load', 'rps_median', 'rps_min', 'rps_max', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
      })],
    })];
  },
};

function altText(records, spec) {
  return records.map((r) => `${r.row[0]}, ${r.row[1]}: ${typeof r.row[spec.labels.length + 1] === 'number' ? `${Math.round(r.row[spec.labels.length + 1])} requests per second` : 'no reading'}`).join('; ') + '.';
}
