// `node guide/cli.mjs --check PATH…`: collect, check, report; returns the exit status.
import { readFileSync, statSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { validateAnswers, GENERATOR_VERSION } from '../engine/index.mjs';
import { Worker } from 'node:worker_threads';
import { collect } from './collect.mjs';
import { exitStatus, SEVERITIES } from './index.mjs';
import { LIMITS } from './limits.mjs';
import { reportText } from './report-text.mjs';
import { reportJson } from './report-json.mjs';
import { reportSarif } from './report-sarif.mjs';
import { terminalSafe } from './safe-text.mjs';

export async function runCheck(opts, { fail, usage }) {
  const format = opts.format || 'text';
  if (!['text', 'json', 'sarif'].includes(format)) fail(64, `--format must be text, json or sarif with --check\n${usage}`);
  const failOn = opts.failOn || 'error';
  if (!SEVERITIES.includes(failOn)) fail(64, `--fail-on must be one of ${SEVERITIES.join(', ')}`);
  let given = {};
  if (opts.answers) {
    try {
      given = JSON.parse(readFileSync(opts.answers === '-' ? 0 : opts.answers, 'utf8'));
    } catch (e) {
      fail(2, `cannot read answers file ${opts.answers}: ${e.code || e.message}`);
    }
    const errors = validateAnswers(given, { policy: false }); // the checker compares what a host has; it writes nothing
    if (errors.length) fail(2, errors.map((e) => `invalid answer: ${e.message}; allowed: ${e.allowed.join(', ')}`).join('\n'));
  }
  const seconds = opts.timeLimit === undefined ? LIMITS.cliSeconds : Number(opts.timeLimit);
  if (!(seconds > 0)) fail(64, '--time-limit must be a number of seconds above 0');
  const report = await checkInThread(collect(opts.check), { answers: given, date: opts.date }, seconds);
  // Nothing read (a missing path, an empty folder, /etc/passwd, a device): the error alone, not a report of
  // defaults assumed and "No findings" for an app that was never seen.
  if (format === 'text' && report.problems.length && !report.files.some((f) => f.kind && !f.problem)) {
    for (const p of report.problems) process.stderr.write(`${terminalSafe(`error: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message} — fix: ${p.fix}`)}\n`);
    return 2;
  }
  const out = format === 'json' ? reportJson(report) : format === 'sarif' ? reportSarif(report, { toolVersion: GENERATOR_VERSION, siteUrl: siteUrl(), cwd: process.cwd(), roots: rootsOf(opts.check) }) : reportText(report);
  process.stdout.write(out);
  if (format !== 'text') for (const p of report.problems) process.stderr.write(`${terminalSafe(`error: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message} — fix: ${p.fix}`)}\n`);
  return exitStatus(report, failOn);
}

// The paths given to --check, and whether each is a folder (SARIF's %SRCROOT% is the app that was passed).
function rootsOf(paths) {
  return paths.map((path) => { try { return { path, dir: statSync(path).isDirectory() }; } catch { return { path, dir: false }; } });
}

// The site's address (_config.yml url + baseurl), for the SARIF rules' help links to /guide/checks/.
function siteUrl() {
  try {
    const cfg = parseYaml(readFileSync(new URL('../../_config.yml', import.meta.url), 'utf8')) || {};
    return `${String(cfg.url || '').replace(/\/$/, '')}${String(cfg.baseurl || '').replace(/\/$/, '')}`;
  } catch {
    return 'https://scaling-rails.github.io';
  }
}

/** check() in a worker thread, terminated after `seconds`: then a report whose one problem names the file being read. */
function checkInThread(inputs, { answers, date }, seconds) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./check-thread.mjs', import.meta.url), { workerData: { inputs, answers, date } });
    let reading; // undefined: not started; a path: reading it; null: every file read
    const timer = setTimeout(() => {
      worker.terminate();
      resolve(stopped(inputs, reading, seconds));
    }, seconds * 1000);
    worker.on('message', (m) => {
      if ('reading' in m) { reading = m.reading; return; }
      clearTimeout(timer);
      resolve(m.report);
    });
    worker.on('error', (e) => { clearTimeout(timer); reject(e); });
  });
}

function stopped(inputs, reading, seconds) {
  const problem = {
    code: 'time-limit', file: reading || inputs[0]?.path || '.', line: 0,
    message: `the check stopped after ${seconds} s, its time limit, ${reading ? 'while reading this file' : reading === null ? 'after reading the files' : 'before reading the files'}`,
    fix: 'check that file on its own, or raise --time-limit',
  };
  return { answers: {}, detected: {}, undetected: [], conflicts: [], facts: [], files: [], problems: [problem], compared: [], notCompared: [], findings: [], bundle: { files: [] } };
}
