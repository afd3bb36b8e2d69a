// The open-loop generator (scripts/lib/measure/openloop*.mjs) against real HTTP servers this test starts on
// 127.0.0.1: a server that stalls for one second shows in the open-loop p99 (requests scheduled during the stall
// wait, and their wait counts), while ab, closed-loop, under-reports it (coordinated omission; wrk back-fills); the achieved
// rate meets the target; a refused or silent server gives failures, never zeros; every run is bounded in time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, run, tmpDir } from '../tools/util.mjs';
import { schedule, percentile } from '../../scripts/lib/measure/openloop.mjs';
import { parseReport } from '../../scripts/lib/measure/openloop-report.mjs';
import { parse as parseWrk } from '../../scripts/lib/importers/wrk.mjs';
import { parse as parseAb } from '../../scripts/lib/importers/ab.mjs';
import { readMeasurement } from '../../scripts/lib/rebench/readback.mjs';
import { readOpenLoopRuns, openLoopColumns, openLoopValues, addOpenLoop, FRACTIONS } from '../../scripts/lib/rebench/openloop.mjs';
import { gradeRun } from '../../scripts/lib/rebench/protocol.mjs';

const CLI = path.join(ROOT, 'scripts/lib/measure/openloop-cli.mjs');
const STALL_AT_MS = 1000;
const STALL_MS = 1000;

/**
 * A server answering at once, except that every request arriving during one window (STALL_AT_MS after its first
 * request, STALL_MS long) is held until the window ends: a GC pause or a lock, as a client sees it.
 */
