// Puma's mode against the settings that depend on it (seventh blind trial, octobox): a cluster of one worker, which
// Puma itself warns about at boot (cluster.rb single_worker_warning: "Consider running Puma in single-mode
// (workers = 0) in order to reduce memory overhead"). A note: the files cannot show what else sets WEB_CONCURRENCY
// where the app runs, and it does not break the app.
import { envOf } from './crossfile.mjs';
import { inDevBranch } from './problems.mjs';
import { pumaWorkers, webProcEnv } from './servers.mjs';
import { pumaCommand } from './implicit-threads.mjs';
import { optionValue } from './shell-words.mjs';
import { gte } from '../engine/version.mjs';

const PUMA_CLUSTER = { label: 'Puma lib/puma/cluster.rb single_worker_warning ("Detected running cluster mode with 1 worker … Consider running Puma in single-mode (workers = 0) in order to reduce memory overhead")', url: 'https://github.com/puma/puma/blob/master/lib/puma/cluster.rb' };
const PUMA_MODES = { label: 'Puma docs: deployment, single vs. cluster mode (workers :auto, "minimum 2, otherwise use single mode")', url: 'https://github.com/puma/puma/blob/master/docs/deployment.md' };
// What a master process is kept for with one worker: Puma's refork, and gems that restart workers from the master.
const NEEDS_MASTER = ['fork_worker', 'silence_single_worker_warning'];
const MASTER_GEMS = ['puma_worker_killer'];

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

  return out;
}
