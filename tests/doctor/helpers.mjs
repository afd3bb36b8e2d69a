// Shared by the doctor tests: run the real CLI, write a generated bundle to disk.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../../guide/engine/index.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(ROOT, 'tests', 'doctor', 'fixtures');

export function runCli(args, { timeout = 60000 } = {}) {
  const r = spawnSync(process.execPath, [join(ROOT, 'guide', 'cli.mjs'), ...args], { encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

/** Write the bundle for `answers` under dir (paths as in the download); returns the engine's result. */
export function writeBundle(dir, answers, options = {}) {
  const result = generate(answers, { date: '2026-11-23', ...options });
  for (const f of result.files) {
    const p = join(dir, f.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.content);
  }
  return result;
}
