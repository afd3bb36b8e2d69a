// Adds new columns to a published rebench dataset from its own raw output, changing nothing else. --rebuild
// recomputes the whole dataset (runs.csv, caveats, labels), which would also drop what was added by hand and take
// up any later change of wording; this takes from the recomputed dataset only the named columns and the summary's
// new sentence, after checking that both describe the same rows with the same figures.
import fs from 'node:fs';
import path from 'node:path';
import { rebuildFromRaw } from './runner.mjs';
import { PSS_KEYS } from './pss-verdict.mjs';

/** Figures that must agree between the published and the recomputed rows (the same runs, read the same way). */
const SAME = ['runs_ok', 'rps_median', 'pss_total_mib', 'verdict'];

/**
 * published + the columns KEYS of rebuilt (replacing earlier copies), with rebuilt's summary where it only adds to
 * the published one. Throws, saying where, when the two do not have the same rows, labels and figures.
 */
export function addColumns(published, rebuilt, keys) {
  if (published.id !== rebuilt.id) throw new Error(`${published.id}: the recomputed dataset is ${rebuilt.id}`);
  const at = (ds, k) => ds.columns.findIndex((c) => c.key === k);
  for (const k of keys) if (at(rebuilt, k) < 0) throw new Error(`${published.id}: the recomputed dataset has no column ${k}`);
  if (published.rows.length !== rebuilt.rows.length) throw new Error(`${published.id}: ${published.rows.length} published rows, ${rebuilt.rows.length} recomputed`);
  // The row labels: the string columns before the first figure.
  const labels = published.columns.slice(0, published.columns.findIndex((c) => c.type !== 'string')).map((c) => c.key);
  const compared = [...labels, ...SAME.filter((k) => at(published, k) >= 0 && at(rebuilt, k) >= 0)];
  published.rows.forEach((row, i) => {
    for (const k of compared) {
      const a = row[at(published, k)];
      const b = rebuilt.rows[i][at(rebuilt, k)];
      if (a !== b) throw new Error(`${published.id}: row ${i + 1} has ${k} ${JSON.stringify(a)} published but ${JSON.stringify(b)} recomputed from the raw output; not the same runs`);
    }
  });
  let summary = published.summary;
  if (rebuilt.summary !== published.summary) {
    // The published summary was the recomputed one's beginning: only a new sentence is added.
    if (commonHead(published.summary, rebuilt.summary) === null) throw new Error(`${published.id}: the published summary does not begin the recomputed one; published: "${published.summary}", recomputed: "${rebuilt.summary}"`);
    summary = rebuilt.summary;
  }
  const keep = published.columns.map((c, i) => (keys.includes(c.key) ? -1 : i)).filter((i) => i >= 0);
  return {
    ...published,
    summary,
    columns: [...keep.map((i) => published.columns[i]), ...keys.map((k) => rebuilt.columns[at(rebuilt, k)])],
    rows: published.rows.map((row, i) => [...keep.map((j) => row[j]), ...keys.map((k) => rebuilt.rows[i][at(rebuilt, k)])]),
  };
}

/** The published summary's first sentence(s) that begin the recomputed summary, else null. */
function commonHead(published, recomputed) {
  // A summary already extended earlier: its first part is whatever the recomputed one starts with.
  const parts = published.split(/(?<=\.) /);
  for (let n = parts.length; n > 0; n -= 1) {
    const head = parts.slice(0, n).join(' ');
    if (recomputed.startsWith(`${head} `)) return head;
  }
  return null;
}

/**
 * Add the PSS comparison (pss-verdict.mjs) to EXP's published dataset in OUTDIR from raw-output/ID. Returns
 * { file, dataset, changed }; writes the file (atomically) only when something changed.
 */
export function backfillPss(exp, outDir) {
  const id = exp.datasetIds()[0];
  const file = path.join(outDir, '_data', 'datasets', `${id}.json`);
  const raw = path.join(outDir, 'raw-output', id);
  if (!fs.existsSync(file)) throw new Error(`no published dataset ${path.relative(process.cwd(), file)}`);
  if (!fs.existsSync(path.join(raw, 'provenance.json'))) throw new Error(`no ${path.relative(process.cwd(), raw)}/provenance.json to compute the PSS columns from`);
  const published = JSON.parse(fs.readFileSync(file, 'utf8'));
  const rebuilt = rebuildFromRaw(exp, raw).datasets.find((d) => d.id === id);
  if (!rebuilt || !rebuilt.columns.some((c) => c.key === PSS_KEYS[0])) throw new Error(`${exp.name} has no PSS comparison to add`);
  const dataset = addColumns(published, rebuilt, PSS_KEYS);
  const text = `${JSON.stringify(dataset, null, 2)}\n`;
  const changed = text !== fs.readFileSync(file, 'utf8');
  if (changed) {
    const tmp = `${file}.partial-${process.pid}`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  }
  return { file, dataset, changed };
}
