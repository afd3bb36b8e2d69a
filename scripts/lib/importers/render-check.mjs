// Renders each chart of a dataset the way the site build does, so a chart that Vega draws wrongly
// (warnings such as an empty layer's infinite extent) is reported by scripts/validate and scripts/import,
// not first by the build.
import { renderChartSvg } from '../chart-render.mjs';
import { parseJsonPositions, positionOf } from '../json-lines.mjs';

export async function chartRenderProblems(file, text) {
  const data = JSON.parse(text);
  const { positions } = parseJsonPositions(text);
  const problems = [];
  for (const [i, chart] of (data.charts || []).entries()) {
    try {
      await renderChartSvg(data, chart, 'light');
    } catch (e) {
      problems.push({
        file, ...positionOf(positions, `/charts/${i}/spec`), field: `/charts/${i}/spec`,
        message: `chart "${chart.id}" does not render cleanly: ${e.message.replace(/ — change the spec.*$/, '')}`,
        fix: 'remove or change the layer that has no data (e.g. a filter that matches no row), then run scripts/validate again',
      });
    }
  }
  return problems;
}
