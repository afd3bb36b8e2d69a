// Puma's threads when no `threads` line sets them: the command line's `-t MIN:MAX`/`--threads` (it wins over the config
// file), else Puma's own default for the locked version (capabilities/puma.mjs: 16 before 5.0, 5 on MRI since, or
// PUMA_MAX_THREADS/MAX_THREADS), against the production pool (Rails' implicit 5 included). An app on Puma 3 with
// `web: bundle exec puma -p $PORT` and no config runs 16 threads on 5 connections: an error, as in problems.mjs.
import { PUMA_FACTS } from '../engine/capabilities/puma.mjs';
import { RAILS_CONCURRENT_REQUESTS } from '../engine/capabilities/rails.mjs';
import { inRange, gte } from '../engine/version.mjs';
import { SRC } from '../engine/evidence.mjs';
import { envOf } from './crossfile.mjs';
import { productionPool } from './problems.mjs';
import { commandWords, optionValue, wordValue } from './shell-words.mjs';

const PUMA_CONFIG = { label: 'Puma lib/puma/configuration.rb (default threads 0:16 before 5.0, 0:5 on MRI since; PUMA_MAX_THREADS/MAX_THREADS)', url: 'https://github.com/puma/puma/blob/master/lib/puma/configuration.rb' };
const PUMA_CLI = { label: 'Puma lib/puma/cli.rb (-t, --threads MIN:MAX; command-line options win over the config file)', url: 'https://github.com/puma/puma/blob/master/lib/puma/cli.rb' };
const DELEGATES = /\b[A-Z]\w*(?:::\w+)*\.configure\w*\(\s*self\s*\)/;

/** Server command lines of a file: Procfile web:, the Dockerfile's final CMD/ENTRYPOINT, Kamal's cmd, a start script's. */
const serverLines = (f) => (f.kind === 'procfile' ? f.settings.filter((s) => s.name === 'web')
  : f.kind === 'dockerfile' ? f.settings.filter((s) => (s.op === 'CMD' || s.op === 'ENTRYPOINT') && s.runtime)
    : f.kind === 'kamal' ? f.settings.filter((s) => s.key === 'cmd' && typeof s.value === 'string')
      : f.kind === 'start-script' ? f.settings.filter((s) => s.name === 'server') : []);

/** The web command that runs Puma: Procfile web:, the Dockerfile's final CMD/ENTRYPOINT, Kamal's cmd, a start script. */
export function pumaCommand(files) {
  for (const f of files.filter((x) => !x.problem)) {
    for (const s of serverLines(f)) {
      const words = commandWords(s.value);
      if (words.some((w) => /(^|\/)puma$/.test(w))) return { words, file: f.path, line: s.line, procEnv: prefixEnv(words) };
    }
  }
  return null;
}

/**
 * `rails server` (or `rails s`) on a web command line, which starts Puma through Rack's handler when Puma is the server
 * the lockfile gives (Rack picks Thin first before 2.0, so a locked thin leaves it unknown). It takes no Puma
 * options: with no config/puma.rb Puma runs its own default threads (prison-visits-2's run.sh, PR #311).
 */
function railsServerCommand(files) {
  const lock = files.find((f) => f.kind === 'gemfile-lock' && !f.problem);
  if (!lock?.settings.some((s) => s.name === 'puma') || lock.settings.some((s) => s.name === 'thin')) return null;
  for (const f of files.filter((x) => !x.problem)) {
    for (const s of serverLines(f)) {
      const words = commandWords(s.value);
      const k = words.findIndex((w) => /(^|\/)rails$/.test(w));
      if (k >= 0 && /^(server|s)$/.test(words[k + 1] ?? '')) return { words, file: f.path, line: s.line, procEnv: prefixEnv(words), rails: true };
    }
  }
  return null;
}

const prefixEnv = (words) => Object.fromEntries(words.filter((w) => /^[A-Z][A-Z0-9_]*=\S+$/.test(w)).map((w) => w.split(/=(.*)/s).slice(0, 2)));

/** The web command sets the threads (-t/--threads): Puma's config file's `threads` lines are then not what runs. */
export function commandSetsThreads(files) {
  const cmd = pumaCommand(files);
  return Boolean(cmd && optionValue(cmd.words, '-t', '--threads'));
}

