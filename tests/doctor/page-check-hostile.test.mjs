// The page's checker on hostile pasted input (200 KB each: unclosed ${ and <%, deep nesting, many ERB tags and keys,
// control bytes, huge lines): the check runs in its Web Worker, the page keeps answering (timer ticks never stall),
// every file gets a report or a named problem, and a check that passes its deadline is stopped with a message naming
// the file. Needs the built site (scripts/build).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openGuide, openWatchedPage } from '../wizard/page-helpers.mjs';
import { hostileInputs } from './hostile-inputs.mjs';

let server;
let browser;
let page;
let problems;

before(async () => {
  ({ server, browser, page, problems } = await openWatchedPage());
  await openGuide(page, server.url);
  await page.click('#guide-check-open');
  await page.waitForSelector('html[data-guide-check="ready"]', { timeout: 20000 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// Each hostile text under the name of the reader it attacks.
const CASES = [
  ['unclosed ${', 'nginx.conf'], ['unclosed <%', 'config/database.yml'], ['many ERB tags', 'config/database.yml'], ['many keys', 'config/database.yml'],
  ['nested YAML maps', 'config/database.yml'], ['one line of -', 'config/database.yml'], ['unclosed (', 'config/puma.rb'], ['nested Ruby blocks', 'config/puma.rb'],
  ['one line of <', 'apache2.conf'], ['spaces between words', 'pgbouncer.ini'], ['one line of spaces then #x', 'app.env'], ['C0/C1 controls', 'nginx.conf'],
];

// Runs the checker from the page, sampling the main thread with a 25 ms timer until the run settles.
async function runSampled(deadlineMs) {
  return page.evaluate(async (ms) => {
    const api = window.__guideCheck;
    if (ms) api.deadlineMs = ms;
    let last = performance.now();
    let worst = 0;
    const tick = setInterval(() => { const now = performance.now(); worst = Math.max(worst, now - last); last = now; }, 25);
    const started = performance.now();
    const report = await api.run();
    clearInterval(tick);
    api.deadlineMs = 10000;
    return { worst, took: performance.now() - started, report: report && { problems: report.problems, files: report.files.length }, status: document.querySelector('#guide-check .guide-status[role="status"]').textContent };
  }, deadlineMs);
}

test('200 KB hostile inputs: the page stays responsive and every file is accounted for', async (t) => {
  const inputs = hostileInputs(200 * 1024);
  await page.evaluate((files) => { for (const [path, text] of files) window.__guideCheck.addText(path, text); },
    CASES.map(([name, path], k) => [`${k}/${path}`, inputs.find((x) => x.name === name).text]));
  assert.equal(await page.locator('.guide-check-inputs li').count(), CASES.length);
  // The deadline is the next test's subject: here it is set far off, so that a slow shared machine cannot turn this
  // test about responsiveness into one about speed.
  const r = await runSampled(120000);
  t.diagnostic(`check ${Math.round(r.took)} ms, worst main-thread gap ${Math.round(r.worst)} ms`);
  assert.ok(r.report, r.status);
  assert.equal(r.report.files, CASES.length);
  assert.ok(r.worst < 1000, `the main thread answered at least once a second (worst gap ${Math.round(r.worst)} ms, run ${Math.round(r.took)} ms)`);
  assert.match(r.status, /^Checked 12 file\(s\)/);
  const codes = r.report.problems.map((p) => `${p.file} ${p.code}`);
  for (const want of [/^0\/nginx\.conf nginx-syntax/, /^1\/config\/database\.yml erb-syntax/, /^4\/config\/database\.yml yaml-depth/, /^5\/config\/database\.yml yaml-depth/]) {
    assert.ok(codes.some((c) => want.test(c)), `${want} in\n${codes.join('\n')}`);
  }
  assert.ok(!r.report.problems.some((p) => /Maximum call stack/.test(p.message)));
  assert.deepEqual(problems.errors, []);
});

test('a check past its deadline is stopped, the file being read is named, and the next check runs', async () => {
  // Two files of 1,000 KB of ERB tags: reading them takes well over the 300 ms deadline set here.
  const big = hostileInputs(1000 * 1024).find((x) => x.name === 'many ERB tags').text;
  await page.click('#guide-check-clear');
  await page.evaluate((text) => { window.__guideCheck.addText('big/database.yml', text); window.__guideCheck.addText('big2/database.yml', text); }, big);
  const r = await runSampled(300);
  assert.equal(r.report, null);
  assert.match(r.status, /stopped after 0\.3 s, the time limit for one check, while reading big\/database\.yml/);
  assert.ok(r.took < 3000, `stopped promptly (${Math.round(r.took)} ms)`);
  assert.ok(r.worst < 1000, `responsive meanwhile (${Math.round(r.worst)} ms)`);
  // A fresh worker answers the next check.
  await page.click('#guide-check-clear');
  await page.evaluate(() => window.__guideCheck.addText('config/puma.rb', 'workers 2\nthreads 3, 3\n'));
  const again = await runSampled();
  assert.ok(again.report, again.status);
  assert.match(again.status, /^Checked 1 file\(s\)/);
});
