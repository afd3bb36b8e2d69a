// An open-loop HTTP load generator: requests arrive at a fixed rate on a seeded schedule, whatever the
// server does, and each request's latency is measured from the time it was SCHEDULED to be sent. A closed-loop
// tool (wrk, ab) sends a connection's next request only after the previous answer, so a server stall delays the
// requests that users would have sent during it and their wait never shows (coordinated omission); here the
// requests scheduled during a stall are still sent (or wait for a free connection) and their wait counts.
//
// Why hand-written: Debian 13 and sid package no constant-rate generator (no vegeta, oha, wrk2 or k6), and the
// maintained npm tools either pace a closed loop (autocannon's overallRate) or time requests from their actual
// send (loadtest --rps); see README "Open-loop load". Percentiles are exact (a sorted array): every run is
// bounded in time and count, so nothing needs the approximation of an HDR histogram.
import http from 'node:http';
import { makeRng } from './common.mjs';

export const DEFAULTS = {
  arrival: 'constant', // or 'poisson'
  seed: 1,
  maxInFlight: 256, // connections open at once; a request due while all are busy waits and is counted late
  keepAlive: true, // an idle connection of the pool is reused (as wrk does); false: a new connection per request
  timeoutMs: 10000, // from the scheduled send time; a request without a full answer by then is a timeout
  lateMs: 10, // a request sent more than this after its scheduled time is "late" (cap reached or a slow loop)
  maxRequests: 200000,
};
export const PERCENTILES = [50, 90, 99, 99.9];

/** Scheduled send times in ms from the start: constant spacing, or exponential gaps (Poisson) from the seed. */
export function schedule({ rate, durationS, arrival = DEFAULTS.arrival, seed = DEFAULTS.seed }) {
  const out = [];
  const gap = 1000 / rate;
  const end = durationS * 1000;
  if (arrival === 'constant') {
    for (let t = 0; t < end; t = out.length * gap) out.push(t);
    return out;
  }
  const rng = makeRng(seed);
  for (let t = -Math.log(1 - rng()) * gap; t < end; t += -Math.log(1 - rng()) * gap) out.push(t);
  return out;
}

