// Where each drawn value sits in a rendered chart, and what a reader should be told about it:
// the data for assets/js/chart-values.mjs, which shows exact values on hover, focus and tap.
// Positions come from Vega's scenegraph (SVG user units of the rendered file); the words come from
// the marks' tooltip encodings (the fields each mark draws) and from the dataset (units, errata, failures).
import { formatCell } from './dataset-cells.mjs';
import { isNumeric } from './chart-spec.mjs';

// Title → field pairs in Vega-Lite's compiled tooltip signals, per mark name.
export function tooltipFields(vegaSpec) {
  const byMark = new Map();
  const walk = (node) => {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!node || typeof node !== 'object') return;
    const signal = node.encode?.update?.tooltip?.signal;
    if (node.name && signal) {
      const pairs = [];
      for (const m of signal.matchAll(/"((?:[^"\\]|\\.)+)": (?:isValid\(datum\["([^"]+)"\]\)|format\(datum\["([^"]+)"\]|timeFormat\(datum\["([^"]+)"\])/g)) {
        pairs.push({ title: JSON.parse(`"${m[1]}"`), field: m[2] || m[3] || m[4] });
      }
      byMark.set(node.name, pairs);
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'data') walk(v);
  };
  walk(vegaSpec);
  return byMark;
}

// Facet fields (and their titles) of a Vega-Lite spec: a point's panel is part of what it means.
export function facetFields(spec, out = []) {
  const add = (f) => { if (f?.field) out.push({ field: f.field, title: f.title }); };
  if (spec.facet) { if (spec.facet.field) add(spec.facet); else { add(spec.facet.row); add(spec.facet.column); } }
  for (const ch of ['facet', 'row', 'column']) add(spec.encoding?.[ch]);
  for (const s of spec.hconcat || spec.vconcat || spec.concat || []) facetFields(s, out);
  if (spec.spec) facetFields(spec.spec, out);
  return out;
}

const plain = (v) => (typeof v === 'number' ? String(Number(v.toPrecision(6))) : String(v));

export function pointLabel(dataset, datum, pairs, facets) {
  const cols = new Map(dataset.columns.map((c) => [c.key, c]));
  const lines = [];
  const seen = new Set();
  const notes = [];
  for (const f of facets) {
    if (datum[f.field] === undefined || seen.has(f.field)) continue;
    seen.add(f.field);
    lines.push(`${f.title || cols.get(f.field)?.label || f.field}: ${plain(datum[f.field])}`);
  }
  // A field drawn twice (x offset and colour, say) is told once, under its titled name.
  const byField = new Map();
  for (const p of pairs) if (!byField.has(p.field) || byField.get(p.field).title === p.field) byField.set(p.field, p);
  for (const { title, field } of byField.values()) {
    if (seen.has(field)) continue;
    seen.add(field);
    const failureOf = /^(.+)_failure$/.exec(field)?.[1];
    const col = cols.get(failureOf || field);
    const name = title !== field ? title : col?.label || field;
    const value = datum[field];
    if (failureOf) {
      if (value === null || value === undefined) continue;
      lines.push(`${name}: ${value}`);
      notes.push('failed run');
      continue;
    }
    if (value === null || value === undefined) continue;
    const unit = col?.unit && !['none', 'count'].includes(col.unit) ? ` ${col.unit}` : '';
    lines.push(`${name}: ${col && isNumeric(col) ? formatCell(col, value) : plain(value)}${typeof value === 'number' ? unit : ''}`);
    if (col && datum[`${field}_flagged`]) notes.push('flagged in the errata');
    if (col && datum[`${field}_failure`]) notes.push(`failed run: ${datum[`${field}_failure`]}`);
  }
  if (datum.flagged === true && !notes.includes('flagged in the errata')) notes.push('flagged in the errata');
  return [...lines, ...new Set(notes)].join('\n');
}

// Every item of a data mark that has a tooltip, with its box in the SVG's coordinates.
export function chartPoints(view, vegaSpec, vlSpec, dataset) {
  const fields = tooltipFields(vegaSpec);
  const facets = facetFields(vlSpec);
  // The drawing starts at padding + origin (the same translate Vega writes on the SVG's root group).
  const pad = view.padding();
  const [ox, oy] = view.origin().map((o, i) => o + (i ? pad.top : pad.left));
  const points = [];
  const r1 = (n) => Math.round(n * 10) / 10;
  const walkGroup = (group, x, y) => {
    for (const mark of group.items || []) {
      for (const item of mark.items || []) {
        if (mark.marktype === 'group') { walkGroup(item, x + (item.x || 0), y + (item.y || 0)); continue; }
        const pairs = fields.get(mark.name);
        if (mark.role !== 'mark' || !pairs || !item.datum || !item.bounds || item.bounds.empty?.()) continue;
        if (mark.marktype === 'text' && (item.text === '' || item.text === null || item.text === undefined)) continue;
        const label = pointLabel(dataset, item.datum, pairs, facets);
        if (!label) continue;
        // A line or area is one shape through all its items: each item is a vertex, marked by a small box.
        const b = /^(?:line|area|trail)$/.test(mark.marktype) ? { x1: item.x - 3, y1: item.y - 3, x2: item.x + 3, y2: item.y + 3 } : item.bounds;
        points.push([r1(x + b.x1), r1(y + b.y1), r1(b.x2 - b.x1), r1(b.y2 - b.y1), label]);
      }
    }
  };
  // The scenegraph's root is a group mark holding one group item, the chart itself.
  for (const top of view.scenegraph().root.items) walkGroup(top, ox + (top.x || 0), oy + (top.y || 0));
  // Reading order: left to right, then top to bottom within a column, so arrow keys move sensibly.
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return points;
}
