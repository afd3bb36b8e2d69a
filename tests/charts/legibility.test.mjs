// Every chart on every built page, in Chromium at a 390 px phone and a 1280 px desktop viewport:
// the smallest text is drawn at ≥ 11 CSS px, the chart fills its column, and the browser picked the
// rendering made for that width and colour scheme. Pages are found in _site, never listed by hand.
// Two pages of one browser measure at once (results kept in the pages' order): CI has 2 cores.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startStaticServer } from '../helpers/static-server.mjs';
import { launchBrowser } from '../helpers/browser.mjs';
import { inOrder } from '../helpers/pool.mjs';
import { htmlFiles } from '../../scripts/lib/page-weight.mjs';
import { measureCharts, siteSvgReader, MIN_TEXT_PX } from '../../scripts/lib/chart-legibility.mjs';

const PAGES_AT_ONCE = 2;
const SITE = new URL('../../_site/', import.meta.url).pathname;
const pages = htmlFiles(SITE)
  .filter((f) => readFileSync(f, 'utf8').includes('<figure class="chart"'))
  .map((f) => `/${f.slice(SITE.length)}`.replace(/index\.html$/, ''));

let server;
let browser;
before(async () => {
  server = await startStaticServer(SITE);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// The phone pass runs in dark mode and the desktop pass in light, so both <source> conditions are exercised.
const PASSES = [
  { name: 'phone 390 px, dark', viewport: { width: 390, height: 844 }, scheme: 'dark', expect: /-narrow-dark\.svg$/ },
  { name: 'desktop 1280 px, light', viewport: { width: 1280, height: 900 }, scheme: 'light', expect: /\/[a-z0-9-]+-light\.svg$/ },
];

test('the built site has pages with charts', () => {
  assert.ok(pages.length >= 10, `only ${pages.length} pages with charts in _site`);
});

for (const pass of PASSES) {
  test(`every chart is legible and fills its column: ${pass.name}`, async () => {
    const readSvg = siteSvgReader(SITE);
    const tabs = [];
    const problems = [];
    const sizes = [];
    try {
      for (let w = 0; w < PAGES_AT_ONCE; w++) {
        const page = await browser.context.newPage();
        tabs.push(page);
        await page.setViewportSize(pass.viewport);
        await page.emulateMedia({ colorScheme: pass.scheme });
      }
      const measured = await inOrder(pages, PAGES_AT_ONCE, async (path, w) => {
        await tabs[w].goto(server.url + path, { waitUntil: 'load', timeout: 30000 });
        const charts = await measureCharts(tabs[w], readSvg);
        assert.ok(charts.length > 0, `${path}: no chart measured`);
        return charts;
      });
      for (const [i, charts] of measured.entries()) {
        const path = pages[i];
        for (const c of charts) {
          sizes.push(c.px);
          if (!pass.expect.test(c.src)) problems.push(`${path} ${c.id}: browser chose ${c.src}, expected ${pass.expect}`);
          if (c.px === null || c.px < MIN_TEXT_PX) problems.push(`${path} ${c.id}: smallest text ${c.px?.toFixed(1)} px (${c.font} px font, SVG ${c.svgWidth} px drawn at ${c.drawn.toFixed(0)} px)`);
          if (c.drawn < c.column - 1) problems.push(`${path} ${c.id}: drawn ${c.drawn.toFixed(0)} px wide in a ${c.column.toFixed(0)} px column`);
          if (c.drawn > c.column + 1) problems.push(`${path} ${c.id}: overflows its column (${c.drawn.toFixed(0)} > ${c.column.toFixed(0)} px)`);
        }
      }
    } finally {
      for (const page of tabs) await page.close();
    }
    assert.ok(sizes.length >= pages.length);
    assert.deepEqual(problems, []);
  });
}
