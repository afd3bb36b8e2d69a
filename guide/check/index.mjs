// The doctor: files → detected answers → the engine's bundle for them → findings.
// Plain ES module, no DOM, no file system: the CLI (guide/cli.mjs, collect.mjs) and the page
// (guide/ui/check.mjs) both hand it [{path, text}] and get the same report.
import { generate, parseAnswers } from '../engine/core.mjs';
import { readFile } from './read.mjs';
import { detect } from './detect.mjs';
import { compareFiles, generatedSettings } from './compare.mjs';
import { gemFindings } from './gems.mjs';
import { obsoleteFindings } from './obsolete.mjs';
import { crossFileFindings } from './crossfile.mjs';
import { problemFindings } from './problems.mjs';
import { jobFindings } from './jobs.mjs';
import { goodJobFindings } from './good-job.mjs';
import { unseenPoolFindings } from './unseen-pool.mjs';
import { rubyImageFindings } from './ruby-image.mjs';
import { lockedGem } from './assumed.mjs';
import { serverFindings } from './servers.mjs';
import { implicitThreadFindings } from './implicit-threads.mjs';
import { jobLossFindings } from './job-loss.mjs';
import { solidQueueTwiceFindings } from './solid-queue-twice.mjs';
import { pumaModeFindings } from './puma-mode.mjs';
import { endOfLifeFindings } from './end-of-life.mjs';
import { composeRailsEnvFindings } from './compose-rails-env.mjs';
import { dropComposeTls } from './compose-host.mjs';
import { productionNotes } from './note-scope.mjs';
import { devEnvFindings, missingTaskFindings, notRakeTaskFindings } from './deploy.mjs';
import { resolveCompose } from './read-deploy.mjs';
import { mergeGemfileParts } from './gemfile-parts.mjs';
import { t } from '../engine/text.mjs';

export const SEVERITIES = ['error', 'warning', 'note'];

// Answers that change generated values; when one was not detected, findings depending on it are notes.
const PERTURB = {
  cores: (a) => [a.cores * 2 + 1], ram_gb: (a) => [a.ram_gb * 4, a.ram_gb * 16, Math.max(0.5, a.ram_gb / 4)], workload: () => ['io', 'cpu', 'mixed'],
  app_hosts: (a) => [a.app_hosts + 3], storage: () => ['hdd', 'nvme'], db_host: (a) => [a.db_host === 'same' ? 'separate' : 'same'],
  kernel: () => ['4.19', '6.12'], arch: (a) => [a.arch === 'arm64' ? 'x86_64' : 'arm64'],
  rails: () => ['6.1', '7.1', '8.1'], ruby_version: () => ['2.7', '3.2', '3.4'], server_version: () => ['5.6', '7.0'],
  // Whether the app serves WebSockets is never read from its files, and the pool counts Action Cable's workers.
  websockets: (a) => [!a.websockets],
  // Paths under the app's directory (bind, pidfile, listen) are the wizard's example unless a file names the directory.
  app_root: (a) => [`${a.app_root}-elsewhere`],
  // Names and sizes the wizard assumes when no file tells them: a value built on one is its example, not the app's.
  domain: (a) => [`other-${a.domain}`], deploy_user: (a) => [`${a.deploy_user}x`], ruby_path: (a) => [`${a.ruby_path}/x`],
  job_threads: (a) => [a.job_threads + 2], job_processes: (a) => [a.job_processes + 1],
  database_version: () => ['12', '17'], proxy_version: () => ['1.18', '1.28'], pooler_version: () => ['1.18', '1.24'],
};

function valuesByKindKey(result) {
  const map = new Map();
  for (const gf of result.files) {
    const { kind, settings } = generatedSettings(gf);
    for (const s of settings) {
      const k = `${kind}|${s.key}`;
      map.set(k, [...(map.get(k) || []), String(s.value)].sort());
    }
  }
  return map;
}

/** For each generated setting, the undetected answers its value depends on. */
function sensitivity(answers, undetected, options) {
  const base = valuesByKindKey(generate(answers, options));
  const deps = new Map();
  for (const key of undetected) {
    if (!PERTURB[key]) continue;
    for (const alt of PERTURB[key](answers)) {
      if (String(alt) === String(answers[key])) continue;
      const other = valuesByKindKey(generate({ ...answers, [key]: alt }, key === 'app_root' ? { ...options, appRoot: alt } : options));
      for (const [k, v] of base) {
        if (JSON.stringify(other.get(k) || []) !== JSON.stringify(v)) deps.set(k, new Set([...(deps.get(k) || []), key]));
      }
    }
  }
  return deps;
}

function appRootOf(files) {
  for (const f of files) {
    const d = f.kind === 'puma' && f.settings.find((s) => s.name === 'directory' && s.args?.[0]?.known && typeof s.args[0].value === 'string');
    if (d) return d.args[0].value.replace(/\/+$/, '');
  }
  for (const f of files) {
    const r = f.kind === 'nginx' && f.settings.find((s) => s.name === 'root' && /\/public\/?$/.test(s.value));
    if (r) return r.value.replace(/\/public\/?$/, '');
  }
  return undefined;
}

/** The Gemfile evaluates files that were not read: {file, line} (a version may be pinned there), or null. */
function unfollowedGemfile(files) {
  const g = files.find((f) => f.kind === 'gemfile' && !f.problem && f.unfollowed);
  return g ? { file: g.path, line: g.unfollowed.line } : null;
}

