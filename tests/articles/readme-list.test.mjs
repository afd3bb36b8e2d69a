// README's article list (between <!-- series:start --> and <!-- series:end -->) names every entry of
// _data/series.yml in order, with the same title and URL, so the repository's front page and the
// site's series index cannot drift apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { ROOT, loadSeries } from './lib.mjs';

const config = yaml.load(readFileSync(join(ROOT, '_config.yml'), 'utf8'), { schema: yaml.CORE_SCHEMA });
const SITE_URL = `${String(config.url || '').replace(/\/$/, '')}${String(config.baseurl || '').replace(/\/$/, '')}`;

/** The numbered items of the README's series block: [{n, title, url, line}]. */
export function readmeSeries(text) {
  const start = text.indexOf('<!-- series:start -->');
  const end = text.indexOf('<!-- series:end -->');
  if (start < 0 || end < start) return null;
  const before = text.slice(0, start).split('\n').length;
  return text.slice(start, end).split('\n').slice(1).map((line, i) => ({ line, at: before + i + 1 }))
    .filter(({ line }) => line.trim())
    .map(({ line, at }) => {
      const m = /^(\d+)\. \[([^\]]+)\]\(([^)\s]+)\)/.exec(line);
      return m ? { n: Number(m[1]), title: m[2], url: m[3], at } : { n: NaN, title: '', url: '', at, raw: line };
    });
}

/** Differences between the README block and the series, each with the README line and the expected text. */
export function readmeProblems(items, series, siteUrl = SITE_URL) {
  if (!items) return ['README.md: add the article list between <!-- series:start --> and <!-- series:end -->'];
  const out = [];
  const n = Math.max(items.length, series.length);
  for (let i = 0; i < n; i++) {
    const e = series[i];
    const it = items[i];
    const want = e && `${e.order}. [${e.title}](${siteUrl}${e.url}): ${e.summary}`;
    if (!it) { out.push(`README.md: missing item ${e.order}; add: ${want}`); continue; }
    if (!e) { out.push(`README.md:${it.at}: item ${it.n} is not in _data/series.yml; remove it`); continue; }
    if (it.n !== e.order || it.title !== e.title || it.url !== `${siteUrl}${e.url}`) out.push(`README.md:${it.at}: expected: ${want}`);
  }
  return out;
}

test("README's article list matches _data/series.yml", () => {
  const items = readmeSeries(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  assert.deepEqual(readmeProblems(items, loadSeries()), []);
});

test('the README check notices a missing, extra or renamed article', () => {
  const series = [
    { order: 1, title: 'One', url: '/articles/one/', summary: 'First.' },
    { order: 2, title: 'Two', url: '/articles/two/', summary: 'Second.' },
  ];
  const block = (lines) => `# x\n<!-- series:start -->\n${lines.join('\n')}\n<!-- series:end -->\n`;
  const good = ['1. [One](https://s.example/articles/one/): First.', '2. [Two](https://s.example/articles/two/): Second.'];
  assert.deepEqual(readmeProblems(readmeSeries(block(good)), series, 'https://s.example'), []);
  assert.match(readmeProblems(readmeSeries(block(good.slice(0, 1))), series, 'https://s.example').join(), /missing item 2/);
  assert.match(readmeProblems(readmeSeries(block([...good, '3. [Three](https://s.example/articles/three/): x'])), series, 'https://s.example').join(), /not in _data\/series.yml/);
  assert.match(readmeProblems(readmeSeries(block([good[0], '2. [Deux](https://s.example/articles/two/): Second.'])), series, 'https://s.example').join(), /README.md:4: expected: 2\. \[Two\]/);
  assert.match(readmeProblems(readmeSeries('no block'), series).join(), /add the article list/);
});
