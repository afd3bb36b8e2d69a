// Chart includes are checked before Jekyll: a wrong id names the page, line and column and lists
// the dataset's charts; includes shown inside Liquid comments are not checked; the site's own pages pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chartIncludeProblems, pageFiles } from '../../scripts/lib/chart-includes.mjs';
import { datasetFiles } from '../../scripts/lib/dataset-validate.mjs';

const DATASETS = [{ id: 'thesis-thin-vs-unicorn', charts: [{ id: 'rps' }, { id: 'memory' }] }, { id: 'no-charts', charts: [] }];

test('chart includes: wrong chart id, wrong dataset id, missing arguments; comments ignored', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chart-includes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const page = join(dir, 'post.md');
  writeFileSync(page, [
    '---', 'title: t', '---',
    'Text before.',
    '{% include chart.html dataset="thesis-thin-vs-unicorn" chart="rps" %}',
    '  {% include chart.html dataset="thesis-thin-vs-unicorn" chart="rsp" %}',
    '{% include chart.html dataset="thesis-thin-vs-unicron" chart="rps" %}',
    '{% include chart.html dataset="no-charts" chart="x" %}',
    '{% include chart.html %}',
    '{% comment %}{% include chart.html dataset="nope" chart="nope" %}{% endcomment %}',
    '{% include chart.html dataset=page.dataset chart="rps" %}',
  ].join('\n'));
  const problems = chartIncludeProblems([page], DATASETS);
  assert.deepEqual(problems.map((p) => [p.line, p.column]), [[6, 3], [7, 1], [8, 1], [9, 1]]);
  assert.equal(problems[0].message, 'dataset "thesis-thin-vs-unicorn" has no chart "rsp"');
  assert.equal(problems[0].fix, 'did you mean "rps"? its charts are: rps, memory');
  assert.match(problems[1].fix, /did you mean "thesis-thin-vs-unicorn"\?/);
  assert.match(problems[2].fix, /declares no charts/);
  assert.match(problems[3].message, /needs dataset="…" and chart="…"/);
});

test('chart includes: every include in the site names an existing chart', () => {
  const datasets = datasetFiles().map((f) => JSON.parse(readFileSync(f, 'utf8')));
  const files = pageFiles();
  assert.ok(files.some((f) => f.includes('_posts/')), 'articles are scanned');
  assert.deepEqual(chartIncludeProblems(files, datasets), []);
});
