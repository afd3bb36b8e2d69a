// Two renderings of every chart, so its text stays legible wherever the page puts it:
// "wide" for the article column on a desktop (about 680 CSS px) and "narrow" for phones, where
// facets and side-by-side panels wrap into one column, axes get fewer ticks and the fonts grow.
// The page switches between them with <picture><source media>; the image always fills the column,
// so rendered text size = font size × column width ÷ SVG width. Each variant's width and fonts are
// chosen so that product stays ≥ 11 CSS px over its whole range of columns (see NARROW_MEDIA).

// Below this viewport width the narrow rendering is used. At 44rem (704 px) the article column is
// 704 − 58 = 646 px, so the wide SVG (≤ 664 px) is drawn at ≥ 0.97 × its size: 12 px text → ≥ 11.6 px.
export const NARROW_MEDIA = '(max-width: 44rem)';

export const VARIANTS = {
  wide: {
    width: 664,
    // Smallest font of any text the chart draws; 12 × 0.97 stays above 11.
    minFont: 12,
    // Widest label or text mark, as a share of the width: beyond it, text is cut with an ellipsis
    // (the value layer and the data table give it in full) rather than squeezing the plot to nothing.
    maxLabel: 0.4,
    config: {
      axis: { labelFontSize: 12, titleFontSize: 13 },
      legend: { labelFontSize: 12, titleFontSize: 13 },
      header: { labelFontSize: 13, titleFontSize: 13 },
      title: { fontSize: 15, subtitleFontSize: 13 },
      text: { fontSize: 12, limit: 264 },
    },
  },
  narrow: {
    // A 390 px phone gives the figure 332 px, a 360 px one 302 px: 13 px text stays ≥ 11.5 px.
    width: 340,
    minFont: 13,
    maxLabel: 0.33,
    config: {
      axis: { labelFontSize: 13, titleFontSize: 13, tickCount: 4, labelOverlap: true, labelLimit: 112 },
      // Legends under the plot, one below the other (side by side they can be wider than a phone).
      legend: {
        labelFontSize: 13, titleFontSize: 13, orient: 'bottom', direction: 'vertical', columns: 1, labelLimit: 300,
        layout: { expr: "{bottom: {direction: 'vertical', anchor: 'start'}}" },
      },
      header: { labelFontSize: 13, titleFontSize: 13 },
      title: { fontSize: 15, subtitleFontSize: 13 },
      text: { fontSize: 13, limit: 112 },
    },
  },
};

// The leaf views (unit or layer specs) whose width sets the chart's width, in any composition.
export function leafViews(spec, out = []) {
  if (spec.spec && (spec.facet || spec.repeat)) leafViews(spec.spec, out);
  else if (spec.hconcat || spec.vconcat || spec.concat) for (const s of spec.hconcat || spec.vconcat || spec.concat) leafViews(s, out);
  else out.push(spec);
  return out;
}

export const isComposite = (spec) => Boolean(spec.facet || spec.repeat || spec.hconcat || spec.vconcat || spec.concat || spec.encoding?.facet || spec.encoding?.column || spec.encoding?.row);

// Fonts a spec sets itself (a text mark's fontSize, an axis's labelFontSize…) never go below the
// variant's minimum, and no label may take more than its share of the width (long category names
// would otherwise squeeze the plot to nothing on a phone).
function adapt(node, min, maxLabel) {
  if (Array.isArray(node)) { node.forEach((n) => adapt(n, min, maxLabel)); return; }
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (/^(?:fontSize|[a-z]+FontSize)$/.test(k) && typeof v === 'number' && v < min) node[k] = min;
    else if (/^(?:labelLimit|limit)$/.test(k) && typeof v === 'number' && (v === 0 || v > maxLabel)) node[k] = maxLabel;
    else if (k !== 'data') adapt(v, min, maxLabel);
  }
}

// Panels side by side become one column on a phone.
function stack(spec) {
  if (spec.facet && !spec.facet.field && spec.facet.column && !spec.facet.row) {
    spec.facet = spec.facet.column;
    spec.columns = 1;
  } else if (spec.facet && spec.facet.field) {
    spec.columns = 1;
  }
  if (spec.encoding?.column && !spec.encoding.row) {
    spec.encoding.facet = { ...spec.encoding.column, columns: 1 };
    delete spec.encoding.column;
  } else if (spec.encoding?.facet) {
    spec.encoding.facet.columns = 1;
  }
  if (spec.hconcat) { spec.vconcat = spec.hconcat; delete spec.hconcat; }
  if (spec.concat) spec.columns = 1;
  if (spec.repeat && !Array.isArray(spec.repeat) && spec.repeat.column && !spec.repeat.row) {
    spec.repeat = spec.repeat.column;
    spec.columns = 1;
  }
  for (const child of spec.vconcat || spec.concat || []) stack(child);
  if (spec.spec) stack(spec.spec);
}

