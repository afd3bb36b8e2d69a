// Reading a run back: every raw output file through the importer for its tool, the server's reported Ruby, the
// protocol record and the memory samples, into the result records the datasets are built from.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseWrk } from '../importers/wrk.mjs';
import { parse as parseAb } from '../importers/ab.mjs';
import { parse as parseHyperfine } from '../importers/hyperfine.mjs';
import { readWarm } from './warm.mjs';
import { readJobs } from './jobs-read.mjs';
import { readOverload } from './overload-read.mjs';
import { readReplica } from './replica-read.mjs';
import { httpFailure, parseProtocolFile, protocolVersionOf, PROTOCOL } from './protocol.mjs';
import { readRepeatReasons } from './repeats.mjs';
import { judgeWindows } from './steadiness.mjs';
import { readOpenLoop, readOpenLoopRuns } from './openloop.mjs';
import { pssPeak } from '../pss-csv.mjs';
import { rawName } from './plan.mjs';

/** Parse one raw output file with the importer for its tool; returns metrics or { error }. */
export function readMeasurement(tool, file, measurement = {}) {
  if (!fs.existsSync(file)) return { error: 'no output (the run did not reach this measurement)' };
  const text = fs.readFileSync(file, 'utf8');
  try {
    if (tool === 'wrk') {
      const r = parseWrk(text);
      if (r.error) return { error: r.error };
      const l = r.lua;
      const errors = r.socket.connect + r.socket.read + r.socket.write + r.socket.timeout + r.non2xx;
      // Error responses are not throughput: a run where more than 1 % of the responses were HTTP errors (or timed
      // out) has no reading. Socket read errors alone are not failures: a server that closes the connection after
      // each response (Unicorn, no keep-alive) makes wrk count one per request.
      // A run that completed no request is a failed run, never a reading of 0 (protocol.mjs, httpFailure).
      const requests = l ? l.requests : r.requests;
      const failure = httpFailure({ requests, bad: r.non2xx + r.socket.timeout });
      if (failure) return { error: failure, errors };
      return {
        rps: r.rps ?? (l ? l.requests / (l.duration_us / 1e6) : null),
        p50_ms: l ? l.latency_us.percentiles['50'] / 1000 : r.percentiles['50'] ?? null,
        p99_ms: l ? l.latency_us.percentiles['99'] / 1000 : r.percentiles['99'] ?? null,
        requests: r.requests,
        errors,
        // Responses per second in each window (protocol version 5; the first and last windows are partial), and
        // version 6's judgement of them under today's thresholds (the driver's own, made as it ran, is in .protocol).
        ...(r.windows ? { rps_windows: r.windows.counts.map((n) => n / r.windows.window_s), steadiness: judgeWindows(r.windows.counts, PROTOCOL.http.steadiness, r.windows.window_s) } : {}),
      };
    }
    if (tool === 'ab') {
      const r = parseAb(text);
      if (r.error) return { error: r.error };
      const failure = httpFailure({ requests: r.complete, bad: (r.failed || 0) + (r.non2xx || 0) });
      if (failure) return { error: failure, errors: (r.failed || 0) + (r.non2xx || 0) };
      return {
        rps: r.rps === null ? null : Number(r.rps),
        p50_ms: r.percentiles['50'] ?? null,
        p99_ms: r.percentiles['99'] ?? null,
        requests: r.complete,
        errors: (r.failed || 0) + (r.non2xx || 0),
      };
    }
    if (tool === 'openloop') return readOpenLoop(text);
    if (tool === 'warm') return readWarm(text, { yjit: measurement.yjit });
    if (tool === 'jobs') return readJobs(text);
    if (tool === 'overload') return readOverload(text);
    if (tool === 'replica') return readReplica(text);
    if (tool === 'hyperfine') {
      const [r] = parseHyperfine(text);
      const bad = r.exitCodes.filter((c) => c !== 0).length;
      if (bad) return { error: `the command exited non-zero in ${bad} run(s)` };
      return { time_s: r.stats.median ?? r.stats.mean, cpu_s: r.stats.user !== null && r.stats.system !== null ? r.stats.user + r.stats.system : null, errors: 0 };
    }
  } catch (err) {
    return { error: `unreadable ${tool} output: ${err.message}` };
  }
  throw new Error(`no reader for tool ${tool}`);
}

