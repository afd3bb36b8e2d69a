// Search: the pure ranking functions (assets/js/search-core.mjs), the build-time index
// (_site/search.json) against the posts and datasets, the no-JavaScript page, and, in Chromium,
// on-demand loading, keyboard use and escaping of results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, SITE, loadPosts } from './lib.mjs';
import { normalize, tokenize, prepare, search, safeUrl } from '../../assets/js/search-core.mjs';

const posts = loadPosts();
const built = existsSync(join(SITE, 'search.json'));
const FIXTURE = [
  { type: 'dataset', title: 'Puma processes and threads', url: '/datasets/p/', summary: 'Time for 1500 requests', topic: 'app-server', topic_label: 'Application servers', text: 'ten processes six threads' },
  { type: 'article', title: 'Application servers', url: '/articles/app-servers/', summary: 'Passenger, Thin, Unicorn and Puma', topic: 'app-server', topic_label: 'Application servers', text: 'processes and threads for Puma' },
  { type: 'article', title: 'Garbage collection', url: '/articles/gc/', summary: 'GC knobs by Gonçalo', topic: 'gc', topic_label: 'Garbage collection', text: 'compaction in Ruby 2.7' },
];

test('tokenize and normalize: case, accents, punctuation', () => {
  assert.equal(normalize('Gonçalo ÉCOLE'), 'goncalo ecole');
  assert.deepEqual(tokenize('Table 5.13: MRI vs. YARV!'), ['table', '5', '13', 'mri', 'vs', 'yarv']);
  assert.deepEqual(tokenize(''), []);
  assert.deepEqual(tokenize(null), []);
});

test('search: every word must match, prefixes count, title beats text', () => {
  const idx = prepare(FIXTURE);
  assert.deepEqual(search(idx, 'puma threads').map((h) => h.item.url), ['/datasets/p/', '/articles/app-servers/']);
  assert.deepEqual(search(idx, 'compac').map((h) => h.item.url), ['/articles/gc/'], 'prefix match');
  assert.deepEqual(search(idx, 'goncalo').map((h) => h.item.url), ['/articles/gc/'], 'accent-insensitive');
  assert.deepEqual(search(idx, 'puma compaction'), [], 'AND semantics');
  assert.deepEqual(search(idx, '   '), []);
  assert.equal(search(idx, 'application').length, 2);
  assert.equal(search(idx, 'application')[0].item.type, 'article', 'title match on the article ranks first');
  assert.equal(search(idx, 'a', { limit: 1 }).length, 1);
});

test('safeUrl only lets site-relative URLs through', () => {
  assert.equal(safeUrl('/articles/x/'), '/articles/x/');
  for (const bad of ['javascript:alert(1)', '//evil.example/', 'https://evil.example/', 42, null]) assert.equal(safeUrl(bad), null);
});

