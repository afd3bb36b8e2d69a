// Helper for authors (not a test): replace hand-typed numbers that equal a dataset cell with
// {% include cell.html %}, choosing the cell whose row names appear in the same paragraph.
//   node tests/articles/cells-fix.mjs [_posts/FILE.md …]   (rewrites the files; review the diff)
// Front matter (the "Do this in 2026" box) is not rewritten: Liquid does not run there, so a number
// in an action must be reworded by hand. cells.test.mjs is the check; this only saves typing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, loadPosts, loadDatasets } from './lib.mjs';
import { units } from './numbers-lib.mjs';
import { handTyped, keyWidth, unitDatasets, isMeasurement, keyText } from './cells-lib.mjs';

const datasets = loadDatasets();
const want = process.argv.slice(2).map((f) => f.replace(/^.*\//, ''));

/** Spans of a unit that must not be rewritten: code, Liquid, link targets, tags, quotations. */
function protectedSpans(text) {
  const spans = [];
  for (const re of [/`[^`\n]*`/g, /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, /\]\([^)]*\)/g, /<[^>]+>/g, /“[^”]*”/g, /"[^"\n]*"/g, /https?:\/\/\S+/g]) {
    for (const m of text.matchAll(re)) spans.push([m.index, m.index + m[0].length]);
  }
  return spans;
}

function candidates(ids, value) {
  const out = [];
  for (const id of ids) {
    const d = datasets.get(id);
    if (!d) continue;
    const k = keyWidth(d);
    d.rows.forEach((r) => r.forEach((v, j) => {
      if (typeof v === 'number' && isMeasurement(d, j, k) && Math.abs(v - value) < 1e-9 * Math.max(1, Math.abs(v))) {
        out.push({ id, row: r.slice(0, k).map(keyText).join(' | ').replace(/( \| )+$/, ''), keys: r.slice(0, k).map(keyText), col: d.columns[j].key, label: d.columns[j].label, v });
      }
    }));
  }
  return out;
}

const score = (c, text) => {
  const t = text.toLowerCase();
  let s = 0;
  for (const k of c.keys) if (k.length > 1 && t.includes(k.toLowerCase())) s += 2;
  for (const w of String(c.label).toLowerCase().split(/\W+/)) if (w.length > 3 && t.includes(w)) s += 1;
  return s;
};

let changed = 0;
for (const p of loadPosts()) {
  if (want.length && !want.includes(p.name)) continue;
  const bad = handTyped(p, datasets).filter((x) => !x.where.includes('do_now'));
  if (!bad.length) continue;
  let body = p.body;
  const us = units(p.body, p.bodyLine);
  for (const u of us) {
    const here = bad.filter((x) => x.where === `${p.file}:${u.line}`);
    if (!here.length) continue;
    let text = u.text;
    for (const x of here) {
      const esc = x.number.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const re = new RegExp(`(?<![\\w.,])${esc}(?![\\w]|[.,]\\d)`, 'g');
      const spans = protectedSpans(text);
      const m = [...text.matchAll(re)].find((mm) => !spans.some(([a, b]) => mm.index >= a && mm.index < b));
      if (!m) continue;
      const tail = x.number.match(/[^\d.,]+$/)?.[0] ?? '';
      const value = Number(x.number.slice(0, x.number.length - tail.length).replace(/,/g, ''));
      const cs = candidates(unitDatasets(text), value).sort((a, b) => score(b, text) - score(a, text));
      if (!cs.length) continue;
      const c = cs[0];
      const printedDec = ((x.number.slice(0, x.number.length - tail.length)).split('.')[1] || '').length;
      const jsonDec = (String(c.v).split('.')[1] || '').length;
      const dec = printedDec !== jsonDec ? ` decimals=${printedDec}` : '';
      const inc = `{% include cell.html d="${c.id}" row=${c.row.includes('"') ? `'${c.row}'` : `"${c.row}"`} col="${c.col}"${dec} %}`;
      text = text.slice(0, m.index) + inc + tail + text.slice(m.index + m[0].length);
      changed++;
    }
    body = body.replace(u.text, text);
  }
  const file = join(ROOT, p.file);
  const raw = readFileSync(file, 'utf8');
  writeFileSync(file, raw.slice(0, raw.length - p.body.length) + body);
}
console.log(`${changed} number(s) replaced`);
