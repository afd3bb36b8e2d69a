#!/usr/bin/env node
// Lighthouse benchmark (mobile preset, simulated throttling) of four page types of the built site,
// served with gzip from 127.0.0.1, in Debian's Chromium. Each page runs --runs times (default 3) in
// random order after one warm-up run per page; the table gives the median and the range.
// Not a test: Lighthouse's numbers move with the machine's load, so read them against their range.
// Usage: node scripts/bench-lighthouse.mjs [--runs N] [--only LABEL] [--json FILE]   (after scripts/build)
// --only keeps the pages whose label contains LABEL (e.g. wizard); failed audits are listed with their elements.
import { existsSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir, cpus, totalmem, loadavg } from 'node:os';
import { spawn } from 'node:child_process';
import lighthouse from 'lighthouse';
import { htmlFiles, pageWeight } from './lib/page-weight.mjs';
import { startSiteServer } from './lib/site-server.mjs';

const ROOT = new URL('../', import.meta.url).pathname;
const SITE = join(ROOT, '_site');
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const RUNS = Number(arg('--runs', 3));
const JSON_OUT = arg('--json', null);
const ONLY = arg('--only', '');
if (!existsSync(join(SITE, 'index.html'))) { console.error('no _site: run scripts/build first'); process.exit(1); }

// The same page choice as scripts/bench-pages.mjs: the article and the dataset page with the most charts.
const all = htmlFiles(SITE).map((f) => ({ f, rel: f.slice(SITE.length).replace(/index\.html$/, ''), charts: pageWeight(SITE, f).charts }));
const most = (pred) => all.filter(pred).sort((a, b) => b.charts - a.charts)[0];
const PAGES = [
  { label: 'home', page: all.find((p) => p.rel === '/') },
  { label: 'article (most charts)', page: most((p) => /^\/articles\/[^/]+\/$/.test(p.rel)) },
  { label: 'dataset page (most charts)', page: most((p) => /^\/datasets\/[^/]+\/$/.test(p.rel)) },
  { label: 'wizard', page: all.find((p) => p.rel === '/guide/') },
].filter((p) => p.page && p.label.includes(ONLY));

// Chromium with a DevTools port for Lighthouse; a fresh profile, stopped by its process id.
async function startChromium() {
  const profile = mkdtempSync(join(tmpdir(), 'sr-lighthouse-'));
  const proc = spawn('/usr/bin/chromium', ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${err}`)), 30000);
    proc.stderr.on('data', (d) => {
      err += d;
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    });
    proc.once('exit', (code) => reject(new Error(`Chromium exited with ${code}: ${err}`)));
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  return {
    port,
    // The profile is removed only after Chromium has exited (it writes to it until then).
    stop: async () => {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10000);
      await exited;
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const shuffle = (xs) => { for (let i = xs.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [xs[i], xs[j]] = [xs[j], xs[i]]; } return xs; };

const loadBefore = loadavg()[0];
const server = await startSiteServer(SITE);
const chrome = await startChromium();
const results = new Map(PAGES.map((p) => [p.label, []]));
try {
  const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] };
  const runOnce = async (p) => {
    const { lhr } = await lighthouse(server.url + p.page.rel, flags);
    const a = lhr.audits;
    return {
      performance: lhr.categories.performance.score * 100,
      accessibility: lhr.categories.accessibility.score * 100,
      bestPractices: lhr.categories['best-practices'].score * 100,
      seo: lhr.categories.seo.score * 100,
      tbt: a['total-blocking-time'].numericValue,
      lcp: a['largest-contentful-paint'].numericValue,
      cls: a['cumulative-layout-shift'].numericValue,
      bytes: a['total-byte-weight'].numericValue,
      dom: a['dom-size']?.numericValue ?? null,
      failed: Object.values(a).filter((x) => x.score !== null && x.score < 1 && x.scoreDisplayMode === 'binary').map((x) => x.id),
      // The elements behind each failed audit (selectors), so that a failure says where to look.
      where: Object.fromEntries(Object.values(a).filter((x) => x.score !== null && x.score < 1 && x.scoreDisplayMode === 'binary')
        .map((x) => [x.id, [...new Set((x.details?.items || []).map((i) => i.node?.selector).filter(Boolean))].slice(0, 6)])),
    };
  };
  for (const p of PAGES) await runOnce(p); // warm-up: server caches, Chromium's first-run work
  const order = shuffle(PAGES.flatMap((p) => Array.from({ length: RUNS }, () => p)));
  for (const p of order) results.get(p.label).push(await runOnce(p));
} finally {
  await chrome.stop().catch((e) => console.error(`cleanup: ${e.message}`));
  await server.close();
}

const version = JSON.parse(readFileSync(join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')).version;
const fmt = (rs, k, d = 0) => { const xs = rs.map((r) => r[k]); const lo = Math.min(...xs); const hi = Math.max(...xs); return lo === hi ? median(xs).toFixed(d) : `${median(xs).toFixed(d)} (${lo.toFixed(d)}–${hi.toFixed(d)})`; };
const lines = [
  `Lighthouse ${version}, mobile preset (simulated throttling), ${RUNS} runs per page in random order after a warm-up; median (min–max).`,
  `Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after; pages served with gzip from 127.0.0.1.`,
  '',
  '| Page | Performance | Accessibility | Best practices | SEO | TBT ms | LCP ms | CLS | Transfer KB | DOM elements |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...PAGES.map((p) => {
    const rs = results.get(p.label);
    return `| ${p.label} (${p.page.rel}) | ${fmt(rs, 'performance')} | ${fmt(rs, 'accessibility')} | ${fmt(rs, 'bestPractices')} | ${fmt(rs, 'seo')} | ${fmt(rs, 'tbt')} | ${fmt(rs, 'lcp')} | ${fmt(rs, 'cls', 3)} | ${(median(rs.map((r) => r.bytes)) / 1024).toFixed(1)} | ${median(rs.map((r) => r.dom ?? 0))} |`;
  }),
];
const failing = PAGES.map((p) => [p.label, [...new Set(results.get(p.label).flatMap((r) => r.failed))]]).filter(([, f]) => f.length);
if (failing.length) {
  lines.push('', 'Audits not passed: ' + failing.map(([l, f]) => `${l}: ${f.join(', ')}`).join('; '));
  for (const [l, f] of failing) {
    for (const id of f) {
      const where = [...new Set(results.get(l).flatMap((r) => r.where[id] || []))];
      if (where.length) lines.push(`- ${l}, ${id}: ${where.slice(0, 6).join(' | ')}`);
    }
  }
}
console.log(lines.join('\n'));
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(Object.fromEntries(results), null, 2));
