// Background jobs (the Background jobs article; no research table): Solid Queue in a separate process at 1 × 3 and
// 2 × 3 processes × threads, Solid Queue inside Puma, and Sidekiq (concurrency 3) on Redis. Lab side:
// lab/bench/exp/jobs.sh and lab/bench/jobs-client.rb; each run's figures come from the jobs' own timestamps.
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { median } from '../stats.mjs';
import { verdictSentence, dbName } from './common.mjs';

const RUNNERS = [
  { id: 'sq-1x3', label: 'Solid Queue, bin/jobs, 1 process × 3 threads', runner: 'Solid Queue (separate process)', processes: 1, threads: 3 },
  { id: 'sq-2x3', label: 'Solid Queue, bin/jobs, 2 processes × 3 threads', runner: 'Solid Queue (separate process)', processes: 2, threads: 3 },
  { id: 'sq-puma', label: 'Solid Queue in Puma (SOLID_QUEUE_IN_PUMA), 1 × 3', runner: 'Solid Queue in Puma', processes: 1, threads: 3 },
  { id: 'sidekiq-c3', label: 'Sidekiq on Redis, concurrency 3', runner: 'Sidekiq', processes: 1, threads: 3 },
];

const KINDS = [
  { id: 'trivial', label: 'Trivial jobs, burst', paced: false },
  { id: 'write', label: 'One INSERT + 10 ms wait, burst', paced: false },
  { id: 'paced', label: 'Trivial jobs, paced', paced: true },
];

const jobsOf = (ok, k) => ok.map((x) => x.metrics.jobs && x.metrics.jobs[k]).filter((v) => typeof v === 'number' && Number.isFinite(v));
// Connections and database CPU: the highest sample of each run, then the median over the runs.
const EXTRA = [
  { key: 'pg_connections_max', label: 'PostgreSQL connections, all app databases (median of run peaks)', unit: 'connections', description: 'pg_stat_activity sampled every 0.25 s while the jobs ran, connections to any of the app\'s databases (primary, queue, cache, cable) from Puma and the job runner, the sampler\'s own left out.', of: (ok) => median(jobsOf(ok, 'pg_connections_max')) },
  { key: 'pg_connections_queue_max', label: 'Connections to the queue database (median of run peaks)', unit: 'connections', description: 'The same samples, connections to lab_production_queue only (Solid Queue\'s database; none for Sidekiq, whose queue is Redis).', of: (ok) => median(jobsOf(ok, 'pg_connections_queue_max')) },
  { key: 'pg_active_max', label: 'Connections active at once (median of run peaks)', unit: 'connections', description: 'Connections in state active (running a statement) in one sample.', of: (ok) => median(jobsOf(ok, 'pg_active_max')) },
  { key: 'queue_db_cpu_ms_per_job', label: 'Queue database CPU per job (median of runs)', unit: 'ms', decimals: 3, description: 'CPU time (user + system, /proc/PID/stat) of the PostgreSQL backends serving lab_production_queue during the run, divided by the jobs run: the queue database\'s load per job.', of: (ok) => median(ok.map((x) => (x.metrics.jobs && Number.isFinite(x.metrics.jobs.pg_cpu_ms_queue) && x.metrics.requests ? x.metrics.jobs.pg_cpu_ms_queue / x.metrics.requests : null)).filter((v) => v !== null)) },
];

function rowsFor(ctx, kinds, spec) {
  return summaryRows({ ...ctx, results: ctx.results.filter((r) => kinds.some((k) => k.id === r.measurement.id)) }, spec);
}

