// Reads what lab/bench/jobs-client.rb prints for one run of the background-jobs experiment (key=value lines):
// throughput and enqueue→perform latency from the jobs' own timestamps, and the PostgreSQL connections and backend
// CPU sampled while the jobs ran. A run whose jobs did not all run (more than the protocol's error share missing when
// the client gave up waiting), or that ran none, is a failed run: never a zero, never a reading from part of the jobs.
import { PROTOCOL } from './protocol.mjs';

const num = (v) => (v === undefined || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null);

/** text → { jps (jobs per second), p50_ms, p99_ms, errors, jobs: {…} } or { error } */
export function readJobs(text) {
  const kv = {};
  for (const line of String(text).split('\n')) {
    const m = /^([a-z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) kv[m[1]] = m[2];
  }
  if (kv.error) return { error: `the job client failed: ${kv.error}` };
  const n = num(kv.n);
  const done = num(kv.done);
  if (!n || done === null) return { error: 'no job-client summary in the output (the client did not finish)' };
  const missing = n - done;
  if (!done) return { error: `none of the ${n} jobs ran before the client stopped waiting (a failed run, not a zero)`, errors: n };
  if (missing > (PROTOCOL.failure.max_error_pct / 100) * n) return { error: `${missing} of ${n} jobs had not run when the client stopped waiting (above ${PROTOCOL.failure.max_error_pct} %)`, errors: missing };
  const jps = num(kv.jobs_per_s);
  if (jps === null || jps <= 0) return { error: 'the jobs left no usable timestamps', errors: missing };
  return {
    jps,
    p50_ms: num(kv.latency_p50_ms),
    p99_ms: num(kv.latency_p99_ms),
    requests: done,
    errors: missing,
    jobs: {
      adapter: kv.adapter || null,
      mode: kv.mode || null,
      enqueue_s: num(kv.enqueue_s),
      span_s: num(kv.span_s),
      perform_p50_ms: num(kv.perform_p50_ms),
      processes: num(kv.job_processes),
      pg_samples: num(kv.pg_samples),
      pg_connections_max: kv.pg_error ? null : num(kv.pg_connections_max),
      pg_connections_queue_max: kv.pg_error ? null : num(kv.pg_connections_queue_max),
      pg_connections_primary_max: kv.pg_error ? null : num(kv.pg_connections_primary_max),
      pg_active_max: kv.pg_error ? null : num(kv.pg_active_max),
      pg_cpu_ms_queue: kv.pg_error ? null : num(kv.pg_cpu_ms_queue),
      pg_cpu_ms_primary: kv.pg_error ? null : num(kv.pg_cpu_ms_primary),
    },
  };
}
