// Helpers for the wizard page tests and scripts/bench-guide.mjs, on top of the shared
// tests/helpers (static server for _site, Debian Chromium). Not a test file itself.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startStaticServer } from '../helpers/static-server.mjs';
import { launchBrowser as launch } from '../helpers/browser.mjs';

export const ROOT = new URL('../../', import.meta.url).pathname;
// GUIDE_SITE points the tests at another build of the site (development); CI uses _site.
export const SITE = process.env.GUIDE_SITE || join(ROOT, '_site');

export async function serveSite() {
  if (!existsSync(join(SITE, 'guide/index.html')) || !existsSync(join(SITE, 'assets/generated/guide.js'))) {
    throw new Error('_site has no wizard page or no assets/generated/guide.js: run scripts/build first');
  }
  return startStaticServer(SITE);
}

/** A fresh Chromium profile; resolves {context, page, close}. */
export async function launchBrowser(options = {}) {
  const b = await launch({ acceptDownloads: true, ...options });
  const page = b.context.pages()[0] || (await b.context.newPage());
  return { context: b.context, page, close: b.close };
}

/**
 * Watches a page for trouble: uncaught errors, dialogs (alert/confirm/prompt are dismissed and
 * recorded) and CSP violations reported on the console.
 */
export function watch(page) {
  const problems = { errors: [], dialogs: [], csp: [], console: [] };
  page.on('pageerror', (e) => problems.errors.push(String(e && e.message)));
  page.on('dialog', (d) => {
    problems.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  page.on('console', (m) => {
    const t = m.text();
    if (/Content Security Policy/i.test(t)) problems.csp.push(t);
    else if (m.type() === 'error') problems.console.push(t);
  });
  return problems;
}

/**
 * What most page tests start with: _site served, a fresh Chromium and its page watched for trouble.
 * Resolves {server, browser, page, problems, close()}; close() stops the browser, then the server.
 */
export async function openWatchedPage(options = {}) {
  const server = await serveSite();
  const browser = await launchBrowser(options).catch(async (e) => { await server.close(); throw e; });
  const page = browser.page;
  return {
    server, browser, page, problems: watch(page),
    async close() { await browser.close(); await server.close(); },
  };
}

export async function openGuide(page, base, search = '') {
  await page.goto(`${base}/guide/${search}`, { waitUntil: 'load' });
  await page.waitForSelector('html[data-guide="ready"]', { timeout: 20000 });
  await picturesDrawn(page);
  // The highlighter is a chunk fetched after the first render (guide/ui/main.mjs).
  await page.waitForSelector('html[data-guide-highlight="ready"]', { timeout: 20000 });
}

// The pictures are their own chunk (guide/ui/main.mjs): wait until they show the current answers. Answers that
// need a generator the page has not fetched yet render when it arrives, and draw their pictures then, so this
// also waits for that render.
export async function picturesDrawn(page) {
  await page.waitForFunction(() => document.documentElement.getAttribute('data-guide-pictures') === window.__guide.permalink, null, { timeout: 20000 });
}
