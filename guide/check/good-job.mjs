// GoodJob's CLI run as a process of its own (`good_job`, `good_job start`, `bin/good_job` in a Procfile, a
// Dockerfile CMD, a Kamal role or a Compose service) against the production pool that process gets. The CLI always
// runs jobs (:external whatever execution_mode says), with its execution threads plus GoodJob's own connections
// (capabilities/jobs.mjs GOOD_JOB_CONNECTIONS: 1 for LISTEN/NOTIFY, 2 for cron when it is on). GoodJob in the web
// process (:async) is jobs.mjs's embeddedRunner. Severity as in problems.mjs: the execution threads alone above the
// pool is an error (jobs wait for a connection and fail); only GoodJob's count with cron above it a warning (GoodJob
// warns at boot; cron's enqueues wait behind busy threads); the notifier alone, or a pool the files cannot tell
// (`url:` from DATABASE_URL), a note.
import { GOOD_JOB_CONNECTIONS as GJ } from '../engine/capabilities/jobs.mjs';
import { deployCommands } from './read-deploy.mjs';
import { LIMITS } from './limits.mjs';
import { commandWords, shellValue } from './shell-words.mjs';
import { effective } from './crossfile.mjs';
import { jobEnvOf, prefixEnv } from './jobs.mjs';
import { productionPool, urlDefaultPool, inDevBranch } from './problems.mjs';
import { sharedPoolFix, describeFix } from './pool-fix.mjs';

const README = { label: 'GoodJob README: Database connections (worker processes: pool 1 + 2 + GOOD_JOB_MAX_THREADS)', url: 'https://github.com/bensheldon/good_job#database-connections' };
const ESTIMATE = { label: 'GoodJob lib/good_job/configuration.rb: total_estimated_threads (notifier 1 + cron 2 + max_threads; warns above the pool)', url: 'https://github.com/bensheldon/good_job/blob/main/lib/good_job/configuration.rb' };
const RAILS_TIMEOUT = { label: 'Rails guide: database pooling (a thread waits checkout_timeout, 5 s, then ActiveRecord::ConnectionTimeoutError)', url: 'https://guides.rubyonrails.org/configuring.html#database-pooling' };

const num = (v) => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));
const OPERATOR = /^(&&|\|\||;|\||&)$/;
const REDIRECT = /^\d*[<>]/;
// Thor options of `good_job start` that take a value (lib/good_job/cli.rb method_option … type: :numeric/:string).
const VALUED = new Set(['queues', 'max-threads', 'poll-interval', 'max-cache', 'shutdown-timeout', 'pidfile', 'probe-port', 'probe-handler', 'idle-timeout', 'queue-select-limit', 'cleanup-interval-jobs', 'cleanup-interval-seconds']);
const TRUE = /^(true|1|yes|on|t)$/i;
// Processes judged per check (LIMITS.jobProcesses): a hostile Procfile of 25,000 `good_job &` segments gets the first
// ones (each finding carries a diff of database.yml), not work that grows with it.
const MAX_PROCESSES = LIMITS.jobProcesses;

/** The GoodJob CLI processes the deployment runs: [{c, words, options, procEnv}] (`good_job start`, the default task). */
export function goodJobProcesses(files) {
  const out = [];
  for (const c of deployCommands(files)) {
    if (out.length >= MAX_PROCESSES) break;
    const all = commandWords(c.cmd);
    // One process per segment: `good_job --max-threads=5 & good_job --queues=batch & wait -n` runs two.
    let seg = [];
    for (const w of [...all, ';']) {
      if (!OPERATOR.test(w)) { seg.push(w); continue; }
      const k = seg.findIndex((x) => /(^|\/)good_job$/.test(x));
      if (k >= 0) {
        const p = parse(seg.slice(k + 1));
        if (p && out.length < MAX_PROCESSES) out.push({ c, words: seg, options: p, procEnv: prefixEnv(`${seg.slice(0, k).join(' ')} `) });
      }
      seg = [];
    }
  }
  return out;
}

