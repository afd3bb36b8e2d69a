// The readers of the jobs and timeouts experiments (scripts/rebench jobs, timeouts), fed by the real tools against
// servers this test starts on 127.0.0.1: lab/bench/jobs-client.rb computes throughput and enqueue→start latency
// from the lines jobs write (here written by a server playing the app's POST /bench/jobs with known timestamps);
// a run whose jobs did not all run is failed, never a zero. The open-loop generator's report of an overloaded
// route keeps its errors as figures (the outcome of an overload experiment), and a route that never answers is a
// failed run. The experiments themselves run in the lab (minutes; not in this test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, run, tmpDir } from '../tools/util.mjs';
import { readJobs } from '../../scripts/lib/rebench/jobs-read.mjs';
import { readOverload } from '../../scripts/lib/rebench/overload-read.mjs';
import { readMeasurement } from '../../scripts/lib/rebench/readback.mjs';

const CLIENT = path.join(ROOT, 'lab/bench/jobs-client.rb');
const OPENLOOP = path.join(ROOT, 'scripts/lib/measure/openloop-cli.mjs');

/** Plays POST /bench/jobs: writes one line per job, job i waiting (i + 1) * 10 ms and running 2 ms; `drop` jobs never run. */
function appServer(appDir, { drop = 0 } = {}) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const q = new URLSearchParams(body);
      const n = Number(q.get('n'));
      const dir = path.join(appDir, 'tmp', 'bench-jobs');
      fs.mkdirSync(dir, { recursive: true });
      const t0 = Date.now() / 1000;
      const lines = [];
      for (let i = 0; i < n - drop; i += 1) {
        const enq = t0 + i * 0.001;
        const start = enq + (i + 1) * 0.01;
        lines.push(`${q.get('kind')} ${enq.toFixed(6)} ${start.toFixed(6)} ${(start + 0.002).toFixed(6)} ${4000 + (i % 2)}\n`);
      }
      fs.appendFileSync(path.join(dir, `${q.get('run')}.log`), lines.join(''));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ enqueued: n, seconds: 0.05, adapter: 'test' }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })));
}

