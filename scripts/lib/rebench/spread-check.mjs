// Protocol version 7's outcome check on the runs of one configuration (review of 2026-11-27, blocker B1): on this
// host the same configuration measured ten times in one batch ran at levels up to 1.9x apart, in whole runs and in
// stretches of runs, mostly while the monitor saw no foreign load or steal. Nothing recorded says why (the host's
// speed is the likeliest; the app is not ruled out), so nothing can pick the runs to trust; what the dataset can do is refuse a benchmark grade
// while a configuration's kept runs spread that far, because such a spread is as large as most effects measured.
import { configKey } from './repeats.mjs';

/**
 * Configurations whose kept load runs (wrk throughput, metrics.rps) spread more than P.runs.max_spread_ratio,
 * fastest over slowest, with at least 3 runs. good: the runs that count (countsIn). Returns { reasons, record }:
 * record { max_ratio, by_configuration: { KEY: ratio } } over every configuration with 3+ runs, or null.
 */
export function spreadQuality(P, version, runs, good) {
  const limit = P.runs.max_spread_ratio;
  if (version < 7 || !limit) return { reasons: [], record: null };
  const groups = new Map();
  for (const r of runs) {
    if (!good(r) || r.metrics.in_process || !(r.metrics.rps > 0)) continue;
    const key = configKey(r);
    groups.set(key, [...(groups.get(key) || []), r.metrics.rps]);
  }
  const by = {};
  for (const [key, xs] of groups) if (xs.length >= 3) by[key] = Math.round((Math.max(...xs) / Math.min(...xs)) * 100) / 100;
  const keys = Object.keys(by).sort();
  if (!keys.length) return { reasons: [], record: null };
  const wide = keys.filter((k) => by[k] > limit);
  const record = { max_ratio: Math.max(...keys.map((k) => by[k])), by_configuration: Object.fromEntries(keys.map((k) => [k, by[k]])) };
  const reasons = wide.length
    ? [`the kept runs of ${wide.length} of ${keys.length} configurations spread more than ${limit}× from the slowest to the fastest (${wide.map((k) => `${k}: ${by[k]}×`).join(', ')}); nothing recorded says why (the host's speed, steal below the limits or the app itself), so a difference smaller than that spread is not established by this batch`]
    : [];
  return { reasons, record };
}
