// Renders a dataset chart to static SVG with Vega in Node (no browser, no canvas needed for SVG),
// in a variant (wide for desktop, narrow for phones; see chart-variants.mjs) and a theme.
import * as vega from 'vega';
import * as vl from 'vega-lite';
import { fullSpec } from './chart-spec.mjs';
import { VARIANTS, variantSpec, fitComposite, isComposite } from './chart-variants.mjs';
import { chartPoints } from './chart-points.mjs';
import { lockedLoader } from './chart-urls.mjs';

// Every mark gets a tooltip encoding: the SVG output does not change (Vega draws no tooltip into it),
// but the scenegraph then says which fields each drawn item shows, for the value layer.
const TOOLTIPS = { mark: { tooltip: { content: 'encoding' } } };

// Coordinates to 0.01 px (Vega writes up to 15 digits): a third fewer bytes after gzip, no visible change.
// Only geometry attributes are touched, never text or labels.
function roundGeometry(svg) {
  return svg.replace(/\s(d|transform|x|y|x1|x2|y1|y2|width|height|points)="([^"]*)"/g,
    (m, k, v) => ` ${k}="${v.replace(/-?\d+\.\d{3,}/g, (n) => String(Math.round(Number(n) * 100) / 100))}"`);
}

// Vega-Lite says it drops "fit-y" for charts whose height is a step per category: that is intended
// (only the width is fitted). Its other warnings still print.
const vlLogger = vega.logger(vega.Warn);
const vlWarn = vlLogger.warn.bind(vlLogger);
vlLogger.warn = (...args) => (/^Dropping "fit/.test(String(args[0])) ? vlLogger : vlWarn(...args));

async function runView(vlSpec, label) {
  const { spec } = vl.compile(vlSpec, { logger: vlLogger });
  // Vega's run-time warnings (an empty facet's infinite extent, say) mean a chart draws wrongly: fail on them.
  const warnings = [];
  const logger = vega.logger(vega.Warn);
  logger.warn = (...args) => { warnings.push(args.join(' ')); return logger; };
  // The locked loader reads no file and fetches nothing, whatever the spec asks for (scripts/lib/chart-urls.mjs).
  const view = new vega.View(vega.parse(spec), { renderer: 'none', logger, loader: lockedLoader() });
  const svg = await view.toSVG().catch((e) => { view.finalize(); throw e; });
  if (warnings.length) {
    view.finalize();
    throw new Error(`chart ${label} renders with Vega warnings: ${warnings.join('; ')} — change the spec (e.g. avoid layers whose filter leaves a facet empty)`);
  }
  return { view, svg, vegaSpec: spec };
}

const svgWidth = (svg) => Number(/width="(\d+(?:\.\d+)?)"/.exec(svg)?.[1] || 600);

// The variant's spec with its width fitted (composite charts are measured; single views use Vega's fit).
export async function layoutSpec(dataset, chart, variant = 'wide') {
  const spec = variantSpec(chart.spec, variant);
  if (!isComposite(spec)) return spec;
  const config = { ...VARIANTS[variant].config, ...TOOLTIPS };
  return fitComposite(spec, variant, async (s) => {
    const { view, svg } = await runView(fullSpec(dataset, chart, 'light', { spec: s, config }), `${dataset.id}/${chart.id}`);
    view.finalize();
    return svgWidth(svg);
  });
}

// One rendering: { svg, width, height, points? }. Pass a spec from layoutSpec to render several themes of one layout.
export async function renderChart(dataset, chart, { theme = 'light', variant = 'wide', spec = null, points = false } = {}) {
  const laidOut = spec || await layoutSpec(dataset, chart, variant);
  const vlSpec = fullSpec(dataset, chart, theme, { spec: laidOut, config: { ...VARIANTS[variant].config, ...TOOLTIPS } });
  const { view, svg: raw, vegaSpec } = await runView(vlSpec, `${dataset.id}/${chart.id}`);
  try {
    // Name the image for assistive tech when opened on its own.
    const svg = roundGeometry(raw).replace(/^<svg([^>]*)>/, (m, attrs) => `<svg${attrs} role="img" aria-label="${xmlEsc(chart.alt)}"><title>${xmlEsc(chart.title)}</title>`);
    const h = /height="(\d+(?:\.\d+)?)"/.exec(svg);
    const out = { svg, width: Math.round(svgWidth(svg)), height: Math.round(Number(h?.[1] || 300)) };
    if (points) out.points = chartPoints(view, vegaSpec, laidOut, dataset);
    return out;
  } finally {
    view.finalize();
  }
}

// The desktop rendering in one theme (used by scripts/validate's render check and the dataset tests).
export async function renderChartSvg(dataset, chart, theme, variant = 'wide') {
  return renderChart(dataset, chart, { theme, variant });
}

function xmlEsc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
