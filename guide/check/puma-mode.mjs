// Puma's mode against the settings that depend on it (seventh blind trial, octobox and postal): a cluster of one
// worker, which Puma itself warns about at boot (cluster.rb single_worker_warning: "Consider running Puma in
// single-mode (workers = 0) in order to reduce memory overhead"), and prune_bundler in single mode, which Puma skips
// (launcher.rb: prune_bundler? is prune_bundler && clustered? && !preload_app). Both are notes: the files cannot
// show what else sets WEB_CONCURRENCY where the app runs, and neither breaks the app.
import { effective, envOf } from './crossfile.mjs';
import { inDevBranch } from './problems.mjs';
import { pumaWorkers, webProcEnv } from './servers.mjs';
import { pumaCommand } from './implicit-threads.mjs';
import { optionValue } from './shell-words.mjs';
import { gte } from '../engine/version.mjs';

const PUMA_CLUSTER = { label: 'Puma lib/puma/cluster.rb single_worker_warning ("Detected running cluster mode with 1 worker … Consider running Puma in single-mode (workers = 0) in order to reduce memory overhead")', url: 'https://github.com/puma/puma/blob/master/lib/puma/cluster.rb' };
const PUMA_LAUNCHER = { label: 'Puma lib/puma/launcher.rb (prune_bundler? needs clustered?: workers > 0)', url: 'https://github.com/puma/puma/blob/master/lib/puma/launcher.rb' };
const PUMA_DSL_PRUNE = { label: 'Puma lib/puma/dsl.rb prune_bundler ("@note Cluster mode only.")', url: 'https://github.com/puma/puma/blob/master/lib/puma/dsl.rb' };
const PUMA_MODES = { label: 'Puma docs: deployment, single vs. cluster mode (workers :auto, "minimum 2, otherwise use single mode")', url: 'https://github.com/puma/puma/blob/master/docs/deployment.md' };
// What a master process is kept for with one worker: Puma's refork, and gems that restart workers from the master.
const NEEDS_MASTER = ['fork_worker', 'silence_single_worker_warning'];
const MASTER_GEMS = ['puma_worker_killer'];
const num = (v) => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));

/** The workers the command line sets (`puma -w 2`, `--workers 2`): they win over the config file. */
const commandWorkers = (files) => {
  const cmd = pumaCommand(files);
  return cmd ? optionValue(cmd.words, '-w', '--workers') : null;
};

export function pumaModeFindings(files, answers) {
  if (answers.server && answers.server !== 'puma') return [];
  const puma = files.find((f) => f.kind === 'puma' && !f.problem);
  if (!puma || commandWorkers(files) !== null) return [];
  const env = envOf(files);
  const procEnv = { ...webProcEnv(files), ...(pumaCommand(files)?.procEnv || {}) };
  const lock = files.find((f) => f.kind === 'gemfile-lock' && !f.problem);
  const version = answers.__lockedPuma?.value;
  const out = [];

  // 1. A cluster of one worker: one unconditional production `workers` line whose value is 1.
  const w = pumaWorkers(puma, env, procEnv);
  const master = puma.settings.some((s) => NEEDS_MASTER.includes(s.name)) || lock?.settings.some((s) => MASTER_GEMS.includes(s.name));
  if (w && w.n === 1 && w.s && !w.s.conditional && !master) {
    const a = w.s.args?.[0];
    const unset = a?.env && !env.has(a.env) && procEnv[a.env] === undefined ? a.env : null;
    const preload = puma.settings.some((s) => (s.name === 'preload_app!' || s.name === 'preload_app') && !inDevBranch(s));
    const warns = version && gte(version, '5.0') ? ` Puma ${version} says so at boot ("Detected running cluster mode with 1 worker").` : '';
    out.push({
      rule: 'cluster-of-one', severity: 'note', file: puma.path, line: w.line, setting: 'workers', found: '1', expected: '0',
      message: `Puma runs a cluster of one worker (${puma.path}:${w.line}${unset ? `, ${unset} unset: its default` : ''}): a master process that serves no request plus one worker that serves them all${preload ? ', and with preload_app! the master keeps a loaded copy of the app' : ''}. Single mode (workers 0) serves the same requests in one process and saves the master's memory.${warns} Keep the cluster only for what needs a master: fork_worker, a worker restarted after a crash or by puma_worker_killer, worker_timeout; then say so with silence_single_worker_warning${unset ? `. If the platform sets ${unset} to 2 or more where the app runs, this does not apply` : ''}`,
      evidence: [PUMA_CLUSTER, PUMA_MODES],
      ...(unset ? { assumes: [`${unset} unset`] } : {}),
    });
  }

  // 2. prune_bundler in single mode: no `workers` line in any branch (or only literal 0), no WEB_CONCURRENCY the files
  // set, and no preload_app! beside it (that pair is problems.mjs's warning). Puma 5+ reads WEB_CONCURRENCY as the
  // worker count when no line sets it, so the note names that variable.
  const prune = puma.settings.find((s) => s.name === 'prune_bundler' && !inDevBranch(s) && s.args?.[0]?.value !== false);
  const workers = puma.settings.filter((s) => s.name === 'workers');
  const single = workers.every((s) => num(effective(s.args?.[0], env)) === 0 && !s.args?.[0]?.env);
  const preloads = puma.settings.some((s) => s.name === 'preload_app!' || (s.name === 'preload_app' && s.args?.[0]?.value !== false));
  const wc = procEnv.WEB_CONCURRENCY ?? env.get('WEB_CONCURRENCY')?.value;
  const readsWc = !version || gte(version, '5.0');
  if (prune && single && !preloads && !(readsWc && wc !== undefined && num(wc) !== 0)) {
    out.push({
      rule: 'ignored-setting', severity: 'note', file: puma.path, line: prune.line, setting: 'prune_bundler', found: 'prune_bundler', expected: null,
      message: `prune_bundler has no effect in single mode: ${workers.length ? `workers is 0 (line ${workers[workers.length - 1].line})` : `${puma.path} sets no workers`}, and Puma prunes the bundle only when it runs a cluster (it starts each worker without the master's gems so a phased restart can load a new Gemfile.lock). The line can go${readsWc ? '; it would apply if WEB_CONCURRENCY is set to 1 or more where the app runs (Puma 5+ reads it as the worker count)' : ''}`,
      evidence: [PUMA_LAUNCHER, PUMA_DSL_PRUNE],
      ...(readsWc ? { assumes: ['WEB_CONCURRENCY unset'] } : {}),
    });
  }
  return out;
}
