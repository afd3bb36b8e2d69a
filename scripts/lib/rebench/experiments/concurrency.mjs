// Experiment 7: Puma workers × threads on an I/O-bound and a CPU-bound route (the processes/threads posts).
import fs from 'node:fs';
import path from 'node:path';
import { summaryRows, base, softwareOf, methodOf } from '../dataset.mjs';
import { verdictSentence, warmupText } from './common.mjs';

const ROUTES = [
  { id: 'io', label: 'I/O-bound (/io, waits)' },
  { id: 'cpu', label: 'CPU-bound (/cpu, computes)' },
];

/** The route proof's rows (lab/bench/route-proof.rb at setup: route, status, CPU, runnable and wall ms, wait). */
function proofRows(raw) {
  const file = raw && fs.existsSync(raw) && fs.readdirSync(raw).find((n) => /^route-proof-.*\.tsv$/.test(n));
  return file ? fs.readFileSync(path.join(raw, file), 'utf8').split('\n').map((l) => l.split('\t')).filter((x) => /^(cpu|io)$/.test(x[0]) && Number(x[4]) > 0) : [];
}

/**
 * The share of the wall time each route was runnable (on a CPU or queued for one), median over the proof's
 * requests: { cpu, io, wait, requests }, with null shares when the run has no route proof.
 */
export function routeShares(raw) {
  const rows = proofRows(raw);
  const share = (route) => {
    const xs = rows.filter((x) => x[0] === route).map((x) => Number(x[3]) / Number(x[4])).sort((a, b) => a - b);
    return xs.length ? xs[Math.floor(xs.length / 2)] : null;
  };
  return { cpu: share('cpu'), io: share('io'), wait: (rows.find((x) => x[0] === 'io') || [])[5] || null, requests: rows.length / 2 };
}

/** The thresholds of tests/rebench/workloads.test.mjs: /cpu computes, /io waits. */
export const PROVEN = { cpuMin: 0.8, ioMax: 0.2 };

/** Why this run's routes do not measure what they are named for, or null when the proof says they do. */
export function routesUnproven(raw) {
  const s = routeShares(raw);
  if (s.cpu === null || s.io === null) return 'its raw output has no route proof (lab/bench/route-proof.rb): the run predates it';
  if (s.cpu < PROVEN.cpuMin) return `its /cpu route was runnable for only ${Math.round(s.cpu * 100)} % of its wall time (a CPU-bound route needs ${PROVEN.cpuMin * 100} %)`;
  if (s.io > PROVEN.ioMax) return `its /io route was runnable for ${Math.round(s.io * 100)} % of its wall time (a wait needs at most ${PROVEN.ioMax * 100} %)`;
  return null;
}

/** What the routes really did, in words: near 100 % runnable is CPU-bound; near 0 % is a wait. */
export function routeProof(ctx) {
  const s = routeShares(ctx.raw);
  if (!s.requests) return 'The routes were not proven in process in this run (no route-proof output): whether /cpu was CPU-bound and /io a wait is not recorded.';
  const pct = (v) => (v === null ? 'not measured' : `${Math.round(v * 100)} %`);
  return `Proven in process before the runs (lab/bench/route-proof.rb, ${s.requests} requests each): /cpu was runnable (on a CPU or queued for one) for ${pct(s.cpu)} of its wall time (median), /io for ${pct(s.io)}, waiting on ${s.wait || 'unknown'}.`;
}

/** What /io waited on in this run: the route proof's record; runs without one predate the database wait. */
function waitOf(ctx) {
  const { wait } = routeShares(ctx.raw);
  return wait ? `on ${wait}` : "in Ruby's sleep (this run predates the route's database wait and has no route proof)";
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
        warmup: p.RB_WARMUP_S ? `${warmupText(p, p.RB_CONNECTIONS)} on each route right before it is measured, not recorded` : 'none (quick run)',
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
