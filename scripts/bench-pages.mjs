#!/usr/bin/env node
// Page-weight benchmark: what each page type ships (HTML, CSS, JS, SVG; raw and gzip), the full
// build time, and the same figures for a baseline that draws the same charts in the browser with
// vega-embed, and the smallest chart text as drawn in Chromium at a 390 px phone and a 1280 px desktop
// viewport (scripts/lib/chart-legibility.mjs), then the Lighthouse table (scripts/bench-lighthouse.mjs, a few
// minutes). Prints Markdown tables.
// Usage: node scripts/bench-pages.mjs [--no-build] [--no-lighthouse] [--lighthouse-runs N (default 3)]
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { pageWeight, htmlFiles } from './lib/page-weight.mjs';
import { datasetFiles } from './lib/dataset-validate.mjs';
import { fullSpec } from './lib/chart-spec.mjs';
import { measureCharts, siteSvgReader, MIN_TEXT_PX } from './lib/chart-legibility.mjs';
import { startSiteServer } from './lib/site-server.mjs';

const ROOT = new URL('../', import.meta.url).pathname;
const SITE = join(ROOT, '_site');
const gz = (b) => gzipSync(b, { level: 9 }).length;
const kb = (n) => (n / 1024).toFixed(1);

let buildSeconds = null;
if (!process.argv.includes('--no-build')) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(join(ROOT, 'scripts/build'), [], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) { console.error('build failed'); process.exit(1); }
  buildSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
}
if (!existsSync(join(SITE, 'index.html'))) { console.error('no _site: run scripts/build or drop --no-build'); process.exit(1); }

const all = htmlFiles(SITE).map((f) => ({ f, rel: f.slice(SITE.length), w: pageWeight(SITE, f) }));
const pick = (label, pred, by = (a, b) => b.w.charts - a.w.charts) => {
  const c = all.filter(pred).sort(by)[0];
  return c ? { label, ...c } : null;
};
const rows = [
  pick('home', (p) => p.rel === '/index.html'),
  pick('article (most charts)', (p) => p.rel.startsWith('/articles/') && p.rel !== '/articles/index.html'),
  pick('dataset page (most charts)', (p) => /^\/datasets\/[^/]+\/index\.html$/.test(p.rel)),
  pick('datasets index', (p) => p.rel === '/datasets/index.html'),
  pick('wizard', (p) => p.rel === '/guide/index.html'),
  pick('search', (p) => p.rel === '/search/index.html'),
].filter(Boolean);

// Baseline: the article with the most charts, drawn client-side with vega-embed instead of static SVG.
function baseline(page) {
  const html = readFileSync(page.f, 'utf8');
  const ids = [...html.matchAll(/<figure class="chart" id="chart-([a-z0-9-]+)"/g)].map((m) => m[1]);
  const datasets = datasetFiles().map((f) => JSON.parse(readFileSync(f, 'utf8')));
  const specs = [];
  for (const id of ids) {
    for (const d of datasets) for (const c of d.charts || []) if (`${d.id}-${c.id}` === id) specs.push(fullSpec(d, c, 'light'));
  }
  // The page keeps its text and tables; each <picture> becomes an empty <div> that vega-embed fills.
  const pageHtml = Buffer.from(html.replace(/<picture>[\s\S]*?<\/picture>/g, '<div class="vega-chart"></div>'));
  // The browser builds (package "exports" hide them, so resolve from each package's folder).
  const pkgDir = (name) => join(ROOT, 'node_modules', name);
  const js = [
    join(pkgDir('vega'), 'build/vega.min.js'),
    join(pkgDir('vega-lite'), 'build/vega-lite.min.js'),
    join(pkgDir('vega-embed'), 'build/vega-embed.min.js'),
  ].map((f) => readFileSync(f));
  js.push(Buffer.from(`const specs=${JSON.stringify(specs)};document.querySelectorAll('.vega-chart').forEach((el,i)=>vegaEmbed(el,specs[i],{actions:false}));`));
  const cssW = page.w.css;
  const jsRaw = js.reduce((a, b) => a + b.length, 0);
  const jsGz = js.reduce((a, b) => a + gz(b), 0);
  return {
    label: `baseline: same article, vega-embed (${specs.length} charts)`,
    w: {
      html: { raw: pageHtml.length, gzip: gz(pageHtml) }, css: cssW, js: { raw: jsRaw, gzip: jsGz }, svg: { raw: 0, gzip: 0 }, charts: specs.length,
      total: { raw: pageHtml.length + cssW.raw + jsRaw, gzip: gz(pageHtml) + cssW.gzip + jsGz },
    },
  };
}

