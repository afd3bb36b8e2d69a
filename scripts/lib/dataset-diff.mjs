// What changed between two versions of a dataset's data: rows added, removed and changed, matched
// by their label (the first text column, e.g. the run or configuration name) or by position when
// labels repeat. Used by scripts/import --force and by the pull-request preview.

// The key of each row: its label when every label is unique, else its position ("row 3").
function rowKeys(data) {
  const labelIdx = (data.columns || []).findIndex((c) => c.type === 'string');
  const labels = labelIdx < 0 ? [] : data.rows.map((r) => String(r[labelIdx]));
  const unique = labelIdx >= 0 && new Set(labels).size === labels.length;
  return data.rows.map((r, i) => (unique ? labels[i] : `row ${i + 1}`));
}

const cellText = (v) => (v === null || v === undefined ? '—' : String(v));

// → { columnsAdded, columnsRemoved, added: [key], removed: [key], changed: [{ key, cells: [{ column, from, to }] }] }
export function diffRows(before, after) {
  const out = { columnsAdded: [], columnsRemoved: [], added: [], removed: [], changed: [] };
  const keysB = before ? (before.columns || []).map((c) => c.key) : [];
  const keysA = (after.columns || []).map((c) => c.key);
  out.columnsAdded = keysA.filter((k) => !keysB.includes(k));
  out.columnsRemoved = keysB.filter((k) => !keysA.includes(k));
  const rowsB = new Map(before ? rowKeys(before).map((k, i) => [k, before.rows[i]]) : []);
  const rowsA = new Map(rowKeys(after).map((k, i) => [k, after.rows[i]]));
  for (const [key, row] of rowsA) {
    if (!rowsB.has(key)) { out.added.push(key); continue; }
    const old = rowsB.get(key);
    const cells = [];
    keysA.forEach((k, c) => {
      const j = keysB.indexOf(k);
      if (j < 0) return;
      if (JSON.stringify(old[j]) !== JSON.stringify(row[c])) cells.push({ column: k, from: cellText(old[j]), to: cellText(row[c]) });
    });
    if (cells.length) out.changed.push({ key, cells });
  }
  for (const key of rowsB.keys()) if (!rowsA.has(key)) out.removed.push(key);
  return out;
}

export function isEmptyDiff(d) {
  return !d.added.length && !d.removed.length && !d.changed.length && !d.columnsAdded.length && !d.columnsRemoved.length;
}

// Plain-text lines for a terminal.
export function diffText(d) {
  const lines = [];
  for (const k of d.columnsAdded) lines.push(`+ column ${k}`);
  for (const k of d.columnsRemoved) lines.push(`- column ${k}`);
  for (const k of d.added) lines.push(`+ row ${k}`);
  for (const k of d.removed) lines.push(`- row ${k}`);
  for (const c of d.changed) lines.push(`~ row ${c.key}: ${c.cells.map((x) => `${x.column} ${x.from} → ${x.to}`).join(', ')}`);
  return lines;
}
