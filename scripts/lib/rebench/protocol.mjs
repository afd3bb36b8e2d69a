// The measurement protocol of scripts/rebench, as code. The thresholds live in one data file
// (_data/measurement_protocol.json, also printed on repeat.md); this module turns them into the
// lab driver's parameters, decides which runs failed or were disturbed, and grades a dataset:
//   benchmark: isolation held, the idle gate held for every run, runs long and numerous enough;
//   smoke:     anything else, with the reasons and the measured foreign load.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../measure/common.mjs';
import { hostSpeedParams, hostSpeedQuality } from './host-speed.mjs';
import { repeatRecord } from './repeats.mjs';
import { steadinessParams, steadinessQuality } from './steadiness.mjs';
import { spreadQuality } from './spread-check.mjs';

export const PROTOCOL_FILE = path.join(REPO_ROOT, '_data', 'measurement_protocol.json');
export const PROTOCOL = JSON.parse(fs.readFileSync(PROTOCOL_FILE, 'utf8'));
export const PROTOCOL_NAME = `scaling-rails/rebench-protocol@${PROTOCOL.version}`;

/** RB_* parameters for the lab driver (lab/bench/lib.sh reads them from params.env). */
export function driverParams({ quick, noWait = false }) {
  const P = PROTOCOL;
  return {
    RB_PROTOCOL_VERSION: P.version,
    RB_CPU_SERVER: P.isolation.server_cpu,
    RB_CPU_LOAD: P.isolation.load_cpu,
    RB_MONITOR_S: P.monitor.interval_s,
    // A quick run has no gate window (it would add seconds to every measurement of a pipeline test); its
    // monitor still samples every run, and a quick dataset is smoke whatever the gate would have said.
    RB_GATE_WINDOW_S: quick ? '' : P.idle_gate.window_s,
    RB_GATE_MAX_FOREIGN: P.idle_gate.max_foreign_cpu_pct,
    RB_GATE_MAX_STEAL: P.idle_gate.max_steal_pct,
    // A quick run checks the gate once and records what it saw; it never waits for a quiet machine.
    RB_GATE_MAX_WAIT_S: quick || noWait ? 0 : P.idle_gate.max_wait_s,
    RB_GATE_POLL_S: P.idle_gate.poll_s,
    RB_DISTURB_MAX_FOREIGN: P.disturbance.max_foreign_cpu_pct,
    RB_DISTURB_MAX_STEAL: P.disturbance.max_steal_pct,
    RB_DISTURB_MAX_INTERVAL: P.disturbance.max_interval_pct ?? '',
    RB_TRIES: quick || noWait ? 1 : P.disturbance.tries,
    RB_WARMUP_WINDOW_S: P.warmup.window_s,
    RB_WARMUP_TOLERANCE_PCT: P.warmup.tolerance_pct,
    RB_WARMUP_MAX_S: P.warmup.max_s,
    // Version 7: warm-up at the measured concurrency, at least this many requests and windows, then no trend.
    RB_WARMUP_MIN_WINDOWS: P.warmup.min_windows ?? '',
    RB_WARMUP_MIN_REQUESTS: P.warmup.min_requests ?? '',
    RB_WARMUP_TREND_WINDOWS: P.warmup.trend_windows ?? '',
    RB_WARMUP_TREND_SIGMAS: P.warmup.trend_sigmas ?? '',
    // In-process CPU runs (workload.rb prints its plateau) are repeated like disturbed ones when it is above this.
    RB_PLATEAU_MAX: P.in_process.max_plateau_ratio,
    RB_BLOCK_ITERATIONS: P.in_process.block_iterations,
    RB_READING_QUANTILE: P.in_process.reading_quantile,
    // Load runs (version 5): the host-speed probe and wrk's responses per window; version 6 judges the latter.
    ...hostSpeedParams(P, { quick }),
    ...steadinessParams(P, { quick }),
  };
}

