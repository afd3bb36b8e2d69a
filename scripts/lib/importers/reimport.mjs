// scripts/import --force on an existing dataset: the new import replaces the data, and what a person
// wrote into the file after the last import survives. To tell a hand edit from a generated value the
// previous import is recomputed from the raw output the dataset points at (raw-output/ID/…): a field
// that differs from that recomputation was edited by hand. Without the raw output nobody can tell,
// so the import stops and shows the differences instead of guessing.
import { existsSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { importDataset } from './index.mjs';

// Fields people write (kept when edited) and fields that come from the tool output (always replaced).
export const PROSE_FIELDS = ['title', 'topic', 'year', 'summary', 'source.document', 'source.author', 'source.url', 'source.publisher',
  'measured', 'hardware', 'software', 'method.description', 'method.warmup', 'method.order', 'method.seed', 'method.command',
  'errata', 'caveats', 'attribution', 'license', 'related', 'charts'];
export const DATA_FIELDS = ['columns', 'rows', 'failures', 'method.tool', 'method.requests', 'method.concurrency', 'method.duration_s',
  'method.runs', 'method.aggregation', 'source.location', 'source.raw_output'];

const get = (obj, path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
function set(obj, path, value) {
  const keys = path.split('.');
  const last = keys.pop();
  const parent = keys.reduce((o, k) => (o[k] ??= {}), obj);
  if (value === undefined) delete parent[last]; else parent[last] = value;
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const isTodo = (v) => typeof v === 'string' && /^\s*TODO\b/.test(v);

// The previous import, recomputed from the raw files the existing dataset names; null if any is missing.
export function previousImport(existing, tool, opts, root) {
  const paths = String(existing?.source?.raw_output || '').split(/,\s*/).filter(Boolean);
  if (!paths.length || !paths.every((p) => p.startsWith('raw-output/') && existsSync(join(root, p)))) return null;
  // Run labels are the first column of one-row-per-file imports; otherwise the default (file name).
  const labelIdx = (existing.columns || []).findIndex((c) => c.type === 'string');
  const labels = existing.rows?.length === paths.length && labelIdx >= 0 ? existing.rows.map((r) => r[labelIdx]) : null;
  const inputs = paths.map((p, i) => ({
    file: join(root, p), rawPath: p, text: readFileSync(join(root, p), 'utf8'),
    label: labels && typeof labels[i] === 'string' ? labels[i] : basename(p, extname(p)),
  }));
  try { return importDataset(tool, inputs, opts); } catch { return null; }
}

// → { dataset, kept: [path], conflicts: [{ path, existing, fresh }], dataEdits: [{ path, existing, fresh }] }
export function mergeReimport({ existing, previous, fresh }) {
  const dataset = structuredClone(fresh);
  const kept = [];
  const conflicts = [];
  for (const path of PROSE_FIELDS) {
    const e = get(existing, path);
    const f = get(fresh, path);
    if (e === undefined || same(e, f) || isTodo(e)) continue;
    if (previous && same(e, get(previous, path))) continue; // generated last time, untouched since: regenerate
    set(dataset, path, e);
    if (previous) kept.push(path); else conflicts.push({ path, existing: e, fresh: f });
  }
  // Fields the importer never writes (added by hand) stay as they are.
  for (const [k, v] of Object.entries(existing)) if (!(k in dataset)) { dataset[k] = v; kept.push(k); }
  const dataEdits = previous ? DATA_FIELDS.filter((p) => !same(get(existing, p), get(previous, p))).map((path) => ({ path, existing: get(existing, path), fresh: get(fresh, path) })) : [];
  return { dataset, kept, conflicts, dataEdits };
}

const short = (v) => { const t = JSON.stringify(v); return t === undefined ? '(absent)' : t.length > 300 ? `${t.slice(0, 297)}…` : t; };
export function fieldDiff(list) {
  return list.flatMap(({ path, existing, fresh }) => [`  ${path}`, `    - ${short(existing)}`, `    + ${short(fresh)}`]);
}
