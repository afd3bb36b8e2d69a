// The real datasets: all valid, every chart renders, and the seed inventory is fully covered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateAll, formatProblem, datasetFiles } from '../../scripts/lib/dataset-validate.mjs';
import { renderChartSvg } from '../../scripts/lib/chart-render.mjs';

const datasets = datasetFiles().map((f) => JSON.parse(readFileSync(f, 'utf8')));

test('every dataset in _data/datasets validates', () => {
  const problems = validateAll();
  assert.equal(problems.length, 0, problems.map((p) => formatProblem(p)).join('\n'));
});

test('every chart renders to SVG in both themes with its failures and title', async () => {
  let n = 0;
  for (const d of datasets) {
    for (const chart of d.charts || []) {
      for (const theme of ['light', 'dark']) {
        const { svg, width, height } = await renderChartSvg(d, chart, theme);
        assert.match(svg, /^<svg[^>]*role="img"/, `${d.id}/${chart.id}`);
        assert.ok(width > 50 && height > 50, `${d.id}/${chart.id} has a real size`);
        assert.ok(width <= 1200, `${d.id}/${chart.id} is ${width}px wide; keep charts narrow enough for a phone`);
        // Failure markers present in plotted columns appear as text in the SVG.
        const plotted = JSON.stringify(chart.spec);
        d.columns.forEach((c, i) => {
          if (!plotted.includes(`${c.key}_failure`)) return;
          const markers = new Set(d.rows.map((r) => r[i]).filter((v) => typeof v === 'string'));
          for (const m of markers) assert.ok(svg.includes(m), `${d.id}/${chart.id}: failure marker ${m} is not visible in the ${theme} SVG`);
        });
        n++;
      }
    }
  }
  assert.ok(n > 0, 'no chart rendered');
});

test('the light and dark renderings differ only in colour', async () => {
  const d = datasets.find((x) => (x.charts || []).length);
  const light = (await renderChartSvg(d, d.charts[0], 'light')).svg;
  const dark = (await renderChartSvg(d, d.charts[0], 'dark')).svg;
  assert.notEqual(light, dark);
  const strip = (s) => s.replace(/#[0-9a-f]{3,6}\b/gi, '#');
  assert.equal(strip(light), strip(dark));
});

test('every numeric dataset of the seed inventory has a file (or a stated reason in coverage.json)', () => {
  const coverage = JSON.parse(readFileSync(new URL('./seed-coverage.json', import.meta.url), 'utf8'));
  const ids = new Set(datasets.map((d) => d.id));
  const missing = coverage.required.filter((id) => !ids.has(id));
  assert.deepEqual(missing, [], `datasets listed in tests/foundation/seed-coverage.json without a file: ${missing.join(', ')}`);
  for (const [id, reason] of Object.entries(coverage.not_numeric)) {
    assert.ok(!ids.has(id) || reason.length > 0);
    assert.ok(reason.length > 20, `${id}: give a real reason`);
  }
});
