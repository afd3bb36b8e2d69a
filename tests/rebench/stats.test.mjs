// Known inputs → known intervals, p-values and verdicts for scripts/lib/rebench/stats.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { median, quantile, spread, bootstrapRatioCI, mannWhitney, compare } from '../../scripts/lib/rebench/stats.mjs';

const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} ≠ ${b}`);

test('median, quantile (type 7) and spread', () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([]), null);
  close(quantile([1, 2, 3, 4], 0.25), 1.75);
  close(quantile([1, 2, 3, 4], 0.75), 3.25);
  const s = spread([10, 12, 11, 14, 13]);
  assert.deepEqual([s.n, s.median, s.min, s.max, s.iqr], [5, 12, 10, 14, 2]);
  close(s.rel_range, 4 / 12);
});

test('Mann-Whitney: exact p for complete separation and known table values', () => {
  // 5 vs 5, no overlap: U = 0, P = 2 / C(10,5) = 2/252.
  const sep = mannWhitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]);
  assert.equal(sep.method, 'exact');
  assert.equal(sep.u, 0);
  close(sep.p, 2 / 252);
  // Interleaved: U = 10; P(U <= 10) = 87/252 for m = n = 5, two-sided 174/252.
  const mid = mannWhitney([1, 2, 3, 4, 5], [1.5, 2.5, 3.5, 4.5, 5.5]);
  assert.equal(mid.u, 10);
  close(mid.p, 174 / 252);
  // 3 vs 3 fully separated: the smallest p this design can give, 2/20 = 0.1.
  close(mannWhitney([1, 2, 3], [4, 5, 6]).p, 0.1);
  // Ties switch to the normal approximation with tie correction.
  const tied = mannWhitney([1, 1, 2, 2, 3], [3, 4, 4, 5, 5]);
  assert.match(tied.method, /normal approximation/);
  assert.ok(tied.p > 0.005 && tied.p < 0.05, `p = ${tied.p}`);
});

test('bootstrap interval of the ratio of medians: exact on constant runs, inside the pairwise range, repeatable', () => {
  assert.deepEqual(bootstrapRatioCI([2, 2, 2, 2, 2], [4, 4, 4, 4, 4]), { ratio: 2, low: 2, high: 2 });
  const a = [10, 11, 12, 13, 14];
  const b = [20, 21, 22, 23, 24];
  const ci = bootstrapRatioCI(a, b, { seed: 7 });
  close(ci.ratio, 22 / 12);
  assert.ok(ci.low >= 20 / 14 && ci.high <= 24 / 10, JSON.stringify(ci));
  assert.ok(ci.low < ci.ratio && ci.ratio < ci.high);
  assert.deepEqual(bootstrapRatioCI(a, b, { seed: 7 }), ci, 'same seed, same interval');
  assert.equal(bootstrapRatioCI([], b), null);
  assert.equal(bootstrapRatioCI([0, 0, 0], b), null, 'a zero median has no ratio');
});

test('verdicts: better, worse, within noise, too few runs, not measured', () => {
  assert.equal(compare([10, 11, 12, 13, 14], [20, 21, 22, 23, 24]).verdict, 'better');
  assert.equal(compare([10, 11, 12, 13, 14], [20, 21, 22, 23, 24], { higherIsBetter: false }).verdict, 'worse', 'twice the latency is worse');
  assert.equal(compare([10, 11, 12, 13, 14], [5, 5.5, 6, 6.5, 7]).verdict, 'worse');
  // Overlapping runs: the interval contains 1 → no verdict.
  const noisy = compare([10, 11, 12, 13, 14], [11, 12, 13, 14, 15]);
  assert.equal(noisy.verdict, 'within noise');
  assert.ok(noisy.ci_low < 1 && noisy.ci_high > 1);
  // Separated but only 2 runs each: the rank test cannot reach p < 0.05.
  assert.equal(compare([10, 11], [20, 21]).verdict, 'too few runs');
  assert.equal(compare([], [1, 2, 3]).verdict, 'not measured');
  // One wild run does not flip a verdict when the rest overlap.
  assert.equal(compare([100, 101, 102, 103, 104], [99, 101, 103, 104, 500]).verdict, 'within noise');
});