// A mark placed at a fixed pixel position ("x": {"value": 420}, right-aligned notes, say) would land
// outside a narrower rendering: such positions become the same fraction of the view's width or height.
function relativePositions(leaf) {
  const w = typeof leaf.width === 'number' ? leaf.width : null;
  const h = typeof leaf.height === 'number' ? leaf.height : null;
  for (const enc of [leaf.encoding, ...(leaf.layer || []).map((l) => l.encoding)]) {
    if (!enc) continue;
    for (const [ch, size, name] of [['x', w, 'width'], ['x2', w, 'width'], ['y', h, 'height'], ['y2', h, 'height']]) {
      const v = enc[ch]?.value;
      if (typeof v === 'number' && size) enc[ch] = { ...enc[ch], value: { expr: `${name} * ${+(v / size).toFixed(4)}` } };
    }
  }
}

// The spec for one variant, before its width is fitted. `own` is the chart's spec from the dataset.
export function variantSpec(own, variantName) {
  const variant = VARIANTS[variantName];
  const spec = structuredClone(own);
  adapt(spec, variant.minFont, Math.round(variant.width * variant.maxLabel));
  if (variantName === 'narrow') stack(spec);
  for (const leaf of leafViews(spec)) {
    relativePositions(leaf);
    if (typeof leaf.width !== 'number') leaf.width = 300;
    if (typeof leaf.height !== 'number' && leaf.height !== undefined && typeof leaf.height !== 'object') delete leaf.height;
  }
  if (!isComposite(spec)) {
    // A single view: Vega fits the plot so that axes, legend and all come to exactly the target width.
    const grow = variant.width / spec.width;
    if (typeof spec.height === 'number' && grow > 1) spec.height = Math.round(spec.height * Math.min(1.3, Math.sqrt(grow)));
    spec.width = variant.width;
    spec.autosize = { type: 'fit-x', contains: 'padding' };
    // The plot is the width less the y axis (about 70 px): a longer x title would shrink it.
    xTitleWrapper([spec], variant.config.axis.titleFontSize, (leaf) => leaf.width - 70)();
  }
  return spec;
}

// Composite charts cannot use Vega's fit: measure the rendered width at two panel widths (it is linear
// in the panel width: one slope per column of panels) and set the panel width that meets the target.
export async function fitComposite(spec, variantName, measure) {
  const variant = VARIANTS[variantName];
  const target = variant.width;
  const leaves = leafViews(spec);
  const original = leaves.map((l) => ({ width: l.width, height: l.height }));
  const wrap = xTitleWrapper(leaves, variant.config.axis.titleFontSize);
  const run = async () => { wrap(); return measure(spec); };
  const w1 = await run();
  leaves.forEach((l) => { l.width += 20; });
  const w2 = await run();
  const slope = Math.max(1, (w2 - w1) / 20);
  const setWidths = (delta) => leaves.forEach((l) => { l.width = Math.max(60, Math.floor(l.width + delta)); });
  setWidths((target - w2) / slope);
  // Axis labels and legends can change with the panel width: one correction step, never wider than the target.
  const w3 = await run();
  if (w3 > target || target - w3 > 8) setWidths((target - w3) / slope - (w3 > target ? 1 : 0));
  leaves.forEach((l, i) => {
    const grow = l.width / original[i].width;
    if (typeof l.height === 'number' && grow > 1) l.height = Math.round(original[i].height * Math.min(1.3, Math.sqrt(grow)));
  });
  wrap();
  return spec;
}

// Panels side by side each repeat their x-axis title; one longer than its panel runs into the next.
// Break such titles into lines that fit the panel (about 0.62 em per character of bold text).
function xTitleWrapper(leaves, fontSize, widthOf = (leaf) => leaf.width) {
  const originals = new Map();
  for (const leaf of leaves) {
    for (const enc of [leaf.encoding, ...(leaf.layer || []).map((l) => l.encoding)]) {
      if (typeof enc?.x?.title === 'string') originals.set(enc.x, { leaf, title: enc.x.title });
    }
  }
  return () => {
    for (const [x, { leaf, title }] of originals) {
      const perLine = Math.max(8, Math.floor(widthOf(leaf) / (fontSize * 0.62)));
      const lines = [];
      for (const word of title.split(/\s+/)) {
        if (lines.length && `${lines.at(-1)} ${word}`.length <= perLine) lines[lines.length - 1] += ` ${word}`;
        else lines.push(word);
      }
      x.title = lines.length > 1 ? lines : title;
    }
  };
}
