// Version strings as the wizard accepts them: "3.3", "2.6.32", "7.2.2", "1.8.7".
// Comparison is numeric per dotted component; missing components count as 0.

export const VERSION_RE = /^\d{1,4}(\.\d{1,4}){0,3}$/;

const parsed = new Map();
export function parseVersion(v) {
  const k = String(v);
  let p = parsed.get(k);
  if (!p) {
    p = k.split('.').map((x) => Number.parseInt(x, 10));
    if (parsed.size > 2000) parsed.clear();
    parsed.set(k, p);
  }
  return p;
}

export function cmp(a, b) {
  const x = parseVersion(a);
  const y = parseVersion(b);
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = (x[i] || 0) - (y[i] || 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** a >= b */
export const gte = (a, b) => cmp(a, b) >= 0;
/** a < b */
export const lt = (a, b) => cmp(a, b) < 0;

/**
 * Is version v inside a capability range {since, until}? `since` is inclusive, `until` exclusive
 * (the first version that no longer has the feature). Either bound may be absent.
 */
export function inRange(v, range = {}) {
  if (range.since && lt(v, range.since)) return false;
  if (range.until && gte(v, range.until)) return false;
  return true;
}
