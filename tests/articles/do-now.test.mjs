// The "Do this in 2026" box: every article's front matter has `do_now` with three to six actions,
// each linked to its evidence; the box is rendered by _layouts/article.html right after the title
// block, in front-matter order, with the action as Markdown and the evidence text and link escaped.
// Site paths must exist in the built site; external evidence must be https. At least one action per
// article links a dataset page (evidence from the site's own data is preferred).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { ROOT, SITE, loadPosts } from './lib.mjs';

const config = yaml.load(readFileSync(join(ROOT, '_config.yml'), 'utf8'), { schema: yaml.CORE_SCHEMA });
const BASE = (config.baseurl || '').replace(/\/$/, '');
const posts = loadPosts();
const built = existsSync(join(SITE, 'index.html'));

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const text = (html) => html.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, ' ').trim();

/** The built file a site path points at (directory → index.html), or null. */
export function siteFile(path) {
  const clean = path.replace(/[?#].*$/, '');
  const file = clean.endsWith('/') ? join(SITE, clean, 'index.html') : join(SITE, clean);
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

/** Problems with one post's do_now list (front matter only). */
export function doNowProblems(items) {
  const out = [];
  if (!Array.isArray(items)) return ['add a do_now list of 3 to 6 {action, evidence, href} items'];
  if (items.length < 3 || items.length > 6) out.push(`do_now has ${items.length} items; use 3 to 6`);
  items.forEach((it, i) => {
    const where = `do_now[${i}]`;
    for (const k of ['action', 'evidence', 'href']) if (typeof it?.[k] !== 'string' || !it[k].trim()) out.push(`${where}.${k} is missing`);
    if (typeof it?.href !== 'string') return;
    if (/^https:\/\/[^\s"<>]+$/.test(it.href)) {
      try { new URL(it.href); } catch { out.push(`${where}.href is not a URL: ${it.href}`); }
    } else if (!it.href.startsWith('/')) out.push(`${where}.href must be https://… or a site path: ${it.href}`);
  });
  if (!items.some((it) => typeof it?.href === 'string' && it.href.startsWith('/datasets/'))) out.push('link at least one action to a dataset page (/datasets/ID/)');
  return out;
}

test('every article has a "Do this in 2026" list of 3 to 6 linked actions', () => {
  assert.ok(posts.length >= 13);
  const bad = posts.flatMap((p) => doNowProblems(p.data.do_now).map((m) => `${p.file}: ${m}`));
  assert.deepEqual(bad, []);
});

test('the do_now check rejects short lists, bad links and boxes without data', () => {
  const ok = { action: 'Upgrade Ruby.', evidence: 'Dataset', href: '/datasets/x/' };
  assert.deepEqual(doNowProblems([ok, ok, ok]), []);
  assert.match(doNowProblems([ok, ok]).join(), /2 items/);
  assert.match(doNowProblems([ok, ok, { ...ok, href: 'javascript:alert(1)' }]).join(), /must be https/);
  assert.match(doNowProblems([ok, ok, { ...ok, href: 'http://example.com/' }]).join(), /must be https/);
  const ext = { ...ok, href: 'https://example.com/' };
  assert.match(doNowProblems([ext, ext, ext]).join(), /dataset page/);
  assert.match(doNowProblems(undefined).join(), /add a do_now list/);
});

for (const p of posts) {
  test(`${p.file}: the built page shows the box after the title, with resolving links`, () => {
    assert.ok(built, 'the site is not built: run scripts/build first (scripts/test does)');
    const file = siteFile(p.data.permalink);
    assert.ok(file, `${p.file}: built page missing`);
    const html = readFileSync(file, 'utf8');
    const start = html.indexOf('<aside class="do-now"');
    assert.ok(start > 0, `${p.file}: no <aside class="do-now"> in the built page (front matter do_now?)`);
    const h1 = html.indexOf('<h1');
    assert.ok(h1 > 0 && h1 < start, `${p.file}: the box must follow the title`);
    const between = html.slice(html.indexOf('</h1>', h1), start);
    assert.doesNotMatch(between, /<h2|<figure|<section|class="prose/, `${p.file}: nothing but the title block may come before the box`);
    const nav = html.indexOf('class="series-nav"', h1);
    if (nav > 0) assert.ok(start < nav, `${p.file}: the box comes before the series navigation`);
    const box = html.slice(start, html.indexOf('</aside>', start));
    assert.match(box, /<h2 id="do-now-heading">Do this in 2026<\/h2>/);
    const lis = [...box.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]);
    assert.equal(lis.length, p.data.do_now.length, `${p.file}: one list item per do_now entry`);
    p.data.do_now.forEach((it, i) => {
      const li = lis[i];
      const href = it.href.startsWith('/') ? `${BASE}${it.href}` : it.href;
      assert.ok(li.includes(`Evidence: <a href="${esc(href)}">${esc(it.evidence)}</a>`), `${p.file}: do_now[${i}] evidence link not rendered as escaped text (${li})`);
      const action = li.slice(0, li.indexOf('<span class="do-now-evidence">'));
      assert.doesNotMatch(action, /<p>|\*\*|\]\(/, `${p.file}: do_now[${i}] action Markdown was not rendered`);
      assert.ok(text(action).length >= 10, `${p.file}: do_now[${i}] action is empty on the page`);
      if (it.href.startsWith('/')) assert.ok(siteFile(it.href), `${p.file}: do_now[${i}] links ${it.href}, which is not in ${SITE}`);
    });
  });
}

test('the layout escapes evidence and links and renders the action as Markdown', () => {
  const layout = readFileSync(join(ROOT, '_layouts/article.html'), 'utf8');
  const li = layout.slice(layout.indexOf('<aside class="do-now"'), layout.indexOf('</aside>'));
  assert.match(li, /\{\{ item\.action \| markdownify/);
  assert.match(li, /\{\{ item\.evidence \| escape \}\}/);
  assert.match(li, /href="\{\{ href \| escape \}\}"/);
  assert.doesNotMatch(li, /\{\{ item\.(evidence|href) \}\}/, 'no unescaped output');
});
