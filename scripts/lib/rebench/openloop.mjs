// The open-loop phase of scripts/rebench: after a page's closed-loop (wrk) run, the lab driver offers the same
// page a fixed arrival rate at fractions (_data/measurement_protocol.json, open_loop.fractions) of a basis, with
// scripts/lib/measure/openloop-cli.mjs. The basis is the throughput wrk just measured, unless the experiment asks
// for common rates (RB_OPEN_BASIS=calibrated): then it is one configuration's throughput per page, measured once
// before the rounds (lab/bench/lib.sh rb_calibrate), and every configuration gets the same absolute rates.
// This module reads those runs back and turns them into dataset columns beside the closed-loop throughput.
import fs from 'node:fs';
import path from 'node:path';
import { parseReport } from '../measure/openloop-report.mjs';
import { httpFailure, parseProtocolFile, isDisturbed, PROTOCOL } from './protocol.mjs';
import { median } from './stats.mjs';

export const FRACTIONS = PROTOCOL.open_loop.fractions;
/** Measurement-file suffix of one fraction: 0.7 -> "open70". */
export const suffixOf = (f) => `open${Math.round(f * 100)}`;

/** One open-loop raw output: metrics, or { error } for a failed run (no answer, or failures above the limit). */
export function readOpenLoop(text) {
  const r = parseReport(text);
  if (r.error) return { error: r.error };
  const failure = httpFailure({ requests: r.ok, bad: r.failed });
  if (failure) return { error: `open loop at ${r.target_rate} req/s: ${failure}`, errors: r.failed };
  return {
    target_rate: r.target_rate, offered_rate: r.offered_rate, achieved_rate: r.achieved_rate, sent_rate: r.sent_rate,
    p50_ms: r.p50_ms, p90_ms: r.p90_ms, p99_ms: r.p99_ms, p999_ms: r.p999_ms,
    late: r.late, errors: r.failed, requests: r.ok,
  };
}

/**
 * Every fraction's run of one page measurement (raw files BASE-openNN.*): { openNN: metrics & { protocol } }, or
 * null when the phase did not run for it (the closed-loop run never happened). A .failed file (no closed-loop
 * figure, no Node.js) or a generator that exited non-zero is a failed run, never a zero.
 */
export function readOpenLoopRuns(raw, base) {
  const text = (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null);
  const out = {};
  for (const f of FRACTIONS) {
    const s = suffixOf(f);
    const stem = path.join(raw, `${base}-${s}`);
    const failed = text(`${stem}.failed`);
    const report = text(`${stem}.txt`);
    if (failed === null && report === null) continue;
    const protocol = parseProtocolFile(text(`${stem}.protocol`));
    let metrics;
    if (failed !== null) metrics = { error: failed.trim() };
    else if (protocol && protocol.exit) metrics = { error: `the open-loop generator exited with status ${protocol.exit} (its output is kept)` };
    else metrics = readOpenLoop(report);
    out[s] = { ...metrics, protocol };
  }
  return Object.keys(out).length ? out : null;
}

/** Driver parameters: the fractions (space-separated) and the generator's settings. An experiment may set its own
 *  open-loop step (durationS, from its params' RB_OPEN_DURATION_S); otherwise each step lasts as long as the
 *  closed-loop run. */
export function openLoopParams({ quick, durationS = '' }) {
  const P = PROTOCOL.open_loop;
  return {
    RB_OPEN_FRACTIONS: FRACTIONS.join(' '),
    RB_OPEN_DURATION_S: quick ? P.quick_duration_s : durationS,
    RB_OPEN_ARRIVAL: P.arrival,
    RB_OPEN_MAX_IN_FLIGHT: P.max_in_flight,
    RB_OPEN_TIMEOUT_MS: P.timeout_ms,
    // The failure rule, for the driver's judgement of a calibration run (lib.sh rb_wrk_good_rps).
    RB_MAX_ERROR_PCT: PROTOCOL.failure.max_error_pct,
  };
}

/** What the rates are fractions of, in the column descriptions: each run's own throughput by default. */
export const OWN_BASIS = "the same run's closed-loop (wrk) throughput";

