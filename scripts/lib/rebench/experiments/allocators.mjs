// Experiment 4b: allocators and memory over time (the Rails Ruby Bench memory posts; thesis Table 5.19's memory).
import { pumaEnvExperiment } from './puma-env.mjs';
import { base, softwareOf, methodOf } from '../dataset.mjs';
import { warmupText } from './common.mjs';

export default pumaEnvExperiment({
  name: 'allocators',
  title: 'Allocators: glibc, MALLOC_ARENA_MAX=2, jemalloc; memory over time',
  mirrors: 'the Rails Ruby Bench and jemalloc posts',
  datasetId: 'rebench-2026-allocators',
  extraIds: ['rebench-2026-allocators-memory'],
  datasetTitle: 'Memory allocators in 2026: glibc malloc, MALLOC_ARENA_MAX=2 and jemalloc under Puma on Ruby 3.3',
  topic: 'gc',
  settingLabel: 'Allocator',
  baseline: 'glibc',
  durationS: 8,
  pages: ['heavy'],
  quickCells: ['glibc', 'jemalloc'],
  cells: [
    { id: 'glibc', label: 'glibc malloc', env: 'none' },
    { id: 'arena2', label: 'glibc, MALLOC_ARENA_MAX=2', env: 'MALLOC_ARENA_MAX=2' },
    { id: 'jemalloc', label: 'jemalloc 5 (LD_PRELOAD)', env: 'LD_PRELOAD=libjemalloc.so.2' },
  ],
  measured: 'Requests per second, latency and memory (PSS) of Ruby 3.3 with glibc\'s malloc, with glibc limited to two arenas, and with jemalloc preloaded.',
  caveats: ['A few seconds of load per run show the start of memory growth, not a steady state after hours; fragmentation differences between allocators grow with uptime.'],
  related: ['rrb-gc-compaction-throughput'],
  extra: memoryOverTime,
});

// Second dataset: every PSS sample of every run, for the memory-over-time chart.
function memoryOverTime(ctx) {
  const rows = [];
  for (const r of ctx.results) {
    if (!r.memory) continue;
    for (const s of r.memory.series) rows.push([r.cell.label, r.measurement.id, r.entry.run, s.t, Math.round((s.total_kib / 1024) * 10) / 10, s.processes]);
  }
  const columns = [
    { key: 'allocator', label: 'Allocator', type: 'string' },
    { key: 'page', label: 'Page', type: 'string' },
    { key: 'run', label: 'Run', type: 'integer', unit: 'count' },
    { key: 't_s', label: 'Time since load started', type: 'number', unit: 's', decimals: 2 },
    { key: 'pss_mib', label: 'PSS, whole server', type: 'number', unit: 'MiB', decimals: 1 },
    { key: 'processes', label: 'Processes', type: 'integer', unit: 'processes' },
  ];
  if (!rows.length) rows.push(['not measured', 'none', 1, null, null, null]);
  const p = ctx.params;
  return [base(ctx, {
    id: 'rebench-2026-allocators-memory',
    title: 'Memory over time under load: glibc malloc, MALLOC_ARENA_MAX=2 and jemalloc (every sample)',
    topic: 'gc',
    summary: `Every 0.5-second PSS sample of the whole Puma tree during ${p.RB_DURATION_S}-second wrk runs, ${ctx.runs} runs per allocator and page; the summary per allocator is the rebench-2026-allocators dataset.`,
    measured: 'PSS of the whole Puma process tree (master and workers, from /proc/PID/smaps_rollup) sampled every 0.5 s while wrk drove load.',
    software: softwareOf(ctx, ['lab-3.3']),
    method: { ...methodOf(ctx, { tool: 'rebench', description: 'Samples of the same runs as the rebench-2026-allocators dataset, one row per sample.', concurrency: p.RB_CONNECTIONS, duration: p.RB_DURATION_S, warmup: p.RB_WARMUP_S ? `${warmupText(p, p.RB_CONNECTIONS)} on each page before it is measured` : 'none (quick run)' }), aggregation: 'raw samples' },
    columns, rows, markers: [],
    related: ['rebench-2026-allocators'],
    charts: rows[0][3] === null ? [] : [{
      id: 'pss-over-time', title: 'PSS of the whole server during the heavy-page load',
      caption: 'One line per run; colour is the allocator. The first sample is taken as the load starts, after the warm-up.',
      alt: 'Line chart of whole-server PSS over the seconds of each heavy-page run, one line per run, coloured by allocator; values in the table.',
      columns: ['allocator', 'page', 'run', 't_s', 'pss_mib'],
      spec: {
        width: 480, height: 240,
        transform: [{ filter: "datum.page === 'heavy'" }, { calculate: "datum.allocator + ' run ' + datum.run", as: 'series' }],
        mark: { type: 'line', point: false },
        encoding: {
          x: { field: 't_s', type: 'quantitative', title: 'Seconds since the load started' },
          y: { field: 'pss_mib', type: 'quantitative', title: 'PSS (MiB)', scale: { zero: false } },
          color: { field: 'allocator', type: 'nominal' },
          detail: { field: 'series', type: 'nominal' },
        },
      },
    }],
  })];
}
