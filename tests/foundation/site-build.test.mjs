// Checks on the built site in _site (scripts/test builds it first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { datasetFiles } from '../../scripts/lib/dataset-validate.mjs';
import { toCsv, formatCell } from '../../scripts/lib/dataset-cells.mjs';
import { pageWeight, htmlFiles as htmlFilesIn } from '../../scripts/lib/page-weight.mjs';

const htmlFiles = () => htmlFilesIn(SITE);

const SITE = new URL('../../_site/', import.meta.url).pathname;
const datasets = datasetFiles().map((f) => JSON.parse(readFileSync(f, 'utf8')));

const decode = (s) => s.replace(/<[^>]+>/g, '').replace(/&#123;/g, '{').replace(/&#125;/g, '}').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').trim();

test('the site was built', () => {
  assert.ok(existsSync(join(SITE, 'index.html')), 'run scripts/build first');
  assert.ok(existsSync(join(SITE, 'sitemap.xml')));
  assert.ok(existsSync(join(SITE, 'feed.xml')));
});

test('every page carries the strict CSP and nothing inline that it would block', () => {
  const pages = htmlFiles();
  assert.ok(pages.length > 10);
  for (const file of pages) {
    const html = readFileSync(file, 'utf8');
    if (/<meta http-equiv="refresh"/.test(html)) continue; // redirect stubs
    const rel = file.slice(SITE.length);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
    assert.ok(csp, `${rel}: no CSP meta tag`);
    assert.doesNotMatch(csp[1], /unsafe-inline|unsafe-eval/, rel);
    assert.match(csp[1], /script-src 'self'/, rel);
    assert.match(csp[1], /style-src 'self'/, rel);
    assert.doesNotMatch(html, /\sstyle="/, `${rel}: inline style attribute`);
    assert.doesNotMatch(html, /<style[\s>]/, `${rel}: <style> block`);
    for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      const attrs = m[1];
      if (/type="application\/(ld\+)?json"/.test(attrs)) {
        assert.doesNotMatch(m[2], /<\//, `${rel}: "</" inside inline JSON`);
        continue;
      }
      assert.match(attrs, /\bsrc="/, `${rel}: inline <script> code`);
    }
    assert.doesNotMatch(html, /\son[a-z]+="/, `${rel}: inline event handler`);
  }
});

test('every dataset has a page with its full table, charts, provenance and downloads', () => {
  for (const d of datasets) {
    const page = join(SITE, 'datasets', d.id, 'index.html');
    assert.ok(existsSync(page), `missing page for ${d.id}`);
    const html = readFileSync(page, 'utf8');
    assert.ok(html.includes('id="provenance"'), `${d.id}: provenance`);
    for (const c of d.charts || []) {
      assert.ok(html.includes(`id="chart-${d.id}-${c.id}"`), `${d.id}: chart ${c.id}`);
      for (const theme of ['light', 'dark']) assert.ok(existsSync(join(SITE, 'assets/generated/charts', d.id, `${c.id}-${theme}.svg`)), `${d.id}/${c.id} ${theme} SVG`);
    }
    if (d.errata.length) assert.match(html, /class="errata"/, `${d.id}: errata box`);
    // The full table is the last data table before the provenance; compare it cell by cell with the CSV download.
    const full = html.slice(html.indexOf('id="data"'), html.indexOf('id="provenance"'));
    const rows = [...full.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => [...m[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => decode(c[1]).replace(/\s*†$/, '')));
    const csv = readFileSync(join(SITE, 'assets/generated/datasets', `${d.id}.csv`), 'utf8');
    assert.equal(csv, toCsv(d), `${d.id}: CSV download`);
    assert.equal(rows.length, d.rows.length + 1, `${d.id}: header + ${d.rows.length} rows in the page table`);
    d.rows.forEach((row, r) => row.forEach((v, c) => assert.equal(rows[r + 1][c], formatCell(d.columns[c], v), `${d.id} row ${r + 1} col ${d.columns[c].key}`)));
    const json = JSON.parse(readFileSync(join(SITE, 'assets/generated/datasets', `${d.id}.json`), 'utf8'));
    assert.deepEqual(json, d, `${d.id}: JSON download equals the dataset`);
  }
});

test('the datasets index lists every dataset with topic, source, year and tool', () => {
  const html = readFileSync(join(SITE, 'datasets/index.html'), 'utf8');
  for (const d of datasets) {
    const row = [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]).find((r) => r.includes(`/datasets/${d.id}/"`));
    assert.ok(row, `${d.id} not listed`);
    assert.ok(row.includes(`<td>${d.year}</td>`), `${d.id}: year`);
  }
});

test('a page with at least five charts needs no JavaScript (only the optional value layer) and ships at most 80 KB gzip', () => {
  const heavy = htmlFiles().map((f) => ({ f, w: pageWeight(SITE, f) })).filter((p) => p.w.charts >= 5);
  assert.ok(heavy.length > 0, 'no page has five or more charts yet');
  for (const { f, w } of heavy) {
    const rel = f.slice(SITE.length);
    assert.deepEqual(w.missing, [], `${rel}: references missing files`);
    // The one script is the deferred value layer (exact values on hover/tap); without it the page is complete.
    const scripts = [...readFileSync(f, 'utf8').matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(scripts.every((s) => s.endsWith('/assets/js/chart-values.mjs')), `${rel} loads other scripts: ${scripts.join(', ')}`);
    assert.ok(w.js.gzip <= 5 * 1024, `${rel} ships ${w.js.gzip} bytes gzip of JavaScript`);
    assert.ok(w.total.gzip <= 80 * 1024, `${rel}: ${w.total.gzip} bytes gzip > 80 KB`);
  }
});
