// Reads what lab/bench/replica-client.rb prints for one run of the replica experiment (key=value lines): the
// latency of a write and of the read of it straight after, whether that read saw the write and which role served
// it, and the replication lag of the run's rows. A run with no answered pair, or with more than the protocol's
// error share of failed requests, is a failed run: never a zero.
import { PROTOCOL } from './protocol.mjs';

const num = (v) => (v === undefined || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null);

/** text → { p50_ms, p99_ms (the read after the write), rps (pairs per second), requests, errors, replica: {…} } or { error } */
export function readReplica(text) {
  const kv = {};
  for (const line of String(text).split('\n')) {
    const m = /^([a-z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) kv[m[1]] = m[2];
  }
  if (kv.error) return { error: `the replica client failed: ${kv.error}` };
  const n = num(kv.n);
  const done = num(kv.done);
  const errors = num(kv.errors) ?? 0;
  if (!n || done === null) return { error: 'no replica-client summary in the output (the client did not finish)' };
  if (!done) return { error: `none of the ${n} write-then-read pairs was answered (a failed run, not a zero)`, errors };
  if (errors > (PROTOCOL.failure.max_error_pct / 100) * n) return { error: `${errors} of ${n} pairs had a failed request (above ${PROTOCOL.failure.max_error_pct} %)`, errors };
  const lagN = num(kv.lag_n);
  return {
    p50_ms: num(kv.read_p50_ms),
    p99_ms: num(kv.read_p99_ms),
    rps: num(kv.pairs_per_s),
    requests: done * 2,
    errors,
    replica: {
      write_p50_ms: num(kv.write_p50_ms),
      write_p99_ms: num(kv.write_p99_ms),
      read_found_pct: num(kv.read_found_pct),
      read_on_reading_pct: num(kv.read_on_reading_pct),
      // Lag only from a run whose pollers worked and saw the rows; otherwise no figure (not a zero).
      lag_n: lagN,
      lag_unseen: num(kv.lag_unseen),
      lag_p50_ms: kv.poll_error || !lagN ? null : num(kv.lag_p50_ms),
      lag_p99_ms: kv.poll_error || !lagN ? null : num(kv.lag_p99_ms),
      lag_max_ms: kv.poll_error || !lagN ? null : num(kv.lag_max_ms),
      poll_ms: num(kv.poll_ms),
      poll_error: kv.poll_error || null,
    },
  };
}
