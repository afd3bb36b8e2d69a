// The wizard page under attack, in Chromium (issue 26): a shared link that names /etc and root, and a page of
// the same origin that poisons the offline cache (what an .html in raw-output/ once did: it wrote its own
// /guide/ into the service worker's cache, which then served it offline).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SITE, openGuide, openWatchedPage } from './page-helpers.mjs';

let server;
let browser;
let page;
let problems;

before(async () => {
  ({ server, browser, page, problems } = await openWatchedPage());
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// The page's HTML once a navigation (here usually Chromium's offline error page) has settled.
async function settledContent() {
  for (let i = 0; i < 50; i++) {
    try { return await page.content(); } catch { await new Promise((r) => setTimeout(r, 100)); }
  }
  return page.content();
}

const fileText = (path) => page.$eval(`.guide-file[data-path="${path}"]`, (el) => el._content);

test('a link with app_root=/etc&deploy_user=root: the page shows why each was refused and the allowed forms; the files use neither', async () => {
  await openGuide(page, server.url, '?app_root=/etc&deploy_user=root&cores=4');
  assert.equal(await page.isVisible('#guide-url-notes'), true);
  const notes = await page.textContent('#guide-url-notes-list');
  assert.match(notes, /Application directory \(app_root\): not allowed, the value is not below one of the documented roots.*Allowed: a directory of the app's own below \/srv, \/var\/www, \/opt or \/home\/USER/);
  assert.match(notes, /Service user \(deploy_user\): not allowed, the value is a system or service account.*Allowed: an unprivileged user/);
  const answers = await page.evaluate(() => window.__guide.answers);
  assert.equal(answers.app_root, '/var/www/app');
  assert.equal(answers.deploy_user, 'deploy');
  assert.equal(answers.cores, 4, 'the valid part of the link is kept');
  const unit = await fileText('etc/systemd/system/rails-app.service');
  assert.match(unit, /^User=deploy$/m);
  assert.doesNotMatch(unit, /User=root|\/etc\/config/);
  const readme = await fileText('README.md');
  assert.doesNotMatch(readme, /install -d -o \S+ -g \S+ \/etc\b/);
  await openGuide(page, server.url, '?app_root=/srv/my..app');
  assert.match(await page.textContent('#guide-url-notes-list'), /Application directory \(app_root\): not allowed, the value contains "\.\."/);
  assert.deepEqual(problems.errors, []);
});

test('offline cache: a same-origin script\'s /guide/ entry is never served, and raw output is never cached', async () => {
  await openGuide(page, server.url);
  await page.waitForSelector('html[data-guide-offline]', { timeout: 20000 });
  assert.equal(await page.getAttribute('html', 'data-guide-offline'), 'ready');
  const rawFile = (() => {
    const dir = join(SITE, 'raw-output');
    const id = readdirSync(dir)[0];
    return `/raw-output/${id}/${readdirSync(join(dir, id)).find((f) => f.endsWith('.txt'))}`;
  })();
  const result = await page.evaluate(async (raw) => {
    // The page is controlled by the worker: its fetch of raw output must not land in the cache.
    await fetch(raw);
    const cache = await caches.open('scaling-rails-guide-v1');
    const rawCached = Boolean(await cache.match(raw));
    // The attack: a made-up page, and a real response from another path, stored as the wizard's page.
    await cache.put('/guide/', new Response('<p id="pwned">pwned</p>', { headers: { 'content-type': 'text/html' } }));
    await cache.put('/guide/?from=raw', await fetch(raw));
    return { rawCached };
  }, rawFile);
  assert.equal(result.rawCached, false, 'raw output is not cached by the worker');
  const rawLine = readFileSync(join(SITE, rawFile), 'utf8').split('\n').find((l) => l.trim().length > 8).trim();
  await browser.context.setOffline(true);
  try {
    for (const search of ['', '?from=raw']) {
      await page.goto(`${server.url}/guide/${search}`, { waitUntil: 'load' }).catch(() => {});
      const html = await settledContent();
      assert.doesNotMatch(html, /pwned/, `offline /guide/${search}: the planted page is not served`);
      assert.ok(!html.includes(rawLine), `offline /guide/${search}: raw output is not served as the page`);
    }
  } finally {
    await browser.context.setOffline(false);
  }
});
