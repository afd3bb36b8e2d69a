// Reads the in-process, warm timing that lab/bench/workload.rb --warm writes: WARMUP iterations unmeasured, then
// each measured iteration timed alone. One file is one run (one process). Its reading (protocol version 3,
// _data/measurement_protocol.json in_process) is the 10th percentile of the means of consecutive blocks of
// iterations: outside noise only adds time, and a block keeps its share of garbage collection.
// A run whose Ruby did not have YJIT in the state the configuration names is a failed run, never a reading: a
// "3.4 + YJIT" figure measured without YJIT would be a silent substitution.
import { median, quantile } from './stats.mjs';
import { PROTOCOL } from './protocol.mjs';

const finite = (a) => Array.isArray(a) && a.length > 0 && a.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0);

/** Means of consecutive blocks of `size` values (a shorter run is one block); a partial last block is dropped. */
export function blockMeans(values, size) {
  if (values.length < size) return [values.reduce((a, b) => a + b, 0) / values.length];
  const out = [];
  for (let i = 0; i + size <= values.length; i += size) out.push(values.slice(i, i + size).reduce((a, b) => a + b, 0) / size);
  return out;
}

/**
 * The in-process reading of a list of iteration times: { reading, plateau }. plateau is the reading over the fastest
 * block (how far the fastest tenth of the blocks spread), null when there are fewer than ten blocks to judge by.
 */
export function inProcessReading(values, ip = PROTOCOL.in_process) {
  const blocks = blockMeans(values, ip.block_iterations);
  const reading = quantile(blocks, ip.reading_quantile);
  const fastest = Math.min(...blocks);
  return { reading, plateau: blocks.length >= 10 && fastest > 0 ? reading / fastest : null, blocks: blocks.length };
}

const ints = (a) => Array.isArray(a) && a.every((v) => Number.isInteger(v) && v >= 0);
const sum = (a) => a.reduce((x, y) => x + y, 0);

/**
 * Garbage collection in the blocks the reading comes from against the whole run (protocol version 4): { per_iteration,
 * major_per_1000, reading_share }. reading_share is the collections per iteration in the blocks at or below the
 * reading over those of every block (1 = the reading's blocks paid their share; 0.5 = they ran half the
 * collections, so the reading leaves out part of what GC costs). null where the run recorded no counts (before v4)
 * or ran no collection.
 */
export function gcInReading(cpu, minor, major, ip = PROTOCOL.in_process) {
  if (!ints(minor) || !ints(major) || minor.length !== cpu.length || major.length !== cpu.length) return null;
  const size = ip.block_iterations;
  const gcs = minor.map((v, i) => v + major[i]);
  const total = sum(gcs);
  const out = { per_iteration: total / gcs.length, major_per_1000: (1000 * sum(major)) / major.length, reading_share: null };
  if (!total || cpu.length < size) return out;
  // The same blocks as the reading (blockMeans): their CPU means, and their collections per iteration.
  const means = blockMeans(cpu, size);
  const gcRate = blockMeans(gcs, size);
  const reading = quantile(means, ip.reading_quantile);
  const fast = gcRate.filter((_, b) => means[b] <= reading);
  const all = sum(gcRate) / gcRate.length;
  out.reading_share = all > 0 && fast.length ? sum(fast) / fast.length / all : null;
  return out;
}

/** text → { cpu_ms, wall_ms, warmup_drift, iterations, yjit, … } or { error } */
export function readWarm(text, { yjit } = {}) {
  let d;
  try { d = JSON.parse(text); } catch (e) { return { error: `unreadable workload output (${e.message})` }; }
  if (!d || !finite(d.cpu_ms) || !finite(d.wall_ms) || d.cpu_ms.length !== d.wall_ms.length) return { error: 'the workload output has no per-iteration times' };
  if (yjit && d.yjit !== yjit) return { error: `YJIT was ${d.yjit} in this run, not ${yjit} as the configuration says` };
  // Output from before protocol version 3 (no timed_s) keeps the reading it was published with: the median.
  const v3 = Number.isFinite(d.timed_s);
  const cpuReading = v3 ? inProcessReading(d.cpu_ms) : { reading: median(d.cpu_ms), plateau: null, blocks: null };
  const cpu = cpuReading.reading;
  const tail = finite(d.warmup_cpu_ms) ? median(d.warmup_cpu_ms.slice(-10)) : null;
  return {
    cpu_ms: cpu,
    wall_ms: v3 ? inProcessReading(d.wall_ms).reading : median(d.wall_ms),
    cpu_ms_median: median(d.cpu_ms),
    // The end of the warm-up against the timed median (0.05 = 5 % slower); large values: the warm-up was too short.
    warmup_drift: tail === null || !cpu ? null : tail / median(d.cpu_ms) - 1,
    plateau: cpuReading.plateau,
    // How much the machine's speed changed while the process ran the same code (90th over 10th percentile of the
    // iterations): graded for output from before version 3 only, whose median reading depends on it.
    steadiness: quantile(d.cpu_ms, 0.1) > 0 ? quantile(d.cpu_ms, 0.9) / quantile(d.cpu_ms, 0.1) : null,
    in_process: true,
    iterations: d.cpu_ms.length,
    blocks: cpuReading.blocks,
    timed_s: v3 ? d.timed_s : null,
    warmup_iterations: d.warmup_iterations ?? null,
    yjit: d.yjit ?? null,
    gc: gcInReading(d.cpu_ms, d.gc_minor, d.gc_major),
    yjit_code_kib: d.yjit_stats && Number.isFinite(d.yjit_stats.code_region_size) ? d.yjit_stats.code_region_size / 1024 : null,
    max_rss_mib: Number.isFinite(d.max_rss_kib) ? d.max_rss_kib / 1024 : null,
    errors: 0,
  };
}
