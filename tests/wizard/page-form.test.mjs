// Wizard page in Chromium: static fallback, keyboard-only form filling, outputs equal the engine's,
// highlighting, copy button, evidence links, d3 pictures, shareable URL, print view, dark mode,
// strict CSP, the JavaScript budget (scripts/build-guide.mjs), and offline use through the service worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as engine from '../../guide/engine/index.mjs';
import { SITE, launchBrowser, watch, openGuide, picturesDrawn, openWatchedPage } from './page-helpers.mjs';
import { BUDGET_GZIP } from '../../scripts/build-guide.mjs';

let server;
let browser;
let page;
let problems;
const scripts = new Map();

before(async () => {
  ({ server, browser, page, problems } = await openWatchedPage());
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script') scripts.set(res.url(), await res.body().catch(() => Buffer.alloc(0)));
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

function noTrouble() {
  assert.deepEqual(problems.errors, [], 'uncaught page errors');
  assert.deepEqual(problems.csp, [], 'CSP violations');
  assert.deepEqual(problems.dialogs, [], 'dialogs');
}

/** What the engine produces for the page's current answers, date and permalink. */
async function expected() {
  const { answers, permalink } = await page.evaluate(() => ({
    answers: window.__guide.answers,
    permalink: document.getElementById('guide-permalink').href,
  }));
  const files = [...(await page.$$eval('.guide-file', (els) => els.map((e) => e.dataset.path)))];
  const date = await page.evaluate(() => new Date().toISOString().slice(0, 10));
  return { answers, permalink, files, result: engine.generate(answers, { date, permalink }) };
}

async function tabTo(id, max = 80) {
  for (let i = 0; i < max; i++) {
    if ((await page.evaluate(() => document.activeElement && document.activeElement.id)) === id) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached #${id}`);
}

test('static page: explanation, default bundle and CLI without JavaScript, no inline code', () => {
  const html = readFileSync(join(SITE, 'guide/index.html'), 'utf8');
  assert.match(html, /class="guide-static"/);
  assert.match(html, /id="cli"/);
  assert.match(html, /node guide\/cli\.mjs --answers/);
  for (const ext of ['zip', 'tar.gz']) {
    const m = html.match(new RegExp(`href="([^"]*scaling-rails-config-default\\.${ext.replace('.', '\\.')})"`));
    assert.ok(m, `link to the default .${ext} bundle`);
    assert.ok(existsSync(join(SITE, m[1])), `${m[1]} exists in _site`);
  }
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>/i, 'no inline <script> (JSON-LD data blocks do not run)');
  assert.doesNotMatch(html, /\sstyle=|<style/i, 'no style attributes or blocks');
  assert.doesNotMatch(html, /\son[a-z]+=/i, 'no event-handler attributes');
  assert.match(html, /id="guide-app"[^>]*hidden/, 'the interactive part is hidden until the script runs');
  // The fallback text names the default stack; keep it true (edit guide/index.html when defaults change).
  assert.match(html, /Linux host\s+running Puma behind nginx with PostgreSQL/);
  assert.deepEqual([engine.DEFAULTS.os, engine.DEFAULTS.server, engine.DEFAULTS.proxy, engine.DEFAULTS.database], ['linux', 'puma', 'nginx', 'postgresql']);
});

test('with JavaScript disabled the page explains itself and offers the default bundle', async () => {
  const noJs = await launchBrowser({ javaScriptEnabled: false });
  try {
    const p = noJs.page;
    await p.goto(`${server.url}/guide/`, { waitUntil: 'load' });
    assert.equal(await p.isVisible('.guide-static'), true);
    assert.equal(await p.isVisible('#guide-app'), false);
    assert.equal(await p.isVisible('#cli'), true);
    for (const href of await p.$$eval('.guide-static a[href$=".zip"], .guide-static a[href$=".tar.gz"]', (as) => as.map((a) => a.href))) {
      const res = await p.request.get(href);
      assert.equal(res.status(), 200, href);
    }
  } finally {
    await noJs.close();
  }
});

test('the script replaces the fallback and builds a labelled form with a fieldset per group', async () => {
  await openGuide(page, server.url);
  assert.equal(await page.isVisible('.guide-static'), false);
  assert.equal(await page.isVisible('#guide-app'), true);
  const groups = [...new Set(engine.QUESTIONS.map((q) => q.group))];
  assert.deepEqual(await page.$$eval('#guide-form fieldset > legend', (ls) => ls.map((l) => l.textContent)), groups);
  for (const q of engine.QUESTIONS) {
    const info = await page.evaluate((key) => {
      const el = document.getElementById('q-' + key);
      const label = el && document.querySelector(`label[for="q-${key}"]`);
      return el && { tag: el.tagName, type: el.type, label: label && label.textContent, value: el.type === 'checkbox' ? el.checked : el.value };
    }, q.key);
    assert.ok(info, `control for ${q.key}`);
    assert.equal(info.label, q.label);
    assert.equal(info.tag, q.type === 'enum' ? 'SELECT' : 'INPUT');
    assert.equal(String(info.value), String(q.default), `${q.key} starts at its default`);
  }
  assert.equal(await page.locator('#guide [style]').count(), 0, 'no style attributes in the rendered page');
  noTrouble();
});

test('keyboard only: answers change the files, the URL, the pictures; outputs equal the engine', async () => {
  await openGuide(page, server.url);
  await page.locator('body').focus();
  await tabTo('q-os');
  // Tab order follows the questions.
  const order = [];
  for (let i = 0; i < engine.QUESTIONS.length; i++) {
    order.push(await page.evaluate(() => document.activeElement.id));
    await page.keyboard.press('Tab');
  }
  assert.deepEqual(order, engine.QUESTIONS.map((q) => 'q-' + q.key));

  await page.keyboard.press('Shift+Tab'); // back into the form; now go to specific fields
  await page.locator('#q-os').focus();
  await tabTo('q-cores');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('8');
  await tabTo('q-ruby_version');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3.2');
  await tabTo('q-server');
  for (let i = 0; i < 10 && (await page.inputValue('#q-server')) !== 'unicorn'; i++) await page.keyboard.press('ArrowDown');
  assert.equal(await page.inputValue('#q-server'), 'unicorn');
  await tabTo('q-downloads');
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');

  // The address bar follows shortly after the last change (replaceState is debounced).
  await page.waitForFunction(() => ['server=unicorn', 'ruby_version=3.2', 'cores=8', 'downloads=true']
    .every((p) => location.search.includes(p)), null, { timeout: 5000 });
  const search = new URL(page.url()).searchParams;
  // The version field left at Puma's default follows the new server (Unicorn's current 6.1, never "Unicorn 8.0").
  assert.equal(await page.inputValue('#q-server_version'), '6.1');
  assert.equal(search.get('server_version'), null);
  assert.equal(search.get('cores'), '8');
  assert.equal(search.get('downloads'), 'true');

  const { answers, permalink, files, result } = await expected();
  assert.equal(answers.server, 'unicorn');
  assert.equal(answers.cores, 8);
  assert.equal(answers.downloads, true);
  assert.deepEqual(files, result.files.map((f) => f.path));
  assert.ok(files.some((p) => /unicorn/.test(p)), 'a unicorn config is offered');
  const texts = await page.$$eval('.guide-file pre code', (cs) => cs.map((c) => c.textContent));
  result.files.forEach((f, i) => {
    assert.equal(texts[i], f.content, `${f.path} shows exactly the engine's content`);
    assert.ok(f.content.includes(permalink), `${f.path} carries the permalink`);
    assert.ok(f.content.includes(engine.GENERATOR_VERSION), `${f.path} names the generator version`);
  });
  assert.ok(await page.locator('.guide-file .hl-comment').count() > 10, 'comments highlighted');
  assert.ok(await page.locator('.guide-file .hl-key').count() > 10, 'keys/directives highlighted');

  // The checklist and warnings match the engine too.
  assert.deepEqual(await page.$$eval('#guide-advice > li label', (ls) => ls.map((l) => l.textContent.replace(/ \(does not apply.*$/, ''))),
    result.advice.map((a) => a.title));
  // Errors (e.g. Unicorn's reload overlap past this host's RAM) stand above the download buttons, the rest below.
  const errors = result.warnings.filter((w) => w.severity === 'error').length;
  assert.equal(await page.locator('#guide-errors-list > li').count(), errors);
  assert.equal(await page.locator('#guide-warnings > li').count(), result.warnings.length - errors);

  // Pictures follow the model.
  const m = result.model;
  assert.equal(await page.locator('#guide-pic-path rect.pic-thread').count(), Math.min(m.processes, 8) * Math.min(m.threads, 16));
  assert.equal(await page.locator('#guide-pic-mem rect.pic-seg').count(), m.memory.length);
  assert.match(await page.textContent('#guide-pic-path .pic-gauge-title'), new RegExp(`${m.connections_needed} needed`));
  noTrouble();
});

test('a value the engine rejects gets a note at its field and the default is used', async () => {
  await openGuide(page, server.url, '?kernel=4.19');
  await page.locator('#q-kernel').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('6.x<b>');
  await page.keyboard.press('Tab');
  const note = await page.textContent('#q-kernel-note');
  assert.match(note, /not valid/);
  assert.equal(await page.getAttribute('#q-kernel', 'aria-invalid'), 'true');
  assert.equal((await page.evaluate(() => window.__guide.answers)).kernel, engine.DEFAULTS.kernel);
  await page.evaluate(() => window.__guide.syncUrl());
  assert.equal(new URL(page.url()).searchParams.get('kernel'), null, 'the rejected value is not put in the link');
  await page.locator('#q-kernel').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('5.10');
  assert.equal(await page.textContent('#q-kernel-note'), '');
  assert.equal(await page.getAttribute('#q-kernel', 'aria-invalid'), null);
  assert.equal((await page.evaluate(() => window.__guide.answers)).kernel, '5.10');
  noTrouble();
});

test('pictures update when the answers change, and flag too many connections', async () => {
  await openGuide(page, server.url, '?cores=64&app_hosts=40&ram_gb=256');
  const { result } = await expected();
  assert.ok(result.warnings.some((w) => w.id === 'too-many-db-connections'), 'this case needs too many connections');
  assert.equal(await page.locator('#guide-pic-path .pic-gauge-bar.pic-over').count(), 1);
  assert.match(await page.textContent('#guide-pic-path-text'), /too many/);
  await openGuide(page, server.url);
  assert.equal(await page.locator('#guide-pic-path .pic-gauge-bar.pic-over').count(), 0, 'the default stack is fine');
  await page.selectOption('#q-workload', 'cpu');
  await picturesDrawn(page);
  const after = (await expected()).result.model;
  assert.equal(await page.locator('#guide-pic-path rect.pic-thread').count(), Math.min(after.processes, 8) * Math.min(after.threads, 16));
  noTrouble();
});

test('errors (a stack that cannot boot) stand above the download buttons with their fix; warnings below', async () => {
  await openGuide(page, server.url, '?rails=2.3.5&ruby_version=3.4');
  const { result } = await expected();
  const errors = result.warnings.filter((w) => w.severity === 'error');
  assert.ok(errors.some((w) => w.id === 'ruby-too-new-for-rails'), 'this case is an error');
  assert.equal(await page.isVisible('#guide-errors'), true);
  assert.equal(await page.locator('#guide-errors-list > li').count(), errors.length);
  const text = await page.textContent('#guide-errors-list');
  assert.match(text, /iconv/);
  assert.match(text, /upgrade Rails first/, 'the fix is shown');
  const before = await page.evaluate(() => Boolean(document.getElementById('guide-errors').compareDocumentPosition(document.getElementById('guide-download-zip')) & Node.DOCUMENT_POSITION_FOLLOWING));
  assert.ok(before, 'the errors come before the download buttons');
  assert.equal(await page.locator('#guide-warnings > li.sev-error').count(), 0, 'no error twice');
  await openGuide(page, server.url);
  assert.equal(await page.isVisible('#guide-errors'), false, 'the default stack has no error');
  noTrouble();
});

test('the URL is shareable: opening it restores the answers', async () => {
  await openGuide(page, server.url, '?server=passenger&database=mysql&adapter=mysql2&ram_gb=16');
  await page.evaluate(() => window.__guide.syncUrl());
  const url = page.url();
  const other = await browser.context.newPage();
  try {
    await openGuide(other, url.replace(/^https?:\/\/[^/]+/, server.url).replace(/\/guide\/.*$/, ''), new URL(url).search);
    assert.equal(await other.inputValue('#q-server'), 'passenger');
    assert.equal(await other.inputValue('#q-database'), 'mysql');
    assert.equal(await other.inputValue('#q-ram_gb'), '16');
    assert.equal(await other.isVisible('#guide-url-notes'), false, 'a clean link shows no note');
  } finally {
    await other.close();
  }
});

test('copy buttons put the file on the clipboard', async () => {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await openGuide(page, server.url);
  const button = page.locator('.guide-file .guide-copy').first();
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.guide-file .guide-copy').textContent !== 'Copy');
  assert.equal(await button.textContent(), 'Copied');
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(clip, await page.locator('.guide-file pre code').first().textContent());
  assert.match(await page.textContent('#guide-status'), /Copied/);
});

test('evidence links are http(s) or site pages that exist', async () => {
  for (const search of ['', '?ruby=ree&ruby_version=1.8.7&rails=2.3.5&server=thin&proxy=cherokee&kernel=2.6.32&database=mysql&adapter=mysql']) {
    await openGuide(page, server.url, search);
    const hrefs = await page.$$eval('.guide-evidence a', (as) => as.map((a) => a.getAttribute('href')));
    assert.ok(hrefs.length > 5, 'the checklist cites evidence');
    const bad = [];
    for (const href of hrefs) {
      if (/^https?:\/\//.test(href)) continue;
      if (!href.startsWith('/') || href.startsWith('//')) {
        bad.push(href);
        continue;
      }
      const path = decodeURIComponent(href.split('#')[0]);
      if (!existsSync(join(SITE, path, path.endsWith('/') ? 'index.html' : '')) && !existsSync(join(SITE, path + '.html'))) bad.push(href);
    }
    assert.deepEqual(bad, [], 'links that are neither http(s) nor an existing site page');
    assert.equal(await page.locator('a[href^="javascript:" i], a[href^="data:" i]').count(), 0);
  }
});

test('print view shows the checklist only; dark mode follows prefers-color-scheme', async () => {
  await openGuide(page, server.url);
  const lightBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  const darkBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(darkBg, lightBg);
  const keyColour = (await page.$eval('.hl-key', (e) => getComputedStyle(e).color));
  await page.emulateMedia({ colorScheme: 'light' });
  assert.notEqual(await page.$eval('.hl-key', (e) => getComputedStyle(e).color), keyColour, 'highlight colours change too');
  await page.emulateMedia({ media: 'print' });
  try {
    assert.equal(await page.isVisible('#guide-checklist'), true);
    assert.equal(await page.isVisible('#guide-advice > li'), true);
    for (const sel of ['.guide-questions', '.guide-files-section', '.guide-pictures', '.guide-actions']) {
      assert.equal(await page.isVisible(sel), false, `${sel} is not printed`);
    }
  } finally {
    await page.emulateMedia({ media: 'screen' });
  }
});

test('the checklist ticks are kept across answer changes', async () => {
  await openGuide(page, server.url);
  const first = page.locator('#guide-advice input[type="checkbox"]').first();
  await first.focus();
  await page.keyboard.press('Space');
  assert.equal(await first.isChecked(), true);
  await page.selectOption('#q-proxy', 'caddy');
  await picturesDrawn(page); // Caddy's generator is a chunk: wait until the page has rendered with it
  assert.ok(await page.locator('.guide-file[data-path*="Caddyfile"]').count() > 0, 'the Caddy files are shown');
  assert.equal(await page.locator('#guide-advice input[type="checkbox"]').first().isChecked(), true);
});

test('first-load JavaScript is within scripts/build-guide.mjs BUDGET_GZIP; pictures, highlighter and offline mode come after, no generator chunk for the defaults', async () => {
  scripts.clear();
  await openGuide(page, server.url);
  // Chunks (guide-<name>-<hash>.js) are fetched after the first render (openGuide waits for the pictures and the
  // highlighter), so they are not first-load.
  const chunkName = (u) => (new URL(u).pathname.match(/\/guide-([\w-]+)-[\w-]{8}\.js$/) || [])[1];
  await page.waitForSelector('html[data-guide-offline]', { timeout: 20000 }); // the offline chunk runs after ready
  const deferred = [...scripts.keys()].filter(chunkName);
  assert.deepEqual(deferred.map(chunkName).sort(), ['highlight', 'offline', 'pictures'], 'only the pictures, highlighter and offline chunks were fetched');
  let gz = 0;
  for (const [url, body] of scripts) if (!deferred.includes(url)) gz += gzipSync(body, { level: 9 }).length;
  assert.ok(scripts.size >= 2, 'the page loads its script');
  assert.ok(gz <= BUDGET_GZIP, `first-load JavaScript is ${gz} B gzip`);
});

// A guard, not a benchmark (scripts/bench-guide.mjs prints the timing table): page timings are wall clock, which
// other processes on a shared machine stretch, so the bound is a few frames; a slower engine still trips it.
test('an answer change re-renders everything quickly (median under 50 ms)', async () => {
  await openGuide(page, server.url);
  const ms = await page.evaluate(async () => {
    await window.__guide.loadGenerators(); // Unicorn's generator is a chunk: fetch it first, then time renders only
    const v = [];
    for (let i = 0; i < 41; i++) v.push(window.__guide.render({ cores: String(1 + (i % 12)), server: i % 2 ? 'puma' : 'unicorn' }));
    return v.sort((a, b) => a - b)[20];
  });
  assert.ok(ms < 50, `median render ${ms} ms`);
});

test('a generator chunk that cannot be fetched is explained; the previous files stay and other answers still work', async () => {
  // A browser of its own without service workers: Playwright's routes do not see requests a service worker answers.
  const b = await launchBrowser({ serviceWorkers: 'block' });
  try {
    const p = b.page;
    const seen = watch(p);
    await openGuide(p, server.url);
    await p.route(/\/guide-apache-[\w-]{8}\.js$/, (route) => route.abort('connectionfailed'));
    const before = await p.locator('.guide-file').count();
    await p.selectOption('#q-proxy', 'apache');
    await p.waitForSelector('#guide-error:not([hidden])', { timeout: 20000 });
    assert.match(await p.textContent('#guide-error'), /generators for these answers could not be loaded/);
    assert.equal(await p.locator('.guide-file').count(), before, 'the previous files stay on the page');
    assert.equal(await p.locator('.guide-file[data-path*="apache2"]').count(), 0);
    // No bundle that mixes the old files with the new answers.
    let downloads = 0;
    p.on('download', () => downloads++);
    await p.click('#guide-download-zip');
    await p.waitForFunction(() => /not ready for these answers/.test(document.getElementById('guide-status').textContent), null, { timeout: 10000 });
    assert.equal(downloads, 0, 'nothing was downloaded');
    // Caddy's chunk is reachable: the page renders it and clears the message.
    await p.selectOption('#q-proxy', 'caddy');
    await picturesDrawn(p);
    assert.equal(await p.isHidden('#guide-error'), true);
    assert.ok(await p.locator('.guide-file[data-path*="Caddyfile"]').count() > 0, 'the Caddy files are shown');
    // A fetch that fails after the reader has moved on is not reported over the newer answers' files.
    await p.unroute(/\/guide-apache-[\w-]{8}\.js$/);
    let failLate;
    const failed = new Promise((resolve) => { failLate = resolve; });
    await p.route(/\/guide-mysql-[\w-]{8}\.js$/, (route) => setTimeout(() => route.abort('connectionfailed').then(failLate), 1500));
    await p.selectOption('#q-database', 'mysql');
    await p.selectOption('#q-database', 'postgresql');
    await picturesDrawn(p);
    await failed;
    await p.waitForTimeout(200);
    assert.equal(await p.isHidden('#guide-error'), true, 'no error for answers the reader has left');
    assert.doesNotMatch(await p.textContent('#guide-status'), /Loading/, 'no stale loading status');
    assert.deepEqual(seen.errors, [], 'no uncaught error');
  } finally {
    await b.close();
  }
});

test('works offline once loaded (service worker)', async () => {
  await openGuide(page, server.url);
  await page.waitForSelector('html[data-guide-offline]', { timeout: 20000 });
  assert.equal(await page.getAttribute('html', 'data-guide-offline'), 'ready');
  await browser.context.setOffline(true);
  try {
    await openGuide(page, server.url, '?server=unicorn&cores=4');
    assert.equal(await page.inputValue('#q-server'), 'unicorn');
    assert.ok(await page.locator('.guide-file').count() > 3, 'files render offline');
    assert.ok(await page.locator('#guide-advice > li').count() > 3, 'the checklist renders offline (catalog cached)');
    // The download chunk (file list, archive writers) loads on the first click: cached too.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#guide-download-zip')]);
    assert.match(download.suggestedFilename(), /\.zip$/);
  } finally {
    await browser.context.setOffline(false);
  }
  noTrouble();
});
