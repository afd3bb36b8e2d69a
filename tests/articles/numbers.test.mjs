// Every number in article prose is checked against the dataset(s) linked in the same paragraph or
// list item (and each "Do this in 2026" action against its own link). The rules (what counts as
// found, which formulas are known, what is excluded: years, dates, versions, references, ordinals,
// identifiers, code, single digits) are stated at the top of numbers-lib.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosts, loadDatasets } from './lib.mjs';
import { postProblems, numbersIn, matches, datasetValues, units, datasetLinks } from './numbers-lib.mjs';

const posts = loadPosts();
const datasets = loadDatasets();

for (const p of posts) {
  test(`${p.file}: every number next to a dataset link is in that dataset or derived from it`, () => {
    const bad = postProblems(p, datasets).map((x) => `${x.where}: ${x.number} (checked against ${x.datasets.join(', ')})`);
    assert.deepEqual(bad, [], 'recompute these numbers from the linked dataset, or link the dataset they come from');
  });
}

test('the articles link datasets next to their numbers (the check has something to check)', () => {
  // Numbers typed next to a dataset link, plus numbers rendered from a dataset (cell.html; cells.test.mjs checks those).
  let checked = 0;
  for (const p of posts) {
    for (const u of units(p.body, p.bodyLine)) if (datasetLinks(u.text).length) checked += numbersIn(u.text).length;
    checked += [...p.body.matchAll(/\{%-?\s*include\s+cell\.html\s/g)].length;
  }
  assert.ok(checked >= 300, `only ${checked} numbers sit next to a dataset link or come from one`);
});

const fake = {
  id: 'fixture', columns: [{ key: 'name', type: 'string' }, { key: 'rps', type: 'number' }, { key: 'ms', type: 'number' }],
  rows: [['Gentoo', 7468.32, 133.899], ['Ubuntu', 1025.13, 975.49], ['Debian', 6901.61, 144.894]],
  method: { requests: 10000, concurrency: 1000 }, caveats: ['The printed total reads 18519 per second.'], errata: [],
};

function problems(text) {
  const p = { file: 'fixture.md', body: `${text} ([data]({{ '/datasets/fixture/' | relative_url }}))\n`, bodyLine: 1, data: {} };
  return postProblems(p, new Map([['fixture', fake]])).map((x) => x.number);
}

test('numbers are found in cells, allowing rounding to the printed precision', () => {
  assert.deepEqual(problems('Gentoo served 7,468.32 requests per second, Ubuntu about 1,025 and Debian 6,902.'), []);
  assert.deepEqual(problems('Gentoo served 7,468.33 requests per second.'), ['7,468.33']);
  assert.deepEqual(problems('Ubuntu took 975.5 ms and 12,345 requests failed.'), ['12,345']);
  assert.deepEqual(problems('ab sent 10,000 requests, 1,000 at a time; the caveat gives 18,519.'), []);
});

test('ratios, percentages, differences and sums are derived from two cells', () => {
  assert.deepEqual(problems('Gentoo was 7.3 times as fast as Ubuntu.'), []);
  assert.deepEqual(problems('Gentoo was 7.9× as fast as Ubuntu.'), ['7.9×']);
  assert.deepEqual(problems('Ubuntu served 86% fewer requests than Gentoo.'), []);
  assert.deepEqual(problems('Debian was 566.71 requests per second behind Gentoo.'), []);
  assert.deepEqual(problems('Debian was 566.71% behind Gentoo.'), ['566.71%']);
});

test('years, dates, versions, references, ordinals, identifiers and code are not checked', () => {
  assert.deepEqual(problems('In 2010 (released 25 December 2025, 2019-11-28), Ruby 1.9.1 and Rails 2.3.5 to 8.1, nginx 0.7.64, Table 5.4, Appendix H.1, the 99th percentile, p99, an m4.2xlarge and `wrk -c 64` ran 3 times.'), []);
  assert.deepEqual(numbersIn('Linux 5.4 or later on kernel 2.6.26, Puma 8 with 16 threads').map((n) => n.text), ['16']);
});

test('the rounding rule: an integer ending in zeros is rounded at its last non-zero digit', () => {
  assert.ok(matches({ value: 12000, decimals: 0, trailingZeros: 3 }, 12001.11));
  assert.ok(!matches({ value: 12000, decimals: 0, trailingZeros: 3 }, 12647.47));
  assert.ok(matches({ value: 0.54, decimals: 2, trailingZeros: 0 }, 0.540));
  assert.ok(datasetValues(fake).ratio.some((v) => Math.abs(v - 7468.32 / 1025.13) < 1e-9));
});
