// "Check my configuration" on the wizard page, in Chromium: the checker loads only on demand (the
// page's first-load JavaScript stays within budget), a pasted file and dropped files are checked in
// the browser with no request carrying their text, findings show evidence links and diffs, and
// "Fill in these answers" updates the form. Needs the built site (scripts/build).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { openGuide, openWatchedPage } from '../wizard/page-helpers.mjs';
import { FIXTURES } from './helpers.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let server;
let browser;
let page;
let problems;
const requests = [];

before(async () => {
  ({ server, browser, page, problems } = await openWatchedPage());
  page.on('request', (r) => requests.push({ url: r.url(), method: r.method(), body: r.postData() || '' }));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const PUMA = `max_threads_count = ENV.fetch("RAILS_MAX_THREADS") { 5 }
threads max_threads_count, max_threads_count
workers 4
port ENV.fetch("PORT") { 3000 }
on_worker_boot do
  ActiveRecord::Base.establish_connection
end
`;

test('the checker is not loaded before the first click', async () => {
  await openGuide(page, server.url);
  assert.ok(!requests.some((r) => /guide-check\.js/.test(r.url)), 'guide-check.js not requested on load');
  await page.click('#guide-check-open');
  await page.waitForSelector('html[data-guide-check="ready"]', { timeout: 20000 });
  assert.ok(requests.some((r) => /guide-check\.js/.test(r.url)), 'loaded on demand');
  assert.match(await page.textContent('#guide-check'), /never uploaded/);
});

test('paste a puma.rb and drop a database.yml and a Gemfile.lock: findings with evidence and diffs', async () => {
  const before = requests.length;
  await page.fill('#guide-check-name', 'config/puma.rb');
  await page.fill('#guide-check-paste', PUMA);
  await page.click('#guide-check-add');
  // Dropping files: a DataTransfer built in the page, as a drag from the desktop delivers it.
  const yml = readFileSync(join(FIXTURES, 'rails-7.0', 'config', 'database.yml'), 'utf8').replace('<%= ENV.fetch("RAILS_MAX_THREADS") { 5 } %>', '2');
  const lock = 'GEM\n  remote: https://rubygems.org/\n  specs:\n    puma (7.1.0)\n    rails (8.1.1)\n\nRUBY VERSION\n   ruby 3.4.1p0\n\nBUNDLED WITH\n   2.6.2\n';
  const dt = await page.evaluateHandle(([a, b]) => {
    const d = new DataTransfer();
    d.items.add(new File([a], 'database.yml', { type: 'text/yaml' }));
    d.items.add(new File([b], 'Gemfile.lock', { type: 'text/plain' }));
    return d;
  }, [yml, lock]);
  await page.dispatchEvent('#guide-check-drop', 'drop', { dataTransfer: dt });
  await page.waitForFunction(() => document.querySelectorAll('.guide-check-inputs li').length === 3);
  await page.click('#guide-check-run');
  await page.waitForSelector('.guide-check-findings');
  const report = await page.evaluate(() => window.__guideCheckReport);
  assert.equal(report.answers.server_version, '7.1.0');
  assert.equal(report.answers.rails, '8.1.1');
  assert.equal(report.answers.ruby_version, '3.4.1');
  assert.equal(report.detected.server_version.file, 'Gemfile.lock');
  const rules = report.findings.map((f) => `${f.severity} ${f.rule} ${f.setting}`);
  assert.ok(rules.includes('note obsolete on_worker_boot'), rules.join('\n'));
  assert.ok(rules.includes('error pool-below-threads pool'), rules.join('\n'));
  // Shown on the page: severity, file:line, evidence links, a diff.
  const items = page.locator('.guide-check-findings > li');
  assert.ok(await items.count() >= 2);
  const text = await page.textContent('.guide-check-findings');
  assert.match(text, /database\.yml:\d+/);
  assert.ok(await page.locator('.guide-check-findings a[href^="https://"]').count() > 0, 'evidence links');
  assert.ok(await page.locator('.guide-check-findings details pre').count() > 0, 'suggested diffs');
  // Each compared setting links to the generated file the page shows.
  const href = await page.getAttribute('.guide-check-findings a[href^="#guide-file-"]', 'href');
  assert.ok(await page.locator(href).count() === 1, `${href} exists on the page`);
  // Nothing left the browser: no request after the checker loaded carries the files' text.
  assert.ok(!requests.slice(before).some((r) => r.method !== 'GET' || /RAILS_MAX_THREADS|establish_connection/.test(r.url + r.body)));
});

test('the checker and its report pass axe (WCAG 2.1 AA), light and dark', async () => {
  await page.evaluate(AXE);
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const violations = await page.evaluate(async () => {
      const r = await window.axe.run(document.querySelector('.guide-check'), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
      return r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    });
    assert.deepEqual(violations, [], scheme);
  }
  await page.emulateMedia({ colorScheme: 'light' });
});

test('"Fill in these answers" updates the form and the URL', async () => {
  await page.click('#guide-check-apply');
  await page.waitForFunction(() => document.querySelector('#q-rails') && document.querySelector('#q-rails').value === '8.1.1');
  assert.equal(await page.inputValue('#q-server_version'), '7.1.0');
  await page.waitForFunction(() => location.search.includes('rails=8.1.1'));
  assert.deepEqual(problems.errors, []);
  assert.deepEqual(problems.csp, []);
});

test('a binary file dropped on the page is reported, not read', async () => {
  const dt = await page.evaluateHandle(() => {
    const d = new DataTransfer();
    d.items.add(new File([new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2])], 'puma.rb'));
    return d;
  });
  await page.click('#guide-check-clear');
  await page.dispatchEvent('#guide-check-drop', 'drop', { dataTransfer: dt });
  await page.click('#guide-check-run');
  await page.waitForSelector('.guide-check-problems');
  assert.match(await page.textContent('.guide-check-problems'), /binary file/);
});