export default {
  name: 'jobs',
  title: 'Background jobs: Solid Queue (separate, 1 × 3 and 2 × 3; in Puma) and Sidekiq on Redis',
  services: true,
  mirrors: 'the Background jobs article (no research table)',
  full: { params: { RB_JOBS_N: 100, RB_JOBS_WRITE_N: 60, RB_JOBS_PACED_N: 15, RB_JOBS_PACED_RATE: 5, RB_JOBS_WARMUP: 20, RB_JOBS_TIMEOUT_S: 120 }, timeoutPerCellS: 420, setupS: 300 },
  quick: { params: { RB_JOBS_N: 30, RB_JOBS_WRITE_N: 20, RB_JOBS_PACED_N: 4, RB_JOBS_PACED_RATE: 5, RB_JOBS_WARMUP: 0, RB_JOBS_TIMEOUT_S: 60 }, timeoutPerCellS: 300, setupS: 300 },
  cells(size) {
    const runners = size === this.quick ? RUNNERS.filter((r) => ['sq-1x3', 'sidekiq-c3'].includes(r.id)) : RUNNERS;
    return runners.map((r) => ({ id: r.id, label: r.label, measurements: KINDS.map((k) => ({ id: k.id, tool: 'jobs' })) }));
  },
  datasetIds: () => ['rebench-2026-jobs', 'rebench-2026-jobs-latency'],
  datasets(ctx) {
    const p = ctx.params;
    const labels = [
      { key: 'runner', label: 'Job runner', of: (c) => RUNNERS.find((x) => x.id === c.id).runner },
      { key: 'processes_threads', label: 'Processes × threads', of: (c) => { const r = RUNNERS.find((x) => x.id === c.id); return `${r.processes} × ${r.threads}`; } },
      { key: 'jobs', label: 'Jobs', of: (c, m) => KINDS.find((x) => x.id === m.id).label },
    ];
    const latencyText = { p50: 'Enqueue → start latency, p50 (median of runs)', p99: 'Enqueue → start latency, p99 (median of runs)', failed: 'Jobs not run in time (all runs)', failedUnit: 'jobs', failedDescription: `Jobs whose line was missing when the client stopped waiting (${p.RB_JOBS_TIMEOUT_S} s after the last enqueue), summed over the runs; a run missing more than 1 % is a failed run.` };
    const first = ctx.cells[0].id;
    const common = { labels, latency: true, latencyText, memory: false, extra: EXTRA, baseline: (c, m) => ({ cell: first, measurement: m.id }), baselineLabel: () => `${RUNNERS.find((x) => x.id === first).label}, same jobs` };
    const tput = { ...common, primary: 'jps' };
    const lat = { ...common, primary: 'p50_ms' };
    const burst = rowsFor(ctx, KINDS.filter((k) => !k.paced), tput);
    const paced = rowsFor(ctx, KINDS.filter((k) => k.paced), lat);
    const versions = Object.fromEntries((ctx.versions['lab-3.3'] || []).map((v) => [v.name, v.version]));
    const polling = versions['solid_queue worker polling_interval (config/queue.yml)'] || 'unknown';
    const how = `The reference app's Puma (config/puma.rb, one process, 3 threads) enqueues the jobs through POST /bench/jobs, one perform_later each, stamping each with the time just before it; the job writes that time, its start and its end to a log, and lab/bench/jobs-client.rb reads the log. Solid Queue runs with the app's config/queue.yml as Rails generates it (worker polling_interval ${polling} s; JOB_CONCURRENCY sets the processes) on its own PostgreSQL database; Sidekiq ${versions['sidekiq (gem)'] || '?'} with -c 3 on Redis ${versions['redis-server'] || '?'} (Debian 13's package, noeviction, no persistence). Every process of the job runner, Puma and ${dbName(p)} are pinned to the server CPU, the client to the load CPU; RAILS_MAX_THREADS=5 (the pool).`;
    const software = softwareOf(ctx, ['lab-3.3']);
    const method = (what) => methodOf(ctx, {
      tool: 'rebench',
      description: `Every run boots Puma and the job runner fresh and waits for a probe job to run; then ${what} ${how}`,
      warmup: p.RB_JOBS_WARMUP ? `${p.RB_JOBS_WARMUP} jobs of each kind after the probe, not measured` : 'none (quick run)',
    });
    const caveats = [
      'Jobs per second is the burst\'s jobs divided by the time from the first enqueue to the last job\'s end: it includes enqueueing, which runs in one Puma request (Solid Queue: one INSERT transaction per job on the queue database; Sidekiq: one Redis LPUSH).',
      'The PostgreSQL figures cover the app\'s databases only: Sidekiq\'s queue is in Redis, whose CPU is not counted here.',
      'Solid Queue keeps finished jobs (preserve_finished_jobs, its default) in its tables across the runs of one experiment: later runs have more rows behind them.',
    ];
    const chart = (records, markers, key, xTitle, title) => medianChart({
      id: key === 'jps' ? 'throughput' : 'latency', title, caption: 'Bars: median of the runs; lines: slowest to fastest run. Read the grade above the chart first.',
      alt: records.map((r) => `${r.row[0]} ${r.row[1]}, ${r.row[2]}: ${typeof r.row[4] === 'number' ? `${r.row[4]} ${key === 'jps' ? 'jobs per second' : 'ms'}` : r.row[4]}`).join('; ') + '.',
      yField: 'runner_jobs', yTitle: 'Job runner and jobs', key, xTitle,
      columns: ['runner', 'processes_threads', 'jobs', `${key}_median`, `${key}_min`, `${key}_max`, 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
    });
    const withLabel = (c) => { c.spec.transform = [{ calculate: "datum.runner + ' ' + datum.processes_threads + ', ' + datum.jobs", as: 'runner_jobs' }]; return c; };
    return [
      base(ctx, {
        id: 'rebench-2026-jobs',
        title: 'Background jobs in 2026: Solid Queue (separate process and in Puma) against Sidekiq, throughput of a burst',
        topic: 'rails',
        summary: verdictSentence(burst.records, tput, 'jobs per second', (r) => `${r.row[0]} ${r.row[1]} on ${r.row[2].toLowerCase()}`),
        measured: `Jobs per second and enqueue → start latency for a burst of ${p.RB_JOBS_N} trivial jobs and of ${p.RB_JOBS_WRITE_N} jobs that insert one row and wait 10 ms, with PostgreSQL connections and the queue database's CPU sampled while they ran, for each job runner.`,
        software, method: method(`each burst is enqueued in one request, in a random order of the kinds.`),
        columns: burst.columns, rows: burst.rows, markers: burst.markers, caveats,
        charts: [withLabel(chart(burst.records, burst.markers, 'jps', 'Jobs per second (median)', 'Jobs per second for a burst, by job runner'))],
      }),
      base(ctx, {
        id: 'rebench-2026-jobs-latency',
        title: 'Background jobs in 2026: enqueue → start latency of a queue that is not backed up, Solid Queue against Sidekiq',
        topic: 'rails',
        summary: verdictSentence(paced.records, lat, 'enqueue → start latency (p50)', (r) => `${r.row[0]} ${r.row[1]}`),
        measured: `Enqueue → start latency of ${p.RB_JOBS_PACED_N} trivial jobs enqueued one request at a time at ${p.RB_JOBS_PACED_RATE} per second (a queue that is not backed up: the wait is the runner's pick-up time), with PostgreSQL connections sampled, for each job runner.`,
        software, method: method(`the paced jobs are enqueued one per request at a fixed rate, in a random order with the bursts of rebench-2026-jobs.`),
        columns: paced.columns, rows: paced.rows, markers: paced.markers,
        caveats: [`Solid Queue's workers poll their queue every ${polling} s when idle (the generated config/queue.yml) and Sidekiq blocks on Redis (BRPOP), so at this rate the latency is mostly the pick-up time.`, ...caveats.slice(1)],
        related: ['rebench-2026-jobs'],
        charts: [withLabel(chart(paced.records, paced.markers, 'p50_ms', 'Enqueue → start, p50 (ms, median of runs)', 'Enqueue → start latency at a low rate, by job runner'))],
      }),
    ];
  },
};
