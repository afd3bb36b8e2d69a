// "Then and now": for each experiment, one dataset that sets the research's result (2010, or 2017–2019)
// beside the 2026 re-measurement. Hardware differs between the eras, so values are never compared
// directly: within each era every value is divided by that era's own baseline configuration, and the
// chart and the dataset say so. Every number is read from the two source datasets when this runs.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../measure/common.mjs';
import { median } from './stats.mjs';
import { YEAR } from './dataset.mjs';
import { routesUnproven } from './experiments/concurrency.mjs';

const r3 = (v) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 1000) / 1000);

export function loadDataset(id, dirs) {
  const dir = datasetHome(id, dirs);
  return dir ? JSON.parse(fs.readFileSync(path.join(dir, '_data', 'datasets', `${id}.json`), 'utf8')) : null;
}

/** The first of DIRS that holds dataset ID (its raw output is beside it, in DIR/raw-output/ID). */
function datasetHome(id, dirs) {
  return dirs.find((dir) => fs.existsSync(path.join(dir, '_data', 'datasets', `${id}.json`))) || null;
}

/**
 * Why a pair's 2026 side cannot stand beside the old result yet (pair.nowProof, judged on the 2026 dataset's raw
 * output), or null. The concurrency sweep is compared only once its routes are proven CPU-bound and waiting.
 */
export function thenNowBlocked(pair, dirs) {
  if (!pair.nowProof) return null;
  const dir = datasetHome(pair.newId, dirs);
  if (!dir) return null;
  const why = pair.nowProof(path.join(dir, 'raw-output', pair.newId));
  return why ? `${pair.newId}: ${why}` : null;
}

