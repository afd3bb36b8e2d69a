// Reads one phase of the timeouts experiment (lab/bench/exp/timeouts.sh): an open-loop report of the fast route.
// In an overload experiment the errors and timeouts are what is measured, not a broken run: a phase fails only when
// no request was answered (or the generator could not run); otherwise the failed share is a figure of the row.
import { parseReport } from '../measure/openloop-report.mjs';

/** text → { p50_ms, p99_ms, rps (answered per second), errors, requests, overload: {…} } or { error } */
export function readOverload(text) {
  const r = parseReport(text);
  if (r.error) return { error: r.error };
  if (!r.ok) return { error: `no request of the ${r.scheduled} scheduled was answered (a failed run, not a zero)`, errors: r.failed };
  return {
    p50_ms: r.p50_ms,
    p99_ms: r.p99_ms,
    rps: r.achieved_rate,
    requests: r.ok,
    errors: r.failed,
    overload: {
      scheduled: r.scheduled,
      failed_pct: r.scheduled ? (100 * r.failed) / r.scheduled : null,
      timeouts: r.timeouts,
      http_errors: r.http_errors,
      max_ms: r.max_ms,
    },
  };
}

/** The storm's own report (OUT-storm.slow.txt): how its slow requests ended. */
export function readStorm(text) {
  const r = parseReport(text);
  if (r.error) return null;
  return { scheduled: r.scheduled, ok: r.ok, http_errors: r.http_errors, timeouts: r.timeouts, p50_ms: r.p50_ms };
}
