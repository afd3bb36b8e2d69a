// Numbers from data, not typed: every number in article prose that equals a measurement cell of a
// dataset the paragraph links or includes is rendered with {% include cell.html %} (or ratio.html),
// (the built-page check covers cell.html, ratio.html and verdict.html),
// every such include names one dataset, one row and an existing column, and the built pages show
// exactly the value the dataset holds. Rules (row keys, which cells count, what is exempt) are at
// the top of cells-lib.mjs. The rendering check needs the built site (scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SITE, loadPosts, loadDatasets } from './lib.mjs';
import { handTyped, includesIn, includeProblems, keyWidth, rowsNamed, measurements } from './cells-lib.mjs';
import { gradeOf } from './verdicts-lib.mjs';

const posts = loadPosts();
const datasets = loadDatasets();

for (const p of posts) {
  test(`${p.file}: no hand-typed number equals a cell of a dataset the paragraph cites`, () => {
    const bad = handTyped(p, datasets).map((x) => `${x.where}: ${x.number} is a cell of ${x.dataset}`);
    assert.deepEqual(bad, [], 'render these with {% include cell.html d=… row=… col=… %} (node tests/articles/cells-fix.mjs does it)');
  });
  test(`${p.file}: every cell, ratio, verdict and measured-2026 include names a dataset, one row and a column`, () => {
    const bad = includesIn(p.body).flatMap((inc) => includeProblems(inc.kind, inc.args, datasets).map((e) => `${inc.raw}: ${e}`));
    assert.deepEqual(bad, []);
  });
}

test('the articles render their dataset numbers from the data (the check has something to check)', () => {
  const n = posts.reduce((s, p) => s + includesIn(p.body).filter((i) => i.kind === 'cell').length, 0);
  assert.ok(n >= 150, `only ${n} cell includes`);
});