// The words after `good_job`: its options, or null when they name another task (cleanup_preserved_jobs, help).
function parse(words) {
  const options = {};
  for (let k = 0; k < words.length; k++) {
    const w = words[k];
    if (REDIRECT.test(w)) { if (/^\d*[<>]+$/.test(w)) k++; continue; }
    const m = /^--([\w-]+)(?:=(.*))?$/.exec(w);
    if (!m) { if (w !== 'start') return null; continue; }
    const name = m[1].replace(/_/g, '-');
    if (name === 'enable-cron' || name === 'no-enable-cron') options.enableCron = name === 'enable-cron' && (m[2] === undefined || TRUE.test(m[2]));
    else if (VALUED.has(name)) options[name] = m[2] !== undefined ? m[2] : words[++k];
  }
  return options;
}

/** A setting of config.good_job from production.rb, initializers/good_job.rb or application.rb: {f, s} or null. */
function configOf(files, name) {
  for (const f of files.filter((x) => ['rails-env', 'good-job', 'rails-app'].includes(x.kind) && !x.problem)) {
    const s = f.settings.find((x) => x.name === name && !x.conditional && !inDevBranch(x));
    if (s) return { f, s };
  }
  return null;
}

/**
 * One process's execution threads and GoodJob's own connections: {threads, cron, need, env, why: [..], at: {...}}
 * or null when a value the count needs cannot be read (a `config.good_job = {…}` hash, an expression).
 */
export function goodJobNeed(files, p, env) {
  if (configOf(files, 'config.good_job')) return null;
  const why = [];
  // max_threads: --max-threads, config.good_job.max_threads, GOOD_JOB_MAX_THREADS, RAILS_MAX_THREADS, 5.
  let max = null;
  let thrEnv = null;
  let at = null;
  if (p.options['max-threads'] !== undefined) {
    const sv = shellValue(p.options['max-threads'], env, p.procEnv);
    max = sv ? sv.value : num(p.options['max-threads']);
    thrEnv = sv?.env || null;
    why.push(`--max-threads ${p.options['max-threads']}`);
  } else {
    const mt = configOf(files, 'config.good_job.max_threads');
    if (mt) {
      const arg = mt.s.args?.[0];
      max = num(effective(arg, env));
      thrEnv = arg?.env && !env.has(arg.env) ? arg.env : null;
      at = { file: mt.f.path, line: mt.s.line };
      why.push(`config.good_job.max_threads ${mt.s.text || mt.s.value} (${mt.f.path}:${mt.s.line})`);
    } else {
      const name = GJ.maxThreadsEnv.find((n) => p.procEnv[n] !== undefined || env.has(n));
      max = name ? num(p.procEnv[name] ?? env.get(name).value) : GJ.defaultMaxThreads;
      why.push(name ? `${name}=${max}` : `GoodJob's default max_threads, ${max}`);
      if (!name) thrEnv = 'RAILS_MAX_THREADS'; // unset: GoodJob would read it first
    }
  }
  if (max === null) return null;
  // queues: one thread pool per `;` entry, its `:N` or max_threads each (README "Optimize queues, threads, and processes").
  const qc = p.options.queues !== undefined ? { value: p.options.queues } : configOf(files, 'config.good_job.queues');
  const qv = qc?.s ? effective(qc.s.args?.[0], env) : qc ? qc.value : (p.procEnv.GOOD_JOB_QUEUES ?? env.get('GOOD_JOB_QUEUES')?.value ?? '*');
  if (typeof qv !== 'string') return null;
  const pools = qv.split(';').filter((x) => x.trim()).map((x) => { const m = /:(\d+)\s*$/.exec(x); return m ? Number(m[1]) : max; });
  const threads = pools.reduce((a, b) => a + b, 0) || max;
  if (pools.length > 1 || pools.some((n) => n !== max)) { why.push(`queues "${qv}": ${pools.join(' + ')} threads`); thrEnv = null; }
  // cron: --enable-cron, config.good_job.enable_cron, GOOD_JOB_ENABLE_CRON; GoodJob runs it only with entries (cron: or GOOD_JOB_CRON).
  const ec = configOf(files, 'config.good_job.enable_cron');
  // Configuration#enable_cron is `options || rails_config || env`: any of them true turns it on (an expression counts as off).
  const enable = p.options.enableCron === true || Boolean(ec?.s.args?.[0]?.known && TRUE.test(String(ec.s.args[0].value)))
    || TRUE.test(String(p.procEnv.GOOD_JOB_ENABLE_CRON ?? env.get('GOOD_JOB_ENABLE_CRON')?.value ?? ''));
  const entries = configOf(files, 'config.good_job.cron');
  const cron = Boolean(enable && ((entries && !/^\{\s*\}$/.test(String(entries.s.text || '').trim())) || env.has('GOOD_JOB_CRON') || p.procEnv.GOOD_JOB_CRON));
  if (cron) why.push(`cron enabled${ec ? ` (${ec.f.path}:${ec.s.line})` : ''}`);
  const need = threads + GJ.notifier + (cron ? GJ.cron : 0);
  return { threads, cron, need, env: thrEnv, why, at, cronAt: cron && ec ? { file: ec.f.path, line: ec.s.line } : null };
}

