// What a built page ships: its HTML plus the CSS, JS (following static imports) and images it
// references, each raw and gzipped. Used by scripts/bench-pages.mjs and the page-budget test.
import { readFileSync, existsSync, statSync, readdirSync } from 'node:fs';
import { join, dirname, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const gz = (buf) => gzipSync(buf, { level: 9 }).length;

// Every .html file under a built site directory.
export function htmlFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) htmlFiles(p, out);
    else if (name.endsWith('.html')) out.push(p);
  }
  return out;
}

// Resolve a URL found in a page to a file in the site directory (baseurl stripped).
export function resolveLocal(siteDir, fromFile, url, baseurl = '') {
  if (!url || /^(?:[a-z]+:)?\/\//i.test(url) || url.startsWith('data:') || url.startsWith('#') || url.startsWith('mailto:')) return null;
  let path = url.split('#')[0].split('?')[0];
  if (!path) return null;
  if (baseurl && path.startsWith(baseurl)) path = path.slice(baseurl.length);
  const file = path.startsWith('/') ? join(siteDir, path) : join(dirname(fromFile), path);
  let f = normalize(file);
  if (existsSync(f) && statSync(f).isDirectory()) f = join(f, 'index.html');
  return f;
}

function jsClosure(siteDir, entry, seen) {
  if (seen.has(entry) || !existsSync(entry)) return;
  seen.add(entry);
  const src = readFileSync(entry, 'utf8');
  // Static imports only: dynamic import() is loaded on demand and is not part of the first paint.
  for (const m of src.matchAll(/(?:^|[;\n])\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g)) {
    const spec = m[1] || m[2];
    if (spec.startsWith('.') || spec.startsWith('/')) jsClosure(siteDir, resolveLocal(siteDir, entry, spec), seen);
  }
}

export function pageWeight(siteDir, htmlFile, { baseurl = '' } = {}) {
  const html = readFileSync(htmlFile);
  const text = html.toString('utf8');
  const css = new Set();
  const js = new Set();
  const svg = new Set();
  const other = new Set();
  for (const m of text.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)) { const f = resolveLocal(siteDir, htmlFile, m[1], baseurl); if (f) css.add(f); }
  for (const m of text.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) { const f = resolveLocal(siteDir, htmlFile, m[1], baseurl); if (f) jsClosure(siteDir, f, js); }
  // <img src> is what a light-mode reader downloads; the dark <source> replaces it, never adds to it.
  for (const m of text.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)) {
    const f = resolveLocal(siteDir, htmlFile, m[1], baseurl);
    if (f) (f.endsWith('.svg') ? svg : other).add(f);
  }
  const sum = (set) => [...set].filter((f) => existsSync(f)).reduce((acc, f) => {
    const b = readFileSync(f);
    return { files: acc.files + 1, raw: acc.raw + b.length, gzip: acc.gzip + gz(b) };
  }, { files: 0, raw: 0, gzip: 0 });
  const r = {
    html: { files: 1, raw: html.length, gzip: gz(html) },
    css: sum(css), js: sum(js), svg: sum(svg), images: sum(other),
    charts: (text.match(/<figure class="chart"/g) || []).length,
    missing: [...css, ...js, ...svg, ...other].filter((f) => !existsSync(f)),
  };
  r.total = ['html', 'css', 'js', 'svg', 'images'].reduce((a, k) => ({ raw: a.raw + r[k].raw, gzip: a.gzip + r[k].gzip }), { raw: 0, gzip: 0 });
  return r;
}
