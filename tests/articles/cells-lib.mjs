// Numbers rendered from datasets, and the words allowed about a 2026 re-measurement. Used by
// cells.test.mjs and verdicts.test.mjs; run directly (`node tests/articles/cells-lib.mjs [FILE.md …]`)
// to list what fails.
//
// Row keys: _includes/cell.html names a row by its leading cells joined with " | ". keyWidth(d) is the
// fewest leading columns that tell every row apart; those columns identify rows (workers, threads,
// page…) and their values are names, not measurements. Every other numeric cell is a measurement.
//
// Hand-typed numbers: in a paragraph or list item (units() of numbers-lib.mjs, so code blocks,
// tables and Liquid are already out) that links or includes a dataset, a number printed by hand that
// equals a measurement cell of that dataset exactly (same value, at the printed precision or finer)
// must be rendered with {% include cell.html %} instead, so that a corrected dataset corrects the
// article. Quotations of a source (blockquotes, text in quotation marks) are exempt.
import { units, numbersIn, datasetLinks } from './numbers-lib.mjs';

export const INCLUDE_RE = /\{%-?\s*include\s+(cell|ratio|verdict|measured-2026)\.html\s+([^%]*?)-?%\}/g;

export const includeArgs = (raw) => Object.fromEntries([...raw.matchAll(/(\w+)=(?:"([^"]*)"|'([^']*)'|(\S+))/g)].map((a) => [a[1], a[2] ?? a[3] ?? a[4]]));

/** A cell as Liquid's join prints it (an empty cell prints nothing). */
export const keyText = (v) => (v === null || v === undefined ? '' : String(v));
const joinKey = (r, n) => r.slice(0, n).map(keyText).join(' | ');

/** Fewest leading columns whose joined values tell the rows apart. */
export function keyWidth(d) {
  for (let k = 1; k <= d.columns.length; k++) {
    const seen = new Set(d.rows.map((r) => joinKey(r, k)));
    if (seen.size === d.rows.length) return k;
  }
  return d.columns.length;
}

/** The rows a cell.html `row` names (the same rule as _includes/lookup-cell.html). */
export function rowsNamed(d, row) {
  // Liquid's split (Ruby's) drops trailing empty fields, so a key may not end in an empty cell.
  const parts = String(row).split(' | ');
  while (parts.length && parts[parts.length - 1] === '') parts.pop();
  const n = parts.length;
  return d.rows.filter((r) => joinKey(r, n) === row);
}

/** Problems with one include's arguments: [] when it names one dataset, one row and a column. */
export function includeProblems(kind, args, datasets) {
  const out = [];
  const one = (id, row, col) => {
    const d = datasets.get(id);
    if (!d) return out.push(`no dataset "${id}"`);
    if (col !== undefined && !d.columns.some((c) => c.key === col)) out.push(`${id}: no column "${col}"`);
    if (row !== undefined) {
      const n = rowsNamed(d, row).length;
      if (n !== 1) out.push(`${id}: row "${row}" names ${n} rows (name one by its leading cells joined with " | ")`);
    }
  };
  if (kind === 'measured-2026') one(args.d);
  else if (kind === 'verdict') { one(args.d, args.row, 'verdict'); }
  else {
    one(args.d, args.row, args.col);
    if (kind === 'ratio') one(args.over_d || args.d, args.over_row || args.row, args.over_col || args.col);
  }
  return out;
}

/** Every cell/ratio/verdict/measured-2026 include in a post, with the datasets it names. */
export function includesIn(text) {
  return [...text.matchAll(INCLUDE_RE)].map((m) => ({ kind: m[1], args: includeArgs(m[2]), raw: m[0] }));
}

// Columns in these units say how a test was set up (line numbers, ranks, workers, threads, users,
// connections), not what it measured: a sentence that says "16 threads" is naming a configuration.
const SETUP_UNITS = new Set(['none', 'processes', 'threads', 'users', 'connections', 'workers']);

/** Is column j of d a measurement (numeric, outside the row key, not a set-up column)? */
// …and columns that position a row rather than measure it (the 99th percentile is a name).
const SETUP_KEYS = new Set(['percentile', 'line', 'rank', 'run_position']);

export const isMeasurement = (d, j, k = keyWidth(d)) => j >= k && d.columns[j].type !== 'string' && !SETUP_UNITS.has(d.columns[j].unit) && !SETUP_KEYS.has(d.columns[j].key);

/**
 * Measurement cells of a dataset, less the values of its method fields (requests, concurrency,
 * duration, runs): "10,000 requests" names the method even where a cell happens to read 10000;
 * and less numbers its prose states (below).
 */
export function measurements(d, kind) {
  const k = keyWidth(d);
  const m = d.method || {};
  const setup = new Set(['requests', 'concurrency', 'duration_s', 'runs'].map((x) => m[x]).filter((x) => typeof x === 'number'));
  // A number the dataset states in its own prose (hardware, caveats, errata) is quoted from the
  // dataset page and cannot be rendered from a cell; it may coincide with one.
  const prose = new Set([d.hardware, ...(d.caveats || []), ...(d.errata || []).flatMap((e) => [e.text, e.handling])]
    .flatMap((t) => [...String(t || '').matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((x) => Number(x[0].replace(/,/g, '')))));
  const out = [];
  for (const r of d.rows) r.forEach((v, j) => { if (typeof v === 'number' && isMeasurement(d, j, k) && !setup.has(v) && !prose.has(v)) out.push(kind ? { v, unit: d.columns[j].unit } : v); });
  return out;
}

// A number written as a percentage ("4.8%") is a hand-typed cell only if it equals a cell of a
// percentage column; one written as a ratio ("1.25×") only a cell of a ratio column. Other
// percentages and ratios are derived from two cells and checked by numbers.test.mjs.
const KIND_UNITS = { plain: null, percent: new Set(['%']), ratio: new Set(['ratio']) };

/** A unit without the parts that quote a source: blockquote lines and text in quotation marks. */
export function withoutQuotes(md) {
  return md.split('\n').filter((l) => !/^\s*>/.test(l)).join('\n')
    .replace(/“[^”]*”/g, ' ').replace(/(^|[\s(])"[^"\n]*"/g, '$1 ');
}

/** Datasets a unit links or names in a cell/ratio/verdict/measured include. */
export function unitDatasets(md) {
  const ids = new Set(datasetLinks(md));
  for (const inc of includesIn(md)) { if (inc.args.d) ids.add(inc.args.d); if (inc.args.over_d) ids.add(inc.args.over_d); }
  return [...ids];
}

/** Hand-typed numbers equal to a measurement cell of a dataset the unit links: [{where, number, dataset}] */
export function handTyped(p, datasets) {
  const out = [];
  const check = (where, md) => {
    for (const id of unitDatasets(md)) {
      const d = datasets.get(id);
      if (!d) continue;
      const cells = measurements(d, true);
      for (const n of numbersIn(withoutQuotes(md))) {
        const units = KIND_UNITS[n.kind];
        const same = (c) => Math.abs(c.v - n.value) < 1e-9 * Math.max(1, Math.abs(c.v));
        if (cells.some((c) => same(c) && (!units || units.has(c.unit)))) out.push({ where, number: n.text, dataset: id });
      }
    }
  };
  for (const u of units(p.body, p.bodyLine)) check(`${p.file}:${u.line}`, u.text);
  (p.data.do_now || []).forEach((it, i) => check(`${p.file}: do_now[${i}]`, `${it.href || ''} ${it.action || ''}`));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadPosts, loadDatasets } = await import('./lib.mjs');
  const want = process.argv.slice(2).map((f) => f.replace(/^.*\//, ''));
  const datasets = loadDatasets();
  let n = 0;
  for (const p of loadPosts()) {
    if (want.length && !want.includes(p.name)) continue;
    for (const x of handTyped(p, datasets)) { n++; console.log(`${x.where}: ${x.number} is a cell of ${x.dataset}`); }
    for (const inc of includesIn(p.body)) for (const e of includeProblems(inc.kind, inc.args, datasets)) { n++; console.log(`${p.file}: ${inc.raw}: ${e}`); }
  }
  console.log(`${n} problem(s)`);
}