export function goodJobFindings(files, answers) {
  const out = [];
  const yml = files.find((f) => f.kind === 'database-yml' && !f.problem);
  const lock = files.find((f) => f.kind === 'gemfile-lock' && !f.problem);
  // Without the gem the command fails at start: deploy.mjs's task-missing says so.
  if (!yml || (lock && !lock.settings.some((s) => s.name === 'good_job'))) return out;
  const appEnv = jobEnvOf(files);
  const web = answers.server === 'puma' || !answers.server ? files.find((f) => f.kind === 'puma' && !f.problem) : null;
  for (const p of goodJobProcesses(files)) {
    const env = new Map(appEnv);
    for (const [k, v] of Object.entries(p.procEnv)) env.set(k, { value: v, file: p.c.file, line: p.c.line });
    const pool = productionPool(yml, env) || urlDefaultPool(yml, env);
    const n = pool && goodJobNeed(files, p, env);
    if (!n || n.need <= pool.value) continue;
    // The threads and the pool read one unset variable (RAILS_MAX_THREADS): equal whatever it is set to.
    const same = n.env && pool.env && n.env === pool.env;
    const over = !same && n.threads > pool.value;
    const severity = pool.urlEnv ? 'note' : over ? 'error' : n.cron ? 'warning' : 'note';
    const fix = sharedPoolFix(files, yml, pool, web, appEnv, { value: n.need, label: `${n.need} for the GoodJob process (${p.c.file}:${p.c.line})` });
    const harm = over
      ? `its ${n.threads} execution threads alone exceed the pool: under load jobs wait for a connection and fail with ActiveRecord::ConnectionTimeoutError`
      : n.cron
        ? `GoodJob counts ${n.need} and warns at boot that it uses more threads than the pool; when all ${n.threads} threads run jobs, cron's enqueues wait for a connection and fail with ActiveRecord::ConnectionTimeoutError after checkout_timeout (5 s)`
        : `GoodJob counts ${n.need} and warns at boot; its notifier takes its connection out of the pool, so only that warning is certain`;
    out.push({
      rule: 'pool-below-concurrency', severity, file: p.c.file, line: p.c.line, setting: 'good_job', found: String(pool.value), expected: String(n.need),
      message: `\`${p.words.join(' ')}\` runs GoodJob's CLI, a process of its own (it runs jobs whatever execution_mode says) with ${n.threads} execution thread${n.threads === 1 ? '' : 's'} (${n.why.join('; ')}) + ${GJ.notifier} for LISTEN/NOTIFY${n.cron ? ` + ${GJ.cron} for cron` : ''} = ${n.need} connections, but production's pool is ${same ? `${pool.env}, the same variable as the threads (${pool.value} unset)` : `${pool.value} (${pool.file}:${pool.line}, ${pool.from})`}: ${harm}. Set ${describeFix(pool.key, fix)}`,
      evidence: [README, ESTIMATE, RAILS_TIMEOUT], related: [{ file: pool.file, line: pool.line }, ...(n.at ? [n.at] : []), ...(n.cronAt ? [n.cronAt] : [])],
      diff: fix.diff, replacement: fix.text,
    });
  }
  return out;
}
