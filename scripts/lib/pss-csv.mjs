// Reading lab/bench/pss.rb's samples (CSV t_s,pid,ppid,comm,rss_kib,pss_kib: one line per process per sample of a
// process tree). Shared by the rebench driver (peak memory of a server per run) and the lab proofs that hold a
// bundle to its memory budget (tests/wizard/faults-small-host.test.mjs).

/** Samples by time: Map t_s → [{pid, ppid, comm, rss, pss}] (KiB), leaving out processes whose comm is in `except`. */
export function pssSamples(text, { except = [] } = {}) {
  const byT = new Map();
  for (const line of String(text).trim().split('\n').slice(1)) {
    if (!line) continue;
    const [t, pid, ppid, comm, rss, pss] = line.split(',');
    if (except.includes(comm)) continue;
    if (!byT.has(t)) byT.set(t, []);
    byT.get(t).push({ pid: Number(pid), ppid: Number(ppid), comm, rss: Number(rss), pss: Number(pss) });
  }
  return byT;
}

/**
 * The tree's peak: the sample with the largest PSS sum (peak_kib, its processes) and each process's own peak over
 * all samples (per_process: [{pid, comm, peak_kib}]). null without samples.
 */
export function pssPeak(text, options) {
  const byT = pssSamples(text, options);
  if (!byT.size) return null;
  let peak = null;
  const series = [];
  const own = new Map();
  for (const [t, procs] of byT) {
    const total = procs.reduce((s, p) => s + p.pss, 0);
    series.push({ t: Number(t), total_kib: total, processes: procs.length });
    if (!peak || total > peak.peak_kib) peak = { peak_kib: total, processes: procs.length, max_kib: Math.max(...procs.map((p) => p.pss)) };
    for (const p of procs) if (!own.has(p.pid) || own.get(p.pid).peak_kib < p.pss) own.set(p.pid, { pid: p.pid, comm: p.comm, peak_kib: p.pss });
  }
  return { ...peak, samples: byT.size, series, per_process: [...own.values()].sort((a, b) => a.pid - b.pid) };
}