const article = rows.find((r) => r.label.startsWith('article'));
const base = article ? baseline(article) : null;
const line = (label, w) => `| ${label} | ${w.charts} | ${kb(w.html.raw)} / ${kb(w.html.gzip)} | ${kb(w.css.raw)} / ${kb(w.css.gzip)} | ${kb(w.js.raw)} / ${kb(w.js.gzip)} | ${kb(w.svg.raw)} / ${kb(w.svg.gzip)} | ${kb(w.total.raw)} / ${kb(w.total.gzip)} |`;
const out = [
  '| Page | Charts | HTML KB raw / gzip | CSS | JS | SVG | Total |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => line(`${r.label} (${r.rel.replace(/index\.html$/, '')})`, r.w)),
];
if (base) {
  out.push(line(base.label, base.w));
  out.push('');
  out.push(`Static SVG article vs vega-embed baseline: ${(base.w.total.gzip / article.w.total.gzip).toFixed(1)}× less to download (gzip), ` +
    `${article.w.js.gzip} vs ${base.w.js.gzip} bytes of JavaScript.`);
}
// Smallest chart text as drawn, per page with charts and viewport (Chromium, same measure as tests/charts/).
async function legibility(pages) {
  const { chromium } = await import('playwright-core');
  const server = await startSiteServer(SITE);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const readSvg = siteSvgReader(SITE);
  const rows = [];
  try {
    for (const p of pages) {
      const row = { p, px: {} };
      for (const width of [390, 1280]) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        await page.goto(server.url + p.rel.replace(/index\.html$/, ''), { waitUntil: 'load' });
        const charts = await measureCharts(page, readSvg);
        const px = charts.map((c) => c.px).sort((a, b) => a - b);
        row.px[width] = { min: px[0], median: px[px.length >> 1], under: px.filter((x) => x < MIN_TEXT_PX).length, n: px.length };
        await page.close();
      }
      rows.push(row);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}
const cell = (m) => `${m.min.toFixed(1)} / ${m.median.toFixed(1)} / ${m.under} of ${m.n}`;
const charted = rows.filter((r) => r.w.charts > 0);
if (charted.length) {
  out.push('', `Smallest chart text as drawn, CSS px (Chromium; min / median over the page's charts / charts under ${MIN_TEXT_PX} px):`, '',
    '| Page | Charts | 390 px phone | 1280 px desktop |', '| --- | --- | --- | --- |');
  for (const r of await legibility(charted)) out.push(`| ${r.p.label} (${r.p.rel.replace(/index\.html$/, '')}) | ${r.p.w.charts} | ${cell(r.px[390])} | ${cell(r.px[1280])} |`);
  out.push('');
}
out.push(buildSeconds === null ? 'Build time: not measured (--no-build).' : `Full build (validate + render charts + Jekyll): ${buildSeconds.toFixed(1)} s.`);
console.log(out.join('\n'));

// Lighthouse last: its own script, so that it can also run alone (its numbers need their own warm-up and runs).
if (!process.argv.includes('--no-lighthouse')) {
  const i = process.argv.indexOf('--lighthouse-runs');
  const runs = i > 0 ? process.argv[i + 1] : '3';
  console.log('');
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/bench-lighthouse.mjs'), '--runs', runs], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}
