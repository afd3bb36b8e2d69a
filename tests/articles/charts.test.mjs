// Every chart include names a dataset file and a chart id that exist; articles with data embed at
// least two charts, the rest are marked has_data: false; charted datasets with errata get an errata box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosts, loadDatasets, chartIncludes, withoutCode } from './lib.mjs';

const posts = loadPosts();
const datasets = loadDatasets();

/** Datasets whose errata an article explains: errata includes and <div class="errata" data-datasets="…">. */
function errataCovered(body) {
  const ids = new Set();
  for (const m of body.matchAll(/\{%-?\s*include\s+errata\.html\s+dataset="([^"]+)"/g)) ids.add(m[1]);
  for (const m of body.matchAll(/<div\s+class="errata"[^>]*\bdata-datasets="([^"]*)"/g)) m[1].split(/\s+/).filter(Boolean).forEach((id) => ids.add(id));
  return ids;
}

for (const p of posts) {
  const body = withoutCode(p.body);
  const includes = chartIncludes(body);

  test(`${p.file}: every chart include resolves to a dataset and chart`, () => {
    for (const inc of includes) {
      const where = `${p.file}:${p.bodyLine + inc.line - 1}`;
      assert.ok(inc.dataset && inc.chart, `${where}: write {% include chart.html dataset="<id>" chart="<chart-id>" %}`);
      const d = datasets.get(inc.dataset);
      assert.ok(d, `${where}: dataset "${inc.dataset}" has no file _data/datasets/${inc.dataset}.json`);
      const ids = (d.charts || []).map((c) => c.id);
      assert.ok(ids.includes(inc.chart), `${where}: dataset "${inc.dataset}" has no chart "${inc.chart}" (it has: ${ids.join(', ') || 'none'})`);
      assert.ok(p.data.datasets.includes(inc.dataset), `${where}: add "${inc.dataset}" to the front matter datasets list`);
    }
    assert.doesNotMatch(body, /TODO-CHART/, `${p.file}: a chart placeholder was never replaced by an include`);
  });

  test(`${p.file}: has at least one chart, or is marked has_data: false; data articles have two`, () => {
    if (p.data.has_data) {
      assert.ok(includes.length >= 2, `${p.file}: has_data is true but it embeds ${includes.length} chart(s); embed at least two or set has_data: false`);
    } else {
      assert.equal(p.data.has_data, false, `${p.file}: set has_data explicitly`);
    }
    assert.ok(includes.length >= 1 || p.data.has_data === false);
  });

  test(`${p.file}: every charted dataset with errata has an errata box`, () => {
    const covered = errataCovered(p.body);
    for (const id of new Set(includes.map((i) => i.dataset))) {
      const d = datasets.get(id);
      if (!d || !(d.errata || []).length) continue;
      assert.ok(covered.has(id), `${p.file}: dataset "${id}" has ${d.errata.length} erratum/errata; add {% include errata.html dataset="${id}" %} or list it in data-datasets of an errata <div>`);
    }
  });

  test(`${p.file}: dataset links exist, and front matter datasets = datasets linked or charted`, () => {
    const used = new Set(includes.map((i) => i.dataset));
    for (const m of body.matchAll(/'\/datasets\/([a-z0-9-]+)\/'/g)) {
      assert.ok(datasets.has(m[1]), `${p.file}: links to /datasets/${m[1]}/, but there is no such dataset`);
      used.add(m[1]);
    }
    // Numbers and 2026 paragraphs rendered from a dataset (cell, ratio, verdict, measured-2026 includes) cite it too.
    for (const m of body.matchAll(/\{%-?\s*include\s+(?:cell|ratio|verdict|measured-2026)\.html\s[^%]*?\b(?:d|over_d)="([a-z0-9-]+)"/g)) {
      assert.ok(datasets.has(m[1]), `${p.file}: an include names dataset ${m[1]}, but there is no such dataset`);
      used.add(m[1]);
    }
    assert.deepEqual([...p.data.datasets].sort(), [...used].sort(), `${p.file}: the front matter datasets list must name exactly the datasets the article links or charts`);
  });
}

test('the include parser finds includes and the checks reject a wrong chart id', () => {
  const body = 'Text\n{% include chart.html dataset="x-y" chart="z" %}\n```liquid\n{% include chart.html dataset="in-code" chart="q" %}\n```\n';
  const found = chartIncludes(withoutCode(body));
  assert.deepEqual(found.map((i) => [i.dataset, i.chart, i.line]), [['x-y', 'z', 2]]);
  const [id, d] = [...datasets.entries()].find(([, v]) => (v.charts || []).length) ?? [];
  assert.ok(d, 'at least one dataset with a chart exists');
  assert.ok(!(d.charts || []).some((c) => c.id === 'no-such-chart'), `dataset ${id} unexpectedly has a chart "no-such-chart"`);
});

test('no chart is embedded in two articles (each article draws the chart for its own claim)', () => {
  const seen = new Map();
  const dup = [];
  for (const p of posts) {
    for (const inc of chartIncludes(withoutCode(p.body))) {
      const key = `${inc.dataset}/${inc.chart}`;
      if (seen.has(key) && seen.get(key) !== p.file) dup.push(`${key}: ${seen.get(key)} and ${p.file}`);
      seen.set(key, p.file);
    }
  }
  assert.deepEqual(dup, [], 'link the other article instead of drawing the same chart again');
});
