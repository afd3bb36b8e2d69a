// _data/series.yml is the single ordered index of the series; it and the posts must agree:
// every post listed exactly once, orders unique and contiguous from 1, same order, url and title source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosts, loadSeries } from './lib.mjs';

const series = loadSeries();
const posts = loadPosts();
const bySlug = new Map(posts.map((p) => [p.slug, p]));

test('series.yml is a list of {order, slug, url, title, summary}', () => {
  assert.ok(Array.isArray(series) && series.length > 0, '_data/series.yml must be a non-empty YAML list');
  for (const [i, e] of series.entries()) {
    const where = `_data/series.yml entry ${i + 1}`;
    assert.deepEqual(Object.keys(e).sort(), ['order', 'slug', 'summary', 'title', 'url'], `${where}: use exactly order, slug, url, title, summary`);
    assert.ok(Number.isInteger(e.order), `${where}: order must be an integer`);
    for (const k of ['slug', 'url', 'title', 'summary']) assert.equal(typeof e[k], 'string', `${where}: ${k} must be a string`);
    assert.ok(!/\n/.test(e.summary) && e.summary.length >= 20, `${where}: summary must be one line of at least 20 characters`);
  }
});

test('orders are unique and contiguous from 1, and the file lists them in order', () => {
  const orders = series.map((e) => e.order);
  assert.deepEqual(orders, Array.from({ length: series.length }, (_, i) => i + 1), `orders must be 1..${series.length} in file order`);
});

test('every post is listed exactly once and every entry is a post', () => {
  const slugs = series.map((e) => e.slug);
  assert.equal(new Set(slugs).size, slugs.length, `a slug is listed twice in _data/series.yml: ${slugs.join(', ')}`);
  for (const p of posts) assert.ok(slugs.includes(p.slug), `${p.file} is missing from _data/series.yml`);
  for (const s of slugs) assert.ok(bySlug.has(s), `_data/series.yml lists "${s}", but there is no _posts/YYYY-MM-DD-${s}.md`);
});

test('each entry agrees with its post: order, url and date order', () => {
  for (const e of series) {
    const p = bySlug.get(e.slug);
    if (!p) continue; // reported above
    assert.equal(p.data.series_order, e.order, `${p.file}: series_order ${p.data.series_order} but series.yml says ${e.order}`);
    assert.equal(e.url, p.data.permalink, `${p.file}: series.yml url ${e.url} differs from permalink ${p.data.permalink}`);
  }
  const dates = series.map((e) => bySlug.get(e.slug)?.data.date).filter(Boolean);
  assert.deepEqual(dates, [...dates].sort(), 'post dates must follow the series order, so date-sorted feeds read in order');
});
