// Reads the in-process, warm timing that lab/bench/workload.rb --warm writes: WARMUP iterations unmeasured, then
// each measured iteration timed alone. One file is one run (one process); its reading is the median iteration.
// A run whose Ruby did not have YJIT in the state the configuration names is a failed run, never a reading: a
// "3.4 + YJIT" figure measured without YJIT would be a silent substitution.
import { median, quantile } from './stats.mjs';

const finite = (a) => Array.isArray(a) && a.length > 0 && a.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0);

/** text → { cpu_ms, wall_ms, warmup_drift, iterations, yjit, … } or { error } */
export function readWarm(text, { yjit } = {}) {
  let d;
  try { d = JSON.parse(text); } catch (e) { return { error: `unreadable workload output (${e.message})` }; }
  if (!d || !finite(d.cpu_ms) || !finite(d.wall_ms) || d.cpu_ms.length !== d.wall_ms.length) return { error: 'the workload output has no per-iteration times' };
  if (yjit && d.yjit !== yjit) return { error: `YJIT was ${d.yjit} in this run, not ${yjit} as the configuration says` };
  const cpu = median(d.cpu_ms);
  // How far the end of the warm-up still was from the measured level: the last 10 warm-up iterations' median
  // against the measured median (0.05 = 5 % slower). Large values mean the warm-up was too short.
  const tail = finite(d.warmup_cpu_ms) ? median(d.warmup_cpu_ms.slice(-10)) : null;
  return {
    cpu_ms: cpu,
    wall_ms: median(d.wall_ms),
    warmup_drift: tail === null || !cpu ? null : tail / cpu - 1,
    // How steady the machine was while the process ran the same code: the 90th over the 10th percentile of its
    // timed iterations. The code does not change between iterations, so a wide ratio is the machine changing speed
    // (host contention, frequency), which the foreign-load monitor cannot see from inside the guest.
    steadiness: quantile(d.cpu_ms, 0.1) > 0 ? quantile(d.cpu_ms, 0.9) / quantile(d.cpu_ms, 0.1) : null,
    iterations: d.cpu_ms.length,
    warmup_iterations: d.warmup_iterations ?? null,
    yjit: d.yjit ?? null,
    yjit_code_kib: d.yjit_stats && Number.isFinite(d.yjit_stats.code_region_size) ? d.yjit_stats.code_region_size / 1024 : null,
    max_rss_mib: Number.isFinite(d.max_rss_kib) ? d.max_rss_kib / 1024 : null,
    errors: 0,
  };
}