/**
 * Every measurement of the plan read back from the raw directory through the importers. params.RB_SERVER_RUBY
 * (an experiment's parameter): what every server of the run must have reported running (NNN-cell-rR.ruby, from
 * the app's x-lab-ruby header); a run whose server reported anything else, or nothing, is a failed run. No params:
 * a run being read as it is measured (protocolVersionOf: today's version).
 */
export function readResults(plan, cells, raw, params = null) {
  const results = [];
  const text = (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim() : null);
  for (const entry of plan) {
    const cell = cells.find((c) => c.id === entry.cell);
    const skipped = text(path.join(raw, `${rawName(entry)}.skip`));
    const server = text(path.join(raw, `${rawName(entry)}.ruby`));
    const failed = text(path.join(raw, `${rawName(entry)}.failed`)) || (skipped ? null : serverFailure(server, params?.RB_SERVER_RUBY));
    for (const m of cell.measurements) {
      const base = rawName(entry, m.id);
      const file = path.join(raw, `${base}.${m.ext || 'txt'}`);
      const status = text(path.join(raw, `${base}.status`));
      const badStatus = status !== null && !/^2/.test(status) ? { error: `the page answered HTTP ${status || 'nothing'} before the measurement, so it was not measured` } : null;
      const metrics = skipped ? { error: skipped, skipped: true } : failed ? { error: failed } : badStatus || readMeasurement(m.tool, file, m);
      const memory = m.memory ? readMemory(path.join(raw, `${base}.pss.csv`)) : null;
      const protocol = parseProtocolFile(text(path.join(raw, `${base}.protocol`)));
      // A load tool that crashed (non-zero exit) is a failed run even if it printed something readable.
      const crashed = protocol && protocol.exit && !metrics.error ? { error: `the load tool exited with status ${protocol.exit} (its output is kept)` } : null;
      // The open-loop phase after this page's closed-loop run (openloop.mjs), for measurements that ask for it.
      const openLoop = m.openLoop ? failOpenLoop(readOpenLoopRuns(raw, base), failed) : null;
      const firstTry = skipped || failed ? null : readFirstTry(m, raw, base, protocol);
      const repeatedBecause = readRepeatReasons(raw, base, protocol, protocolVersionOf(params));
      results.push({ entry, cell, measurement: m, metrics: crashed || metrics, firstTry, memory, openLoop, protocol, repeatedBecause, server, load: text(path.join(raw, `${base}.load`)), file: fs.existsSync(file) ? path.basename(file) : null });
    }
  }
  return results;
}

/**
 * A repeated run's first try ({ metrics, protocol }), which protocol.sh keeps as BASE.disturbed-1.*: the dataset
 * checks that no verdict exists only because the driver chose which tries count (dataset.mjs). null when the run
 * was not repeated.
 */
export function readFirstTry(m, raw, base, protocol) {
  if (!protocol || !(protocol.tries > 1)) return null;
  const file = path.join(raw, `${base}.disturbed-1.${m.ext || 'txt'}`);
  if (!fs.existsSync(file)) return null;
  const p = path.join(raw, `${base}.disturbed-1.protocol`);
  return { metrics: readMeasurement(m.tool, file, m), protocol: parseProtocolFile(fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : null) };
}

/** Why a run's server does not count: it reported another Ruby or YJIT state than the run needs, or none. */
export function serverFailure(reported, expected) {
  if (!expected) return null;
  if (reported === null || reported === '') return `the server's Ruby and YJIT state were not recorded (no x-lab-ruby answer); this run needs ${expected}`;
  return reported === expected ? null : `the server ran ${reported}, not ${expected}`;
}

/** A failed cell run fails its open-loop runs too (they never count for a server in the wrong state). */
function failOpenLoop(runs, failed) {
  if (!runs || !failed) return runs;
  return Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, v.error ? v : { error: failed, protocol: v.protocol }]));
}

/** Peak PSS of a process tree from the driver's sampler CSV (t_s,pid,ppid,comm,rss_kib,pss_kib). */
export function readMemory(file) {
  if (!fs.existsSync(file)) return null;
  const peak = pssPeak(fs.readFileSync(file, 'utf8'));
  if (!peak) return null;
  return { peak_total_mib: peak.peak_kib / 1024, processes: peak.processes, per_process_mib: peak.peak_kib / 1024 / peak.processes, largest_process_mib: peak.max_kib / 1024, series: peak.series };
}
