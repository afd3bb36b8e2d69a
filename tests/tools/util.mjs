// Helpers for the measuring-tool tests (not a test file itself).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateDataset } from '../../scripts/lib/dataset-validate.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const tool = (name) => path.join(ROOT, 'scripts', name);

export function tmpDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
}

/** Run a tool; resolves {code, stdout, stderr, ms}. Kills it (and its group) after timeoutMs. */
export function run(file, args, { timeoutMs = 120000, cwd = ROOT, env = process.env } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - t0, pid: child.pid });
    });
  });
}

/** Spawn without waiting (for signal tests). */
export function start(file, args, { cwd = ROOT } = {}) {
  const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  child.output = '';
  child.stdout.on('data', (d) => { child.output += d; });
  child.stderr.on('data', (d) => { child.output += d; });
  child.done = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return child;
}

/** Pids of live (non-zombie) processes whose command line contains `needle`. */
export function processesMatching(needle) {
  const found = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(needle)) found.push({ pid: Number(name), cmd });
    } catch { /* exited meanwhile */ }
  }
  return found;
}

/**
 * Pids of live processes whose working directory is `dir`. Puma rewrites its command line
 * ("puma 6.6.1 (tcp://…) [dir]"), so the tests find the servers by their cwd instead.
 */
export function processesIn(dir) {
  const found = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (fs.readlinkSync(`/proc/${name}/cwd`) !== dir) continue;
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      found.push({ pid: Number(name), cmd: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch { /* exited meanwhile, or not ours to read */ }
  }
  return found;
}

export function killAll(list) {
  for (const p of list) {
    try { process.kill(p.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
}

export async function waitFor(fn, timeoutMs, stepMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** The dataset file printed on the tool's last stdout line, parsed, plus its validation problems. */
export function loadDataset(stdout) {
  const file = stdout.trim().split('\n').pop();
  const text = fs.readFileSync(file, 'utf8');
  return { file, data: JSON.parse(text), problems: validateDataset({ file, text }) };
}

export function col(data, key) {
  const i = data.columns.findIndex((c) => c.key === key);
  if (i < 0) throw new Error(`no column ${key}`);
  return data.rows.map((r) => r[i]);
}
