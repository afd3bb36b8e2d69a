// The chart value layer (assets/js/chart-values.mjs) in Chromium: the recorded positions land on the
// drawn marks of every chart; a mouse hover, the keyboard and a tap on a touch screen show the exact
// value and announce it; without JavaScript the figure is untouched. One browser, one context per mode.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startStaticServer } from '../helpers/static-server.mjs';
import { CHROMIUM_ARGS } from '../helpers/browser.mjs';
import { htmlFiles } from '../../scripts/lib/page-weight.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const SITE = join(ROOT, '_site');
const CHARTS = join(SITE, 'assets/generated/charts');
const pointFiles = readdirSync(CHARTS, { recursive: true }).filter((f) => f.endsWith('.json'));
const readPoints = (url) => JSON.parse(readFileSync(join(SITE, new URL(url, 'http://x').pathname), 'utf8'));

// The page with the most charts: the heaviest case for the layer.
const busiest = htmlFiles(SITE)
  .filter((f) => !f.includes('/assets/'))
  .map((f) => ({ path: `/${f.slice(SITE.length + 1)}`.replace(/index\.html$/, ''), n: (readFileSync(f, 'utf8').match(/<figure class="chart"/g) || []).length }))
  .sort((a, b) => b.n - a.n)[0];

let server;
let browser;
before(async () => {
  server = await startStaticServer(SITE);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('the value layer is small and every chart has position files for both layouts', () => {
  const gz = gzipSync(readFileSync(join(ROOT, 'assets/js/chart-values.mjs')), { level: 9 }).length;
  assert.ok(gz <= 5 * 1024, `assets/js/chart-values.mjs is ${gz} B gzip; the budget is 5 KB`);
  assert.ok(busiest.n >= 2, 'a page with several charts');
  const svgs = readdirSync(CHARTS, { recursive: true }).filter((f) => /[^/]-light\.svg$/.test(f) && !f.endsWith('-narrow-light.svg'));
  for (const f of svgs) {
    for (const v of ['wide', 'narrow']) assert.ok(pointFiles.includes(f.replace(/-light\.svg$/, `-${v}.json`)), `${f}: no ${v} positions`);
  }
  const withPoints = pointFiles.filter((f) => JSON.parse(readFileSync(join(CHARTS, f), 'utf8')).points.length > 0);
  assert.equal(withPoints.length, pointFiles.length, `charts without any value: ${pointFiles.filter((f) => !withPoints.includes(f)).join(', ')}`);
});

test('every recorded position lies on a drawn mark of its SVG (all charts, both layouts)', async () => {
  const page = await browser.newPage();
  const misses = [];
  let checked = 0;
  try {
    for (const f of pointFiles) {
      const { width, height, points } = JSON.parse(readFileSync(join(CHARTS, f), 'utf8'));
      const svgFile = f.replace(/-(wide|narrow)\.json$/, (m, v) => (v === 'narrow' ? '-narrow-light.svg' : '-light.svg'));
      await page.setViewportSize({ width: Math.ceil(width) + 10, height: Math.ceil(height) + 10 });
      await page.goto(`${server.url}/assets/generated/charts/${svgFile}`);
      const hits = await page.evaluate((pts) => pts.map(([x, y, w, h]) => {
        // The centre of the box, or for a hairline (a rule, a zero-height bar) its middle line.
        for (const [dx, dy] of [[0, 0], [0, 1], [0, -1], [1, 0], [-1, 0], [2, 0], [-2, 0], [0, 2], [0, -2]]) {
          const node = document.elementFromPoint(x + w / 2 + dx, y + h / 2 + dy);
          const g = node?.closest('g[class*="role-mark"]');
          if (g && !/role-(axis|legend|title|frame|scope)/.test(g.getAttribute('class'))) return true;
        }
        return false;
      }), points);
      hits.forEach((hit, i) => { checked++; if (!hit) misses.push(`${svgFile}: ${points[i].slice(0, 4).join(',')} "${points[i][4].split('\n')[0]}"`); });
    }
  } finally {
    await page.close();
  }
  assert.ok(checked > 100, `only ${checked} positions checked`);
  assert.deepEqual(misses, []);
});

// The point whose centre is inside no other point's box, so hovering it can only mean it.
function lonelyPoint(points) {
  const inside = ([x, y, w, h], cx, cy) => cx >= x && cx <= x + w && cy >= y && cy <= y + h;
  return points.findIndex((p, i) => /\d/.test(p[4]) && p[2] >= 4 && p[3] >= 4 && !points.some((q, j) => j !== i && inside(q, p[0] + p[2] / 2, p[1] + p[3] / 2)));
}

async function centreOf(page, figure, point, data) {
  const box = await figure.locator('picture img').boundingBox();
  const s = box.width / data.width;
  return { x: box.x + (point[0] + point[2] / 2) * s, y: box.y + (point[1] + point[3] / 2) * s };
}

test('mouse: hovering a bar shows its exact value, leaving hides it', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(server.url + busiest.path, { waitUntil: 'load' });
    await page.waitForSelector('figure.chart .chart-overlay');
    const figures = page.locator('figure.chart');
    assert.equal(await page.locator('figure.chart .chart-overlay').count(), await figures.count(), 'every chart is enhanced');
    let hovered = 0;
    for (let n = 0; n < await figures.count(); n++) {
      const fig = figures.nth(n);
      const data = readPoints(await fig.getAttribute('data-values-wide'));
      const i = lonelyPoint(data.points);
      if (i < 0) continue;
      await fig.scrollIntoViewIfNeeded();
      await fig.locator('picture img').evaluate((img) => img.decode().catch(() => {}));
      const { x, y } = await centreOf(page, fig, data.points[i], data);
      await page.mouse.move(x, y);
      const tip = fig.locator('.chart-tip');
      await tip.waitFor({ state: 'visible', timeout: 5000 });
      assert.equal(await tip.innerText(), data.points[i][4], `${await fig.getAttribute('id')}: tip text`);
      await page.mouse.move(1, 1);
      await tip.waitFor({ state: 'hidden', timeout: 5000 });
      hovered++;
    }
    assert.ok(hovered >= 2, `hovered ${hovered} charts`);
  } finally {
    await context.close();
  }
});

