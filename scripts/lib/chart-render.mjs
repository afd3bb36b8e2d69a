// Renders a dataset chart to static SVG with Vega in Node (no browser, no canvas needed for SVG).
import * as vega from 'vega';
import * as vl from 'vega-lite';
import { fullSpec } from './chart-spec.mjs';

export async function renderChartSvg(dataset, chart, theme) {
  const { spec } = vl.compile(fullSpec(dataset, chart, theme));
  // Vega's run-time warnings (an empty facet's infinite extent, say) mean a chart draws wrongly: fail on them.
  const warnings = [];
  const logger = vega.logger(vega.Warn);
  logger.warn = (...args) => { warnings.push(args.join(' ')); return logger; };
  const view = new vega.View(vega.parse(spec), { renderer: 'none', logger });
  try {
    let svg = await view.toSVG();
    if (warnings.length) throw new Error(`chart ${dataset.id}/${chart.id} renders with Vega warnings: ${warnings.join('; ')} — change the spec (e.g. avoid layers whose filter leaves a facet empty)`);
    // Name the image for assistive tech when opened on its own.
    svg = svg.replace(/^<svg([^>]*)>/, (m, attrs) => `<svg${attrs} role="img" aria-label="${xmlEsc(chart.alt)}"><title>${xmlEsc(chart.title)}</title>`);
    const w = /width="(\d+(?:\.\d+)?)"/.exec(svg);
    const h = /height="(\d+(?:\.\d+)?)"/.exec(svg);
    return { svg, width: Math.round(Number(w?.[1] || 600)), height: Math.round(Number(h?.[1] || 300)) };
  } finally {
    view.finalize();
  }
}

function xmlEsc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