/**
 * A full (not --quick) run meets the protocol's minimum length and count: HTTP runs of at least
 * runs.min_duration_s, and runs.min_runs runs per configuration unless --runs says otherwise (fewer runs grade the
 * dataset smoke). Returns the adjusted size params and run count.
 */
export function protocolSize(params, runs, { quick }) {
  if (quick) return { params, runs };
  const out = { ...params };
  if (typeof out.RB_DURATION_S === 'number') out.RB_DURATION_S = Math.max(out.RB_DURATION_S, PROTOCOL.runs.min_duration_s);
  // Warm-up until stable replaces a fixed warm-up wherever the experiment warms up at all.
  if (typeof out.RB_WARMUP_S === 'number' && out.RB_WARMUP_S > 0) out.RB_WARMUP_S = PROTOCOL.warmup.max_s;
  // In-process CPU benchmarks time for at least as long, however fast the iterations.
  if (typeof out.RB_TIMED_S === 'number') out.RB_TIMED_S = Math.max(out.RB_TIMED_S, PROTOCOL.in_process.min_timed_s);
  return { params: out, runs: runs || PROTOCOL.runs.min_runs };
}

/** Fewest good runs a configuration needs for a verdict, given the runs planned for it. */
export function minGoodRuns(planned) {
  return Math.max(3, Math.ceil(PROTOCOL.runs.min_good_fraction * planned));
}

/**
 * A run still disturbed after its last try (lab/bench/protocol.sh wrote disturbed=1), off its plateau (unsteady=1,
 * version 3), on a host that ran slow (slow_host=1, version 5 only) or with unsteady throughput (version 6).
 */
export const isDisturbed = (run) => Boolean(run && run.protocol && (run.protocol.disturbed === 1 || run.protocol.unsteady === 1 || run.protocol.slow_host === 1 || run.protocol.unsteady_throughput === 1));

/**
 * A run that counts in medians and verdicts: it did not fail and was not disturbed. A disturbed run measured the
 * other programs (or the hypervisor) as much as the configuration, so it is left out like a failed run, kept in
 * the raw output and counted in the dataset's quality record.
 */
export const isGoodRun = (run) => !run.metrics.error && !isDisturbed(run);

/**
 * Whether a run's disturbed runs are left out: only where the driver could repeat them (RB_TRIES above 1). A --quick
 * or --no-wait run measures a busy machine on purpose and never repeats, so leaving its disturbed runs out would leave
 * nothing; they count there, and the dataset is smoke and says so.
 */
export const excludesDisturbed = (ctx) => !ctx.quick && Number(ctx.params?.RB_TRIES ?? PROTOCOL.disturbance.tries) > 1;
/** The filter for runs that count in a dataset built from ctx. */
export const countsIn = (ctx) => (excludesDisturbed(ctx) ? isGoodRun : (run) => !run.metrics.error);

/**
 * The failure rule for an HTTP run: zero completed requests, or errors and timeouts above the limit.
 * Returns a reason, or null for a good run.
 */
export function httpFailure({ requests, bad }) {
  if (!requests) return 'the run completed no request (a failed run, not a zero)';
  const limit = PROTOCOL.failure.max_error_pct / 100;
  if (bad > limit * requests) return `${bad} HTTP error responses or timeouts among ${requests} requests (above ${PROTOCOL.failure.max_error_pct} %)`;
  return null;
}

/** key=value lines of a run's .protocol file (written by rb_measured in lab/bench/lib.sh). */
export function parseProtocolFile(text) {
  if (!text) return null;
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^([a-z][a-z0-9_]*)=(.*)$/.exec(line.trim()); // per-CPU keys: speed_cpu0_…
    if (!m) continue;
    const n = Number(m[2]);
    out[m[1]] = m[2] !== '' && Number.isFinite(n) ? n : m[2];
  }
  return out;
}

/** isolation-PLACE.txt: "pinned server=0 load=1" or "none REASON". */
export function readIsolation(raw) {
  if (!raw || !fs.existsSync(raw)) return [];
  return fs.readdirSync(raw).filter((n) => /^isolation-.*\.txt$/.test(n)).map((n) => ({
    place: n.replace(/^isolation-|\.txt$/g, ''),
    text: fs.readFileSync(path.join(raw, n), 'utf8').trim(),
  }));
}

