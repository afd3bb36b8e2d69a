// Wording shared by the experiments: a summary sentence computed from the rows, never typed in.
import { compare } from '../stats.mjs';
import { readIsolation, PROTOCOL } from '../protocol.mjs';

const fmt = (v) => (v >= 100 ? String(Math.round(v)) : String(Math.round(v * 100) / 100));

/** "X had the highest … (median N); of K comparisons with their baseline, a better, b worse, c within noise." */
export function verdictSentence(records, spec, what, nameOf) {
  const col = spec.labels.length + 1;
  const measured = records.filter((r) => typeof r.row[col] === 'number');
  if (!measured.length) return `No configuration produced a reading of ${what}; see the raw output for why.`;
  const higher = ['rps', 'jps'].includes(spec.primary);
  const best = measured.reduce((a, b) => ((higher ? b.row[col] > a.row[col] : b.row[col] < a.row[col]) ? b : a));
  const counts = { better: 0, worse: 0, 'within noise': 0, 'too few runs': 0, unsettled: 0 };
  for (const r of records) if (r.cmp && r.cmp.verdict in counts) counts[r.cmp.verdict] += 1;
  const n = Object.values(counts).reduce((a, b) => a + b, 0);
  const unit = { jps: 'jobs/s', p99_ms: 'ms', rps: 'req/s', cpu_s: 's', cpu_ms: 'ms', time_s: 's', p50_ms: 'ms', pss_mib: 'MiB' }[spec.primary];
  // The best median is named only where a verdict backs it: it beat its baseline, or it is a baseline every other
  // configuration of its comparison fell behind. Otherwise the range, and no ranking (issue 22 review).
  const rivals = records.filter((r) => r.cmp && r !== best && r.baseGroup === best.group);
  const beatsBaseline = best.cmp ? best.cmp.verdict === 'better' : rivals.length > 0 && rivals.every((r) => r.cmp.verdict === 'worse');
  // Beating its own baseline is not enough to be named first: it must also beat the runner-up directly (a
  // configuration can beat a slow baseline and still tie the next best). Without the runs to test that, no name.
  const runnerUp = measured.filter((r) => r !== best).sort((a, b) => (higher ? b.row[col] - a.row[col] : a.row[col] - b.row[col]))[0];
  // A record's values are the readings of the runs that count (summaryRows, pss-verdict.mjs): the same runs as its row.
  const runs = (r) => (r.values || []).filter(Number.isFinite);
  const backed = beatsBaseline && (!runnerUp || (runs(best).length > 0 && runs(runnerUp).length > 0
    && compare(runs(runnerUp), runs(best), { higherIsBetter: higher, seed: 1, minRuns: 3 }).verdict === 'better'));
  const values = measured.map((r) => r.row[col]);
  const parts = [backed
    ? `${nameOf(best)} had the ${higher ? 'highest' : 'lowest'} median ${what} (${fmt(best.row[col])} ${unit}), a difference beyond the noise`
    : `The medians of ${what} ranged from ${fmt(Math.min(...values))} to ${fmt(Math.max(...values))} ${unit}, and no configuration is ranked first: its lead is not beyond the noise`];
  if (n) parts.push(`of ${n} comparisons with a baseline, ${counts.better} came out better, ${counts.worse} worse and ${counts['within noise']} within the noise${counts['too few runs'] ? `; ${counts['too few runs']} had too few runs for a verdict` : ''}${counts.unsettled ? `; ${counts.unsettled} ${counts.unsettled === 1 ? 'was' : 'were'} unsettled (no verdict: the runs left out or the repeats decided it)` : ''}`);
  return `${parts.join('; ')}.`;
}

/** The database the app ran on in this run (quick runs use SQLite to skip starting a server). */
export function dbName(params) {
  return { postgresql: 'PostgreSQL 17', mariadb: 'MariaDB 11.8', sqlite: 'SQLite' }[params.RB_DB || 'postgresql'];
}

/**
 * Where the run's processes ran, from its own isolation record (protocol.sh's isolation-PLACE.txt), never typed in:
 * a caveat that said "the same two cores" stayed in datasets measured pinned. server: what ran on the server's CPU;
 * load: the load generator; waits: what the pages wait for there.
 */
export function placementCaveat(ctx, { server = 'The app server and its database', load = 'wrk', waits = 'the database', shared = "the database shares the server's CPU, as on a one-machine deployment, and " } = {}) {
  const iso = readIsolation(ctx.raw);
  const pins = iso.map((i) => /^pinned server=(\d+) load=(\d+)/.exec(i.text)).filter(Boolean);
  if (iso.length && pins.length === iso.length) {
    const [, cpuServer, cpuLoad] = pins[0];
    return `${server} ran on CPU ${cpuServer} and ${load} on CPU ${cpuLoad} (taskset; the run's isolation record)${waits ? `: ${shared}the pages spend part of their time waiting for ${waits}` : ''}.`;
  }
  const why = iso.length ? iso.map((i) => i.text.replace(/^none\s*/, '')).join('; ') : 'the run predates the isolation record';
  return `${server} and ${load} shared the machine's CPUs (not pinned: ${why}), so the load generator took CPU from the server${waits ? `; the pages also spend part of their time waiting for ${waits}` : ''}.`;
}

/**
 * A full run's warm-up in words, as lab/bench/lib.sh's rb_warmup did it with the run's recorded parameters (params),
 * so that a dataset rebuilt from old raw output still says what happened then. connections: the warm-up's own, a
 * number for rb_measure_pages (it warms up at the measured run's connections) or null for the callers that leave
 * rb_warmup at its 2. Null when the run had no warm-up (RB_WARMUP_S 0: the caller says why).
 */
export function warmupText(params, connections = null) {
  if (!params?.RB_WARMUP_S) return null;
  // Without the window parameter (runs before the protocol) or in a --quick run, a fixed time at 2 connections.
  if (Number(params.RB_QUICK) || !params.RB_WARMUP_WINDOW_S) return `${params.RB_WARMUP_S} s of wrk (2 connections)`;
  const most = params.RB_WARMUP_MAX_S ?? PROTOCOL.warmup.max_s;
  // Before version 7: two consecutive windows within the tolerance, always at 2 connections.
  if (params.RB_WARMUP_MIN_REQUESTS === undefined || params.RB_WARMUP_MIN_REQUESTS === '') {
    return `wrk at 2 connections until two consecutive ${params.RB_WARMUP_WINDOW_S} s windows were within ${params.RB_WARMUP_TOLERANCE_PCT} % (the protocol's warm-up then, at most ${most} s)`;
  }
  const at = connections ? `the measured connections (${connections})` : '2 connections';
  return `wrk at ${at} until throughput is steady (the protocol's warm-up, at most ${most} s)`;
}
