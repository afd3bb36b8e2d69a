// Machine facts for a rebench dataset: what the numbers were measured on, and how busy the
// machine was. Other programs share the cores, so the load average before and after every
// experiment is part of the provenance, not a footnote.
import fs from 'node:fs';
import os from 'node:os';
import { hostFacts, commandOutput } from '../measure/common.mjs';

function read(file) {
  try { return fs.readFileSync(file, 'utf8').trim(); } catch { return null; }
}

/** Hypervisor or container, from systemd-detect-virt when present, else the CPU flags and DMI. */
export function virtualisation() {
  const detected = commandOutput('systemd-detect-virt', []);
  if (detected) return detected;
  const flags = /^flags\s*:\s*(.+)$/m.exec(read('/proc/cpuinfo') || '');
  const product = read('/sys/class/dmi/id/product_name');
  const vendor = read('/sys/class/dmi/id/sys_vendor');
  if (flags && /\bhypervisor\b/.test(flags[1])) return `virtual machine${product ? ` (${[vendor, product].filter(Boolean).join(' ')})` : ''}`;
  return flags ? 'none detected' : 'unknown';
}

export function loadAverage() {
  return os.loadavg().map((v) => Math.round(v * 100) / 100);
}

export function machineFacts(outDir) {
  const f = hostFacts(outDir);
  return {
    cpu_model: f.cpu_model,
    logical_cpus: f.logical_cpus,
    ram_gib: Math.round((f.ram_bytes / 1024 ** 3) * 10) / 10,
    virtualisation: virtualisation(),
    kernel: f.kernel,
    distribution: f.distribution,
    cpu_governor: f.cpu_governor || 'not readable (no cpufreq in this machine)',
    node: f.node,
  };
}

export function hardwareText(m, load, isolation = []) {
  const pinned = isolation.length && isolation.every((i) => /^pinned\b/.test(i.text));
  return `${m.cpu_model}, ${m.logical_cpus} logical CPUs, ${m.ram_gib} GiB RAM, virtualisation: ${m.virtualisation}, CPU governor: ${m.cpu_governor}; ` +
    `load average (1/5/15 min) ${load.before.join(' / ')} before and ${load.after.join(' / ')} after the experiment; ${pinned ? 'server and database pinned to one CPU, the load generator to the other (taskset)' : 'load generator and server on the same cores'}`;
}
