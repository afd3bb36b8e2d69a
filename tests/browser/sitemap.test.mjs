// Visits every URL in sitemap.xml in Debian's Chromium: no console errors, no CSP violations,
// no axe-core WCAG 2.1 AA violations (light and dark), and with JavaScript disabled every chart's SVG shows
// with its data (a table, or on article pages a link to the dataset page's full table).
// Two pages of one browser visit the URLs at once (each URL still gets every check, results kept in the sitemap's
// order): on CI's 2 cores that nearly halves the test's wall time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startStaticServer } from '../helpers/static-server.mjs';
import { launchBrowser } from '../helpers/browser.mjs';
import { inOrder } from '../helpers/pool.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SITE = new URL('../../_site/', import.meta.url).pathname;
const PAGES_AT_ONCE = 2;
const CONFIG_URL = /^url:\s*"?([^"\n]+)"?/m.exec(readFileSync(new URL('../../_config.yml', import.meta.url), 'utf8'))[1];

let server;
let browser;
let paths;

before(async () => {
  server = await startStaticServer(SITE);
  browser = await launchBrowser();
  const xml = readFileSync(`${SITE}sitemap.xml`, 'utf8');
  paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(CONFIG_URL, '')).map((p) => p || '/');
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function visit(page, path) {
  const problems = [];
  const onConsole = (msg) => { if (msg.type() === 'error' || /Content Security Policy/i.test(msg.text())) problems.push(`console ${msg.type()}: ${msg.text()}`); };
  const onError = (err) => problems.push(`page error: ${err.message}`);
  // net::ERR_ABORTED is the browser cancelling a request (a lazily imported chunk still in flight when the page
  // settles or the offline worker takes over), not a failed response: a missing file still shows as an HTTP status
  // below, and a chunk the page needed and lost as a page error or console error.
  const onFail = (req) => { if (req.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`); };
  const onResponse = (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`); };
  page.on('console', onConsole);
  page.on('pageerror', onError);
  page.on('requestfailed', onFail);
  page.on('response', onResponse);
  await page.goto(server.url + path, { waitUntil: 'load', timeout: 30000 });
  // CSP violations are also reported as DOM events; collect any the page saw after load.
  await page.waitForTimeout(50);
  page.off('console', onConsole);
  page.off('pageerror', onError);
  page.off('requestfailed', onFail);
  page.off('response', onResponse);
  return problems;
}

async function axe(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

test('the sitemap lists the site\'s pages', () => {
  assert.ok(paths.length >= 10, `only ${paths.length} URLs in sitemap.xml`);
  assert.ok(paths.includes('/'), 'home page');
  assert.ok(paths.some((p) => p.startsWith('/datasets/') && p !== '/datasets/'), 'dataset pages');
});

test('every sitemap URL loads without console errors or CSP violations and passes axe (light and dark)', async () => {
  const failures = [];
  for (const scheme of ['light', 'dark']) {
    const pages = [];
    for (let w = 0; w < PAGES_AT_ONCE; w++) {
      const page = await browser.context.newPage();
      await page.emulateMedia({ colorScheme: scheme });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
      });
      pages.push(page);
    }
    const perPath = await inOrder(paths, PAGES_AT_ONCE, async (path, w) => {
      const problems = await visit(pages[w], path);
      const violations = await axe(pages[w]);
      return [
        ...(scheme === 'light' ? problems.map((p) => `${path}: ${p}`) : []),
        ...violations.map((v) => `${path} [${scheme}]: axe ${v}`),
      ];
    });
    failures.push(...perPath.flat());
    for (const page of pages) await page.close();
  }
  assert.deepEqual(failures, []);
});

test('with JavaScript disabled every chart shows its SVG, caption and data table', async () => {
  const noJs = await launchBrowser({ javaScriptEnabled: false });
  try {
    const pages = [];
    for (let w = 0; w < PAGES_AT_ONCE; w++) pages.push(await noJs.context.newPage());
    const counts = await inOrder(paths, PAGES_AT_ONCE, async (path, w) => {
      const page = pages[w];
      let charts = 0;
      await page.goto(server.url + path, { waitUntil: 'load', timeout: 30000 });
      const figures = page.locator('figure.chart');
      const n = await figures.count();
      for (let i = 0; i < n; i++) {
        const fig = figures.nth(i);
        const img = fig.locator('picture img');
        await img.scrollIntoViewIfNeeded();
        const src = await img.getAttribute('src');
        assert.match(src, /\.svg$/, `${path}: chart ${i} is not an SVG`);
        const loaded = await img.evaluate((el) => el.complete && el.naturalWidth > 0);
        assert.ok(loaded, `${path}: chart ${src} did not load without JavaScript`);
        assert.ok((await img.getAttribute('alt')).length > 20, `${path}: chart ${src} alt text`);
        assert.ok((await fig.locator('figcaption').innerText()).length > 10, `${path}: caption`);
        // The data: a table in the figure, or (a long table on an article page) a link to the dataset page's table.
        const tables = await fig.locator('table').count();
        const linked = await fig.locator('p.chart-data a[href*="/datasets/"][href$="#data"]').count();
        assert.ok(tables + linked === 1, `${path}: chart ${src} has ${tables} data tables and ${linked} table links`);
        if (path.startsWith('/datasets/')) assert.equal(tables, 1, `${path}: a dataset page keeps every chart's table`);
        charts++;
      }
      return charts;
    });
    assert.ok(counts.reduce((a, b) => a + b, 0) > 0, 'no chart found on any page');
  } finally {
    await noJs.close();
  }
});