/** {max, env, why, file, line} for the threads Puma runs when no config line says, or null when the files cannot tell. */
export function implicitThreads(files, answers, env) {
  const puma = files.find((f) => f.kind === 'puma' && !f.problem);
  // `rails server` only when Puma's detection has a source (the server answer's default is puma, not evidence).
  const cmd = pumaCommand(files) || (answers.__provenance?.server && railsServerCommand(files));
  const t = cmd && !cmd.rails && optionValue(cmd.words, '-t', '--threads');
  if (t) {
    const [min, max] = t.split(':');
    const v = wordValue(max ?? min, env, cmd.procEnv);
    return v.value === null && !v.env ? null : { max: v.value, env: v.env, why: `-t ${t} on the command line`, file: cmd.file, line: cmd.line, evidence: PUMA_CLI };
  }
  // A config that sets threads (any branch), names them another way or hands itself to a library: not implicit.
  if (puma && (puma.settings.some((s) => s.name === 'threads') || /\bmax_threads\b|\bthreads\b/.test(String(puma.text || '').replace(/#.*$/gm, '')) || DELEGATES.test(puma.text || ''))) return null;
  // No config read: only a `puma` command that names none (a -C file outside the app is unknown).
  if (!puma && (!cmd || (!cmd.rails && optionValue(cmd.words, '-C', '--config')))) return null;
  const v = answers.server_version;
  if (!v) return null;
  const fromEnv = gte(v, PUMA_FACTS.maxThreadsEnv.since) && PUMA_FACTS.maxThreadsEnv.names.map((n) => [n, cmd?.procEnv[n] ?? env.get(n)?.value]).find(([, x]) => x !== undefined);
  const where = puma ? { file: puma.path, line: 1 } : { file: cmd.file, line: cmd.line };
  if (fromEnv) return /^\d+$/.test(fromEnv[1]) ? { max: Number(fromEnv[1]), env: null, why: `${fromEnv[0]}=${fromEnv[1]}, read by Puma ${v} when no threads are configured`, ...where, evidence: PUMA_CONFIG } : null;
  // The table is MRI's (Puma 5+ defaults to 16 on JRuby): another Ruby is not judged.
  if (answers.ruby && answers.ruby !== 'cruby') return null;
  const d = PUMA_FACTS.defaultMaxThreadsMri.find((r) => inRange(v, r));
  return d ? { max: d.value, env: null, why: `Puma ${v}'s default: ${puma ? `${puma.path} has no threads line` : 'no Puma config'}${gte(v, PUMA_FACTS.maxThreadsEnv.since) ? ' and PUMA_MAX_THREADS/MAX_THREADS unset' : ''}`, ...where, evidence: PUMA_CONFIG } : null;
}

export function implicitThreadFindings(files, answers) {
  if (answers.server && answers.server !== 'puma') return [];
  // Rails < 4.0 without config.threadsafe! runs one request at a time (Rack::Lock): the threads share one connection.
  if (answers.rails && !gte(answers.rails, RAILS_CONCURRENT_REQUESTS.since)) return [];
  const env = envOf(files);
  const yml = files.find((f) => f.kind === 'database-yml' && !f.problem);
  const pool = productionPool(yml, env);
  const t = pool && implicitThreads(files, answers, env);
  if (!t || t.max === null || t.max <= pool.value || (t.env && t.env === pool.env)) return [];
  const assume = [...new Set([t.env && `${t.env} unset`, pool.env && `${pool.env} unset`].filter(Boolean))];
  return [{
    rule: 'pool-below-threads', severity: 'error', file: pool.file, line: pool.line, setting: pool.key, found: String(pool.value), expected: String(t.max), dependsOn: 'server_version',
    message: `production's ${pool.key} is ${pool.value} (${pool.from}) but Puma runs ${t.max} threads per process (${t.why}, ${t.file}:${t.line})${assume.length ? ` with ${assume.join(' and ')}` : ''}: under load threads wait for a connection and raise ActiveRecord::ConnectionTimeoutError. Set the threads in config/puma.rb (\`threads ${pool.value}, ${pool.value}\`) or ${pool.url ? `?pool=${t.max} in ${pool.url} (${pool.file}:${pool.line})` : `${pool.key}: ${t.max} in production`}`,
    evidence: [t.evidence, SRC.railsPool], related: [{ file: t.file, line: t.line }],
  }];
}
