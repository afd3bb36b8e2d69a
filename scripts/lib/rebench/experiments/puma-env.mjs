// Shared shape of the experiments that boot the same clustered Puma with different environment variables
// (allocators, GC settings): cells × pages, throughput and PSS, compared with a default cell.
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { verdictSentence, dbName, warmupText } from './common.mjs';

export const ENV_PAGES = [
  { id: 'heavy', label: 'Heavy page (many records)' },
  { id: 'api', label: 'API (small JSON)' },
];

export function pumaEnvExperiment(def) {
  return {
    name: def.name,
    title: def.title,
    mirrors: def.mirrors,
    full: { params: { RB_WORKERS: 2, RB_THREADS: 3, RB_CONNECTIONS: 6, RB_DURATION_S: def.durationS || 4, RB_WARMUP_S: 1 }, timeoutPerCellS: 120, setupS: 240 },
    quick: { params: { RB_DB: 'sqlite', RB_WORKERS: 2, RB_THREADS: 3, RB_CONNECTIONS: 4, RB_DURATION_S: 1, RB_WARMUP_S: 0 }, timeoutPerCellS: 90, setupS: 240, only: def.quickCells },
    cells(size) {
      const pages = ENV_PAGES.filter((p) => !def.pages || def.pages.includes(p.id));
      return def.cells.filter((c) => !size.only || size.only.includes(c.id)).map((c) => ({ ...c, measurements: pages.map((p) => ({ id: p.id, tool: 'wrk', memory: true })) }));
    },
    datasetIds: () => [def.datasetId, ...(def.extraIds || [])],
    datasets(ctx) {
      const p = ctx.params;
      const spec = {
        labels: [
          { key: 'setting', label: def.settingLabel, of: (c) => c.label },
          { key: 'env', label: 'Environment', of: (c) => c.env },
          { key: 'page', label: 'Page', of: (c, m) => ENV_PAGES.find((x) => x.id === m.id).label },
        ],
        primary: 'rps', latency: true, memory: true,
        baseline: (c, m) => ({ cell: def.baseline, measurement: m.id }),
        baselineLabel: (c) => `${c.label}, same page`,
      };
      const { columns, rows, markers, records } = summaryRows(ctx, spec);
      const main = base(ctx, {
        id: def.datasetId,
        title: def.datasetTitle,
        topic: def.topic,
        summary: verdictSentence(records, spec, 'requests per second', (r) => `${r.group.cell.label} on the ${r.group.measurement.id} page`),
        measured: `${def.measured} Clustered Puma (${p.RB_WORKERS} workers × ${p.RB_THREADS} threads, preloaded) on the lab's Ruby 3.3 serving the reference Rails 8.1 app on ${dbName(p)}; wrk with ${p.RB_CONNECTIONS} connections for ${p.RB_DURATION_S} s per page; whole-tree PSS sampled every 0.5 s.`,
        software: softwareOf(ctx, ['lab-3.3']),
        method: methodOf(ctx, {
          tool: 'rebench',
          description: `Every run boots Puma fresh with the cell's environment (recorded from /proc/PID/environ of the running server, with a count of jemalloc mappings), waits for /up, then measures the pages in a random order with wrk while sampling PSS.`,
          concurrency: p.RB_CONNECTIONS,
          duration: p.RB_DURATION_S,
          warmup: p.RB_WARMUP_S ? `${warmupText(p, p.RB_CONNECTIONS)} on each page right before it is measured, not recorded` : 'none (quick run)',
        }),
        columns, rows, markers,
        caveats: def.caveats || [],
        related: def.related || [],
        charts: [
          medianChart({
            id: 'rps', title: `Requests per second by ${def.settingLabel.toLowerCase()}`,
            caption: 'Bars: median of the runs; lines: slowest to fastest run.',
            alt: records.map((r) => `${r.row[0]}, ${r.row[2]}: ${typeof r.row[4] === 'number' ? `${Math.round(r.row[4])} requests per second` : r.row[4]}`).join('; ') + '.',
            yField: 'setting', offsetField: 'page', yTitle: def.settingLabel, key: 'rps', xTitle: 'Requests per second (median)',
            columns: ['setting', 'page', 'rps_median', 'rps_min', 'rps_max', 'pss_total_mib', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
          }),
          ...(records.some((r) => typeof r.row[columns.findIndex((c) => c.key === 'pss_total_mib')] === 'number') ? [{
            id: 'memory', title: `Memory of the whole server (PSS) by ${def.settingLabel.toLowerCase()}`,
            caption: 'Highest whole-tree PSS during the run, median of the runs.',
            alt: `PSS of the Puma process tree per ${def.settingLabel.toLowerCase()} and page; values in the table.`,
            columns: ['setting', 'page', 'pss_total_mib', 'processes'],
            spec: {
              width: 480, height: { step: 22 },
              transform: [{ filter: 'isValid(datum.pss_total_mib)' }, { calculate: "datum.setting + ' · ' + datum.page", as: 'configuration' }],
              mark: { type: 'bar' },
              encoding: {
                y: { field: 'configuration', type: 'nominal', sort: null, title: `${def.settingLabel} and page` },
                x: { field: 'pss_total_mib', type: 'quantitative', title: 'PSS of the whole server (MiB)' },
                color: { field: 'page', type: 'nominal' },
              },
            },
          }] : []),
        ],
      });
      return [main, ...(def.extra ? def.extra(ctx, main) : [])];
    },
  };
}