/**
 * The common basis of a run with RB_OPEN_BASIS=calibrated: { page: { rps } | { error } } from RAW/open-basis-PAGE.txt
 * (the rate the driver used) and RAW/calibrate-PAGE.txt (the wrk run it came from).
 */
export function readCalibration(raw, pages) {
  const read = (f) => { try { return fs.readFileSync(path.join(raw, f), 'utf8').trim(); } catch { return null; } };
  const out = {};
  for (const page of pages) {
    const rate = read(`open-basis-${page}.txt`);
    const rps = rate === null ? NaN : Number(rate);
    out[page] = Number.isFinite(rps) && rps > 0 ? { rps }
      : { error: read(`calibrate-${page}.txt`) === null ? 'not calibrated (no calibration run: see driver.log)' : 'the calibration run gave no good reading (see its raw output)' };
  }
  return out;
}

/** Columns per fraction: the rate offered, the rate answered, p50/p99/p99.9 (medians of the good runs). */
export function openLoopColumns(of = OWN_BASIS) {
  return FRACTIONS.flatMap((f) => {
    const s = suffixOf(f);
    const pct = Math.round(f * 100);
    return [
      { key: `${s}_rate`, label: `Open loop at ${pct} %: offered rate (median)`, type: 'number', unit: 'req/s', decimals: 1, description: `Requests scheduled per second: a fixed arrival rate of ${pct} % of ${of}, in whole requests over the run (scripts/lib/measure/openloop.mjs; an idle keep-alive connection is reused, as wrk does, else a new one is opened).` },
      { key: `${s}_achieved_rps`, label: `Open loop at ${pct} %: answered (median)`, type: 'number', unit: 'req/s', decimals: 1 },
      { key: `${s}_p50_ms`, label: `Open loop at ${pct} %: p50 (median of runs)`, type: 'number', unit: 'ms', decimals: 2, description: 'Latency from the scheduled send time, so queueing is counted (no coordinated omission).' },
      { key: `${s}_p99_ms`, label: `Open loop at ${pct} %: p99 (median of runs)`, type: 'number', unit: 'ms', decimals: 2 },
      { key: `${s}_p999_ms`, label: `Open loop at ${pct} %: p99.9 (median of runs)`, type: 'number', unit: 'ms', decimals: 2 },
      { key: `${s}_failed_runs`, label: `Open loop at ${pct} %: failed runs`, type: 'integer', unit: 'count', description: `Runs with no answer or more than ${PROTOCOL.failure.max_error_pct} % failed requests (errors, timeouts, requests never sent); left out of the medians, never counted as zeros.` },
    ];
  });
}

const r2 = (v, d) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 10 ** d) / 10 ** d);

/** Row values for openLoopColumns from one configuration's results (each carrying .openLoop: { open70: metrics }). */
export function openLoopValues(results) {
  return FRACTIONS.flatMap((f) => {
    const s = suffixOf(f);
    const runs = results.map((x) => x.openLoop && x.openLoop[s]).filter(Boolean);
    // Disturbed runs (protocol.sh's disturbed=1 after the last try) are left out as the closed-loop ones are.
    const good = runs.filter((m) => !m.error && !isDisturbed(m));
    const med = (k) => (good.length ? median(good.map((m) => m[k]).filter(Number.isFinite)) : null);
    return [r2(med('offered_rate'), 1), r2(med('achieved_rate'), 1), r2(med('p50_ms'), 2), r2(med('p99_ms'), 2), r2(med('p999_ms'), 2), runs.filter((m) => m.error).length];
  });
}

/**
 * Append the open-loop columns to a summaryRows table (rows in the same order as records); unchanged when the
 * phase never ran (a dataset rebuilt from raw output that predates it). of: what the rates are fractions of.
 */
export function addOpenLoop({ columns, rows, records }, { of = OWN_BASIS } = {}) {
  if (!records.some((rec) => rec.group.results.some((x) => x.openLoop))) return { columns, rows };
  return {
    columns: [...columns, ...openLoopColumns(of)],
    rows: rows.map((row, i) => [...row, ...openLoopValues(records[i].group.results)]),
  };
}
