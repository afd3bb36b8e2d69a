// Checks on the BUILT articles in _site (scripts/test builds first): each article page exists at its
// permalink, shows the series navigation from _data/series.yml, its charts and errata boxes,
// "What still holds" and a final "What to do" checklist with the wizard link,
// and every internal link, image and script on it resolves to a file in _site.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { ROOT, SITE, loadPosts, loadSeries, chartIncludes, withoutCode } from './lib.mjs';

const config = yaml.load(readFileSync(join(ROOT, '_config.yml'), 'utf8'), { schema: yaml.CORE_SCHEMA });
const BASE = (config.baseurl || '').replace(/\/$/, '');
const posts = loadPosts();
const series = loadSeries();
const built = existsSync(join(SITE, 'index.html'));

function pagePath(url) { return join(SITE, url, 'index.html'); }
function decode(s) { return s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>'); }

/** All URL-bearing attribute values in an HTML page (href, src, srcset candidates). */
export function urlsIn(html) {
  const out = [];
  for (const m of html.matchAll(/\s(href|src|srcset)\s*=\s*"([^"]*)"/g)) {
    if (m[1] === 'srcset') for (const part of m[2].split(',')) out.push(part.trim().split(/\s+/)[0]);
    else out.push(m[2]);
  }
  return out.map(decode).filter(Boolean);
}

/** Resolve an internal URL (site-absolute or relative to pageUrl) to a file in SITE, or null if external. */
export function resolveInternal(url, pageUrl) {
  if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(url)) return null; // https:, mailto:, data:, protocol-relative
  const u = new URL(url, `http://site${BASE}${pageUrl}`);
  let path = decodeURIComponent(u.pathname);
  if (BASE && path.startsWith(BASE)) path = path.slice(BASE.length) || '/';
  let file = join(SITE, path);
  if (path.endsWith('/')) file = join(file, 'index.html');
  return { file, hash: u.hash.slice(1), path };
}

test('the site has been built (run scripts/build or scripts/test first)', () => {
  assert.ok(built, `${SITE}/index.html is missing; build the site before running these tests`);
});

for (const [i, p] of posts.entries()) {
  test(`${p.file}: built page, structure and internal links`, () => {
    assert.ok(built, 'the site is not built: run scripts/build first (scripts/test does)');
    const file = pagePath(p.data.permalink);
    assert.ok(existsSync(file), `${p.file}: expected the built page at ${file}`);
    const html = readFileSync(file, 'utf8');

    // The reader in a hurry gets the "Do this in 2026" box first (tests/articles/do-now.test.mjs);
    // the body follows with what was measured then, "What still holds" and "What to do".

    // Section order: "What still holds" exists; "What to do" is the last section and links the wizard answers.
    const h2 = [...html.matchAll(/<h2[^>]*>([\s\S]*?)<\/h2>/g)].map((m) => m[1].replace(/<[^>]+>/g, '').trim());
    const articleH2 = h2.filter((t) => t !== 'Errata in the source');
    assert.ok(articleH2.includes('What still holds'), `${p.file}: add a "What still holds" section`);
    assert.equal(articleH2.at(-1), 'What to do', `${p.file}: end with a "What to do" section (found: ${articleH2.join(' | ')})`);
    const todo = html.slice(html.lastIndexOf('>What to do</h2>'));
    const wizardHref = `${BASE}/guide/?${p.data.wizard}`.replace(/&/g, '&amp;');
    assert.match(todo, /^>What to do<\/h2>\s*<ul>\s*<li>/, `${p.file}: "What to do" must be a list right under the heading`);
    const list = todo.slice(0, todo.indexOf('</ul>'));
    assert.ok(list.includes(`href="${wizardHref}"`), `${p.file}: the "What to do" list must link ${BASE}/guide/?${p.data.wizard}`);

    // Charts: one figure per include, rendered as pictures with SVGs.
    const includes = chartIncludes(withoutCode(p.body));
    const figures = (html.match(/<figure\b/g) || []).length;
    assert.ok(figures >= includes.length, `${p.file}: ${includes.length} chart includes but ${figures} figures in the page`);
    for (const inc of includes) {
      assert.ok(html.includes(`/assets/generated/charts/${inc.dataset}/${inc.chart}-`), `${p.file}: chart ${inc.dataset}/${inc.chart} is not in the built page`);
    }
    // Errata boxes survive Markdown: kramdown renders the div with its class.
    const divs = (p.body.match(/<div class="errata"/g) || []).length;
    assert.ok((html.match(/class="errata"/g) || []).length >= divs, `${p.file}: an errata box was lost in rendering`);

    // Series navigation from the index: previous and next in series.yml order.
    const idx = series.findIndex((e) => e.slug === p.slug);
    if (idx > 0) assert.ok(html.includes(`rel="prev" href="${BASE}${series[idx - 1].url}"`), `${p.file}: missing link to the previous article ${series[idx - 1].url}`);
    if (idx < series.length - 1) assert.ok(html.includes(`rel="next" href="${BASE}${series[idx + 1].url}"`), `${p.file}: missing link to the next article ${series[idx + 1].url}`);

    // No style attributes from kramdown (table alignment) and no inline scripts (CSP).
    assert.doesNotMatch(html, /\sstyle="/, `${p.file}: a style attribute reached the page (table alignment colons?)`);
    assert.doesNotMatch(html, /<script(?![^>]*\b(?:src=|type=\"application\/ld\+json\"))[^>]*>/, `${p.file}: inline <script> is forbidden by the CSP`);

    // Every internal URL resolves to a file; fragment links resolve to an id.
    const broken = [];
    for (const url of urlsIn(html)) {
      if (url.startsWith('#')) {
        if (url.length > 1 && !html.includes(`id="${decodeURIComponent(url.slice(1))}"`)) broken.push(url);
        continue;
      }
      const r = resolveInternal(url, p.data.permalink);
      if (!r) continue;
      if (!existsSync(r.file) || !statSync(r.file).isFile()) { broken.push(url); continue; }
      if (r.hash && r.file.endsWith('.html')) {
        const target = readFileSync(r.file, 'utf8');
        if (!target.includes(`id="${r.hash}"`)) broken.push(url);
      }
    }
    assert.deepEqual(broken, [], `${p.file}: internal links that do not resolve in ${SITE}`);
    void i;
  });
}

test('the link checker itself detects a broken link', () => {
  assert.ok(built, 'the site is not built: run scripts/build first (scripts/test does)');
  const r = resolveInternal('/articles/no-such-article/', '/articles/x/');
  assert.equal(existsSync(r.file), false);
  assert.equal(resolveInternal('https://example.com/', '/'), null);
  const rel = resolveInternal('../operating-systems/', '/articles/why-system-wide/');
  assert.equal(rel.path, '/articles/operating-systems/');
  assert.deepEqual(urlsIn('<a href="/a/?x=1&amp;y=2">x</a><img srcset="/b.svg 1x, /c.svg 2x" src="/d.svg">'), ['/a/?x=1&y=2', '/b.svg', '/c.svg', '/d.svg']);
});
