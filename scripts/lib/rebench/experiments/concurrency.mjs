// Experiment 7: Puma workers × threads on an I/O-bound and a CPU-bound route (the processes/threads posts).
import fs from 'node:fs';
import path from 'node:path';
import { summaryRows, base, softwareOf, methodOf } from '../dataset.mjs';
import { verdictSentence } from './common.mjs';

const ROUTES = [
  { id: 'io', label: 'I/O-bound (/io, waits)' },
  { id: 'cpu', label: 'CPU-bound (/cpu, computes)' },
];

/**
 * What the routes really did, from lab/bench/route-proof.rb's in-process run at setup: the share of the wall time
 * each route was runnable (on a CPU or queued for one). Near 100 % is CPU-bound; near 0 % is a wait.
 */
export function routeProof(ctx) {
  const file = ctx.raw && fs.existsSync(ctx.raw) && fs.readdirSync(ctx.raw).find((n) => /^route-proof-.*\.tsv$/.test(n));
  const rows = file ? fs.readFileSync(path.join(ctx.raw, file), 'utf8').split('\n').map((l) => l.split('\t')).filter((x) => /^(cpu|io)$/.test(x[0]) && Number(x[4]) > 0) : [];
  if (!rows.length) return 'The routes were not proven in process in this run (no route-proof output): whether /cpu was CPU-bound and /io a wait is not recorded.';
  const share = (route) => {
    const xs = rows.filter((x) => x[0] === route).map((x) => Number(x[3]) / Number(x[4])).sort((a, b) => a - b);
    return xs.length ? `${Math.round(xs[Math.floor(xs.length / 2)] * 100)} %` : 'not measured';
  };
  const wait = (rows.find((x) => x[0] === 'io') || [])[5] || 'unknown';
  return `Proven in process before the runs (lab/bench/route-proof.rb, ${rows.length / 2} requests each): /cpu was runnable (on a CPU or queued for one) for ${share('cpu')} of its wall time (median), /io for ${share('io')}, waiting on ${wait}.`;
}

/** What /io waited on in this run: the route proof's record; runs without one predate the database wait. */
function waitOf(ctx) {
  const file = ctx.raw && fs.existsSync(ctx.raw) && fs.readdirSync(ctx.raw).find((n) => /^route-proof-.*\.tsv$/.test(n));
  const io = file && fs.readFileSync(path.join(ctx.raw, file), 'utf8').split('\n').map((l) => l.split('\t')).find((x) => x[0] === 'io');
  return io && io[5] ? `on ${io[5]}` : "in Ruby's sleep (this run predates the route's database wait and has no route proof)";
}