test('keyboard: Tab reaches the chart, arrow keys step through the values, each is announced', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(server.url + busiest.path, { waitUntil: 'load' });
    await page.waitForSelector('figure.chart .chart-overlay');
    let reached = false;
    for (let i = 0; i < 300 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.classList.contains('chart-overlay'));
    }
    assert.ok(reached, 'no chart reachable with Tab');
    const fig = page.locator('figure.chart:has(.chart-overlay:focus)');
    const data = readPoints(await fig.getAttribute('data-values-wide'));
    const tip = fig.locator('.chart-tip');
    const live = fig.locator('[aria-live]');
    assert.ok(await page.evaluate(() => !!document.activeElement.getAttribute('aria-label')), 'the focused chart has an accessible name');
    await tip.waitFor({ state: 'visible' });
    assert.equal(await tip.innerText(), data.points[0][4]);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((el) => el.textContent.length > 0, await live.elementHandle());
    assert.equal(await tip.innerText(), data.points[1 % data.points.length][4]);
    assert.equal(await live.textContent(), data.points[1 % data.points.length][4].replace(/\n/g, '; '));
    await page.keyboard.press('End');
    assert.equal(await tip.innerText(), data.points.at(-1)[4]);
    await page.keyboard.press('Escape');
    await tip.waitFor({ state: 'hidden' });
  } finally {
    await context.close();
  }
});

test('touch: on a 390 px phone a tap shows the value of the phone layout\'s mark', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  try {
    await page.goto(server.url + busiest.path, { waitUntil: 'load' });
    await page.waitForSelector('figure.chart .chart-overlay');
    const fig = page.locator('figure.chart').first();
    const data = readPoints(await fig.getAttribute('data-values-narrow'));
    const i = lonelyPoint(data.points);
    assert.ok(i >= 0, 'a tappable mark');
    await fig.scrollIntoViewIfNeeded();
    await fig.locator('picture img').evaluate((img) => img.decode().catch(() => {}));
    assert.match(await fig.locator('picture img').evaluate((img) => img.currentSrc), /-narrow-light\.svg$/);
    const { x, y } = await centreOf(page, fig, data.points[i], data);
    await page.touchscreen.tap(x, y);
    const tip = fig.locator('.chart-tip');
    await tip.waitFor({ state: 'visible', timeout: 5000 });
    assert.equal(await tip.innerText(), data.points[i][4]);
    const box = await tip.boundingBox();
    const frame = await fig.locator('.chart-frame').boundingBox();
    assert.ok(box.x >= frame.x - 1 && box.x + box.width <= frame.x + frame.width + 1, 'the tip stays inside the chart on a phone');
  } finally {
    await context.close();
  }
});

test('without JavaScript the figures are unchanged: no overlay, the image and table as built', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(server.url + busiest.path, { waitUntil: 'load' });
    assert.equal(await page.locator('.chart-overlay, .chart-frame, .chart-tip').count(), 0);
    assert.equal(await page.locator('figure.chart > picture > img').count(), busiest.n);
    assert.equal(await page.locator('figure.chart details table').count() + await page.locator('figure.chart p.chart-data a').count(), busiest.n);
  } finally {
    await context.close();
  }
});
