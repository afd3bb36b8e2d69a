// Helpers to read version-ranged capability data.
import { inRange, gte } from './version.mjs';

/** First row of a list ordered newest-first whose `since` is ≤ v. */
export function firstSince(rows, v) {
  return (rows || []).find((r) => gte(v, r.since || '0')); // rows are absent before the catalog is installed
}

/** Does capability `cap` ({since, until}) exist at version v? */
export const has = (cap, v) => Boolean(cap) && inRange(v, cap);

/** Names from a `reads` list (strings or {name, since, until}) that exist at version v. */
export function namesAt(reads, v) {
  return reads.filter((r) => typeof r === 'string' || inRange(v, r)).map((r) => (typeof r === 'string' ? r : r.name));
}
