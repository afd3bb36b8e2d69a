// Shared by the doctor tests: run the real CLI, write a generated bundle to disk.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { readFile, RUBY_KINDS } from '../../guide/check/read.mjs';
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

/** Apply a one-hunk unified diff (as diff.mjs writes it) to text: {text, changed: [1-based lines]}. */
export function applyDiff(text, diff) {
  const lines = text.split('\n');
  const body = diff.split('\n');
  const h = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/.exec(body[2]);
  const start = Number(h[1]);
  const old = body.slice(3).filter((l) => l[0] === '-' || l[0] === ' ').map((l) => l.slice(1));
  const neu = body.slice(3).filter((l) => l[0] === '+' || l[0] === ' ').map((l) => l.slice(1));
  const from = old.length ? start - 1 : start;
  assert.deepEqual(lines.slice(from, from + old.length), old, 'the diff applies to the file');
  lines.splice(from, old.length, ...neu);
  return { text: lines.join('\n'), changed: neu.map((_, k) => from + k + 1) };
}

const bareName = (a) => !a.known && !a.local && !a.env && /^[a-z_]\w*$/.test(String(a.text).trim());


/** Ruby suggestions of a report on the app in dir, applied and read again: each argument of a changed line that is a bare
 *  name the file does not define (NameError when the config loads). → {checked, problems: [text]} */
export function undefinedInSuggestions(dir, report) {
  const problems = [];
  let checked = 0;
  for (const f of report.findings) {
    const kind = report.files.find((x) => x.path === f.file)?.kind;
    if (!f.diff || !RUBY_KINDS.has(kind)) continue;
    const { text: after, changed } = applyDiff(readFileSync(join(dir, f.file), 'utf8'), f.diff);
    const parsed = readFile({ path: f.file, text: after, kind });
    for (const s of parsed.settings.filter((x) => changed.includes(x.line))) {
      for (const a of s.args || []) if (bareName(a)) problems.push(`${f.file}:${s.line} ${s.name}: \`${a.text}\` is not defined in the file`);
    }
    checked++;
  }
  return { checked, problems };
}