// A run's .load file: "1.00 0.80 0.70 -> 2.10 1.00 0.75" (1/5/15-min load before and after it).
const loadsOf = (text) => (text ? [...String(text).matchAll(/(?:^|->)\s*([\d.]+)/g)].map((m) => Number(m[1])) : []);
const round1 = (v) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 10) / 10);
const maxOf = (xs) => (xs.length ? Math.max(...xs) : null);

/**
 * The protocol version a run was measured under, from the driver parameters it recorded: from version 3 the
 * driver records it (RB_PROTOCOL_VERSION); version 2 added the burst cap (RB_DISTURB_MAX_INTERVAL); version 1 had
 * neither but its disturbance limit (RB_DISTURB_MAX_FOREIGN). Recorded parameters without any of these were
 * measured before the protocol: version 0, which every rule reads as older than version 1 (a rebuild must not
 * credit them with today's probe or steadiness records). Only a run with no parameters recorded yet, one being
 * measured now, takes today's version. A dataset rebuilt from old raw output keeps its version.
 */
export function protocolVersionOf(params) {
  if (!params) return PROTOCOL.version;
  if ('RB_PROTOCOL_VERSION' in params) return Number(params.RB_PROTOCOL_VERSION);
  if ('RB_DISTURB_MAX_INTERVAL' in params) return 2;
  return 'RB_DISTURB_MAX_FOREIGN' in params ? 1 : 0;
}

/** The disturbance rule in words, with the thresholds the run was measured under (params), else the protocol's. */
export function disturbText(params = null) {
  const D = PROTOCOL.disturbance;
  const foreign = params?.RB_DISTURB_MAX_FOREIGN ?? D.max_foreign_cpu_pct;
  const steal = params?.RB_DISTURB_MAX_STEAL ?? D.max_steal_pct ?? PROTOCOL.idle_gate.max_steal_pct;
  if (protocolVersionOf(params) < 2) return `other programs' CPU above ${foreign} % or the hypervisor's steal above ${steal} % over the run`;
  const capPct = params ? params.RB_DISTURB_MAX_INTERVAL : D.max_interval_pct;
  const cap = capPct ? `, or either above ${capPct} % of one CPU in any ${PROTOCOL.monitor.interval_s} s interval` : '';
  return `other programs' CPU above ${foreign} % or the hypervisor's steal above ${steal} % on any CPU over the run${cap}`;
}

/**
 * The dataset's quality grade from what the run recorded. ctx: { quick, runs, params, results, raw, load }.
 * Every condition the protocol sets that did not hold becomes a reason; no reason, no smoke.
 */
