// Statistics for comparing two configurations measured over a few repeated runs.
// A difference gets a verdict only when both tests agree that it is larger than the noise:
//   1. a percentile bootstrap 95 % confidence interval of the ratio of medians (B resamples,
//      seeded, so the same runs always give the same interval) that excludes 1, and
//   2. a two-sided Mann-Whitney U test with p < 0.05 (exact distribution for small samples
//      without ties, normal approximation with tie correction otherwise).
// With fewer than 3 runs per side neither test can reach that level, so the verdict is
// "too few runs", never a guess.
import { makeRng } from '../measure/common.mjs';

export const ALPHA = 0.05;
export const BOOTSTRAP_RESAMPLES = 4000;
export const MIN_RUNS_FOR_VERDICT = 3;

const finite = (xs) => xs.filter((x) => typeof x === 'number' && Number.isFinite(x));

export function median(xs) {
  const s = finite(xs).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Quantile by linear interpolation between order statistics (type 7, as R and numpy default). */
export function quantile(xs, q) {
  const s = finite(xs).sort((a, b) => a - b);
  if (!s.length) return null;
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return s[lo] + (h - lo) * (s[hi] - s[lo]);
}

/** Spread of a set of runs: min, max, interquartile range and relative range. */
export function spread(xs) {
  const s = finite(xs);
  if (!s.length) return { n: 0, median: null, min: null, max: null, iqr: null, rel_range: null };
  const med = median(s);
  const lo = Math.min(...s);
  const hi = Math.max(...s);
  return { n: s.length, median: med, min: lo, max: hi, iqr: quantile(s, 0.75) - quantile(s, 0.25), rel_range: med ? (hi - lo) / Math.abs(med) : null };
}

/**
 * Percentile bootstrap interval of median(b) / median(a).
 * Returns { ratio, low, high } or null when a side has no values or a median of zero.
 */
export function bootstrapRatioCI(a, b, { resamples = BOOTSTRAP_RESAMPLES, level = 0.95, seed = 1 } = {}) {
  const xa = finite(a);
  const xb = finite(b);
  if (!xa.length || !xb.length) return null;
  const ma = median(xa);
  if (!ma) return null;
  const rng = makeRng(seed);
  const draw = (xs) => {
    const r = new Array(xs.length);
    for (let i = 0; i < xs.length; i += 1) r[i] = xs[Math.floor(rng() * xs.length)];
    return r;
  };
  const ratios = [];
  for (let i = 0; i < resamples; i += 1) {
    const da = median(draw(xa));
    if (da) ratios.push(median(draw(xb)) / da);
  }
  const tail = (1 - level) / 2;
  return { ratio: median(xb) / ma, low: quantile(ratios, tail), high: quantile(ratios, 1 - tail) };
}

/** Mann-Whitney U statistic for a (U of a against b) and the tie groups of the pooled sample. */
function ranks(a, b) {
  const pooled = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ties = [];
  let i = 0;
  while (i < pooled.length) {
    let j = i;
    while (j + 1 < pooled.length && pooled[j + 1].v === pooled[i].v) j += 1;
    const rank = (i + j + 2) / 2;
    for (let k = i; k <= j; k += 1) pooled[k].rank = rank;
    if (j > i) ties.push(j - i + 1);
    i = j + 1;
  }
  const ra = pooled.filter((p) => p.g === 0).reduce((s, p) => s + p.rank, 0);
  return { u: ra - (a.length * (a.length + 1)) / 2, ties };
}

/** Number of ways to reach each U value for sizes m, n (no ties): the exact null distribution. */
function exactUCounts(m, n) {
  // f[i][j][u]: arrangements of i a-values and j b-values with U = u (recursion on the largest value).
  const memo = new Map();
  const f = (i, j) => {
    const key = `${i},${j}`;
    if (memo.has(key)) return memo.get(key);
    let out;
    if (i === 0 || j === 0) out = [1];
    else {
      const x = f(i - 1, j).map((c, u) => ({ c, u: u + j })); // largest is an a: it beats all j b-values
      const y = f(i, j - 1).map((c, u) => ({ c, u }));
      out = new Array(i * j + 1).fill(0);
      for (const { c, u } of [...x, ...y]) out[u] += c;
    }
    memo.set(key, out);
    return out;
  };
  return f(m, n);
}

function normalCdf(z) {
  // Abramowitz and Stegun 7.1.26 via erf; accurate to about 1e-7, plenty for a 0.05 threshold.
  const t = 1 / (1 + 0.3275911 * Math.abs(z) / Math.SQRT2);
  const y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

/** Two-sided Mann-Whitney U test. Returns { u, p, method }. */
export function mannWhitney(a, b) {
  const xa = finite(a);
  const xb = finite(b);
  const m = xa.length;
  const n = xb.length;
  if (!m || !n) return { u: null, p: null, method: 'not computed (no runs on one side)' };
  const { u, ties } = ranks(xa, xb);
  if (!ties.length && m * n <= 400) {
    const counts = exactUCounts(m, n);
    const total = counts.reduce((s, c) => s + c, 0);
    const lowU = Math.min(u, m * n - u);
    let tailCount = 0;
    for (let k = 0; k <= lowU; k += 1) tailCount += counts[k];
    return { u, p: Math.min(1, (2 * tailCount) / total), method: 'exact' };
  }
  const mu = (m * n) / 2;
  const N = m + n;
  const tieTerm = ties.reduce((s, t) => s + (t ** 3 - t), 0) / (N * (N - 1));
  const sigma = Math.sqrt(((m * n) / 12) * ((N + 1) - tieTerm));
  if (sigma === 0) return { u, p: 1, method: 'normal approximation (all values tied)' };
  const z = (Math.abs(u - mu) - 0.5) / sigma;
  return { u, p: Math.min(1, 2 * (1 - normalCdf(Math.max(0, z)))), method: 'normal approximation with tie correction' };
}

/**
 * Compare candidate runs b against baseline runs a.
 * higherIsBetter: true for throughput, false for latency, time and memory.
 * Returns { ratio, ci_low, ci_high, p, verdict } where verdict is one of
 *   'better' | 'worse' | 'within noise' | 'too few runs' | 'not measured'.
 */
export function compare(a, b, { higherIsBetter = true, seed = 1, minRuns = MIN_RUNS_FOR_VERDICT } = {}) {
  const xa = finite(a);
  const xb = finite(b);
  if (!xa.length || !xb.length) return { ratio: null, ci_low: null, ci_high: null, p: null, verdict: 'not measured' };
  const ci = bootstrapRatioCI(xa, xb, { seed });
  const mw = mannWhitney(xa, xb);
  const base = { ratio: ci ? ci.ratio : null, ci_low: ci ? ci.low : null, ci_high: ci ? ci.high : null, p: mw.p };
  // Too few good runs on either side (failed runs are not values): no verdict.
  if (xa.length < Math.max(minRuns, MIN_RUNS_FOR_VERDICT) || xb.length < Math.max(minRuns, MIN_RUNS_FOR_VERDICT)) return { ...base, verdict: 'too few runs' };
  if (!ci) return { ...base, verdict: 'not measured' };
  const outside = ci.low > 1 || ci.high < 1;
  if (!outside || mw.p >= ALPHA) return { ...base, verdict: 'within noise' };
  const up = ci.ratio > 1;
  return { ...base, verdict: up === higherIsBetter ? 'better' : 'worse' };
}

export const METHOD_TEXT = `A difference is called better or worse only when a percentile bootstrap 95 % confidence interval of the ratio of medians (${BOOTSTRAP_RESAMPLES} resamples, seeded) excludes 1 and a two-sided Mann-Whitney U test gives p < ${ALPHA}; otherwise the verdict is "within noise" (or "too few runs" below ${MIN_RUNS_FOR_VERDICT} runs per side). Disturbed runs are left out; where counting them would change the verdict, or where every repeated run's first try in place of the try that counted would, it is "unsettled": no verdict.`;
// Added to the verdict column's description of datasets measured under protocol version 7 or later.
export const METHOD_TEXT_V7 = ' From protocol version 7 a comparison is also "unsettled" where the first tries would move the ratio of medians by more than 3.5 % (repeats chosen by their outcome must not set the size of a difference).';