/** Exact percentile (nearest rank) of an ascending array; null when it is empty. */
export function percentile(sorted, p) {
  if (!sorted.length) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Check the options; returns a clear message for bad input, or null. */
export function badOptions(o) {
  let url;
  try { url = new URL(o.url); } catch { return `not a URL: ${o.url}`; }
  if (url.protocol !== 'http:') return `only http:// URLs are supported (got ${url.protocol})`;
  if (!(o.rate > 0) || !Number.isFinite(o.rate)) return `the rate must be a positive number of requests per second (got ${o.rate})`;
  if (!(o.durationS > 0) || o.durationS > 3600) return `the duration must be between 0 and 3600 s (got ${o.durationS})`;
  if (!['constant', 'poisson'].includes(o.arrival)) return `the arrival schedule must be constant or poisson (got ${o.arrival})`;
  if (!(o.maxInFlight >= 1)) return `the connection cap must be at least 1 (got ${o.maxInFlight})`;
  if (!(o.timeoutMs > 0)) return `the timeout must be positive (got ${o.timeoutMs} ms)`;
  if (o.rate * o.durationS > o.maxRequests * 1.1) return `${o.rate} req/s for ${o.durationS} s is about ${Math.round(o.rate * o.durationS)} requests, above the cap of ${o.maxRequests} (--max-requests)`;
  return null;
}

/**
 * Run the load. Resolves, after at most durationS + timeoutMs, with the counts and exact latencies. Every request
 * has a connection to itself while it runs (no pipelining): an idle one of the pool, else a new one, at most
 * maxInFlight at once; with keepAlive false, always a new one.
 */
export function runOpenLoop(options) {
  const o = { ...DEFAULTS, ...options };
  const bad = badOptions(o);
  if (bad) return Promise.reject(new Error(bad));
  const times = schedule(o).slice(0, o.maxRequests);
  const url = new URL(o.url);
  // Our own cap decides when a request may go, so the agent never queues one out of sight (maxSockets = the cap).
  const agent = o.keepAlive ? new http.Agent({ keepAlive: true, maxSockets: o.maxInFlight }) : false;
  const c = { scheduled: times.length, sent: 0, completed: 0, ok: 0, http_errors: 0, socket_errors: 0, timeouts: 0, unsent: 0, late: 0 };
  const latencies = [];
  // Answers per second of the wall clock, as wrk-report.lua counts them: the protocol's steadiness check (version 7)
  // judges an open-loop run by them too. At a fixed arrival rate a stall shows as a gap and then a catch-up burst.
  const perSecond = new Map();
  const errorKinds = new Map();
  let maxLag = 0;
  let inFlight = 0;
  let next = 0;
  let lastSend = 0;
  const waiting = []; // indices due but held back by the connection cap, oldest first
  const t0 = performance.now();
  const deadline = o.durationS * 1000 + o.timeoutMs;
  const now = () => performance.now() - t0;

  return new Promise((resolve) => {
    let timer = null;
    let finished = false;
    const open = new Set();

    function finish() {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // Anything still open at the deadline has run out its time: a timeout. Cleared first, so that the errors
      // destroy() raises cannot change the counts after they are reported.
      const left = [...open];
      open.clear();
      c.timeouts += left.length;
      if (left.length) errorKinds.set('timeout', (errorKinds.get('timeout') || 0) + left.length);
      for (const req of left) req.destroy();
      if (agent) agent.destroy();
      c.unsent = waiting.length + (times.length - next);
      const elapsedS = now() / 1000;
      latencies.sort((a, b) => a - b);
      resolve({
        options: { url: o.url, keepAlive: o.keepAlive, rate: o.rate, durationS: o.durationS, arrival: o.arrival, seed: o.seed, maxInFlight: o.maxInFlight, timeoutMs: o.timeoutMs, lateMs: o.lateMs },
        counts: c,
        errorKinds: Object.fromEntries(errorKinds),
        // The schedule's own rate (whole requests in the run: 4 for 3.2 req/s over 1 s), then what was sent and answered.
        offeredRate: c.scheduled / o.durationS,
        sentRate: c.sent / o.durationS,
        completedRate: c.ok / o.durationS,
        lastSendS: lastSend / 1000,
        elapsedS,
        maxSendLagMs: maxLag,
        latencyMs: Object.fromEntries(PERCENTILES.map((p) => [p, percentile(latencies, p)])),
        maxMs: latencies.length ? latencies[latencies.length - 1] : null,
        latencies,
        windows: windowsOf(perSecond),
      });
    }

    function settle(req, kind) {
      if (!open.delete(req)) return; // already counted (a timeout, then the socket's own error)
      inFlight -= 1;
      if (kind) errorKinds.set(kind, (errorKinds.get(kind) || 0) + 1);
      drain();
      if (next >= times.length && !waiting.length && !inFlight) finish();
    }

    function send(i) {
      const due = times[i];
      const lag = now() - due;
      if (lag > maxLag) maxLag = lag;
      if (lag > o.lateMs) c.late += 1;
      c.sent += 1;
      inFlight += 1;
      lastSend = now();
      const req = http.request({ host: url.hostname, port: url.port || 80, path: `${url.pathname}${url.search}`, method: 'GET', agent, headers: o.keepAlive ? {} : { connection: 'close' } });
      open.add(req);
      // The timeout runs from the scheduled time, so waiting for a free connection uses it up too.
      const left = Math.max(1, due + o.timeoutMs - now());
      const t = setTimeout(() => { if (open.has(req)) { c.timeouts += 1; settle(req, 'timeout'); req.destroy(); } }, left);
      req.on('response', (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          clearTimeout(t);
          if (!open.has(req)) return;
          c.completed += 1;
          if (res.statusCode >= 200 && res.statusCode < 400) {
            c.ok += 1;
            latencies.push(now() - due);
            const sec = Math.floor(Date.now() / 1000);
            perSecond.set(sec, (perSecond.get(sec) || 0) + 1);
            settle(req, null);
          } else {
            c.http_errors += 1;
            settle(req, `HTTP ${res.statusCode}`);
          }
        });
      });
      req.on('error', (err) => {
        clearTimeout(t);
        if (!open.has(req)) return;
        c.socket_errors += 1;
        settle(req, err.code || err.message);
      });
      req.end();
    }

    function drain() {
      while (waiting.length && inFlight < o.maxInFlight) send(waiting.shift());
    }

    function tick() {
      const t = now();
      if (t >= deadline) return finish();
      while (next < times.length && times[next] <= t) {
        if (inFlight < o.maxInFlight && !waiting.length) send(next);
        else waiting.push(next);
        next += 1;
      }
      drain();
      if (next >= times.length && !waiting.length && !inFlight) return finish();
      // Wake for the next scheduled request; while only answers are awaited, for the deadline.
      const wake = next < times.length ? times[next] - now() : deadline - now();
      timer = setTimeout(tick, Math.max(0, Math.min(wake, deadline - now())));
    }
    tick();
  });
}

/** { window_s: 1, first_epoch_s, counts } from answers per epoch second (empty seconds between included), or null. */
function windowsOf(perSecond) {
  if (!perSecond.size) return null;
  const secs = [...perSecond.keys()];
  const first = Math.min(...secs);
  const counts = Array.from({ length: Math.max(...secs) - first + 1 }, (_, i) => perSecond.get(first + i) || 0);
  return { window_s: 1, first_epoch_s: first, counts };
}
