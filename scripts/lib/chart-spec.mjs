// Turns a chart declared in a dataset file into a complete Vega-Lite spec:
// rows become records, failure markers move to `<key>_failure`, errata cells set `<key>_flagged`.
import { THEMES } from './chart-themes.mjs';

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';

export function isNumeric(column) {
  return column.type === 'number' || column.type === 'integer';
}

export function chartRecords(dataset) {
  const flagged = new Set();
  for (const e of dataset.errata || []) for (const c of e.cells || []) flagged.add(`${c.row}:${c.column}`);
  return dataset.rows.map((row, r) => {
    const rec = {};
    dataset.columns.forEach((col, c) => {
      const v = row[c];
      if (isNumeric(col)) {
        const failed = typeof v === 'string';
        rec[col.key] = failed ? null : v;
        rec[`${col.key}_failure`] = failed ? v : null;
        rec[`${col.key}_flagged`] = flagged.has(`${r + 1}:${col.key}`);
      } else {
        rec[col.key] = v;
      }
    });
    return rec;
  });
}

// `spec` replaces the chart's own spec (a phone or desktop variant of it); `config` (fonts, ticks)
// goes between the theme's colours and whatever the chart's spec configures itself.
export function fullSpec(dataset, chart, themeName = 'light', { spec: variant = null, config = {} } = {}) {
  const theme = THEMES[themeName];
  const spec = structuredClone(variant || chart.spec);
  return {
    $schema: VEGA_LITE_SCHEMA,
    ...spec,
    data: { values: chartRecords(dataset) },
    config: mergeConfig(mergeConfig(theme, config), spec.config || {}),
  };
}

function mergeConfig(theme, own) {
  const out = structuredClone(theme);
  for (const [k, v] of Object.entries(own)) out[k] = typeof v === 'object' && v && !Array.isArray(v) ? { ...(out[k] || {}), ...v } : v;
  return out;
}

// Every field name a spec refers to, plus the names its transforms create.
export function fieldUse(spec) {
  const used = new Set();
  const made = new Set();
  const walk = (node, parentKey) => {
    if (Array.isArray(node)) { node.forEach((n) => walk(n, parentKey)); return; }
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'field' && typeof v === 'string') used.add(v.split('.')[0]);
      else if (k === 'as') [].concat(v).forEach((a) => typeof a === 'string' && made.add(a));
      else if (k === 'groupby' && Array.isArray(v)) v.forEach((g) => used.add(g));
      else if (k === 'fold' && Array.isArray(v)) v.forEach((g) => used.add(g));
      else if (k === 'data') continue;
      else walk(v, k);
    }
  };
  walk(spec);
  return { used, made };
}