export default {
  name: 'concurrency',
  title: 'Concurrency: Puma workers × threads, I/O-bound and CPU-bound',
  mirrors: 'the Rails Ruby Bench processes/threads posts',
  full: { workers: [1, 2, 4], threads: [1, 4, 16], params: { RB_CONNECTIONS: 32, RB_DURATION_S: 2, RB_WARMUP_S: 1, RB_IO_MS: 50, RB_CPU_N: 200000 }, timeoutPerCellS: 90, setupS: 240 },
  quick: { workers: [1, 2], threads: [2], params: { RB_DB: 'sqlite', RB_CONNECTIONS: 4, RB_DURATION_S: 1, RB_WARMUP_S: 0, RB_IO_MS: 20, RB_CPU_N: 2000 }, timeoutPerCellS: 90, setupS: 240 },
  cells(size) {
    return size.workers.flatMap((w) => size.threads.map((t) => ({ id: `w${w}-t${t}`, label: `${w} × ${t}`, workers: w, threads: t, measurements: ROUTES.map((r) => ({ id: r.id, tool: 'wrk' })) })));
  },
  datasetIds: () => ['rebench-2026-concurrency'],
  datasets(ctx) {
    const p = ctx.params;
    const first = ctx.cells[0].id;
    const spec = {
      labels: [
        { key: 'workers', label: 'Puma workers', of: (c) => String(c.workers) },
        { key: 'threads', label: 'Threads per worker', of: (c) => String(c.threads) },
        { key: 'route', label: 'Route', of: (c, m) => ROUTES.find((x) => x.id === m.id).label },
      ],
      primary: 'rps', latency: true, memory: false,
      baseline: (c, m) => ({ cell: first, measurement: m.id }),
      baselineLabel: (c, m) => `${c.workers} worker × ${c.threads} thread, same route`,
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    return [base(ctx, {
      id: 'rebench-2026-concurrency',
      title: 'Puma workers × threads in 2026 on two cores: an I/O-bound and a CPU-bound route',
      topic: 'concurrency',
      summary: verdictSentence(records, spec, 'requests per second', (r) => `${r.group.cell.workers} worker(s) × ${r.group.cell.threads} thread(s) on the ${r.group.measurement.id} route`),
      measured: `Requests per second and latency of /io?ms=${p.RB_IO_MS} (the request waits ${p.RB_IO_MS} ms: ${waitOf(ctx)}) and /cpu?n=${p.RB_CPU_N} (pure Ruby computation) under clustered Puma with each combination of workers and threads, ${p.RB_CONNECTIONS} wrk connections for ${p.RB_DURATION_S} s.`,
      software: softwareOf(ctx, ['lab-3.3']),
      method: methodOf(ctx, {
        tool: 'rebench',
        description: `Every run boots Puma fresh in cluster mode (puma -C - -w W -t T:T --preload, also for one worker), then measures both routes in a random order with wrk -c ${p.RB_CONNECTIONS}.`,
        concurrency: p.RB_CONNECTIONS,
        duration: p.RB_DURATION_S,
        warmup: p.RB_WARMUP_S ? `${p.RB_WARMUP_S} s of wrk (2 connections) on each route right before it is measured, not recorded` : 'none (quick run)',
      }),
      columns, rows, markers,
      caveats: [routeProof(ctx), 'The machine has two cores shared with wrk: beyond two busy processes, CPU-bound work cannot go faster, and extra threads only help while requests wait.'],
      related: ['rrb-puma-processes-threads', 'fibers-threads-processes-macbook'],
      charts: [{
        id: 'sweep', title: 'Requests per second by threads per worker, one line per worker count',
        caption: 'Median of the runs for each workers × threads configuration, per route. Read a difference only where the verdict column says better or worse, and the grade under the chart first.',
        alt: records.map((r) => `${r.row[0]} worker(s) × ${r.row[1]} thread(s), ${r.row[2]}: ${typeof r.row[4] === 'number' ? `${Math.round(r.row[4])} requests per second` : r.row[4]}`).join('; ') + '.',
        columns: ['workers', 'threads', 'route', 'rps_median', 'rps_min', 'rps_max', 'verdict'],
        spec: {
          transform: [{ calculate: 'toNumber(datum.threads)', as: 'thread_count' }],
          facet: { column: { field: 'route', type: 'nominal', title: null } },
          spec: {
            width: 220, height: 200,
            layer: [
              ...(records.some((r) => r.spread.n > 0) ? [
              { transform: [{ filter: 'isValid(datum.rps_median)' }], mark: { type: 'line', point: true }, encoding: { x: { field: 'thread_count', type: 'quantitative', scale: { type: 'log', base: 2 }, title: 'Threads per worker' }, y: { field: 'rps_median', type: 'quantitative', title: 'Requests per second (median)' }, color: { field: 'workers', type: 'nominal', title: 'Workers' } } },
              { transform: [{ filter: 'isValid(datum.rps_median)' }], mark: { type: 'rule' }, encoding: { x: { field: 'thread_count', type: 'quantitative' }, y: { field: 'rps_min', type: 'quantitative' }, y2: { field: 'rps_max' }, color: { field: 'workers', type: 'nominal' } } },
              ] : []),
              ...(markers.length ? [{
                transform: [{ calculate: 'datum.rps_median_failure || datum.rps_min_failure || datum.rps_max_failure', as: 'failure' }, { filter: 'datum.failure' }, { calculate: "datum.workers + ' worker(s): ' + datum.failure", as: 'failure_label' }],
                mark: { type: 'text', align: 'left', dx: 4 },
                encoding: { x: { field: 'thread_count', type: 'quantitative' }, y: { value: 10 }, text: { field: 'failure_label' } },
              }] : []),
            ],
          },
          resolve: { scale: { y: 'independent' } },
        },
      }],
    })];
  },
};
