// Shared helpers for the measuring tools (scripts/measure-memory, scripts/bench-host,
// scripts/bench-ruby-settings): argument parsing, statistics, host provenance,
// child-process bookkeeping and dataset/CSV writing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const FORMAT = 'scaling-rails/dataset@1';

/** Error for a wrong invocation: printed without a stack trace, exit code 2. */
export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Parse argv against a small option table.
 * spec: { name: { type: 'string'|'number'|'integer'|'boolean', multiple?: bool } }
 * Everything after a bare `--` is returned as `rest`.
 */
export function parseArgs(argv, spec) {
  const opts = {};
  const rest = [];
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i];
    if (arg === '--') {
      rest.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      throw new UsageError(`unexpected argument "${arg}" (options start with --; put a command after --)`);
    }
    let name = arg.slice(2);
    let value;
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    const def = spec[name];
    if (!def) throw new UsageError(`unknown option --${name} (see --help)`);
    if (def.type === 'boolean') {
      if (value !== undefined) throw new UsageError(`--${name} takes no value`);
      opts[name] = true;
      i += 1;
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= argv.length || argv[i + 1] === '--') throw new UsageError(`--${name} needs a value`);
      value = argv[i + 1];
      i += 2;
    } else {
      i += 1;
    }
    let parsed = value;
    if (def.type === 'number' || def.type === 'integer') {
      parsed = Number(value);
      if (value.trim() === '' || !Number.isFinite(parsed)) throw new UsageError(`--${name} must be a number, got "${value}"`);
      if (def.type === 'integer' && !Number.isInteger(parsed)) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
      if (def.min !== undefined && parsed < def.min) throw new UsageError(`--${name} must be at least ${def.min}, got ${value}`);
      if (def.max !== undefined && parsed > def.max) throw new UsageError(`--${name} must be at most ${def.max}, got ${value}`);
    }
    if (def.multiple) (opts[name] ||= []).push(parsed);
    else opts[name] = parsed;
  }
  return { opts, rest };
}

/** Options every tool takes: who measured, and the dataset topic. */
export const COMMON_SPEC = {
  author: { type: 'string' },
  topic: { type: 'string' },
  'no-validate': { type: 'boolean' },
};
export const COMMON_HELP = `  --author NAME        who measured (default: git config user.name)
  --topic TOPIC        dataset topic from _data/vocabulary.json (default: %TOPIC%)
  --no-validate        skip checking the dataset with scripts/lib/dataset-validate.mjs
                       (saves a few seconds; run scripts/validate on it later)
`;

/** Apply --author/--topic; returns the topic to use. */
export function applyCommon(opts, defaultTopic) {
  if (opts.author !== undefined) {
    if (opts.author.trim().length < 2) throw new UsageError('--author needs a name');
    process.env.SCALING_RAILS_AUTHOR = opts.author.trim();
  }
  const topic = opts.topic ?? defaultTopic;
  let topics = null;
  try {
    topics = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, '_data/vocabulary.json'), 'utf8')).topics;
  } catch { /* outside a checkout: let the validator judge */ }
  if (topics && !(topic in topics)) throw new UsageError(`--topic must be one of: ${Object.keys(topics).join(', ')}`);
  return topic;
}

/** Run a CLI main(argv) → exit code, turning UsageError into a message + exit 2. */
export async function runCli(toolName, main, argv) {
  try {
    const code = await main(argv);
    // A signal that no tool handler took means "stop": the tool may finish its loop before the forced exit
    // below fires, but it must still report the interruption, not success.
    process.exit(stoppedBy ? (stoppedBy === 'SIGINT' ? 130 : 143) : (code ?? 0));
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${toolName}: ${err.message}\nRun "${toolName} --help" for usage.\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`${toolName}: error: ${err && err.stack ? err.stack : err}\n`);
      process.exitCode = 1;
    }
  }
  process.exit(process.exitCode);
}

