// Helpers for running the real benchmark tools from tests: bounded by a timeout, output kept.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateDataset, loadVocabulary } from '../../scripts/lib/dataset-validate.mjs';
import { chartRenderProblems } from '../../scripts/lib/importers/render-check.mjs';

export const ROOT = new URL('../../', import.meta.url).pathname;

// Runs a command without a shell; resolves with {code, stdout, stderr, output (both, in order)}.
export function runTool(cmd, args, { timeoutMs = 60000, cwd = ROOT, env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: env ? { ...process.env, ...env } : process.env });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (d) => { stdout += d; output += d; });
    child.stderr.on('data', (d) => { stderr += d; output += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${cmd} timed out after ${timeoutMs} ms`)); }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr, output }); });
  });
}

export function tempDir(prefix = 'contrib-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function saveOutput(dir, name, text) {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

export function fixture(name) {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

let vocabulary;
// Validates a dataset object as if it were _data/datasets/<id>.json.
export function problemsOf(dataset) {
  vocabulary ||= loadVocabulary();
  return validateDataset({ file: join(ROOT, '_data/datasets', `${dataset.id}.json`), text: JSON.stringify(dataset, null, 2), vocabulary });
}

// Validation problems plus charts that do not render cleanly (the build fails on those too).
export async function allProblems(dataset) {
  const problems = problemsOf(dataset);
  if (problems.length) return problems;
  return chartRenderProblems(join(ROOT, '_data/datasets', `${dataset.id}.json`), JSON.stringify(dataset, null, 2));
}

export function column(dataset, key) {
  const i = dataset.columns.findIndex((c) => c.key === key);
  if (i < 0) throw new Error(`no column ${key}`);
  return dataset.rows.map((r) => r[i]);
}

export function cell(dataset, row, key) {
  return column(dataset, key)[row];
}

// Options every test import passes so the result has no TODO left (topic and author are not in tool output).
// The importer tests measure the suite's own Node.js server (local-server.mjs), and say so.
export const META = {
  topic: 'method', author: 'Scaling Rails test suite', machine: undefined,
  software: [`App server=Node.js ${process.versions.node} http module (the test suite's server)`, 'Rails=not used (Node.js test server)'],
};