test('the search script builds results without innerHTML and stays small', () => {
  const src = readFileSync(join(ROOT, 'assets/js/search.mjs'), 'utf8');
  const core = readFileSync(join(ROOT, 'assets/js/search-core.mjs'), 'utf8');
  const code = (src + core).replace(/^\s*\/\/.*$/gm, ''); // comments may mention what is avoided
  assert.doesNotMatch(code, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  assert.doesNotMatch(code, /\{\{|\{%/, 'no Liquid inside JavaScript');
  const gz = gzipSync(src + core).length;
  assert.ok(gz < 4096, `search JS is ${gz} bytes gzip; keep it under 4 KB`);
});

test('search.json lists every article and every dataset page with escaped, complete fields', () => {
  assert.ok(built, 'the site is not built: run scripts/build first (scripts/test does)');
  const index = JSON.parse(readFileSync(join(SITE, 'search.json'), 'utf8'));
  assert.equal(index.version, 1);
  const articles = index.items.filter((i) => i.type === 'article');
  const sets = index.items.filter((i) => i.type === 'dataset');
  assert.deepEqual(articles.map((a) => a.url).sort(), posts.map((p) => p.data.permalink).sort(), 'one index entry per post');
  for (const p of posts) {
    const a = articles.find((x) => x.url === p.data.permalink);
    assert.equal(a.title, p.data.title);
    assert.equal(a.summary, p.data.description);
    assert.equal(a.topic, p.data.topic);
    assert.ok(a.text.length > 200 && !/<[a-z]/i.test(a.text), `${p.file}: index text must be a plain-text excerpt`);
  }
  const pages = new Set(sets.map((s) => s.url));
  assert.equal(pages.size, sets.length, 'no duplicate dataset entries');
  for (const s of sets) {
    assert.match(s.url, /^\/(?:.*\/)?datasets\/[a-z0-9-]+\/$/);
    assert.ok(existsSync(join(SITE, s.url.replace(/^.*?\/datasets\//, 'datasets/'), 'index.html')), `${s.url} has no page`);
    for (const k of ['title', 'summary', 'topic']) assert.ok(typeof s[k] === 'string' && s[k].length > 0, `${s.url}: ${k} missing`);
  }
  const listed = new Set((readFileSync(join(SITE, 'datasets/index.html'), 'utf8').match(/href="[^"]*\/datasets\/[a-z0-9-]+\/"/g) || [])
    .map((h) => h.slice(6, -1)));
  for (const url of listed) assert.ok(pages.has(url), `${url} is listed on /datasets/ but missing from search.json`);
  const ids = readdirSync(join(ROOT, '_data/datasets')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  for (const id of ids) assert.ok([...pages].some((u) => u.endsWith(`/datasets/${id}/`)), `dataset ${id} is missing from search.json`);
});

test('the real index answers real questions', () => {
  assert.ok(built, 'the site is not built: run scripts/build first (scripts/test does)');
  const index = prepare(JSON.parse(readFileSync(join(SITE, 'search.json'), 'utf8')).items);
  const top = (q, n = 3) => search(index, q).slice(0, n).map((h) => h.item.url);
  assert.ok(top('puma workers threads').some((u) => u.endsWith('/articles/app-servers/')), 'app servers article for "puma workers threads"');
  assert.ok(top('tcp_tw_recycle').some((u) => u.endsWith('/articles/kernel-network-tuning/')), 'kernel article for a sysctl name');
  assert.ok(top('yjit').some((u) => u.endsWith('/articles/jit-compilers/')), 'JIT article for "yjit"');
  assert.deepEqual(search(index, 'zzzzqqq'), []);
});

test('without JavaScript the search page lists every article and dataset', () => {
  assert.ok(built, 'the site is not built: run scripts/build first (scripts/test does)');
  const html = readFileSync(join(SITE, 'search/index.html'), 'utf8');
  for (const p of posts) assert.ok(html.includes(`${p.data.permalink}"`), `search page lacks a link to ${p.data.permalink}`);
  const index = JSON.parse(readFileSync(join(SITE, 'search.json'), 'utf8'));
  for (const s of index.items.filter((i) => i.type === 'dataset')) assert.ok(html.includes(`href="${s.url}"`), `search page lacks ${s.url}`);
  assert.match(html, /<label for="search-q">/);
  assert.match(html, /<form[^>]*role="search"[^>]*method="get"/);
  assert.match(html, /<script type="module" src="[^"]*\/assets\/js\/search\.mjs"><\/script>/);
  assert.doesNotMatch(html, /<script(?![^>]*\b(?:src=|type=\"application\/ld\+json\"))[^>]*>/, 'no inline scripts');
  assert.doesNotMatch(html, /search\.json"\s*as=|rel="preload"[^>]*search/, 'the index is not preloaded');
});

const chromium = existsSync('/usr/bin/chromium');
test('in Chromium: index loads on demand, keyboard works, results are escaped', { timeout: 120000 }, async () => {
  assert.ok(chromium, '/usr/bin/chromium is missing: scripts/setup installs Debian\'s chromium');
  assert.ok(built, 'the site is not built: run scripts/build first (scripts/test does)');
  const { startStaticServer } = await import('../helpers/static-server.mjs');
  const { launchBrowser } = await import('../helpers/browser.mjs');
  const server = await startStaticServer(SITE, { maxLifetimeMs: 110000 });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      // Chromium fetches /favicon.ico on its own; a missing favicon is not a search-page error.
      if (m.type() === 'error' && !/favicon\.ico$/.test(m.location()?.url || '')) errors.push(`${m.text()} ${m.location()?.url || ''}`);
    });
    const requested = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(`${server.url}/search/`, { waitUntil: 'load' });
    await page.waitForTimeout(300);
    assert.ok(!requested.some((u) => u.endsWith('/search.json')), 'search.json must not load before the box is used');
    assert.equal(await page.isVisible('#search-help'), true, 'the keyboard hint shows when JavaScript runs');

    await page.focus('#search-q');
    await page.waitForResponse((r) => r.url().endsWith('/search.json'));
    await page.keyboard.type('puma threads');
    await page.waitForSelector('#search-results li a');
    assert.equal(await page.isVisible('#search-all'), false, 'the full list hides while results show');
    assert.match(await page.textContent('#search-status'), /result/);
    await page.keyboard.press('ArrowDown');
    const first = await page.evaluate(() => document.activeElement?.closest('#search-results') !== null && document.activeElement.tagName);
    assert.equal(first, 'A', 'ArrowDown moves focus to the first result link');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'search-q', 'ArrowUp from the first result returns to the box');
    await page.keyboard.press('Escape');
    assert.equal(await page.inputValue('#search-q'), '');
    assert.equal(await page.isVisible('#search-all'), true, 'clearing the box shows the full list again');

    const hostile = '<img src=x onerror="window.__pwned=1">';
    await page.fill('#search-q', hostile);
    await page.waitForFunction(() => document.getElementById('search-status').textContent.length > 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator('#search-status img, #search-results img').count(), 0);
    assert.ok((await page.textContent('#search-status')).includes(hostile), 'the query is shown as text');

    await page.goto(`${server.url}/search/?q=yjit`, { waitUntil: 'load' });
    await page.waitForSelector('#search-results li a');
    assert.ok(await page.locator('#search-results a[href$="/articles/jit-compilers/"]').count() > 0, '?q= runs a search on load');
    assert.deepEqual(errors, []);
    await page.close();

  } finally {
    await browser.close();
    await server.close();
  }
});
