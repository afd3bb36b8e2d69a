// Fuzz: 1,200 hostile URL parameter sets through the page's real parse + render path
// (window.__guide.applyQuery, the function the page runs on load) and 60 of them as real
// navigations. Asserts that no script runs (a window.__pwned sentinel, dialogs), no prototype
// is polluted, nothing is injected into the DOM, no uncaught error happens, the generator never
// fails, and a visible note appears exactly when the engine ignored something.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as engine from '../../guide/engine/index.mjs';
import { openGuide, openWatchedPage, watch } from './page-helpers.mjs';
import { inOrder } from '../helpers/pool.mjs';

const IN_PAGE = 1200;
const NAVIGATIONS = 60;

// Deterministic PRNG (mulberry32) so a failure can be replayed.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PAYLOADS = [
  '<script>window.__pwned=1</script>', '"><img src=x onerror="window.__pwned=1">', "'><svg onload=window.__pwned=1>",
  'javascript:window.__pwned=1', 'javascript:alert(1)', 'JaVaScRiPt:alert(document.domain)', 'data:text/html,<script>alert(1)</script>',
  '</code></pre><script>alert(1)</script>', '<iframe src="javascript:alert(1)">', '<a href="javascript:alert(1)">x</a>',
  '{{7*7}}', '${7*7}', '<%= 7*7 %>', "';alert(1);//", '";alert(1);//', '`${alert(1)}`', '\\u003cscript\\u003e',
  '%3Cscript%3Ewindow.__pwned=1%3C/script%3E', '&lt;script&gt;', '<style>*{display:none}</style>', 'style="display:none"',
  'unicorn\r\nSet-Cookie: x=1', '3.3\n# injected', '3.3 */ injected', '\u0000', '\ud800', '\udfff', '\u202eorp', '\u200b',
  '😀'.repeat(40), 'ﬁ', 'İ', 'ǅ', '３.３', '٣.٣', '1e309', '-1', '0', 'NaN', 'Infinity', '-Infinity', '0x10', '1_000', '1.5e3',
  '9'.repeat(400), '3.3.3.3.3', '.3', '3.', '..', '../../etc/passwd', '/etc/passwd', '\\\\server\\share', '__proto__',
  'constructor', '[object Object]', 'toString', 'true', 'false', 'on', 'yes', 'TRUE', '', ' ', '  puma  ',
];
const HOSTILE_KEYS = [
  '__proto__', 'constructor', 'prototype', '__proto__[polluted]', 'constructor[prototype][polluted]', 'constructor.prototype.polluted',
  '__defineGetter__', 'hasOwnProperty', 'toString', 'valueOf', '<script>window.__pwned=1</script>', '"><img src=x onerror=window.__pwned=1>',
  'javascript:alert(1)', '\u202eserver', 'ser\u200bver', 'Server', 'SERVER', ' server', 'server ', 'server[]', 'server.x', '', 'q-server',
  'guide-app', 'id', 'class', 'onload', 'style', '😀', '\u0000', 'x'.repeat(3000), 'polluted',
];

function valid(q, r) {
  if (q.type === 'enum') return q.options[Math.floor(r() * q.options.length)].value;
  if (q.type === 'boolean') return r() < 0.5 ? 'true' : 'false';
  if (q.type === 'integer') return String(q.min + Math.floor(r() * Math.min(64, q.max - q.min + 1)));
  if (q.type === 'number') return String(q.min + Math.round(r() * 64 * 4) / 4);
  return q.format === 'version' ? ['1.8.7', '2.6.32', '3.3', '7.2.2', '4.19', '15'][Math.floor(r() * 6)] : 'ubuntu-24.04';
}

function encodeURIComponentLoose(s) {
  try {
    return encodeURIComponent(s);
  } catch {
    return s; // lone surrogates cannot be percent-encoded: pass them raw
  }
}