/** Rows of a dataset as objects keyed by column key. */
export function records(ds) {
  return ds.rows.map((row) => Object.fromEntries(ds.columns.map((c, i) => [c.key, row[i]])));
}

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// Each entry: which old and new rows to take, how to name them, what the baseline is in each era.
// `value` returns the figure used for the relative value; `higherIsBetter` says which way is faster.
export const PAIRS = [
  {
    exp: 'static', topic: 'proxy', newId: 'rebench-2026-static-files',
    title: 'Static files then and now: Apache relative to nginx, 2010 and 2026',
    old: [
      { id: 'thesis-os-ab-nginx-10k-1k', rows: (x) => x.distro === 'Debian', group: () => 'ab, a new connection per request', config: (x) => x.server, value: (x) => num(x.rps), unit: 'req/s' },
      { id: 'thesis-os-ab-apache-10k-1k', rows: (x) => x.distro === 'Debian', group: () => 'ab, a new connection per request', config: (x) => x.server, value: (x) => num(x.rps), unit: 'req/s' },
    ],
    now: { rows: (x) => /^ab /.test(x.load), group: () => 'ab, a new connection per request', config: (x) => x.server.replace(/ \(.*\)$/, ''), value: (x) => num(x.rps_median), unit: 'req/s' },
    baselineOld: 'Nginx', baselineNow: 'nginx', higherIsBetter: true,
    measure: 'requests per second relative to nginx in the same era',
  },
  {
    exp: 'appservers', topic: 'app-server', newId: 'rebench-2026-app-servers',
    title: 'Application servers then and now: throughput relative to Unicorn, 2010 and 2026',
    old: [{ id: 'thesis-thin-vs-unicorn', rows: (x) => x.concurrency === 10, group: (x) => pageName(x.page), config: (x) => x.server, value: (x) => num(x.rps), unit: 'req/s' }],
    now: { rows: () => true, group: (x) => pageName(x.page), config: (x) => x.server, value: (x) => num(x.rps_median), unit: 'req/s' },
    baselineOld: 'Unicorn', baselineNow: 'Unicorn', fallbackNow: 'Puma 8, clustered', higherIsBetter: true,
    measure: 'requests per second relative to Unicorn on the same page in the same era',
  },
  {
    exp: 'proxies', topic: 'proxy', newId: 'rebench-2026-proxies',
    title: 'A proxy in front then and now: throughput relative to nginx, 2010 and 2026',
    old: [{ id: 'thesis-webserver-reverse-proxy', rows: (x) => x.concurrency === 10, group: (x) => pageName(x.page), config: (x) => `${x.server} (in front of a Thin cluster)`, value: (x) => num(x.rps), unit: 'req/s' }],
    now: { rows: () => true, group: (x) => pageName(x.page), config: (x) => x.proxy, value: (x) => num(x.rps_median), unit: 'req/s' },
    baselineOld: 'Nginx (in front of a Thin cluster)', baselineNow: 'nginx', higherIsBetter: true,
    measure: 'requests per second relative to nginx on the same page in the same era',
  },
  // No interpreter, JIT or GC pair: each era answers a different question there. Interpreters: 2019 timed a
  // Rails route on Ruby 2.0 to 2.6, 2026 a standard-library loop on Rubies from different toolchains. JIT: MJIT
  // on Discourse requests (2019) against YJIT on that loop. GC: the thesis's settings over the Ruby Benchmark
  // Suite's programs (2010) against today's per-heap variables on one Rails page. Issue 21 allows a
  // then-and-now chart only where both eras ran the same experiment; the articles say why there is none.
  {
    exp: 'patterns', topic: 'rails', newId: 'rebench-2026-rails-patterns',
    title: 'Rails code patterns then and now: time of the recommended code relative to its counterpart, 2010 and 2026',
    old: [
      { id: 'thesis-rails-eager-loading', pair: ['No', 'Yes'], key: 'eager_loading', col: 'time_s', group: () => 'Eager loading vs N+1' },
      { id: 'thesis-rails-find-each', pair: ['find', 'find_each'], key: 'method', col: 'time_s', group: () => 'find_each vs loading all' },
      { id: 'thesis-rails-explicit-transactions', pair: ['No', 'Yes'], key: 'explicit_transaction', col: 'time_ms', filter: (x) => x.test === '100 posts, 20 comments', group: () => 'One transaction vs one per row' },
      { id: 'thesis-rails-magic-finders', pair: ['Magic find', 'Normal find'], key: 'type', col: 'time_ms', group: () => 'where vs dynamic finder' },
    ],
    patterns: { eager: 'Eager loading vs N+1', find_each: 'find_each vs loading all', transaction_single: 'One transaction vs one per row', where: 'where vs dynamic finder' },
    higherIsBetter: false,
    measure: 'time of the recommended code divided by the time of the code it replaces, in the same era and on the same database (below 1: the recommended code is faster)',
  },
  {
    exp: 'concurrency', topic: 'concurrency', newId: 'rebench-2026-concurrency',
    title: 'Processes and threads then and now: throughput relative to one process with 16 threads, 2017 and 2026',
    old: [{ id: 'rrb-puma-processes-threads', rows: (x) => x.printed_in === 'table' || (x.puma_processes === 2 && x.puma_threads === 16), group: () => 'Rails Ruby Bench (Discourse)', config: (x) => `${x.puma_processes} × ${x.puma_threads ?? '?'}${x.load_threads ? `, ${x.load_threads} load threads` : ''}`, value: (x) => (num(x.time_min) ? 1 / x.time_min : null), unit: 'ratio', shown: (x) => num(x.time_min), shownUnit: 's' }],
    now: { rows: () => true, group: (x) => x.route, config: (x) => `${x.workers} × ${x.threads}`, value: (x) => num(x.rps_median), unit: 'req/s' },
    baselineOld: '1 × 16, 12 load threads', baselineNow: '1 × 16', higherIsBetter: true,
    // The 2017 sweep computed; a 2026 run counts only where its route proof shows /cpu computing and /io waiting
    // (the run of 2026-11-23 predates the route fix: its "CPU-bound" route was not, so no chart from it).
    nowProof: routesUnproven,
    measure: 'throughput relative to one process with 16 threads in the same era (2017: inverse of the fastest time for 1500 requests; 2026: requests per second)',
  },
];

function pageName(p) {
  const s = String(p).toLowerCase();
  if (s.startsWith('api')) return 'API page';
  if (s.startsWith('heavy')) return 'Heavy page';
  if (s.startsWith('regular')) return 'Regular page';
  return String(p);
}

