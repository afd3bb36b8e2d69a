// `node guide/cli.mjs --check PATH…`: collect, check, report; returns the exit status.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { validateAnswers, GENERATOR_VERSION } from '../engine/index.mjs';
import { collect } from './collect.mjs';
import { check, exitStatus, SEVERITIES } from './index.mjs';
import { reportText } from './report-text.mjs';
import { reportJson } from './report-json.mjs';
import { reportSarif } from './report-sarif.mjs';
import { terminalSafe } from './safe-text.mjs';

export function runCheck(opts, { fail, usage }) {
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
    const errors = validateAnswers(given);
    if (errors.length) fail(2, errors.map((e) => `invalid answer: ${e.message}; allowed: ${e.allowed.join(', ')}`).join('\n'));
  }
  const report = check(collect(opts.check), { answers: given, date: opts.date });
  const out = format === 'json' ? reportJson(report) : format === 'sarif' ? reportSarif(report, { toolVersion: GENERATOR_VERSION, siteUrl: siteUrl(), cwd: process.cwd() }) : reportText(report);
  process.stdout.write(out);
  if (format !== 'text') for (const p of report.problems) process.stderr.write(`${terminalSafe(`error: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message} — fix: ${p.fix}`)}\n`);
  return exitStatus(report, failOn);
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