function enc(s, r) {
  // Mostly proper encoding; sometimes raw characters or broken percent-escapes, as hand-edited links have.
  const encodeURIComponent = encodeURIComponentLoose;
  const x = r();
  if (x < 0.7) return encodeURIComponent(s);
  if (x < 0.9) return s.replace(/[&=#]/g, encodeURIComponent);
  return encodeURIComponent(s) + ['%', '%E0%A4%A', '%ZZ', '%00', '%C0%AF'][Math.floor(r() * 5)];
}

export function hostileSearches(n, seed, maxLen) {
  const r = rng(seed);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const out = [];
  for (let i = 0; i < n; i++) {
    const parts = [];
    const count = 1 + Math.floor(r() * 8);
    for (let j = 0; j < count; j++) {
      const q = pick(engine.QUESTIONS);
      const roll = r();
      let key;
      let value;
      if (roll < 0.35) [key, value] = [q.key, pick(PAYLOADS)];
      else if (roll < 0.55) [key, value] = [pick(HOSTILE_KEYS), r() < 0.5 ? pick(PAYLOADS) : valid(q, r)];
      else if (roll < 0.8) [key, value] = [q.key, valid(q, r)];
      else if (roll < 0.9) [key, value] = [q.key, 'x'.repeat(50 + Math.floor(r() * maxLen))];
      else [key, value] = [pick(PAYLOADS), pick(PAYLOADS)];
      parts.push(r() < 0.05 ? enc(key, r) : `${enc(key, r)}=${enc(value, r)}`);
    }
    if (r() < 0.1) parts.push(pick(['&&&', '=', '==', '?', '#x', '&=&', ';']));
    out.push('?' + parts.join('&'));
  }
  return out;
}

/** What the page must show for a search string, from the engine itself (run in Node). */
function expectation(search) {
  const { answers, notes } = engine.fromQuery(search);
  return { answers, notes: notes.length };
}

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

// Runs in the page: apply each search, then check the sentinel, prototypes, DOM and notes.
function checkInPage(cases) {
  const failures = [];
  const proto = () => Object.prototype.polluted !== undefined || ({}).polluted !== undefined || Array.prototype.polluted !== undefined
    || typeof Object.prototype.__defineGetter__ !== 'function';
  const scripts = document.scripts.length;
  const bad0 = [];
  cases.forEach(({ search, notes, answers }, i) => {
    try {
      const r = window.__guide.applyQuery(search);
      if (typeof r.ms !== 'number') bad0.push('the render was deferred although every generator is loaded');
      const shown = document.getElementById('guide-url-notes');
      const items = document.querySelectorAll('#guide-url-notes-list > li').length;
      const bad = bad0.splice(0);
      if (window.__pwned !== undefined) bad.push('sentinel set');
      if (proto()) bad.push('prototype polluted');
      if (document.scripts.length !== scripts) bad.push('script element added');
      if (document.querySelector('#guide img, #guide iframe, #guide object, #guide embed, #guide script, #guide style, #guide [style], #guide a[href^="javascript:" i], #guide a[href^="data:" i]')) bad.push('markup injected');
      if (!document.getElementById('guide-error').hidden) bad.push('generator failed: ' + document.getElementById('guide-error').textContent);
      if (shown.hidden !== (notes === 0)) bad.push(`note visible=${!shown.hidden}, expected ${notes > 0}`);
      if (items !== notes) bad.push(`${items} notes shown, engine gave ${notes}`);
      if (r.notes.length !== notes) bad.push('page parse differs from the engine');
      for (const [k, v] of Object.entries(answers)) {
        const el = document.getElementById('q-' + k);
        const val = el.type === 'checkbox' ? el.checked : el.value;
        if (String(val) !== String(v)) bad.push(`form ${k}=${val}, expected ${v}`);
      }
      if (i % 50 === 0) {
        for (const el of document.querySelectorAll('#guide *')) {
          for (const a of el.attributes) if (/^on/i.test(a.name)) bad.push(`event attribute ${a.name}`);
        }
      }
      if (bad.length) failures.push({ search: search.slice(0, 300), bad });
    } catch (err) {
      failures.push({ search: search.slice(0, 300), bad: ['threw: ' + (err && err.message)] });
    }
  });
  return failures;
}

test(`${IN_PAGE} hostile parameter sets through the page's parse and render`, async () => {
  await openGuide(page, server.url);
  // Optional generators are chunks (guide/ui/generators.mjs): fetch them all so that every render below is synchronous.
  await page.evaluate(() => window.__guide.loadGenerators());
  const searches = hostileSearches(IN_PAGE, 20261122, 100000);
  let withNotes = 0;
  const failures = [];
  for (let i = 0; i < searches.length; i += 100) {
    const batch = searches.slice(i, i + 100).map((search) => ({ search, ...expectation(search) }));
    withNotes += batch.filter((c) => c.notes > 0).length;
    failures.push(...(await page.evaluate(checkInPage, batch)));
  }
  assert.deepEqual(failures.slice(0, 5), [], `${failures.length} failing cases`);
  assert.ok(withNotes > IN_PAGE / 2, `most sets are hostile (${withNotes} produced notes)`);
  assert.ok(withNotes < IN_PAGE, 'some sets are clean');
  assert.deepEqual(problems.errors, [], 'uncaught page errors');
  assert.deepEqual(problems.dialogs, [], 'dialogs opened');
  assert.deepEqual(problems.csp, [], 'CSP violations');
});

// The links open in two pages of the same browser at once (CI has 2 cores); both pages are watched.
test(`${NAVIGATIONS} hostile links opened for real`, async () => {
  const searches = hostileSearches(NAVIGATIONS, 42, 3000).map((s) => s.toWellFormed());
  const second = await browser.context.newPage();
  const secondProblems = watch(second);
  try {
    await inOrder(searches, 2, async (search, w) => {
      const tab = w === 0 ? page : second;
      await openGuide(tab, server.url, search);
      // What the browser actually delivered (it percent-encodes raw characters) is what the engine sees.
      const delivered = await tab.evaluate(() => window.__guide && document.getElementById('guide-url-notes-list').children.length);
      const state = await tab.evaluate(() => ({
        pwned: window.__pwned,
        hidden: document.getElementById('guide-url-notes').hidden,
        error: document.getElementById('guide-error').hidden,
        injected: document.querySelectorAll('#guide img, #guide iframe, #guide script, #guide [style], #guide a[href^="javascript:" i]').length,
      }));
      assert.equal(state.pwned, undefined, search);
      assert.equal(state.injected, 0, search);
      assert.equal(state.error, true, `generator error for ${search.slice(0, 200)}`);
      assert.equal(state.hidden, delivered === 0, `note visibility for ${search.slice(0, 200)}`);
      const url = new URL(tab.url());
      const expected = expectation(search).notes;
      // Raw characters may be re-encoded by the browser, but the verdict (ignored or not) stays.
      assert.equal(delivered > 0, expected > 0, `a note is shown exactly when something was ignored: ${search.slice(0, 200)} (${url.search.slice(0, 100)})`);
    });
  } finally {
    await second.close();
  }
  assert.deepEqual([...problems.errors, ...secondProblems.errors], [], 'uncaught page errors');
  assert.deepEqual([...problems.dialogs, ...secondProblems.dialogs], [], 'dialogs opened');
  assert.deepEqual([...problems.csp, ...secondProblems.csp], [], 'CSP violations');
});