function eraLabel(ds) {
  const hw = ds.hardware.replace(/^Machine \d \(thesis Table 5\.1\): /, '').replace(/^Default column: /, '').split(/[,;(]/)[0].trim();
  return `${ds.year}: ${hw}`;
}

/** Build the then-and-now dataset for one pair, or null when the 2026 dataset is missing. */
export function buildThenNow(pair, dirs) {
  const now = loadDataset(pair.newId, dirs);
  if (!now) return null;
  const out = [];
  const olds = [];
  const push = (era, source, group, config, value, shown, unit, relative) => out.push([era, source, group, config, r3(shown ?? value), unit, r3(relative)]);
  if (pair.exp === 'patterns') {
    for (const o of pair.old) {
      const ds = loadDataset(o.id, dirs);
      if (!ds) continue;
      olds.push(ds);
      const rows = records(ds).filter((x) => !o.filter || o.filter(x));
      const slow = rows.find((x) => x[o.key] === o.pair[0]);
      const fast = rows.find((x) => x[o.key] === o.pair[1]);
      if (!slow || !fast) continue;
      const unit = ds.columns.find((c) => c.key === o.col).unit;
      push(eraLabel(ds), o.id, o.group(), 'MySQL, Rails 2.3.5 (thesis)', fast[o.col], null, unit, fast[o.col] / slow[o.col]);
    }
    for (const x of records(now)) {
      const key = Object.entries(pair.patterns).find(([id]) => x.pattern && patternId(x.pattern) === id);
      if (!key || !num(x.ratio)) continue;
      push(`${YEAR}: ${cpuOf(now)}`, now.id, key[1], x.database, x.p50_ms_median, null, 'ms', x.ratio);
    }
  } else {
    for (const o of pair.old) {
      const ds = loadDataset(o.id, dirs);
      if (!ds) continue;
      olds.push(ds);
      const era = eraLabel(ds);
      if (o.aggregate) {
        push(era, o.id, o.group(), o.baselineRow, 1, null, 'ratio', 1);
        const v = o.value(records(ds));
        push(era, o.id, o.group(), o.config(), v, null, o.unit, v);
        continue;
      }
      const rows = records(ds).filter(o.rows);
      for (const x of rows) out.push({ era, source: o.id, group: o.group(x), config: o.config(x), value: o.value(x), shown: o.shown ? o.shown(x) : null, unit: o.shownUnit || o.unit, old: true });
    }
    const nowEra = `${YEAR}: ${cpuOf(now)}`;
    for (const x of records(now).filter(pair.now.rows)) {
      out.push({ era: nowEra, source: now.id, group: pair.now.group(x), config: pair.now.config(x), value: pair.now.value(x), shown: pair.now.shown ? pair.now.shown(x) : null, unit: pair.now.shownUnit || pair.now.unit, old: false });
    }
    // Normalise objects (non-aggregate rows) within era and group.
    const objs = out.filter((x) => !Array.isArray(x));
    const arrays = out.filter((x) => Array.isArray(x));
    out.length = 0;
    out.push(...arrays);
    for (const x of objs) {
      const peers = objs.filter((y) => y.era === x.era && y.group === x.group);
      let baseName = x.old ? pair.baselineOld : pair.baselineNow;
      if (!x.old && pair.fallbackNow && !peers.some((y) => y.config === baseName && num(y.value))) baseName = pair.fallbackNow;
      const b = peers.find((y) => y.config === baseName);
      const rel = b && num(b.value) && num(x.value) ? x.value / b.value : null;
      push(x.era, x.source, x.group, x.config, x.value, x.shown, x.unit, rel);
    }
  }
  // Panels in reading order: each comparison with its eras next to each other.
  const groups = [...new Set(out.map((x) => x[2]))];
  out.sort((a, b) => groups.indexOf(a[2]) - groups.indexOf(b[2]) || a[0].localeCompare(b[0]));
  const cols = [
    { key: 'era', label: 'Measured (year: hardware)', type: 'string' },
    { key: 'source', label: 'Source dataset', type: 'string' },
    { key: 'group', label: 'Page or comparison', type: 'string' },
    { key: 'configuration', label: 'Configuration', type: 'string' },
    { key: 'value', label: 'Value in its source', type: 'number', unit_from: 'unit', decimals: 3 },
    { key: 'unit', label: 'Unit', type: 'string' },
    { key: 'relative', label: 'Relative to the era\'s baseline', type: 'number', unit: 'ratio', decimals: 3, description: pair.measure },
  ];
  return { now, olds, columns: cols, rows: out };
}

function patternId(label) {
  if (/^includes/.test(label)) return 'eager';
  if (/^find_each/.test(label)) return 'find_each';
  if (/^One transaction for all/.test(label)) return 'transaction_single';
  if (/^where/.test(label)) return 'where';
  return null;
}

function cpuOf(ds) {
  return ds.hardware.split(',').slice(0, 2).join(',').trim();
}

export function thenNowDataset(pair, dirs) {
  if (thenNowBlocked(pair, dirs)) return null;
  const built = buildThenNow(pair, dirs);
  if (!built || !built.rows.length) return null;
  const { now, olds, columns, rows } = built;
  const id = `rebench-2026-then-now-${pair.name || pair.exp}`;
  const eras = [...new Set(rows.map((x) => x[0]))];
  // A smoke-grade 2026 side supports no ordering at all (its verdicts could not separate the configurations from
  // the noise), so the chart must not invite reading one: the caption and caveat say so.
  const smoke = derivedQuality(now).grade === 'smoke';
  const within = smoke
    ? `The ${YEAR} side is graded smoke: its bars record what was run and give no ordering, so read only the ${[...new Set(olds.map((o) => o.year))].join(' and ')} shape.`
    : 'Read the shape within each era, and only where that era\'s verdicts say better or worse, not the lengths across them.';
  const caption = `Hardware differs between the eras (${eras.join(' versus ')}), so the bars are not comparable across eras: each era is divided by its own baseline (${pair.measure}). ${within}`;
  const text = rows.filter((x) => x[6] !== null).map((x) => `${x[0].slice(0, 4)} ${x[2]}, ${x[3]}: ${x[6]}`).join('; ');
  return {
    $schema: '../../schemas/dataset-1.schema.json',
    format: 'scaling-rails/dataset@1',
    id,
    title: pair.title,
    topic: pair.topic,
    year: YEAR,
    summary: `Relative values only (each era against its own baseline), from ${olds.map((o) => o.id).join(', ')} and ${now.id}; the eras ran on different hardware and software, so this shows whether the ranking held, not how much faster anything got.`,
    source: {
      document: 'Scaling Rails datasets (derived by scripts/rebench --then-and-now)',
      author: now.source.author,
      location: `${olds.map((o) => `${o.id} (${o.source.location})`).join('; ')}; ${now.id} (raw-output/${now.id}/)`,
    },
    measured: `Nothing new: ${pair.measure}, computed from the source datasets named in each row.`,
    quality: derivedQuality(now),
    hardware: `Per era, as in the sources: ${[...olds.map((o) => `${o.year}: ${o.hardware}`), `${YEAR}: ${now.hardware}`].join(' | ')}`,
    software: [...olds.flatMap((o) => o.software.slice(0, 4).map((s) => ({ name: `${s.name} (${o.year})`, version: s.version }))), ...now.software.slice(0, 6).map((s) => ({ name: `${s.name} (${YEAR})`, version: s.version }))],
    method: {
      tool: 'custom-script',
      description: `Derived by scripts/rebench --then-and-now: the values are copied from the source datasets; the relative column divides each value by the baseline of the same era and group. ${pair.measure}.`,
      runs: null,
      aggregation: 'not applicable',
      warmup: 'as in the source datasets',
    },
    columns,
    rows,
    failures: { markers: [], meaning: 'Empty relative cells: the era has no baseline reading for that group, so nothing is divided.' },
    errata: [],
    caveats: [
      `Not a like-for-like comparison: the eras differ in hardware, operating system, Ruby, Rails, server versions and load tools, so values are never compared across eras. ${smoke ? `The ${YEAR} source is graded smoke (busy shared cores, few short runs): its ordering is not meaningful either, only the older era's.` : `Within an era, an ordering is meaningful only where the source dataset's verdict says better or worse.`}`,
    ],
    attribution: `Derived from the datasets named in each row; ${YEAR} values measured by ${now.source.author} with scripts/rebench.`,
    license: 'CC-BY-4.0',
    related: [...olds.map((o) => o.id), now.id],
    charts: [{
      id: 'relative',
      title: pair.title,
      caption,
      alt: `Relative values per era, each against its own baseline: ${text}.`,
      columns: ['era', 'group', 'configuration', 'relative'],
      spec: {
        transform: [{ filter: 'isValid(datum.relative)' }, { calculate: "datum.era + ' — ' + datum.group", as: 'panel' }],
        facet: { row: { field: 'panel', type: 'nominal', title: null, sort: [...new Set(rows.filter((x) => x[6] !== null).map((x) => `${x[0]} — ${x[2]}`))], header: { labelAngle: 0, labelAlign: 'left', labelAnchor: 'start', labelOrient: 'top', labelLimit: 0 } } },
        spec: {
          width: 420,
          height: { step: 16 },
          layer: [
            { mark: { type: 'bar' }, encoding: { y: { field: 'configuration', type: 'nominal', sort: null, title: null, axis: { labelLimit: 240 } }, x: { field: 'relative', type: 'quantitative', title: 'Relative to the era\'s baseline (1 = baseline)' }, color: { field: 'era', type: 'nominal', legend: null } } },
            { mark: { type: 'rule', strokeDash: [4, 3] }, encoding: { x: { datum: 1 } } },
          ],
        },
        resolve: { scale: { y: 'independent' } },
      },
    }],
  };
}

export function writeThenNow(outDir, log) {
  const dirs = [outDir, REPO_ROOT];
  const written = [];
  for (const pair of PAIRS) {
    const blocked = thenNowBlocked(pair, dirs);
    if (blocked) {
      // A derived dataset written earlier from the same unproven run would still be charted: it goes too.
      const stale = path.join(outDir, '_data', 'datasets', `rebench-2026-then-now-${pair.name || pair.exp}.json`);
      const removed = fs.existsSync(stale) && (fs.rmSync(stale), true);
      log(`rebench: then-and-now ${pair.name || pair.exp}: not written${removed ? ' (the earlier file removed)' : ''}: ${blocked}`);
      continue;
    }
    const ds = thenNowDataset(pair, dirs);
    if (!ds) { log(`rebench: then-and-now ${pair.name || pair.exp}: ${pair.newId} not found, skipped`); continue; }
    const file = path.join(outDir, '_data', 'datasets', `${ds.id}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.partial-${process.pid}`;
    fs.writeFileSync(tmp, `${JSON.stringify(ds, null, 2)}\n`);
    fs.renameSync(tmp, file);
    written.push(file);
  }
  return written;
}

/** A derived dataset is no better than its 2026 source: its grade and foreign load, with the source named. */
export function derivedQuality(now) {
  const q = now.quality || { grade: 'smoke', foreign_load: { load_average_max: null, source: 'not recorded' }, reasons: [] };
  const reasons = q.grade === 'smoke' || !now.quality
    ? [`derived from ${now.id}, graded ${now.quality ? 'smoke' : 'nothing (no quality record)'}${q.reasons.length ? `: ${q.reasons.join('; ')}` : ''}`]
    : [];
  // The source's record of repeated tries travels with its grade: the validator asks a benchmark grade for it.
  const repeats = q.repeats ? { repeats: q.repeats, runs_slow_host: q.runs_slow_host || 0 } : {};
  return { grade: reasons.length ? 'smoke' : q.grade, protocol: `as ${now.id} (${q.protocol || 'no protocol recorded'})`, foreign_load: { ...q.foreign_load, source: `${now.id}: ${q.foreign_load.source}` }, ...repeats, reasons };
}