function serve(handler) {
  const server = http.createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

test('jobs-client.rb: throughput and latency from the jobs\' own lines; missing jobs fail the run', { timeout: 60000 }, async (t) => {
  const appDir = tmpDir('jobs-client');
  t.after(() => fs.rmSync(appDir, { recursive: true, force: true }));
  const { server, url } = await appServer(appDir);
  t.after(() => server.close());
  const r = await run('ruby', [CLIENT, '--url', url, '--app', appDir, '--run', 'full', '--kind', 'trivial', '--n', '100', '--timeout', '10'], { timeoutMs: 30000 });
  assert.equal(r.code, 0, r.stderr);
  const m = readJobs(r.stdout);
  assert.equal(m.error, undefined, r.stdout);
  assert.equal(m.requests, 100);
  assert.equal(m.errors, 0);
  // Job i waited (i + 1) * 10 ms: the nearest-rank p50 is the 50th job (500 ms), p99 the 99th (990 ms).
  assert.ok(Math.abs(m.p50_ms - 500) < 1, `p50 ${m.p50_ms}`);
  assert.ok(Math.abs(m.p99_ms - 990) < 1, `p99 ${m.p99_ms}`);
  // From the first enqueue (t0) to the last end (t0 + 0.099 + 1.0 + 0.002): 100 jobs in 1.101 s.
  assert.ok(Math.abs(m.jps - 100 / 1.101) < 0.5, `jobs per second ${m.jps}`);
  assert.equal(m.jobs.processes, 2);
  assert.equal(m.jobs.adapter, 'test');
  for (const k of ['pg_connections_max', 'pg_connections_queue_max', 'pg_cpu_ms_queue']) assert.ok(m.jobs[k] === null || Number.isFinite(m.jobs[k]), `${k}: a number or unknown, never made up`);

  // Paced: one request per job at the rate; the lines still come from the jobs.
  const paced = await run('ruby', [CLIENT, '--url', url, '--app', appDir, '--run', 'paced', '--kind', 'trivial', '--n', '5', '--mode', 'paced', '--rate', '20', '--timeout', '10'], { timeoutMs: 30000 });
  const pm = readJobs(paced.stdout);
  assert.equal(pm.requests, 5, paced.stdout);
  assert.match(paced.stdout, /^mode=paced$/m);
  assert.ok(Math.abs(pm.p50_ms - 10) < 1, `every paced job is the first of its request: 10 ms, got ${pm.p50_ms}`);

  // 3 of 100 jobs never run: the client stops waiting at its timeout, and the run is failed (above 1 %), not counted.
  const lossy = await appServer(appDir, { drop: 3 });
  t.after(() => lossy.server.close());
  const t0 = Date.now();
  const lr = await run('ruby', [CLIENT, '--url', lossy.url, '--app', appDir, '--run', 'lossy', '--kind', 'write', '--n', '100', '--timeout', '1'], { timeoutMs: 30000 });
  assert.ok(Date.now() - t0 < 20000, 'bounded by --timeout');
  assert.match(lr.stdout, /^missing=3$/m);
  const lm = readJobs(lr.stdout);
  assert.match(lm.error, /3 of 100 jobs had not run/);
  assert.equal(lm.errors, 3);
  // Bad input is refused with a message, before anything is sent.
  const bad = await run('ruby', [CLIENT, '--url', url, '--app', appDir, '--run', '../x', '--kind', 'trivial', '--n', '1'], { timeoutMs: 30000 });
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /--run must be/);
  // An enqueue the app refused is a failed run with the reason.
  const { server: refusing, url: refUrl } = await serve((req, res) => { res.statusCode = 422; res.end('no'); });
  t.after(() => refusing.close());
  const rr = await run('ruby', [CLIENT, '--url', refUrl.replace(/\/$/, ''), '--app', appDir, '--run', 'refused', '--kind', 'trivial', '--n', '1'], { timeoutMs: 30000 });
  assert.match(readJobs(rr.stdout).error, /HTTP 422/);
  assert.match(readJobs('').error, /no job-client summary/);
});

test('timeouts: an overloaded route keeps its errors as figures; a route that never answers is a failed run', { timeout: 60000 }, async (t) => {
  let i = 0;
  const half = await serve((req, res) => { i += 1; res.statusCode = i % 2 ? 200 : 500; res.end('x\n'); });
  t.after(() => half.server.close());
  const r = await run(process.execPath, [OPENLOOP, '--url', half.url, '--rate', '40', '--duration', '1', '--timeout-ms', '2000'], { timeoutMs: 30000 });
  assert.equal(r.code, 0, r.stderr);
  const m = readOverload(r.stdout);
  assert.equal(m.error, undefined);
  assert.ok(m.requests >= 15 && m.errors >= 15, `half answered, half failed: ${m.requests} ok, ${m.errors} failed`);
  assert.ok(m.overload.failed_pct > 40 && m.overload.failed_pct < 60, `failed share ${m.overload.failed_pct}`);
  assert.ok(m.p99_ms > 0);
  // The same report through the runner's reader for the experiment's tool.
  const dir = tmpDir('overload');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'x.txt'), r.stdout);
  assert.equal(readMeasurement('overload', path.join(dir, 'x.txt')).errors, m.errors);

  const silent = await serve(() => {});
  t.after(() => { silent.server.closeAllConnections(); silent.server.close(); });
  const s = await run(process.execPath, [OPENLOOP, '--url', silent.url, '--rate', '5', '--duration', '1', '--timeout-ms', '500'], { timeoutMs: 30000 });
  const sm = readOverload(s.stdout);
  assert.match(sm.error, /no request .* was answered/);
});