function stallServer({ delayMs = 0, silent = false } = {}) {
  let first = null;
  const server = http.createServer((req, res) => {
    const now = Date.now();
    if (first === null) first = now;
    if (silent) return; // never answers: the generator's timeout must end it
    const stallEnd = first + STALL_AT_MS + STALL_MS;
    const wait = now >= first + STALL_AT_MS && now < stallEnd ? stallEnd - now : delayMs;
    setTimeout(() => res.end('ok\n'), wait);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

function stop(server) {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
}

async function openLoop(args, timeoutMs = 20000) {
  const r = await run(process.execPath, [CLI, ...args], { timeoutMs });
  assert.equal(r.code, 0, `the generator failed: ${r.stderr}`);
  return { ...parseReport(r.stdout), ms: r.ms, text: r.stdout };
}

test('schedules are seeded: constant spacing, or Poisson gaps with the right mean', () => {
  const c = schedule({ rate: 100, durationS: 2, arrival: 'constant' });
  assert.equal(c.length, 200);
  assert.ok(Math.abs(c[1] - c[0] - 10) < 1e-9);
  const p1 = schedule({ rate: 200, durationS: 10, arrival: 'poisson', seed: 7 });
  assert.deepEqual(p1, schedule({ rate: 200, durationS: 10, arrival: 'poisson', seed: 7 }));
  assert.notDeepEqual(p1.slice(0, 10), schedule({ rate: 200, durationS: 10, arrival: 'poisson', seed: 8 }).slice(0, 10));
  assert.ok(Math.abs(p1.length - 2000) < 200, `${p1.length} arrivals for 2000 expected`);
  assert.ok(p1.every((t, i) => i === 0 || t >= p1[i - 1]) && p1.at(-1) < 10000);
  assert.equal(percentile([1, 2, 3, 4], 50), 2);
  assert.equal(percentile([], 99), null);
});

test('a one-second stall: the open-loop p99 shows it, closed-loop ab under-reports it; the rate is met', async (t) => {
  const a = await stallServer();
  let open;
  try {
    open = await openLoop(['--url', a.url, '--rate', '100', '--duration', '3', '--timeout-ms', '5000']);
  } finally {
    await stop(a.server);
  }
  assert.equal(open.scheduled, 300);
  assert.equal(open.offered_rate, 100);
  assert.equal(open.keep_alive, 1, 'idle connections are reused by default, as wrk does');
  assert.equal(open.failed, 0, open.text);
  assert.ok(Math.abs(open.sent_rate - 100) <= 5, `sent ${open.sent_rate} req/s for 100 targeted`);
  assert.ok(Math.abs(open.achieved_rate - 100) <= 5, `answered ${open.achieved_rate} req/s for 100 targeted`);
  // A third of the requests were scheduled during the stall and waited up to a second each.
  assert.ok(open.p99_ms >= 800 && open.p99_ms <= 1500, `open-loop p99 ${open.p99_ms} ms`);
  assert.ok(open.p90_ms >= 500, `open-loop p90 ${open.p90_ms} ms`);
  assert.ok(open.p50_ms < 200, `open-loop p50 ${open.p50_ms} ms`);

  // ab (keep-alive, as wrk) is closed-loop and reports raw percentiles: only its 2 connections waited through the stall, a handful
  // among thousands of requests, so its p99 stays small although its slowest request waited about a second.
  const b = await stallServer();
  let ab;
  try {
    const w = await run('ab', ['-q', '-k', '-t', '3', '-n', '200000', '-c', '2', b.url], { timeoutMs: 20000 });
    ab = parseAb(w.stdout);
    assert.ok(ab.complete > 300, `ab completed ${ab.complete} requests: ${w.stderr}`);
  } finally {
    await stop(b.server);
  }
  assert.ok(ab.percentiles['100'] >= 800, `ab's slowest request ${ab.percentiles['100']} ms`);
  assert.ok(ab.percentiles['99'] < open.p99_ms / 4, `closed-loop (ab) p99 ${ab.percentiles['99']} ms against open-loop ${open.p99_ms} ms`);

  // wrk is closed-loop too, but Debian's wrk 4 back-fills its histogram before printing (stats_correct, with the
  // mean interval per connection as the expected one): its p99 shows a stall like this uniform one. repeat.md
  // says so; this checks the statement against the real tool.
  const c = await stallServer();
  let wrk;
  try {
    const w = await run('wrk', ['-t1', '-c4', '-d3s', '--latency', '-s', path.join(ROOT, 'scripts/lib/importers/wrk-report.lua'), c.url], { timeoutMs: 20000 });
    assert.equal(w.code, 0, w.stderr);
    wrk = parseWrk(w.stdout);
  } finally {
    await stop(c.server);
  }
  assert.ok(wrk.lua.requests > 300, `wrk completed ${wrk.lua.requests} requests`);
  t.diagnostic(`p99: open loop ${open.p99_ms} ms (p90 ${open.p90_ms}, p50 ${open.p50_ms}, ${open.sent_rate} req/s sent); ab ${ab.percentiles['99']} ms over ${ab.complete} requests (max ${ab.percentiles['100']}); wrk ${wrk.lua.latency_us.percentiles['99'] / 1000} ms over ${wrk.lua.requests}`);
  assert.ok(wrk.lua.latency_us.percentiles['99'] / 1000 >= 500, `wrk's corrected p99 ${wrk.lua.latency_us.percentiles['99'] / 1000} ms`);
});

test('a refused connection and a silent server are failures, never zeros; runs are bounded', async () => {
  const closedPort = await new Promise((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
  const refused = await openLoop(['--url', `http://127.0.0.1:${closedPort}/`, '--rate', '50', '--duration', '1', '--timeout-ms', '1000']);
  assert.equal(refused.scheduled, 50);
  assert.equal(refused.ok, 0);
  assert.equal(refused.socket_errors, 50);
  assert.equal(refused.failed, 50);
  assert.equal(refused.p99_ms, null, 'no percentile without an answer');
  assert.match(refused.text, /ECONNREFUSED ×50/);
  const dir = tmpDir('openloop');
  fs.writeFileSync(path.join(dir, 'refused.txt'), refused.text);
  const read = readMeasurement('openloop', path.join(dir, 'refused.txt'));
  assert.match(read.error, /no request/);

  const s = await stallServer({ silent: true });
  let silent;
  try {
    silent = await openLoop(['--url', s.url, '--rate', '20', '--duration', '1', '--timeout-ms', '300', '--new-connections']);
  } finally {
    await stop(s.server);
  }
  assert.equal(silent.timeouts, 20);
  assert.equal(silent.keep_alive, 0);
  assert.match(silent.text, /a new connection per request/);
  assert.equal(silent.ok, 0);
  assert.ok(silent.elapsed_s < 1 + 0.3 + 0.5, `ran ${silent.elapsed_s} s for 1 s + 0.3 s timeout`);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the connection cap: requests due while every connection is busy wait, counted late, and their wait counts', async () => {
  const a = await stallServer({ delayMs: 100 });
  let r;
  try {
    // 50 req/s with 100 ms answers needs about 5 connections; 2 are allowed, so most requests wait for one.
    r = await openLoop(['--url', a.url, '--rate', '50', '--duration', '0.8', '--max-in-flight', '2', '--timeout-ms', '5000']);
  } finally {
    await stop(a.server);
  }
  assert.equal(r.scheduled, 40);
  assert.equal(r.ok, 40, r.text);
  assert.ok(r.late >= 20, `${r.late} late sends reported`);
  assert.ok(r.max_send_lag_ms >= 500, `largest delay ${r.max_send_lag_ms} ms`);
  assert.ok(r.p99_ms >= r.max_send_lag_ms, 'latency counts the wait for a connection');
});

test('bad input is a clear error (exit 2), not a run', async () => {
  const r = await run(process.execPath, [CLI, '--url', 'http://127.0.0.1:9/', '--rate', '-5', '--duration', '1']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /rate must be a positive number/);
  const big = await run(process.execPath, [CLI, '--url', 'http://127.0.0.1:9/', '--rate', '100000', '--duration', '100']);
  assert.equal(big.code, 2);
  assert.match(big.stderr, /above the cap/);
});

test('rebench reads the open-loop phase back: medians of good runs, failed runs counted and graded, never zeros', async () => {
  assert.deepEqual(FRACTIONS, [0.5, 0.7, 0.9]);
  const a = await stallServer({ delayMs: 5 });
  let good;
  try {
    good = await openLoop(['--url', a.url, '--rate', '40', '--duration', '0.5']);
  } finally {
    await stop(a.server);
  }
  const raw = tmpDir('openloop-raw');
  const base = '001-wizard-r1-api';
  fs.writeFileSync(path.join(raw, `${base}-open50.txt`), good.text);
  fs.writeFileSync(path.join(raw, `${base}-open50.protocol`), 'exit=0\nforeign_pct=3.5\ngate_ok=1\ndisturbed=0\n');
  fs.writeFileSync(path.join(raw, `${base}-open70.failed`), 'no closed-loop throughput to take 70 % of (the wrk run failed)\n');
  fs.writeFileSync(path.join(raw, `${base}-open90.txt`), good.text);
  fs.writeFileSync(path.join(raw, `${base}-open90.protocol`), 'exit=1\n');
  const runs = readOpenLoopRuns(raw, base);
  fs.rmSync(raw, { recursive: true, force: true });
  assert.equal(runs.open50.p99_ms, good.p99_ms);
  assert.equal(runs.open50.target_rate, 40);
  assert.match(runs.open70.error, /no closed-loop throughput/);
  assert.match(runs.open90.error, /exited with status 1/);
  const values = openLoopValues([{ openLoop: runs }]);
  assert.equal(values.length, openLoopColumns().length);
  assert.deepEqual(values.slice(0, 2), [good.offered_rate, Math.round(good.achieved_rate * 10) / 10]);
  assert.equal(good.offered_rate, 40, '20 requests scheduled in 0.5 s');
  assert.deepEqual(values.slice(6), [null, null, null, null, null, 1, null, null, null, null, null, 1], 'a failed fraction has no figures, not zeros');
  const table = { columns: [{ key: 'rps_median' }], rows: [[100]] };
  assert.deepEqual(addOpenLoop({ ...table, records: [{ group: { results: [{}] } }] }), table, 'no open-loop phase, no columns');
  const withOpen = addOpenLoop({ ...table, records: [{ group: { results: [{ openLoop: runs }] } }] });
  assert.equal(withOpen.columns.length, 1 + 6 * FRACTIONS.length);
  assert.deepEqual(withOpen.rows[0], [100, ...values]);
  const q = gradeRun({ quick: true, runs: 2, params: {}, raw: '/nonexistent', results: [{ metrics: { rps: 100 }, protocol: { foreign_pct: 1, gate_ok: 1, disturbed: 0 }, openLoop: runs }] });
  assert.ok(q.reasons.some((r) => /2 of 3 open-loop runs failed/.test(r)), q.reasons.join('; '));
  assert.equal(q.foreign_load.foreign_cpu_pct_max, 3.5, 'the open-loop runs are monitored too');
});
