// Node tests' door to the modern-stack lab (scripts/lab): build it once per test process (cached), run
// commands inside it with a time limit. Every run is bounded: the lab itself stops the command after
// `timeout` seconds, and this side kills `scripts/lab` (which tears the run down) if it hangs past that.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LAB = join(REPO, 'scripts', 'lab');

export function runLabCommand(args, { timeout = 600, env = {}, input } = {}) {
  return new Promise((resolve) => {
    const child = spawn(LAB, args, { cwd: REPO, env: { ...process.env, ...env }, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    if (input) child.stdin.end(input);
    // scripts/lab turns TERM into an orderly teardown (TERM, grace, KILL inside the lab); KILL only if that hangs.
    const guard = setTimeout(() => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
    }, (timeout + 60) * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code: code ?? 128, signal, stdout, stderr });
    });
  });
}

let ready;
// Builds the lab (or confirms the cached one) once per process. Resolves {ok, reason, seconds}.
export function ensureLab() {
  ready ??= (async () => {
    const started = Date.now();
    const r = await runLabCommand(['build'], { timeout: 1500 });
    const seconds = (Date.now() - started) / 1000;
    if (r.code !== 0) return { ok: false, seconds, reason: `scripts/lab build exited ${r.code}: ${r.stderr.trim().split('\n').slice(-5).join(' | ')}` };
    return { ok: true, seconds, log: r.stderr };
  })();
  return ready;
}

// Runs `scripts/lab run [labOptions…] --timeout T -- …command` and resolves {code, stdout, stderr}.
// services: true stacks the services layer (Redis, Memcached) over the base.
export function labRun(command, { timeout = 300, ruby, net, env, services } = {}) {
  const args = ['run', '--timeout', String(timeout)];
  if (ruby) args.push('--ruby', ruby);
  if (services) args.push('--services');
  if (net) args.push('--net', net);
  return runLabCommand([...args, '--', ...command], { timeout, env });
}

// A bash script inside the lab, failing on the first error.
export function labScript(script, options = {}) {
  return labRun(['bash', '-euo', 'pipefail', '-c', script], options);
}

// Writes a generated bundle into a fresh directory of the checkout (the lab sees the checkout at /repo) and
// returns that directory and its path inside the lab. The caller removes `dir`.
export function writeBundle(bundle, prefix) {
  const dir = mkdtempSync(join(REPO, prefix));
  for (const f of bundle.files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.content);
  }
  return { dir, inLab: `/repo/${relative(REPO, dir)}` };
}
