// Reading the arithmetic of the wizard's messages: "a × b + c = d" with the words between the numbers dropped;
// "p %" reads as p / 100 (a worker's private share of the app, memory-budget.mjs).
// Used by tests/wizard/arithmetic.test.mjs (every bundle of the sweep matrix) and small-host.test.mjs.

/** "1 host(s) × (2 process(es) × 15 connections + 6 for the job runner)" → 36, or null when it is not arithmetic. */
export function evaluate(expr) {
  // "75 % × 512 MB" is a share of a whole: the reader rounds such a product to whole MB, as the engine does.
  const share = /\d ?%/.test(expr);
  if (expr.includes('/')) return null; // a division the text wrote itself ("2 GB / 4"): not one of ours
  let bare = expr.replace(/(\d+) ?%/g, '($1 / 100)').replace(/\((s|es)\)/g, '').replace(/[A-Za-z][A-Za-z'’_-]*/g, ' ').replace(/×/g, '*').replace(/\s+/g, ' ').trim();
  // A clause inside parentheses ("344 database connections (8 host(s) × …"): drop the unmatched opening ones.
  while ((bare.match(/\(/g) || []).length > (bare.match(/\)/g) || []).length) bare = bare.replace('(', '');
  if (!/^[\d\s*+()/]+$/.test(bare) || !/[*+]/.test(bare) || /\(\s*\)/.test(bare)) return null;
  // eslint-disable-next-line no-new-func -- the string is digits, spaces, *, + and parentheses only (checked above)
  try {
    const v = Function(`"use strict"; return (${bare});`)();
    return share ? Math.round(v) : v;
  } catch {
    return null; // numbers side by side ("version 8 2"): not an equation
  }
}

/** Every "<expression> = N" in a text, the expression running back to the previous sentence or clause break. */
export function equations(text) {
  const flat = text.replace(/\n#\s*/g, ' ').replace(/\s+/g, ' ');
  return [...flat.matchAll(/([^;.:=]*?) = (\d+)(?!\.\d)/g)].map((m) => ({ expr: m[1], value: Number(m[2]) }))
    .filter((e) => /[×+]/.test(e.expr));
}
