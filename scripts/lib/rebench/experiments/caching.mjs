// Experiment 8 (optional in the issue): the heavy page with and without collection caching.
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { verdictSentence, dbName } from './common.mjs';

const PAGES = [
  { id: 'heavy', label: 'Heavy page, rendered every time' },
  { id: 'heavy_cached', label: 'Heavy page, collection caching (?cache=1)' },
];

const CLASS_NAME = /^[A-Z]\w*(::[A-Z]\w*)*( on .+)?$/;

/**
 * The cache store the run measured, as lab/bench/exp/caching.sh recorded it (Rails.cache's class, and for
 * Solid Cache its database). Runs before that script tagged its answer recorded Rails' first output line,
 * which could be a warning: then the class name is taken from the raw versions file's next line when it
 * is one, and the dataset says so; otherwise the store is "unknown" with the reason.
 */
export function cacheStore(ctx) {
  const rec = (ctx.versions['lab-3.3'] || []).find((v) => v.name === 'Rails.cache store');
  if (rec && CLASS_NAME.test(rec.version)) return { text: rec.version, note: null };
  const file = ctx.raw && path.join(ctx.raw, 'versions-lab-3.3.txt');
  const lines = file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
  const at = lines.findIndex((l) => l.startsWith('Rails.cache store\t'));
  const next = at >= 0 ? (lines[at + 1] || '').trim() : '';
  const db = dbName(ctx.params);
  if (CLASS_NAME.test(next)) {
    return { text: `${next} on ${db}`, note: `The store was recorded from bin/rails runner's output, whose first line was a warning (${rec.version.slice(0, 60)}…); the class name ${next} is the line after it in raw-output versions-lab-3.3.txt, and the database is the run's (${db}, config/database.yml "cache").` };
  }
  return { text: 'unknown', note: `Which store Rails.cache was is unknown: the run recorded "${rec ? rec.version.slice(0, 80) : 'nothing'}" instead of a class name.` };
}

export default {
  name: 'caching',
  title: 'Caching: the heavy page with and without fragment caching',
  mirrors: 'the Caching article (no research table)',
  full: { params: { RB_WORKERS: 2, RB_THREADS: 3, RB_CONNECTIONS: 6, RB_DURATION_S: 3, RB_WARMUP_S: 1 }, timeoutPerCellS: 90, setupS: 300 },
  quick: { params: { RB_DB: 'sqlite', RB_WORKERS: 2, RB_THREADS: 3, RB_CONNECTIONS: 4, RB_DURATION_S: 1, RB_WARMUP_S: 0 }, timeoutPerCellS: 90, setupS: 300 },
  cells() {
    return [{ id: 'puma', label: 'Puma 8, clustered', measurements: PAGES.map((p) => ({ id: p.id, tool: 'wrk', memory: true })) }];
  },
  datasetIds: () => ['rebench-2026-caching'],
  datasets(ctx) {
    const p = ctx.params;
    const spec = {
      labels: [{ key: 'page', label: 'Page', of: (c, m) => PAGES.find((x) => x.id === m.id).label }],
      primary: 'rps', latency: true, memory: true,
      baseline: () => ({ cell: 'puma', measurement: 'heavy' }),
      baselineLabel: () => PAGES[0].label,
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    const store = cacheStore(ctx);
    return [base(ctx, {
      id: 'rebench-2026-caching',
      title: 'Fragment caching in 2026: the heavy page of a Rails 8.1 app with and without collection caching',
      topic: 'rails',
      summary: verdictSentence(records, spec, 'requests per second', (r) => r.row[0]),
      measured: `Requests per second, latency and whole-server PSS for the reference app's heavy page (200 posts with their authors) rendered in full and with collection caching through Rails.cache (store: ${store.text}), on clustered Puma (${p.RB_WORKERS} × ${p.RB_THREADS}) and ${dbName(p)}, wrk with ${p.RB_CONNECTIONS} connections for ${p.RB_DURATION_S} s.`,
      software: softwareOf(ctx, ['lab-3.3']),
      method: methodOf(ctx, {
        tool: 'rebench',
        description: 'Every run boots Puma fresh and measures both variants of the page in a random order. The cache is filled by the warm-up and stays filled between the variants of one run; it is emptied only when the app is prepared.',
        concurrency: p.RB_CONNECTIONS,
        duration: p.RB_DURATION_S,
        warmup: p.RB_WARMUP_S ? `${p.RB_WARMUP_S} s of wrk (2 connections) on each variant right before it is measured, which also fills the cache` : 'none (quick run): the first cached requests fill the cache during the measurement',
      }),
      columns, rows, markers,
      caveats: [...(store.note ? [store.note] : []), 'The cached variant measures cache hits: the rows do not change during a run. A page whose records change on every request gains less.'],
      related: ['rebench-2026-app-servers'],
      charts: [medianChart({
        id: 'rps', title: 'Heavy page with and without collection caching',
        caption: 'Bars: median of the runs; lines: slowest to fastest run.',
        alt: records.map((r) => `${r.row[0]}: ${typeof r.row[2] === 'number' ? `${Math.round(r.row[2])} requests per second` : r.row[2]}`).join('; ') + '.',
        yField: 'page', yTitle: 'Page', key: 'rps', xTitle: 'Requests per second (median)',
        columns: ['page', 'rps_median', 'rps_min', 'rps_max', 'p99_ms', 'ratio', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
      })],
    })];
  },
};
