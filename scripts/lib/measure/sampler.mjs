// Periodic sampler of process-tree memory. Used by measure-memory and by
// bench-ruby-settings (RSS of the Puma tree during a load run).
import { sampleTree, pidsByName, cmdline, processTable } from './procfs.mjs';
import { median, max } from './common.mjs';

export class TreeSampler {
  /**
   * @param {object} o
   * @param {() => number[]} o.roots   pids whose process trees are sampled (called on every tick)
   * @param {number} o.intervalMs
   */
  constructor({ roots, intervalMs }) {
    this.roots = roots;
    this.intervalMs = intervalMs;
    this.samples = []; // {t, index, pid, ppid, comm, rss, pss, vm_size, vm_peak, vm_hwm}
    this.commandLines = new Map();
    this.index = 0;
    this.timer = null;
    this.t0 = null;
  }

  tick() {
    const t = (performance.now() - this.t0) / 1000;
    const rows = sampleTree(this.roots());
    for (const r of rows) {
      if (!this.commandLines.has(r.pid)) this.commandLines.set(r.pid, cmdline(r.pid));
      this.samples.push({ t, index: this.index, ...r });
    }
    this.index += 1;
    return rows.length;
  }

  start() {
    this.t0 = performance.now();
    const loop = () => {
      this.tick();
      // schedule against the start time so the interval does not drift
      const next = this.t0 + this.index * this.intervalMs;
      this.timer = setTimeout(loop, Math.max(0, next - performance.now()));
    };
    loop();
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Roots function for --name: everything called NAME now (re-scanned each tick, like the thesis's pidof loop). */
export function nameRoots(names) {
  return () => {
    const table = processTable();
    return names.flatMap((n) => pidsByName(n, table));
  };
}

/**
 * Per-process and total summaries. Totals are computed per sample (sum over the
 * processes seen in that sample), then summarised over samples.
 */
export function summarise(samples, commandLines = new Map()) {
  const byPid = new Map();
  const byIndex = new Map();
  for (const s of samples) {
    if (!byPid.has(s.pid)) byPid.set(s.pid, []);
    byPid.get(s.pid).push(s);
    if (!byIndex.has(s.index)) byIndex.set(s.index, []);
    byIndex.get(s.index).push(s);
  }
  const processes = [];
  for (const [pid, list] of [...byPid.entries()].sort((a, b) => a[0] - b[0])) {
    // PSS can be missing in single samples (smaps_rollup unreadable for a moment)
    const pssValues = list.map((s) => s.pss).filter((v) => typeof v === 'number');
    const pssKnown = pssValues.length > 0;
    processes.push({
      pid,
      ppid: list[0].ppid,
      comm: list[list.length - 1].comm,
      cmdline: commandLines.get(pid) || '',
      samples: list.length,
      first_s: list[0].t,
      last_s: list[list.length - 1].t,
      rss_median: median(list.map((s) => s.rss)),
      rss_peak: max(list.map((s) => s.rss)),
      rss_hwm: max(list.map((s) => s.vm_hwm)),
      pss_median: pssKnown ? median(pssValues) : null,
      pss_peak: pssKnown ? max(pssValues) : null,
      vm_size_median: median(list.map((s) => s.vm_size)),
      vm_peak: max(list.map((s) => s.vm_peak)),
    });
  }
  const totals = [...byIndex.values()].map((list) => ({
    rss: list.reduce((a, s) => a + (s.rss || 0), 0),
    pss: list.every((s) => typeof s.pss === 'number') ? list.reduce((a, s) => a + s.pss, 0) : null,
    vm_size: list.reduce((a, s) => a + (s.vm_size || 0), 0),
    processes: list.length,
  }));
  const pssTotals = totals.map((t) => t.pss).filter((v) => v !== null);
  const pssKnown = pssTotals.length > 0;
  const sum = (key) => (processes.length ? processes.reduce((a, p) => a + (p[key] || 0), 0) : null);
  const total = {
    samples: totals.length,
    max_processes: max(totals.map((t) => t.processes)),
    rss_median: median(totals.map((t) => t.rss)),
    rss_peak: max(totals.map((t) => t.rss)),
    rss_hwm: sum('rss_hwm'),
    pss_median: pssKnown ? median(pssTotals) : null,
    pss_peak: pssKnown ? max(pssTotals) : null,
    vm_size_median: median(totals.map((t) => t.vm_size)),
    vm_peak: sum('vm_peak'),
  };
  return { processes, total };
}
