// Protocol version 5's host-speed probe (lab/bench/speed-probe.rb, started by monitor.rb) as the Node side sees it:
// the driver parameters that switch it on, and what a run's figures mean for the dataset's quality record. The
// thresholds are in _data/measurement_protocol.json ("http"). From version 6 the probe still runs and its figures
// are kept (quality.host_speed_probe), but it repeats and leaves out nothing: steadiness.mjs judges load runs.
import fs from 'node:fs';
import path from 'node:path';
//   A run's .protocol file gains speed_slow_pct (the worst CPU's share of slow windows), speed_measured_pct (the
//   worst CPU's share of windows with enough spins), speed_probe_cpu_pct (the probe's own CPU time), slow_host
//   (1: still slow after the last try, left out) and repeats_slow_host (tries repeated because the host ran slow,
//   counted in the dataset's one record of repeats: repeats.mjs).

/** RB_* parameters for the probe; none in a --quick run (smoke anyway, and a calibration would add seconds). */
export function hostSpeedParams(P, { quick }) {
  const H = P.http && P.http.host_speed_probe;
  if (!H || quick) return { RB_SPEED_CALIBRATE_S: '', RB_WRK_WINDOW_S: '' };
  return {
    RB_SPEED_CALIBRATE_S: H.calibrate_s,
    RB_SPEED_SPIN_MS: H.spin_ms,
    RB_SPEED_PERIOD_MS: H.period_ms,
    RB_SPEED_WINDOW_S: H.window_s,
    RB_SPEED_SLOW_RATIO: H.slow_ratio,
    RB_SPEED_MIN_SPINS: H.min_spins_per_window,
    RB_SPEED_QUANTILE: H.calibration_quantile,
    // From version 6 the probe only records (judges_runs false): no slow-host repeats.
    RB_SPEED_MAX_SLOW_PCT: H.judges_runs === false ? '' : H.max_slow_pct,
    RB_WRK_WINDOW_S: P.http.wrk_window_s,
  };
}

/** Seconds the probe's calibration may add to a driver batch: the idle gate's longest wait, then its spins. */
export function calibrationS(P, params) {
  if (!Number(params.RB_SPEED_CALIBRATE_S)) return 0;
  return P.idle_gate.max_wait_s + P.idle_gate.window_s + P.idle_gate.poll_s + Number(params.RB_SPEED_CALIBRATE_S) + 5;
}

/** speed-calibration-PLACE.txt files of a raw directory (rb_speed_calibrate): { place, gate_ok, … } each. */
export function readCalibrations(raw) {
  if (!raw || !fs.existsSync(raw)) return [];
  return fs.readdirSync(raw).filter((n) => /^speed-calibration-.*\.txt$/.test(n)).map((n) => {
    const kv = Object.fromEntries([...fs.readFileSync(path.join(raw, n), 'utf8').matchAll(/^(\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
    return { place: n.replace(/^speed-calibration-|\.txt$/g, ''), ...kv };
  });
}

/**
 * What the probe's figures say about a dataset measured under protocol version `version` (P: the protocol).
 * runs: the dataset's measured (not skipped) runs; open-loop runs are read from each run's openLoop.
 * Returns { reasons, runs_slow_host }; from version 6 also record, the probe's figures for quality.host_speed_probe
 * (no reasons: it judges nothing).
 */
export function hostSpeedQuality(P, version, runs, { quick, excludes, tries, raw = null }) {
  const H = P.http.host_speed_probe;
  const probed = runs.filter((r) => !r.metrics.in_process);
  const reasons = [];
  let slow = 0;
  let unmeasured = 0;
  let noFigure = 0;
  let total = 0;
  let slowReference = 0;
  const slowPcts = [];
  for (const r of probed) {
    for (const p of [r.protocol, ...Object.values(r.openLoop || {}).map((o) => o.protocol)]) {
      total += 1;
      if (!p || !Number.isFinite(p.speed_windows)) { noFigure += 1; continue; }
      if (Number.isFinite(p.speed_slow_pct)) slowPcts.push(p.speed_slow_pct);
      // Spins well below their reference at the median: the calibration itself caught the host at its slow speed.
      if (Object.keys(p).some((k) => /^speed_cpu\d+_ratio_median$/.test(k) && p[k] < 1 / H.slow_ratio)) slowReference += 1;
      if (p.slow_host === 1) slow += 1;
      else if (!(p.speed_measured_pct >= H.min_measured_pct)) unmeasured += 1;
    }
  }
  if (!total || quick) return { reasons, runs_slow_host: slow };
  // Version 6: the probe's reading depends on what runs beside it on this host, so it is a record, not a judgement.
  if (version >= 6) {
    const s = slowPcts.sort((a, b) => a - b);
    const record = { judges_runs: false, load_runs: total, runs_with_figures: total - noFigure, ...(s.length ? { slow_pct_median: s[Math.floor(s.length / 2)], slow_pct_max: s[s.length - 1] } : {}) };
    return { reasons, runs_slow_host: 0, record };
  }
  if (version < 5) {
    reasons.push(`measured ${version < 1 ? 'before the protocol' : `under protocol version ${version}`}, before the host-speed probe: a host that ran this machine slow during a run (invisible to the load average and steal) cannot be ruled out for its ${total} load runs`);
    return { reasons, runs_slow_host: 0 };
  }
  for (const c of readCalibrations(raw)) if (c.gate_ok === '0') reasons.push(`the host-speed probe was calibrated on ${c.place} while the idle gate was closed (other programs' CPU or steal above it), so its reference may be a slow one`);
  if (slowReference) reasons.push(`in ${slowReference} of ${total} load runs the probe's spins ran well under their calibrated time (below ${(1 / H.slow_ratio).toFixed(2)}× at the median on some CPU): the calibration caught the host slow, so those runs' slow windows are undercounted`);
  if (noFigure) reasons.push(`${noFigure} of ${total} load runs have no host-speed figure (the probe's calibration or its spinners failed: see driver.log)`);
  if (unmeasured) reasons.push(`the host-speed probe measured fewer than ${H.min_measured_pct} % of the ${H.window_s} s windows on some CPU in ${unmeasured} of ${total} load runs (at the lowest priority it yields to the experiment), so a slow host cannot be ruled out there`);
  if (slow) reasons.push(`the host ran this machine slow (spins over ${H.slow_ratio}× their calibrated time) in more than ${H.max_slow_pct} % of the windows of ${slow} of ${total} load runs after ${tries} ${tries === 1 ? 'try' : 'tries'}; ${excludes ? 'they are left out of the medians and verdicts' : 'never repeated (--no-wait), they count in the medians'}`);
  return { reasons, runs_slow_host: slow };
}
