// Facts about the machine this runs on, for the hardware and software fields of a dataset.
// Every probe is optional: a missing file or command gives null, never an exception.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';

function read(path) {
  try { return readFileSync(path, 'utf8'); } catch { return null; }
}

export function run(cmd, args = [], { stderr = false } = {}) {
  try {
    const out = execFileSync(cmd, args, { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', stderr ? 'pipe' : 'ignore'] });
    return out.trim() || null;
  } catch (e) {
    // Some tools (wrk -v, httperf -V) print their version and exit non-zero.
    const text = `${e.stdout || ''}${stderr ? e.stderr || '' : ''}`.trim();
    return text || null;
  }
}

export function cpuModel(cpuinfo = read('/proc/cpuinfo')) {
  if (!cpuinfo) return os.cpus()[0]?.model?.trim() || null;
  const m = /^(?:model name|Hardware|Processor|cpu model)\s*:\s*(.+)$/m.exec(cpuinfo);
  return m ? m[1].trim().replace(/\s+/g, ' ') : null;
}

export function memoryGiB(meminfo = read('/proc/meminfo')) {
  const m = meminfo && /^MemTotal:\s+(\d+) kB/m.exec(meminfo);
  const bytes = m ? Number(m[1]) * 1024 : os.totalmem();
  return Math.round((bytes / 2 ** 30) * 10) / 10;
}

export function osName(osRelease = read('/etc/os-release')) {
  const m = osRelease && /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(osRelease);
  return m ? m[1] : `${os.type()} ${os.release()}`;
}

export function rubyVersion() {
  return run('ruby', ['-v']);
}

export function detectMachine() {
  return {
    cpu: cpuModel(),
    cores: os.cpus().length,
    memory_gib: memoryGiB(),
    kernel: os.release(),
    os: osName(),
    arch: os.arch(),
    ruby: rubyVersion(),
  };
}

// "Intel(R) Xeon(R) Processor, 2 logical cores, 23.5 GiB RAM, x64" — disk is not detectable reliably, so it is named as unknown.
export function hardwareText(m = detectMachine()) {
  return `${m.cpu || 'CPU model not detected'}, ${m.cores} logical cores, ${m.memory_gib} GiB RAM, ${m.arch}; disk not recorded`;
}

// Software entries for the schema's software[] list.
export function softwareList(m = detectMachine(), extra = []) {
  const list = [...extra];
  list.push({ name: 'Operating system', version: m.os });
  list.push({ name: `${os.type() === 'Linux' ? 'Linux' : os.type()} kernel`, version: m.kernel });
  if (m.ruby) list.push({ name: 'Ruby', version: m.ruby });
  return list;
}
