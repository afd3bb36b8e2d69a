#!/usr/bin/env node
// Benchmarks the wizard page in headless Chromium: changes one answer N times through the form
// (as a reader would) and prints the render time (synchronous: generate + DOM update, and until the
// next frame is painted), plus the JavaScript the page loads before its first render (raw and gzip) against
// the first-load budget, and the chunks it fetches later (pictures, highlighter, optional generators).
// Needs a built site: scripts/build first.   Usage: node scripts/bench-guide.mjs [--runs 200] [--site DIR] [--json]
import { gzipSync } from 'node:zlib';
import { startStaticServer } from '../tests/helpers/static-server.mjs';
import { launchBrowser } from '../tests/helpers/browser.mjs';
import { BUDGET_GZIP as BUDGET } from './build-guide.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : dflt;
};
const RUNS = Math.max(10, Number(opt('--runs', 200)));
const SITE = opt('--site', new URL('../_site', import.meta.url).pathname);

// Answer changes cycled through during the run: every kind of control, and the expensive cases
// (many processes and threads, several hosts, another server/proxy/database).
const CHANGES = [
  ['server', 'unicorn'], ['server', 'puma'], ['cores', '16'], ['cores', '2'], ['proxy', 'apache'], ['proxy', 'nginx'],
  ['database', 'mysql'], ['adapter', 'mysql2'], ['database', 'postgresql'], ['adapter', 'pg'], ['app_hosts', '6'],
  ['app_hosts', '1'], ['ruby_version', '2.7'], ['ruby_version', '3.3'], ['rails', '6.1'], ['rails', '7.2'],
  ['workload', 'io'], ['workload', 'mixed'], ['downloads', true], ['downloads', false], ['ram_gb', '64'], ['ram_gb', '4'],
  ['pooler', 'pgbouncer'], ['pooler', 'none'], ['server', 'passenger'], ['server', 'puma'], ['proxy', 'caddy'], ['proxy', 'nginx'],
];

function stats(values) {
  const v = [...values].sort((a, b) => a - b);
  const q = (p) => v[Math.min(v.length - 1, Math.floor(p * v.length))];
  return { median: q(0.5), p95: q(0.95), max: v[v.length - 1] };
}

const server = await startStaticServer(SITE);
const browser = await launchBrowser();
try {
  const page = browser.context.pages()[0] || (await browser.context.newPage());
  const scripts = new Map();
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type === 'script' || /javascript/.test(res.headers()['content-type'] || '')) {
      scripts.set(res.url(), await res.body().catch(() => Buffer.alloc(0)));
    }
  });
  await page.goto(`${server.url}/guide/`, { waitUntil: 'load' });
  await page.waitForSelector('html[data-guide="ready"]', { timeout: 30000 });
  // Chunks are fetched after the first render; only guide.js (and any static import of it) is first-load.
  const firstLoad = new Set([...scripts.keys()].filter((u) => !/\/guide-[\w-]+-[\w-]{8}\.js$/.test(new URL(u).pathname)));
  // Time renders, not chunk fetches: the optional generators are fetched once before the loop.
  await page.evaluate(() => window.__guide.loadGenerators());

  const { out: samples, idle } = await page.evaluate(async ({ runs, changes }) => {
    const form = document.getElementById('guide-form');
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const out = [];
    for (let i = 0; i < runs; i++) {
      const [key, value] = changes[i % changes.length];
      const el = form.elements.namedItem(key);
      await frame();
      const t0 = performance.now();
      if (typeof value === 'boolean') el.checked = value;
      else el.value = value;
      el.dispatchEvent(new Event('change', { bubbles: true }));
      const sync = window.__guideRenderMs;
      await frame();
      out.push({ sync, frame: performance.now() - t0, parts: { ...window.__guideRenderParts }, key });
    }
    // Baseline: the same wait with no change at all (one frame interval of this browser).
    const idle = [];
    for (let i = 0; i < 30; i++) {
      await frame();
      const t0 = performance.now();
      await frame();
      idle.push(performance.now() - t0);
    }
    return { out, idle };
  }, { runs: RUNS, changes: CHANGES });

  const warm = samples.slice(Math.min(10, Math.floor(samples.length / 10)));
  const sync = stats(warm.map((s) => s.sync));
  const frame = stats(warm.map((s) => s.frame));
  const idleFrame = stats(idle);
  const parts = {};
  for (const k of Object.keys(warm[0].parts || {})) parts[k] = stats(warm.map((s) => s.parts[k]));
  let raw = 0;
  let gz = 0;
  const perScript = [];
  for (const [url, body] of scripts) {
    const g = gzipSync(body, { level: 9 }).length;
    const first = firstLoad.has(url);
    if (first) {
      raw += body.length;
      gz += g;
    }
    perScript.push({ url: new URL(url).pathname, raw: body.length, gzip: g, first });
  }
  perScript.sort((a, b) => b.first - a.first || b.gzip - a.gzip);
  const result = {
    runs: warm.length,
    render_ms: sync,
    render_parts_ms: parts,
    until_next_frame_ms: frame,
    idle_frame_ms: idleFrame,
    js: { raw, gzip: gz, budget: BUDGET, scripts: perScript },
    browser: browser.context.browser()?.version() ?? 'chromium',
  };
  if (args.includes('--json')) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    const f = (n) => n.toFixed(2).padStart(8);
    console.log(`Wizard page benchmark: ${warm.length} answer changes (after ${samples.length - warm.length} warm-up), Chromium headless`);
    console.log('');
    console.log('| measure                              |   median |      p95 |      max |');
    console.log('| ------------------------------------ | -------- | -------- | -------- |');
    console.log(`| render ms (generate + DOM, sync)     | ${f(sync.median)} | ${f(sync.p95)} | ${f(sync.max)} |`);
    for (const [k, v] of Object.entries(parts)) console.log(`|   of which ${k.padEnd(25)} | ${f(v.median)} | ${f(v.p95)} | ${f(v.max)} |`);
    console.log(`| ms until the next frame              | ${f(frame.median)} | ${f(frame.p95)} | ${f(frame.max)} |`);
    console.log(`| same, no change (idle frame)         | ${f(idleFrame.median)} | ${f(idleFrame.p95)} | ${f(idleFrame.max)} |`);
    console.log('');
    console.log('| JavaScript on the page               |      raw B |     gzip B |');
    console.log('| ------------------------------------ | ---------- | ---------- |');
    for (const s of perScript.filter((x) => x.first)) console.log(`| ${s.url.padEnd(36)} | ${String(s.raw).padStart(10)} | ${String(s.gzip).padStart(10)} |`);
    console.log(`| first load (budget ${BUDGET} B gzip)   | ${String(raw).padStart(10)} | ${String(gz).padStart(10)} |`);
    for (const s of perScript.filter((x) => !x.first)) console.log(`| later: ${s.url.replace(/^.*\//, '').padEnd(29)} | ${String(s.raw).padStart(10)} | ${String(s.gzip).padStart(10)} |`);
    console.log('');
    console.log(`one frame = 16.7 ms: render median ${sync.median <= 16.7 ? 'within' : 'OVER'}, p95 ${sync.p95 <= 16.7 ? 'within' : 'OVER'}; `
      + `first-load JS ${gz <= BUDGET ? 'within' : 'OVER'} budget`);
  }
  process.exitCode = gz <= BUDGET ? 0 : 1;
} finally {
  await browser.close();
  await server.close();
}