export function gradeRun(ctx) {
  const reasons = [];
  const P = PROTOCOL;
  const runs = ctx.results.filter((r) => !r.metrics.skipped);
  const monitored = runs.filter((r) => r.protocol && Number.isFinite(r.protocol.foreign_pct));
  const disturbed = runs.filter((r) => r.protocol && r.protocol.disturbed === 1).length;
  const gateFailed = runs.filter((r) => r.protocol && r.protocol.gate_ok === 0).length;
  const ungated = runs.filter((r) => !r.protocol || r.protocol.gate_ok === undefined).length;
  const failed = runs.filter((r) => r.metrics.error).length;
  if (ctx.quick) reasons.push('a --quick run: tiny sizes and 2 runs, for testing the pipeline');
  const iso = readIsolation(ctx.raw);
  if (!iso.length) reasons.push('no isolation record: the server and the load generator were not pinned to separate CPUs');
  for (const i of iso) if (!/^pinned\b/.test(i.text)) reasons.push(`no CPU isolation on ${i.place}: ${i.text.replace(/^none\s*/, '')}`);
  if (monitored.length < runs.length) reasons.push(`${runs.length - monitored.length} of ${runs.length} runs had no foreign-load monitor`);
  if (ungated && !ctx.quick) reasons.push(`${ungated} of ${runs.length} runs had no idle gate before them`);
  if (gateFailed) reasons.push(`the idle gate did not open before ${gateFailed} of ${runs.length} runs (foreign CPU above ${P.idle_gate.max_foreign_cpu_pct} % or steal above ${P.idle_gate.max_steal_pct} %)`);
  const tries = Number(ctx.params && ctx.params.RB_TRIES) || (ctx.quick ? 1 : P.disturbance.tries);
  if (disturbed) reasons.push(`${disturbed} of ${runs.length} runs were disturbed (${disturbText(ctx.params)}) after ${tries} ${tries === 1 ? 'try' : 'tries'}; ${excludesDisturbed(ctx) ? 'they are left out of the medians and verdicts' : 'never repeated (--quick or --no-wait), they count in the medians'}`);
  if (!ctx.quick && ctx.params && Number(ctx.params.RB_GATE_MAX_WAIT_S) === 0 && 'RB_GATE_MAX_WAIT_S' in ctx.params) reasons.push('run with --no-wait: the driver did not wait for the idle gate or repeat disturbed runs');
  if (ctx.runs < P.runs.min_runs) reasons.push(`${ctx.runs} runs per configuration (the protocol asks for ${P.runs.min_runs})`);
  const d = Number(ctx.params && ctx.params.RB_DURATION_S);
  if (Number.isFinite(d) && d < P.runs.min_duration_s) reasons.push(`${d} s per measured HTTP run (the protocol asks for ${P.runs.min_duration_s} s)`);
  // An outcome check the monitor cannot replace: a host that runs this guest at two speeds in turn. An in-process
  // run reads the 10th percentile of its blocks of iterations; the fastest tenth of the blocks must agree.
  const IP = P.in_process;
  const good = runs.filter((r) => !r.metrics.error);
  const offPlateau = good.filter((r) => Number.isFinite(r.metrics.plateau) && r.metrics.plateau > IP.max_plateau_ratio);
  const repeated = offPlateau.filter((r) => r.protocol && r.protocol.unsteady === 1).length;
  if (offPlateau.length) reasons.push(`the machine did not hold its fast speed in ${offPlateau.length} of ${runs.length} runs: the fastest tenth of their ${IP.block_iterations}-iteration blocks spread more than ${IP.max_plateau_ratio}× (the 10th percentile over the fastest, up to ${Math.max(...offPlateau.map((r) => r.metrics.plateau)).toFixed(2)}×), so their reading is not the code's fast-speed cost; ${repeated === offPlateau.length && excludesDisturbed(ctx) ? `still so after ${tries} tries, they are left out of the medians and verdicts` : 'measured before the driver repeated such runs, they count in the medians'}`);
  const inProcess = good.filter((r) => r.metrics.in_process);
  // A low quantile could come from blocks that skipped collections the others paid for; where GC is counted per
  // iteration (version 4), the reading's blocks must have run about their share. Not a reading for experiments
  // whose variable is GC itself, whose cost the low quantile would leave out by design.
  const gcShares = inProcess.map((r) => r.metrics.gc && r.metrics.gc.reading_share).filter(Number.isFinite);
  const gcShort = gcShares.filter((v) => v < IP.min_gc_reading_share);
  if (gcShort.length) reasons.push(`in ${gcShort.length} of ${runs.length} in-process runs the blocks the reading comes from ran fewer garbage collections than the run as a whole (down to ${Math.min(...gcShort).toFixed(2)} of their share; the protocol asks for ${IP.min_gc_reading_share}), so their reading leaves out part of what GC costs`);
  const unplateaued = inProcess.filter((r) => Number.isFinite(r.metrics.timed_s) && !Number.isFinite(r.metrics.plateau)).length;
  if (inProcess.length && unplateaued && !ctx.quick) reasons.push(`${unplateaued} of ${runs.length} in-process runs timed fewer than ${10 * IP.block_iterations} iterations, too few blocks for the plateau check`);
  const short = inProcess.filter((r) => Number.isFinite(r.metrics.timed_s) && r.metrics.timed_s < IP.min_timed_s).length;
  if (short && !ctx.quick) reasons.push(`${short} of ${runs.length} in-process runs timed less than ${IP.min_timed_s} s`);
  // Output from before version 3 (no timed length) was read by its median, which the host's speed decides: such
  // runs are held to version 2's rule, the spread of their iterations.
  const old = inProcess.filter((r) => !Number.isFinite(r.metrics.timed_s));
  const unsteady = old.filter((r) => Number.isFinite(r.metrics.steadiness) && r.metrics.steadiness > IP.v2_max_p90_over_p10);
  if (unsteady.length) reasons.push(`the machine changed speed within ${unsteady.length} of ${runs.length} runs: their timed iterations of the same code spread more than ${IP.v2_max_p90_over_p10}× (90th over 10th percentile, up to ${Math.max(...unsteady.map((r) => r.metrics.steadiness)).toFixed(1)}×), and their reading (the median, before protocol version 3) depends on the speed`);
  // Load runs: protocol version 5's host-speed probe (host-speed.mjs); older output has none, and is smoke for it.
  // From version 6 the probe is a record and each run's own responses per window judge it (steadiness.mjs).
  const version = protocolVersionOf(ctx.params);
  const speed = hostSpeedQuality(P, version, runs, { quick: ctx.quick, excludes: excludesDisturbed(ctx), tries, raw: ctx.raw });
  reasons.push(...speed.reasons);
  const steady = steadinessQuality(P, version, runs, { quick: ctx.quick, excludes: excludesDisturbed(ctx), tries });
  reasons.push(...steady.reasons);
  const spreadCheck = spreadQuality(P, version, runs, countsIn(ctx));
  reasons.push(...spreadCheck.reasons);
  const unstable = runs.filter((r) => r.protocol && r.protocol.warmup_stable === 0).length;
  if (unstable) reasons.push(`warm-up did not reach stable throughput before ${unstable} of ${runs.length} runs`);
  // The open-loop runs after a page's closed-loop run (openloop.mjs) are held to the same rules.
  const open = runs.flatMap((r) => (r.openLoop ? Object.values(r.openLoop) : []));
  const openBad = (what, n) => n && reasons.push(`${n} of ${open.length} open-loop runs ${what}`);
  openBad(`had the idle gate closed before them`, open.filter((o) => o.protocol && o.protocol.gate_ok === 0).length);
  openBad(`were disturbed (${disturbText(ctx.params)}); they are left out of the medians`, open.filter((o) => o.protocol && o.protocol.disturbed === 1).length);
  openBad(`failed (no answer, failed requests above ${P.failure.max_error_pct} %, or the generator could not run); they are excluded, not counted as zeros`, open.filter((o) => o.error).length);
  monitored.push(...open.filter((o) => o.protocol && Number.isFinite(o.protocol.foreign_pct)));
  if (failed) reasons.push(`${failed} of ${runs.length} runs failed (no request completed, errors above ${P.failure.max_error_pct} %, or the server or load tool crashed); they are excluded, not counted as zeros`);
  const foreign = monitored.map((r) => r.protocol.foreign_pct);
  const steal = monitored.map((r) => r.protocol.steal_pct).filter(Number.isFinite);
  const stealCpu = monitored.map((r) => r.protocol.steal_pct_cpu_max).filter(Number.isFinite);
  // Both in % of one CPU (monitor.rb from protocol version 2; version 1 recorded foreign load as a share of the
  // machine only, which is not the cap's unit, so its runs have no worst-interval figure here).
  const worst = monitored.flatMap((r) => [r.protocol.foreign_cpu_pct_worst_interval, r.protocol.steal_pct_worst_interval]).filter(Number.isFinite);
  const loads = runs.flatMap((r) => [r.protocol && r.protocol.load1, ...loadsOf(r.load)]).filter(Number.isFinite);
  if (ctx.load) loads.push(...ctx.load.before.slice(0, 1), ...ctx.load.after.slice(0, 1));
  const repeats = repeatRecord(runs);
  // The validator asks a benchmark grade for this record (dataset-rules.mjs): without it, a repeat chosen by its
  // outcome could not be told from a run that held the first time. Only output from before version 4 lacks it.
  if (!repeats && !reasons.length) reasons.push('no record of the tries the driver repeated and why (the driver counts them from protocol version 4)');
  return {
    grade: reasons.length ? 'smoke' : 'benchmark',
    // Runs from before the protocol (version 0) are graded after the fact under today's rules, whatever they recorded.
    protocol: version >= 1 && (iso.length || runs.some((r) => r.protocol))
      ? (version === PROTOCOL.version ? PROTOCOL_NAME : `scaling-rails/rebench-protocol@${version} (measured under it; its statistics follow version ${PROTOCOL.version}: disturbed runs left out, in-process output from before version 3 held to version 2's rule, load runs from before version 5 graded smoke for want of a host-speed probe, and version 5's load runs judged by its probe as they were measured)`)
      : `${PROTOCOL_NAME}, graded after the fact from the run's own records (the runs predate the protocol)`,
    foreign_load: {
      foreign_cpu_pct_max: round1(maxOf(foreign)),
      foreign_cpu_pct_median: round1(foreign.length ? [...foreign].sort((a, b) => a - b)[Math.floor(foreign.length / 2)] : null),
      steal_pct_max: round1(maxOf(steal)),
      // Recorded by the monitor from protocol version 2; runs measured before have no per-CPU figures.
      ...(stealCpu.length ? { steal_pct_cpu_max: round1(maxOf(stealCpu)) } : {}),
      ...(worst.length ? { worst_interval_pct_max: round1(maxOf(worst)) } : {}),
      load_average_max: round1(maxOf(loads)),
      source: monitored.length
        ? 'lab/bench/monitor.rb during every run: /proc/stat (machine busy and steal time) against the CPU time of every process of the experiment; load averages from /proc/loadavg'
        : 'no foreign-load monitor ran (CPU figures not measured); load averages (1 min) from /proc/loadavg before and after every run and the experiment',
    },
    runs_total: runs.length,
    runs_failed: failed,
    runs_disturbed: disturbed,
    // Recorded by the driver from protocol version 4: output from before has none of these.
    ...(runs.some((r) => r.protocol && 'unsteady' in r.protocol) ? { runs_unsteady: runs.filter((r) => r.protocol && r.protocol.unsteady === 1).length } : {}),
    ...(repeats ? { repeats } : {}),
    ...(gcShares.length ? { gc_reading_share_min: round2(Math.min(...gcShares)) } : {}),
    // The host-speed probe's record (protocol version 5 on); its repeats are in the repeats record.
    runs_slow_host: speed.runs_slow_host,
    // Version 6: the probe's figures as a record, and the load runs' own steadiness.
    ...(speed.record ? { host_speed_probe: speed.record } : {}),
    ...(steady.record ? { steadiness: steady.record } : {}),
    ...(spreadCheck.record ? { run_spread: spreadCheck.record } : {}),
    reasons,
  };
}

const round2 = (v) => Math.round(v * 100) / 100;

/**
 * Time one cell may take: the experiment's own allowance plus, per measurement, what the protocol adds in
 * the worst case (every try waits the whole gate, warms up the longest and runs the full duration).
 */
export function cellTimeoutS(baseS, measurements, params, { quick }) {
  const P = PROTOCOL;
  if (quick) return baseS + 3 * measurements; // the monitor's start and summary per measurement
  const perTry = P.idle_gate.max_wait_s + P.idle_gate.window_s + P.idle_gate.poll_s + Number(params.RB_DURATION_S || params.RB_TIMED_S || 0) + 5;
  return baseS + measurements * (P.warmup.max_s + P.disturbance.tries * perTry);
}
