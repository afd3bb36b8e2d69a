// Reading process memory from Linux /proc, always converted to BYTES.
//
// The thesis's monitor (appendix E) copied the numbers from /proc/PID/status as they
// stand -- they are kibibytes ("kB" in the kernel's notation means 1024 bytes) -- and the
// tables built from them were headed "(B)". Here every value is multiplied by 1024 at
// the moment it is read, and nothing downstream ever sees a kB figure.
import fs from 'node:fs';

const KIB = 1024;

function read(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Parse "Key:   123 kB" lines into bytes for the requested keys. */
export function parseKbFields(text, keys) {
  const out = {};
  for (const key of keys) {
    const m = text.match(new RegExp(`^${key}:\\s+(\\d+)\\s+kB$`, 'm'));
    out[key] = m ? Number(m[1]) * KIB : null;
  }
  return out;
}

/** pid → { ppid, comm } for every process visible now. */
export function processTable() {
  const table = new Map();
  let entries;
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return table;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    // comm may contain spaces and parentheses: it runs from the first "(" to the last ")".
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    if (open < 0 || close < 0) continue;
    const comm = stat.slice(open + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const state = fields[0];
    if (state === 'Z' || state === 'X') continue; // zombies have no memory left to measure
    table.set(Number(name), { ppid: Number(fields[1]), comm });
  }
  return table;
}

/** The given roots plus all their descendants that exist in `table`. */
export function descendants(roots, table) {
  const children = new Map();
  for (const [pid, info] of table) {
    if (!children.has(info.ppid)) children.set(info.ppid, []);
    children.get(info.ppid).push(pid);
  }
  const seen = new Set();
  const stack = roots.filter((pid) => table.has(pid));
  while (stack.length) {
    const pid = stack.pop();
    if (seen.has(pid)) continue;
    seen.add(pid);
    for (const c of children.get(pid) || []) stack.push(c);
  }
  return [...seen].sort((a, b) => a - b);
}

export function cmdline(pid) {
  const raw = read(`/proc/${pid}/cmdline`);
  if (!raw) return '';
  return raw.replace(/\0+$/, '').split('\0').join(' ');
}

/** Processes whose comm or argv[0] basename equals `name` (what pidof matches). */
export function pidsByName(name, table = processTable()) {
  const pids = [];
  for (const [pid, info] of table) {
    if (pid === process.pid) continue;
    if (info.comm === name) {
      pids.push(pid);
      continue;
    }
    const argv0 = cmdline(pid).split(' ')[0] || '';
    if (argv0.split('/').pop() === name) pids.push(pid);
  }
  return pids;
}

let smapsRollupSupported = null;

/** One memory reading of one process, all values in bytes; null if the process is gone. */
export function readMemory(pid) {
  const status = read(`/proc/${pid}/status`);
  if (!status) return null;
  const s = parseKbFields(status, ['VmPeak', 'VmSize', 'VmRSS', 'VmHWM']);
  // No VmSize: a kernel thread, or a process whose memory is already released while it
  // exits. Neither has user memory to report, so it is left out instead of counted as 0.
  if (s.VmSize === null) return null;
  let pss = null;
  let rollupRss = null;
  if (smapsRollupSupported !== false) {
    const rollup = read(`/proc/${pid}/smaps_rollup`);
    if (rollup) {
      smapsRollupSupported = true;
      const r = parseKbFields(rollup, ['Rss', 'Pss']);
      pss = r.Pss;
      rollupRss = r.Rss;
    } else if (smapsRollupSupported === null && !fs.existsSync(`/proc/${pid}/smaps_rollup`)) {
      smapsRollupSupported = false; // kernel older than 4.14
    }
  }
  return {
    rss: s.VmRSS ?? rollupRss,
    pss,
    vm_size: s.VmSize,
    vm_peak: s.VmPeak,
    vm_hwm: s.VmHWM,
  };
}

export function smapsRollupAvailable() {
  if (smapsRollupSupported === null) smapsRollupSupported = fs.existsSync('/proc/self/smaps_rollup');
  return smapsRollupSupported;
}

/**
 * One sample of a process tree: [{pid, ppid, comm, rss, pss, vm_size, vm_peak, vm_hwm}].
 * `roots` are pids whose trees are followed; `extraRoots()` can add pids (for --name).
 */
export function sampleTree(roots) {
  const table = processTable();
  const pids = descendants(roots, table);
  const out = [];
  for (const pid of pids) {
    const mem = readMemory(pid);
    if (!mem) continue;
    out.push({ pid, ppid: table.get(pid).ppid, comm: table.get(pid).comm, ...mem });
  }
  return out;
}

/** Total RSS (bytes) of a process tree now; convenient for load tests. */
export function treeRss(root) {
  return sampleTree([root]).reduce((sum, p) => sum + (p.rss || 0), 0);
}
