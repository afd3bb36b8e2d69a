// Protocol version 6's throughput steadiness check as the Node side sees it. The driver judges every load run with
// lab/bench/steadiness.rb (its figures, steady_*, go into the run's .protocol file, and a run still unsteady after
// its last try has unsteady_throughput=1); judgeWindows is the same judgement in JavaScript, so the readback can
// state it for any wrk output that has per-window counts, and the tests hold the two together. Thresholds:
// _data/measurement_protocol.json, "http.steadiness".
import { configKey } from './repeats.mjs';

/** RB_* parameters for the driver; none in a --quick run (1 to 2 s runs have too few windows to judge). */
export function steadinessParams(P, { quick }) {
  const S = P.http && P.http.steadiness;
  if (!S || quick) return { RB_STEADY_MAX_OFF_PCT: '' };
  return {
    RB_STEADY_MIN_EXPECTED: S.min_expected_per_window,
    RB_STEADY_MIN_WINDOWS: S.min_windows,
    RB_STEADY_SLOW_RATIO: S.slow_ratio,
    RB_STEADY_SIGMAS: S.sigmas,
    RB_STEADY_MAX_OFF_PCT: S.max_off_pct,
    // Version 7: too few responses per block to judge, the half-against-half trend, the noise model's dispersion.
    RB_STEADY_MIN_BLOCK_EXPECTED: S.min_block_expected ?? '',
    RB_STEADY_TREND_MIN_PCT: S.trend_min_pct ?? '',
    RB_STEADY_TREND_SIGMAS: S.trend_sigmas ?? '',
    RB_STEADY_DISPERSION: S.dispersion ?? '',
    RB_STEADY_WINDOW_CV: S.window_cv ?? '',
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[Math.floor((s.length - 1) / 2)] + s[Math.floor(s.length / 2)]) / 2;
};
const sum = (xs) => xs.reduce((a, x) => a + x, 0);
// Half away from zero, as Ruby's Float#round (the trend is signed).
const round = (v, d) => (Math.sign(v) * Math.round(Math.abs(v) * 10 ** d)) / 10 ** d;

// Variance of successive differences over twice the mean (steadiness.rb's dispersion_of): 1 for Poisson counts.
function dispersionOf(xs) {
  if (xs.length < 3) return null;
  const mean = sum(xs) / xs.length;
  if (!(mean > 0)) return null;
  let d2 = 0;
  for (let i = 1; i < xs.length; i += 1) d2 += (xs[i] - xs[i - 1]) ** 2;
  return d2 / (2 * (xs.length - 1)) / mean;
}

// Half against half (steadiness.rb's trend_of); {} unless S.trend_min_pct is set (version 7).
function trendOf(inner, S, disp, wander) {
  if (S.trend_min_pct == null || S.trend_min_pct === '' || inner.length < 2) return {};
  const h = Math.floor(inner.length / 2);
  const a = sum(inner.slice(0, h));
  const b = sum(inner.slice(inner.length - h));
  if (a + b <= 0) return { trend_pct: 0, trend_z: 0, trending: 0 };
  const pct = a > 0 ? (100 * (b - a)) / a : 100;
  const z = (b - a) / Math.sqrt(disp * (a + b) + 2 * h * wander ** 2);
  const sig = Number(S.trend_sigmas ?? S.sigmas);
  return { trend_pct: round(pct, 1), trend_z: round(z, 2), trending: Math.abs(pct) > Number(S.trend_min_pct) && Math.abs(z) > sig ? 1 : 0 };
}

/**
 * The judgement of lab/bench/steadiness.rb (see there for the rule) on counts, the responses per window with the
 * partial first and last included. S: the protocol's http.steadiness (or the same keys as the driver's parameters).
 * Returns { judged: 0, why } or { judged: 1, windows, slow, fast, off_pct, worst_ratio, unsteady, … }.
 */
export function judgeWindows(counts, S, windowS = 1) {
  const inner = counts.slice(1, -1);
  const minWindows = S.min_windows;
  if (counts.length < 2 || inner.length < Math.max(minWindows, 1)) return { judged: 0, why: 'too_few_windows', inner_windows: Math.max(inner.length, 0) };
  const perWindow = median(inner);
  const most = Math.floor(inner.length / minWindows);
  let k = perWindow > 0 ? Math.ceil(S.min_expected_per_window / perWindow) : most;
  k = Math.min(Math.max(k, 1), most);
  const blocks = [];
  for (let i = 0; i < inner.length; i += k) blocks.push(inner.slice(i, i + k));
  if (blocks.length > 1 && blocks[blocks.length - 1].length < k) blocks[blocks.length - 2].push(...blocks.pop());
  const rate = perWindow; // the run's median window (as steadiness.rb)
  const floor = Number(S.min_block_expected) || 0;
  if (floor > 0 && rate * k < floor) return { judged: 0, why: 'underpowered', inner_windows: inner.length, median_per_window: round(rate, 1) };
  const disp = Number(S.dispersion) > 0 ? Number(S.dispersion) : 1;
  const cv = Number(S.window_cv) || 0;
  let slow = 0;
  let fast = 0;
  let worst = null;
  for (const b of blocks) {
    const n = sum(b);
    const e = rate * b.length;
    const noise = S.sigmas * Math.sqrt(disp * Math.max(e, 1) + (cv * rate) ** 2 * b.length);
    if (n < e / S.slow_ratio && n < e - noise) slow += 1;
    if (n > e * S.slow_ratio && n > e + noise) fast += 1;
    if (e > 0 && (worst === null || Math.abs(n / e - 1) > Math.abs(worst - 1))) worst = n / e;
  }
  const offPct = (100 * (slow + fast)) / blocks.length;
  const trend = trendOf(inner, S, disp, cv * rate);
  const dispersion = dispersionOf(inner);
  return {
    judged: 1, inner_windows: inner.length, windows: blocks.length, block_s: k * windowS, median_per_window: round(rate, 1),
    slow, fast, off_pct: round(offPct, 1), ...(worst === null ? {} : { worst_ratio: round(worst, 3) }),
    ...(dispersion === null ? {} : { dispersion: round(dispersion, 2) }), ...trend,
    unsteady: offPct > S.max_off_pct || trend.trending === 1 ? 1 : 0,
  };
}