/**
 * check(inputs, {answers, date, onRead}) → report
 * inputs: [{path, text}] (readable text files) and [{path, problem}] (what the collector refused);
 * answers: answers given explicitly (they win over detection).
 */
export function check(inputs, { answers: given = {}, date, onRead } = {}) {
  // onRead(path): called before each file is read (the page's worker reports it, to name a file past the deadline).
  // `from: 'app-unit'`: a unit the app ships in its own tree (app-extras.mjs), kept on the file read.
  const files = inputs.map((x) => (x.problem ? { path: x.path, kind: null, settings: [], notes: [], problem: x.problem } : (onRead?.(x.path), Object.assign(readFile(x), x.from ? { from: x.from } : {}))));
  onRead?.(null);
  resolveCompose(files);
  mergeGemfileParts(files);
  const det = detect(files, given);
  // What the host already has (an app under /u/apps, a unit with User=root) is compared, not refused.
  const { answers } = parseAnswers(det.answers, { policy: false });
  // Older engines take the app root as an option, newer ones as the app_root answer.
  const appRoot = answers.app_root || appRootOf(files);
  const options = { date, appRoot };
  const result = generate(answers, options);
  const undetected = det.undetected;
  const deps = sensitivity(answers, undetected, options);
  // Units an app ships in its tree are templates its own deploy installs: the cross-file rules read them (Solid Queue
  // started twice), but they are not compared line by line with the wizard's hardened unit (mushroom-observer: 37
  // notes from two units nobody passed). Passed on the command line, a unit is compared as before.
  const cmp = compareFiles(files.filter((f) => f.from !== 'app-unit'), result, { answers, sensitive: (path, key) => {
    const kind = generatedSettings(result.files.find((f) => f.path === path)).kind;
    return [...(deps.get(`${kind}|${key}`) || [])];
  } });
  const ctxAnswers = { ...answers, __ramGiven: 'ram_gb' in given, __given: Object.keys(given), __provenance: det.provenance, __lockedPuma: lockedGem(files, 'puma'), __gemfileUnfollowed: unfollowedGemfile(files) };
  const findings = dropComposeTls(cmp.findings, files);
  for (const f of files) if (!f.problem) findings.push(...obsoleteFindings(f, ctxAnswers));
  findings.push(...crossFileFindings(files, ctxAnswers));
  findings.push(...problemFindings(files, ctxAnswers));
  findings.push(...rubyImageFindings(files));
  findings.push(...jobFindings(files, ctxAnswers));
  findings.push(...goodJobFindings(files, ctxAnswers));
  findings.push(...unseenPoolFindings(files, ctxAnswers));
  findings.push(...serverFindings(files, ctxAnswers));
  findings.push(...implicitThreadFindings(files, ctxAnswers));
  findings.push(...jobLossFindings(files, ctxAnswers));
  findings.push(...solidQueueTwiceFindings(files, ctxAnswers));
  findings.push(...pumaModeFindings(files, ctxAnswers));
  findings.push(...endOfLifeFindings(files));
  findings.push(...composeRailsEnvFindings(files));
  findings.push(...gemFindings(files));
  findings.push(...missingTaskFindings(files));
  findings.push(...notRakeTaskFindings(files));
  const devEnv = devEnvFindings(files);
  findings.push(...devEnv);
  // Rails in development in the production image is that warning, on the line that sets it: not also a
  // "differs" note on puma.rb's environment line that reads the same variable.
  if (devEnv.length) for (let k = findings.length - 1; k >= 0; k--) if (findings[k].setting === 'environment' && findings[k].rule === 'differs' && /development/.test(String(findings[k].found))) findings.splice(k, 1);
  for (const x of findings) {
    if (x.dependsOn && undetected.includes(x.dependsOn) && x.severity !== 'note') {
      x.assumes = [x.dependsOn];
      x.severity = 'note';
    }
    x.evidence = (x.evidence || []).map((e) => ({ label: e.label || (e.key && t(e.key, e.vars)) || e.url, url: e.url }));
    delete x.dependsOn;
  }
  // One finding per rule, file, line and setting (aliases such as pool/max_connections meet here).
  const seen = new Set();
  for (let k = findings.length - 1; k >= 0; k--) {
    const key = [findings[k].rule, findings[k].file, findings[k].line, findings[k].setting === 'max_connections' ? 'pool' : findings[k].setting].join('\u0000');
    if (seen.has(key)) findings.splice(k, 1); else seen.add(key);
  }
  findings.sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || a.file.localeCompare(b.file) || a.line - b.line);
  return {
    answers,
    detected: Object.fromEntries(Object.entries(det.provenance).map(([k, p]) => [k, { value: answers[k], ...p }])),
    undetected: undetected.map((k) => ({ key: k, assumed: answers[k] })),
    conflicts: det.conflicts,
    facts: det.facts,
    files: files.map((f) => ({ path: f.path, kind: f.kind, settings: f.settings.length, notes: productionNotes(f), ...(f.problem ? { problem: f.problem } : {}) })),
    problems: files.filter((f) => f.problem).map((f) => f.problem),
    compared: cmp.compared,
    notCompared: cmp.notCompared,
    findings,
    bundle: result,
  };
}

/** Exit status for the CLI: 2 unreadable input, 1 a finding at or above failOn, else 0. */
export function exitStatus(report, failOn = 'error') {
  if (report.problems.length) return 2;
  const limit = SEVERITIES.indexOf(failOn);
  return report.findings.some((f) => SEVERITIES.indexOf(f.severity) <= limit) ? 1 : 0;
}
