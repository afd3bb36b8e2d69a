// The text an open-loop run prints (lab/bench keeps it as the raw output) and its reader. A header for people,
// then one key=value line per figure, so that the dataset is built from the raw file alone. A percentile with
// no answered request is "none", never 0: a run that got no answer is a failed run, not a fast one.
import { PERCENTILES } from './openloop.mjs';

const KEY = { 50: 'p50_ms', 90: 'p90_ms', 99: 'p99_ms', 99.9: 'p999_ms' };
const ms = (v) => (v === null || v === undefined ? 'none' : v.toFixed(3));

export function formatReport(r) {
  const o = r.options;
  const c = r.counts;
  const kinds = Object.entries(r.errorKinds).map(([k, n]) => `${k} ×${n}`).join(', ') || 'none';
  const lines = [
    `open-loop load: ${o.url}, ${o.arrival} arrivals at ${o.rate} req/s for ${o.durationS} s (seed ${o.seed}), ${o.keepAlive ? 'idle connections reused' : 'a new connection per request'}, at most ${o.maxInFlight} at once, timeout ${o.timeoutMs} ms from the scheduled send time`,
    `latency from the scheduled send time (no coordinated omission): p50 ${ms(r.latencyMs[50])} ms, p90 ${ms(r.latencyMs[90])} ms, p99 ${ms(r.latencyMs[99])} ms, p99.9 ${ms(r.latencyMs[99.9])} ms, max ${ms(r.maxMs)} ms`,
    `${c.scheduled} scheduled (${r.offeredRate.toFixed(2)} req/s), ${c.sent} sent (${r.sentRate.toFixed(2)} req/s), ${c.ok} answered 2xx/3xx (${r.completedRate.toFixed(2)} req/s); failures: ${c.http_errors} HTTP errors, ${c.socket_errors} socket errors, ${c.timeouts} timeouts, ${c.unsent} never sent; ${c.late} sent more than ${o.lateMs} ms late (connection cap or a busy generator), largest delay ${r.maxSendLagMs.toFixed(1)} ms; errors: ${kinds}`,
    `target_rate=${o.rate}`,
    `arrival=${o.arrival}`,
    `seed=${o.seed}`,
    `duration_s=${o.durationS}`,
    `max_in_flight=${o.maxInFlight}`,
    `keep_alive=${o.keepAlive ? 1 : 0}`,
    `timeout_ms=${o.timeoutMs}`,
    ...Object.entries(c).map(([k, v]) => `${k}=${v}`),
    `failed=${c.http_errors + c.socket_errors + c.timeouts + c.unsent}`,
    `offered_rate=${r.offeredRate.toFixed(3)}`,
    `sent_rate=${r.sentRate.toFixed(3)}`,
    `achieved_rate=${r.completedRate.toFixed(3)}`,
    `max_send_lag_ms=${r.maxSendLagMs.toFixed(3)}`,
    ...PERCENTILES.map((p) => `${KEY[p]}=${ms(r.latencyMs[p])}`),
    `max_ms=${ms(r.maxMs)}`,
    `elapsed_s=${r.elapsedS.toFixed(3)}`,
    // The same line as wrk-report.lua's, so that lab/bench/steadiness.rb judges both alike.
    ...(r.windows ? [`WRK_WINDOWS ${JSON.stringify(r.windows)}`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** Figures of a report: numbers, null for "none". Returns { error } for text that is not such a report. */
export function parseReport(text) {
  const out = {};
  for (const line of String(text || '').split('\n')) {
    const m = /^([a-z0-9_]+)=(.*)$/.exec(line.trim());
    if (!m) continue;
    const n = Number(m[2]);
    out[m[1]] = m[2] === 'none' ? null : m[2] !== '' && Number.isFinite(n) ? n : m[2];
  }
  if (!('scheduled' in out) || !('target_rate' in out)) return { error: 'not an open-loop report (no scheduled= or target_rate= line)' };
  return out;
}