/** What _includes/format-number.html prints for a value (JS mirror, checked against the build below). */
export function formatNumber(v, decimals) {
  if (typeof v !== 'number') return String(v);
  let s = decimals === undefined ? String(v) : Number(v.toFixed(decimals)).toString();
  const neg = s.startsWith('-'); if (neg) s = s.slice(1);
  let [int, frac = ''] = s.split('.');
  if (decimals !== undefined) frac = decimals === 0 ? '' : (frac + '000000').slice(0, decimals);
  int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '−' : ''}${int}${frac ? `.${frac}` : ''}`;
}

test('built articles show each cell include as its dataset value', { skip: !existsSync(join(SITE, 'index.html')) && 'the site is not built (scripts/build)' }, () => {
  let checked = 0;
  for (const p of posts) {
    const file = join(SITE, String(p.data.permalink || ''), 'index.html');
    assert.ok(existsSync(file), `${file} is missing: run scripts/build`);
    const html = readFileSync(file, 'utf8').replace(/<[^>]+>/g, ' ').replace(/&#39;/g, "'").replace(/&quot;/g, '"');
    for (const inc of includesIn(p.body).filter((i) => i.kind === 'cell')) {
      const d = datasets.get(inc.args.d);
      const row = rowsNamed(d, inc.args.row)[0];
      const v = row[d.columns.findIndex((c) => c.key === inc.args.col)];
      const want = formatNumber(v, inc.args.decimals === undefined ? undefined : Number(inc.args.decimals));
      assert.ok(html.includes(want), `${p.file}: ${inc.raw} should render ${want}`);
      checked++;
    }
    for (const inc of includesIn(p.body).filter((i) => i.kind === 'ratio')) {
      const a = inc.args;
      const cell = (id, row, col) => { const d = datasets.get(id); return rowsNamed(d, row)[0][d.columns.findIndex((c) => c.key === col)]; };
      let v = cell(a.d, a.row, a.col) / cell(a.over_d || a.d, a.over_row || a.row, a.over_col || a.col);
      if (a.as === 'percent') v *= 100; else if (a.as === 'change') v = Math.abs(v - 1) * 100;
      const want = formatNumber(v, Number(a.decimals ?? 2));
      assert.ok(html.includes(want), `${p.file}: ${inc.raw} should render ${want}`);
      checked++;
    }
    for (const inc of includesIn(p.body).filter((i) => i.kind === 'verdict')) {
      const d = datasets.get(inc.args.d);
      const grade = gradeOf(d);
      const want = grade === 'smoke' ? 'no verdict (grade: smoke)' : `${rowsNamed(d, inc.args.row)[0][d.columns.findIndex((c) => c.key === 'verdict')]}${grade ? ` (grade: ${grade})` : ''}`;
      assert.ok(html.includes(want), `${p.file}: ${inc.raw} should render ${want}`);
      checked++;
    }
    assert.ok(!/\{%|\{\{/.test(html.replace(/<code[\s\S]*?<\/code>/g, '')), `${p.file}: unrendered Liquid in the page`);
  }
  assert.ok(checked >= 150, `checked ${checked}`);
});

// Fixtures: the rules on a dataset written here, so the check provably fails where it should.
const fake = {
  id: 'fixture',
  columns: [{ key: 'server', type: 'string' }, { key: 'page', type: 'string' }, { key: 'threads', type: 'integer', unit: 'threads' }, { key: 'rps', type: 'number', unit: 'req/s' }, { key: 'ms', type: 'number', unit: 'ms' }],
  rows: [['nginx', 'api', 16, 7468.32, 133.9], ['nginx', 'heavy', 16, 1025.13, 975.49], ['Apache', 'api', 4, 6901.61, 144.894]],
  method: { requests: 10000, concurrency: 1000 }, caveats: ['Load average 2.45 before.'], errata: [],
};
const fixtures = new Map([['fixture', fake]]);
const typed = (text) => handTyped({ file: 'f.md', body: `${text} ([data]({{ '/datasets/fixture/' | relative_url }}))\n`, bodyLine: 1, data: {} }, fixtures).map((x) => x.number);

test('a typed cell value fails; the same number rendered, quoted, in code or as a method value passes', () => {
  assert.deepEqual(typed('nginx served 7,468.32 requests per second and took 975.49 ms.'), ['7,468.32', '975.49']);
  assert.deepEqual(typed('nginx served {% include cell.html d="fixture" row="nginx | api" col="rps" %} requests per second.'), []);
  assert.deepEqual(typed('The source says "7468.32 per second", and `ab` printed 975.49 in code? No: `975.49`.'), ['975.49']);
  assert.deepEqual(typed('ab sent 10,000 requests with 16 threads at a load average of 2.45; nginx reached about 7,468.'), []);
  assert.deepEqual(typed('> A blockquote of the source: 7468.32 requests per second.'), []);
});

test('rows are named by as many leading cells as it takes; wrong names are reported', () => {
  assert.equal(keyWidth(fake), 2);
  assert.equal(rowsNamed(fake, 'nginx | heavy').length, 1);
  assert.equal(rowsNamed(fake, 'nginx').length, 2);
  assert.deepEqual(includeProblems('cell', { d: 'fixture', row: 'nginx | api', col: 'rps' }, fixtures), []);
  assert.match(includeProblems('cell', { d: 'fixture', row: 'nginx', col: 'rps' }, fixtures).join(), /names 2 rows/);
  assert.match(includeProblems('cell', { d: 'fixture', row: 'nginx | api', col: 'speed' }, fixtures).join(), /no column "speed"/);
  assert.match(includeProblems('cell', { d: 'nope', row: 'x', col: 'y' }, fixtures).join(), /no dataset "nope"/);
  assert.deepEqual(measurements(fake).sort((a, b) => a - b), [133.9, 144.894, 975.49, 1025.13, 6901.61, 7468.32]);
});

test('the number format mirrors format-number.html', () => {
  assert.equal(formatNumber(7468.32), '7,468.32');
  assert.equal(formatNumber(10000, 2), '10,000.00');
  assert.equal(formatNumber(0.5398, 3), '0.540');
  assert.equal(formatNumber(312.2), '312.2');
  assert.equal(formatNumber(1, 0), '1');
});