const NOT_JUDGED_WHY = {
  no_windows: 'without per-window counts (ab, job or replica clients)',
  too_few_windows: 'too short to cut into blocks',
  underpowered: 'with too few responses per block to tell a dip from noise',
};

/**
 * What the steadiness check says about a dataset measured under protocol `version` (P: the protocol). runs: the
 * measured (not skipped) runs; open-loop runs are read from each run's openLoop. In-process runs have their own
 * check (the plateau) and are not counted. Returns { reasons, record } (record null before version 6: that output
 * is read as it was measured).
 */
export function steadinessQuality(P, version, runs, { quick, excludes, tries }) {
  const S = P.http.steadiness;
  const reasons = [];
  if (version < 6 || quick) return { reasons, record: null };
  const record = { judged: 0, not_judged: 0, not_judged_why: {}, runs_unsteady_throughput: 0 };
  let noRecord = 0;
  let offMax = null;
  let trending = 0;
  const dispersion = {};
  for (const r of runs.filter((x) => !x.metrics.in_process)) {
    for (const p of [r.protocol, ...Object.values(r.openLoop || {}).map((o) => o.protocol)]) {
      if (!p || !('steady_judged' in p)) { noRecord += 1; continue; }
      if (p.steady_judged === 1) {
        record.judged += 1;
        if (Number.isFinite(p.steady_off_pct)) offMax = Math.max(offMax ?? 0, p.steady_off_pct);
        if (p.steady_trending === 1) trending += 1;
        if (p === r.protocol && Number.isFinite(p.steady_dispersion)) (dispersion[configKey(r)] ||= []).push(p.steady_dispersion);
      } else {
        record.not_judged += 1;
        const why = String(p.steady_why || 'unknown');
        record.not_judged_why[why] = (record.not_judged_why[why] || 0) + 1;
      }
      if (p.unsteady_throughput === 1) record.runs_unsteady_throughput += 1;
    }
  }
  if (offMax !== null) record.off_pct_max = offMax;
  const total = record.judged + record.not_judged + noRecord;
  if (noRecord) reasons.push(`${noRecord} of ${total} load runs have no steadiness record (lab/bench/steadiness.rb did not run or failed: see driver.log)`);
  if (version >= 7) {
    // The noise model checked on real counts: each configuration's median dispersion (1 for Poisson counts).
    const keys = Object.keys(dispersion).sort();
    if (keys.length) {
      const all = keys.flatMap((k) => dispersion[k]);
      record.dispersion = { median: round(median(all), 2), min: Math.min(...all), max: Math.max(...all), by_configuration: Object.fromEntries(keys.map((k) => [k, round(median(dispersion[k]), 2)])) };
    }
    record.runs_trending = trending;
    // Version 7: a load run nobody judged could have run through a slow stretch unseen; it cannot carry a benchmark.
    if (record.not_judged) {
      const why = Object.entries(record.not_judged_why).map(([k, n]) => `${n} ${NOT_JUDGED_WHY[k] || k}`).join(', ');
      reasons.push(`${record.not_judged} of ${total} load runs could not be judged for steadiness (${why}), so a slow stretch in them cannot be ruled out`);
    }
  }
  const n = record.runs_unsteady_throughput;
  // The judgement cuts a run into blocks of windows, and counts blocks off; from version 7 a trend alone also counts.
  const trendText = version >= 7 && S.trend_min_pct != null ? `, or their second half more than ${S.trend_min_pct} % and ${S.trend_sigmas} standard deviations from their first` : '';
  if (n) reasons.push(`the throughput of ${n} of ${total} load runs was unsteady (more than ${S.max_off_pct} % of their blocks off the run's median by over ${S.slow_ratio}× and ${S.sigmas} Poisson standard deviations${trendText}) after ${tries} ${tries === 1 ? 'try' : 'tries'}; ${excludes ? 'they are left out of the medians and verdicts' : 'never repeated (--no-wait), they count in the medians'}`);
  return { reasons, record };
}
