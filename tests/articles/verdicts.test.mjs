// Verdict words about graded datasets: a sentence may call a configuration faster, slower or "within
// the noise" only when the dataset's verdict column and quality grade allow it; a smoke-grade
// dataset (every current rebench-2026-* one) allows none. Rules in verdicts-lib.mjs. Also checks
// that every "Measured again in 2026" paragraph opens with measured-2026.html, which states n,
// the machine and its load, and the grade from the dataset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosts, loadDatasets } from './lib.mjs';
import { units } from './numbers-lib.mjs';
import { verdictProblems, gradeOf } from './verdicts-lib.mjs';
import { unitDatasets } from './cells-lib.mjs';

const posts = loadPosts();
const datasets = loadDatasets();

for (const p of posts) {
  test(`${p.file}: no sentence claims more than its dataset's verdict and grade allow`, () => {
    const bad = verdictProblems(p, datasets).map((x) => `${x.where}: "${x.words}" about ${x.dataset} (grade ${x.grade}): ${x.sentence}`);
    assert.deepEqual(bad, []);
  });
}

test('every paragraph that cites a 2026 re-measurement states n, machine, load and grade through measured-2026.html', () => {
  let n = 0;
  for (const p of posts) {
    for (const u of units(p.body, p.bodyLine)) {
      if (/Measured (again )?in 2026/i.test(u.text)) assert.fail(`${p.file}:${u.line}: a typed "Measured again in 2026" heading; use {% include measured-2026.html d=… %}`);
      const m = u.text.match(/\{%\s*include\s+measured-2026\.html\s+d="([^"]+)"/);
      if (m) { n++; assert.ok(datasets.get(m[1])?.method?.runs, `${p.file}:${u.line}: ${m[1]} has no method.runs to state n`); }
    }
    // Each post that charts or links a rebench-2026 measurement (not only a then-and-now view of it) introduces it properly.
    const measured = new Set(units(p.body, p.bodyLine).flatMap((u) => unitDatasets(u.text)).filter((id) => /^rebench-2026-(?!then-now)/.test(id)));
    for (const id of measured) assert.match(p.body, new RegExp(`include measured-2026\\.html d="${id}"`), `${p.file}: cites ${id} without a measured-2026 paragraph`);
  }
  assert.ok(n >= 11, `only ${n} measured-2026 paragraphs`);
});

const mk = (grade, verdicts) => ({ id: grade ? 'fixture' : 'rebench-2026-fixture', ...(grade ? { quality: { grade } } : {}), columns: [{ key: 'setting', type: 'string' }, { key: 'verdict', type: 'string' }], rows: verdicts.map((v, i) => [`s${i}`, v]) });
const words = (d, text) => verdictProblems({ file: 'f.md', body: `${text} ([data]({{ '/datasets/${d.id}/' | relative_url }}))\n`, bodyLine: 1, data: {} }, new Map([[d.id, d]])).map((x) => x.words.toLowerCase());

test('a smoke dataset (or a 2026 one without a grade) allows no verdict words', () => {
  const smoke = mk(null, ['baseline', 'better']);
  assert.equal(gradeOf(smoke), 'smoke');
  assert.deepEqual(words(smoke, 'nginx was faster than Apache.'), ['faster']);
  assert.deepEqual(words(smoke, 'The proxy neither cost nor gained throughput.'), ['gained throughput']);
  assert.deepEqual(words(smoke, 'Every front stayed within the noise.'), ['within the noise']);
  assert.deepEqual(words(smoke, 'The medians were 719 and 923 requests per second; a re-run is pending.'), []);
});

test('a benchmark-grade dataset allows the words its verdicts carry, and only those', () => {
  const noisy = mk('benchmark', ['baseline', 'within noise']);
  assert.deepEqual(words(noisy, 'The settings made no measurable difference.'), []);
  assert.deepEqual(words(noisy, 'Larger heaps were faster.'), ['faster']);
  const clear = mk('benchmark', ['baseline', 'better']);
  assert.deepEqual(words(clear, 'Larger heaps were faster.'), []);
  assert.deepEqual(words(clear, 'All settings stayed within the noise.'), ['within the noise']);
  assert.equal(gradeOf({ id: 'thesis-x' }), null, 'old datasets without a grade are not checked here');
});