// ---------- statistics ----------
export function sorted(values) {
  return values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
}
export function median(values) {
  const s = sorted(values);
  if (s.length === 0) return null;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
export function min(values) {
  const s = sorted(values);
  return s.length ? s[0] : null;
}
export function max(values) {
  const s = sorted(values);
  return s.length ? s[s.length - 1] : null;
}
export function round(value, decimals) {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** Small seeded PRNG (mulberry32) so that run orders can be repeated from a recorded seed. */
export function makeRng(seed) {
  let a = seed >>> 0;
  return function rng() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export function shuffle(items, rng) {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
export function randomSeed() {
  return Math.floor(Math.random() * 2 ** 31);
}

// ---------- host provenance ----------
function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

export function commandOutput(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: options.timeout ?? 20000, env: options.env ?? process.env, cwd: options.cwd });
  if (r.error || r.status !== 0) return null;
  return `${r.stdout || ''}${options.stderr ? r.stderr || '' : ''}`.trim();
}

export function which(cmd) {
  for (const dir of (process.env.PATH || '').split(':')) {
    if (!dir) continue;
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* keep looking */
    }
  }
  return null;
}

/** Facts about this machine, for the dataset's hardware/software fields. */
export function hostFacts(outDir) {
  const cpuinfo = readText('/proc/cpuinfo') || '';
  const model = (cpuinfo.match(/^model name\s*:\s*(.+)$/m) || [])[1] || os.cpus()[0]?.model || 'unknown CPU';
  const osRelease = readText('/etc/os-release') || '';
  const distro = (osRelease.match(/^PRETTY_NAME="?([^"\n]+)"?/m) || [])[1] || os.type();
  let fsType = null;
  if (outDir) {
    fsType = commandOutput('stat', ['-f', '-c', '%T', outDir]);
    const df = commandOutput('df', ['--output=fstype', outDir]);
    if (df) fsType = df.split('\n').pop().trim() || fsType;
  }
  const governor = (readText('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor') || '').trim() || null;
  let container = null;
  if (fs.existsSync('/.dockerenv')) container = 'docker';
  else if ((readText('/proc/1/cgroup') || '').match(/docker|kubepods|containerd|lxc/)) container = 'container';
  return {
    cpu_model: model.replace(/\s+/g, ' ').trim(),
    logical_cpus: os.cpus().length,
    ram_bytes: os.totalmem(),
    kernel: os.release(),
    arch: os.arch(),
    distribution: distro,
    filesystem: fsType,
    cpu_governor: governor,
    container,
    load_average_at_start: os.loadavg().map((v) => round(v, 2)),
    node: process.version,
  };
}

export function hardwareString(facts) {
  const gib = (facts.ram_bytes / 1024 ** 3).toFixed(1);
  const parts = [`${facts.cpu_model}`, `${facts.logical_cpus} logical CPUs`, `${gib} GiB RAM`];
  if (facts.filesystem) parts.push(`output directory on ${facts.filesystem}`);
  if (facts.container) parts.push(`inside a ${facts.container}`);
  if (facts.cpu_governor) parts.push(`CPU governor ${facts.cpu_governor}`);
  return parts.join(', ');
}

export function baseSoftware(facts) {
  return [
    { name: 'Linux kernel', version: facts.kernel },
    { name: 'Distribution', version: facts.distribution },
    { name: 'Node.js (tool runtime)', version: facts.node.replace(/^v/, '') },
  ];
}

// ---------- output ----------
export function timestampId(date = new Date()) {
  const p = (n) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}-${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`;
}

export function checkId(id) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id) || id.length > 80) {
    throw new UsageError(`--id must be lower-case letters, digits and single hyphens (max 80 characters), got "${id}"`);
  }
  return id;
}

export function ensureOutDir(dir) {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (err) {
    throw new UsageError(`cannot write to output directory "${dir}": ${err.message}`);
  }
  return path.resolve(dir);
}

export function csvCell(value) {
  if (value === null || value === undefined) return '';
  const s = String(value);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
export function toCsv(header, rows) {
  return `${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\n')}\n`;
}

export function author() {
  return (
    process.env.SCALING_RAILS_AUTHOR ||
    commandOutput('git', ['config', 'user.name'], { cwd: REPO_ROOT }) ||
    'not stated (contributor)'
  );
}

/**
 * The output directory mirrors the repository, so that `--out .` in a checkout puts the
 * files where a pull request needs them (as scripts/import does):
 *   <dir>/_data/datasets/<id>.json   the dataset
 *   <dir>/raw-output/<id>/...         raw samples, tool output, provenance
 */
export function rawDir(dir, id) {
  const d = path.join(dir, 'raw-output', id);
  fs.mkdirSync(d, { recursive: true });
  return d;
}
export const rawRef = (id, file) => `raw-output/${id}/${file}`;

/** Write the dataset and raw-output/<id>/provenance.json; returns the dataset path. */
export function writeDataset(dir, dataset, provenance) {
  const dsDir = path.join(dir, '_data', 'datasets');
  fs.mkdirSync(dsDir, { recursive: true });
  const file = path.join(dsDir, `${dataset.id}.json`);
  fs.writeFileSync(file, `${JSON.stringify(dataset, null, 2)}\n`);
  if (provenance) fs.writeFileSync(path.join(rawDir(dir, dataset.id), 'provenance.json'), `${JSON.stringify(provenance, null, 2)}\n`);
  return file;
}

/**
 * Validate with the lead's validator when it exists; returns the problems array,
 * or null when the validator is not available.
 */
export async function validateIfPossible(file) {
  const lib = path.join(REPO_ROOT, 'scripts/lib/dataset-validate.mjs');
  if (!fs.existsSync(lib)) return null;
  const mod = await import(lib);
  const text = fs.readFileSync(file, 'utf8');
  return mod.validateDataset({ file, text });
}

export async function reportValidation(toolName, file, opts = {}) {
  if (opts['no-validate']) return 0;
  let problems;
  try {
    problems = await validateIfPossible(file);
  } catch (err) {
    process.stderr.write(`${toolName}: could not run the dataset validator: ${err.message}\n`);
    return 0;
  }
  if (problems === null) {
    process.stderr.write(`${toolName}: note: scripts/lib/dataset-validate.mjs not found, dataset not validated\n`);
    return 0;
  }
  for (const p of problems) {
    process.stderr.write(`${toolName}: dataset problem: ${p.field || ''} ${p.message}${p.fix ? ` (fix: ${p.fix})` : ''}\n`);
  }
  return problems.length;
}

// ---------- process groups we started ----------
const liveGroups = new Set();
let handlersInstalled = false;
let interruptHandler = null;
let stoppedBy = null;

/**
 * Let a tool handle the first Ctrl-C/SIGTERM itself (e.g. stop the measured command and
 * still write the dataset). A second signal falls back to kill-everything-and-exit.
 */
export function onInterrupt(fn) {
  interruptHandler = fn;
  installHandlers();
}

/** Remember a detached child (its pid is its process-group id) so it is killed on any exit. */
export function trackGroup(pid) {
  liveGroups.add(pid);
  installHandlers();
}
function installHandlers() {
  if (!handlersInstalled) {
    handlersInstalled = true;
    process.on('exit', () => killAllGroups('SIGKILL'));
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      process.on(sig, () => {
        if (interruptHandler) {
          const fn = interruptHandler;
          interruptHandler = null;
          fn(sig);
          return;
        }
        stoppedBy = sig;
        killAllGroups('SIGTERM');
        setTimeout(() => {
          killAllGroups('SIGKILL');
          process.exit(sig === 'SIGINT' ? 130 : 143);
        }, 300).unref();
      });
    }
  }
}
export function untrackGroup(pid) {
  liveGroups.delete(pid);
}
export function killGroup(pid, signal = 'SIGTERM') {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
export function killAllGroups(signal) {
  for (const pid of liveGroups) killGroup(pid, signal);
}
export function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM the group, wait up to graceMs, then SIGKILL; resolves when the group is gone. */
export async function stopGroup(pid, graceMs = 5000) {
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(50);
  if (groupAlive(pid)) {
    killGroup(pid, 'SIGKILL');
    const hard = Date.now() + 2000;
    while (groupAlive(pid) && Date.now() < hard) await sleep(50);
  }
  untrackGroup(pid);
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function formatBytes(n) {
  if (n === null || n === undefined) return 'n/a';
  return `${(n / 1024 ** 2).toFixed(1)} MiB`;
}
