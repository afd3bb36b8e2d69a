// Experiment 8 (optional in the issue): the heavy page with and without collection caching.
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { verdictSentence, dbName, warmupText } from './common.mjs';

const PAGES = [
  { id: 'heavy', label: 'Heavy page, rendered every time' },
  { id: 'heavy_cached', label: 'Heavy page, collection caching (?cache=1)' },
];

// The stores, one cell each (lab/bench/exp/caching.sh: the app's LAB_CACHE_STORE). Redis and Memcached come
// from the lab's services layer (Debian 13's packages), which is why the experiment runs with --services.
const STORES = [
  { id: 'solid_cache', label: 'Solid Cache', short: 'Solid Cache' },
  { id: 'redis', label: 'Redis (redis_cache_store)', short: 'Redis' },
  { id: 'memcached', label: 'Memcached (mem_cache_store, dalli)', short: 'Memcached' },
];

const CLASS_NAME = /^[A-Z]\w*(::[A-Z]\w*)*( (on|at) .+)?$/;

/**
 * The cache store a cell measured, as lab/bench/exp/caching.sh recorded it for that store: Rails.cache's class
 * and where it kept the entries (Solid Cache's database, the Redis or Memcached server and version), after a
 * write and read through it. When the record is missing or not a class name, the store is "unknown" and the
 * note says what was recorded instead.
 */
export function cacheStore(ctx, id) {
  const rec = (ctx.versions['lab-3.3'] || []).find((v) => v.name === `Rails.cache store (${id})`);
  if (rec && CLASS_NAME.test(rec.version)) return { text: rec.version, note: null };
  return { text: 'unknown', note: `Which store Rails.cache was for the ${id} cells is unknown: the run recorded "${rec ? rec.version.slice(0, 80) : 'nothing'}" instead of a class name.` };
}

export default {
  name: 'caching',
  title: 'Caching: the heavy page with and without fragment caching, on Solid Cache, Redis and Memcached',
  services: true,
  mirrors: 'the Caching article (no research table)',
  full: { params: { RB_WORKERS: 2, RB_THREADS: 3, RB_CONNECTIONS: 6, RB_DURATION_S: 3, RB_WARMUP_S: 1 }, timeoutPerCellS: 90, setupS: 300 },
  quick: { params: { RB_DB: 'sqlite', RB_WORKERS: 2, RB_THREADS: 3, RB_CONNECTIONS: 4, RB_DURATION_S: 1, RB_WARMUP_S: 0 }, timeoutPerCellS: 90, setupS: 300 },
  cells() {
    // The uncached page is the same whatever the store: measured once, on Solid Cache, as the baseline.
    return STORES.map((st) => ({ id: st.id, label: st.label,
      measurements: PAGES.filter((p) => st.id === 'solid_cache' || p.id === 'heavy_cached').map((p) => ({ id: p.id, tool: 'wrk', memory: true })) }));
  },
  datasetIds: () => ['rebench-2026-caching'],
  datasets(ctx) {
    const p = ctx.params;
    const spec = {
      labels: [
        { key: 'variant', label: 'Variant', of: (c, m) => (m.id === 'heavy' ? 'Rendered every time' : `Cached: ${STORES.find((x) => x.id === c.id).short}`) },
        { key: 'page', label: 'Page', of: (c, m) => PAGES.find((x) => x.id === m.id).label },
        { key: 'store', label: 'Cache store (as recorded)', of: (c) => cacheStore(ctx, c.id).text },
      ],
      primary: 'rps', latency: true, memory: true,
      baseline: () => ({ cell: 'solid_cache', measurement: 'heavy' }),
      baselineLabel: () => PAGES[0].label,
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    const stores = STORES.map((st) => ({ ...st, ...cacheStore(ctx, st.id) }));
    const versions = Object.fromEntries((ctx.versions['lab-3.3'] || []).map((v) => [v.name, v.version]));
    return [base(ctx, {
      id: 'rebench-2026-caching',
      title: 'Fragment caching in 2026: the heavy page of a Rails 8.1 app with and without collection caching, on Solid Cache, Redis and Memcached',
      topic: 'rails',
      summary: verdictSentence(records, spec, 'requests per second', (r) => r.row[0]),
      measured: `Requests per second, latency and whole-server PSS for the reference app's heavy page (200 posts with their authors) rendered in full and with collection caching through Rails.cache on each of three stores (${stores.map((st) => `${st.short}: ${st.text}`).join('; ')}; Redis ${versions['redis-server'] || '?'} and Memcached ${versions.memcached || '?'} are Debian 13's packages, on loopback and on the server's CPU), on clustered Puma (${p.RB_WORKERS} × ${p.RB_THREADS}) and ${dbName(p)}, wrk with ${p.RB_CONNECTIONS} connections for ${p.RB_DURATION_S} s.`,
      software: softwareOf(ctx, ['lab-3.3']),
      method: methodOf(ctx, {
        tool: 'rebench',
        description: 'Every run boots Puma fresh and measures both variants of the page in a random order. The cache is filled by the warm-up and stays filled between the variants of one run; it is emptied only when the app is prepared.',
        concurrency: p.RB_CONNECTIONS,
        duration: p.RB_DURATION_S,
        warmup: p.RB_WARMUP_S ? `${warmupText(p, p.RB_CONNECTIONS)} on each variant right before it is measured, which also fills the cache` : 'none (quick run): the first cached requests fill the cache during the measurement',
      }),
      columns, rows, markers,
      caveats: [...stores.filter((st) => st.note).map((st) => st.note),
        'Redis ran as a cache (maxmemory 256 MB, allkeys-lru, no persistence) and Memcached with 256 MB, both on the same host and CPU as Puma; their memory is not in the PSS column, which covers the Puma process tree only.',
        'The cached variant measures cache hits: the rows do not change during a run. A page whose records change on every request gains less.'],
      related: ['rebench-2026-app-servers'],
      charts: [medianChart({
        id: 'rps', title: 'Heavy page with and without collection caching, by cache store',
        caption: 'Bars: median of the runs; lines: slowest to fastest run.',
        alt: records.map((r) => `${r.row[0]}: ${typeof r.row[4] === 'number' ? `${Math.round(r.row[4])} requests per second` : r.row[4]}`).join('; ') + '.',
        yField: 'variant', yTitle: 'Variant', key: 'rps', xTitle: 'Requests per second (median)',
        columns: ['variant', 'store', 'rps_median', 'rps_min', 'rps_max', 'p99_ms', 'ratio', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
      })],
    })];
  },
};
