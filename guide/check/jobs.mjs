// Job runners against the database and the app server: Sidekiq's concurrency (sidekiq.yml or the
// Procfile's `sidekiq -c N`) and Solid Queue's worker threads (queue.yml) against the pool their process
// gets, and SOLID_QUEUE_IN_PUMA without the Puma plugin that reads it. Severity as in problems.mjs.
import { effective, envOf } from './crossfile.mjs';
import { envSettings } from './obsolete.mjs';
import { productionPool, pumaThreads, inDevBranch, urlDefaultPool } from './problems.mjs';
import { SRC } from '../engine/evidence.mjs';
import { JOB_RUNNERS, GOOD_JOB_CONNECTIONS } from '../engine/capabilities/jobs.mjs';
import { inRange, gte } from '../engine/version.mjs';
import { evaluate } from './read-ruby.mjs';
import { tokenize } from './ruby-tokens.mjs';
import { webPoolFix, sharedPoolFix, describeFix, ASYNC_EVIDENCE } from './pool-fix.mjs';
import { shellValue } from './shell-words.mjs';

const SIDEKIQ_POOL = { label: 'Sidekiq wiki: Advanced options (concurrency and the database pool)', url: 'https://github.com/sidekiq/sidekiq/wiki/Advanced-Options#concurrency' };
const SOLID_QUEUE = { label: 'Solid Queue README: workers (threads ≤ the queue database pool − 2)', url: 'https://github.com/rails/solid_queue#configuration' };
const SOLID_QUEUE_PUMA = { label: 'Solid Queue README: Puma plugin (plugin :solid_queue)', url: 'https://github.com/rails/solid_queue#puma-plugin' };
const SIDEKIQ_EMBED = { label: 'Sidekiq wiki: Embedding (Puma threads and embedded concurrency share the process and its pool)', url: 'https://github.com/sidekiq/sidekiq/wiki/Embedding' };
const GOOD_JOB_CONN = { label: 'GoodJob README: database connections (async mode shares the web process pool)', url: 'https://github.com/bensheldon/good_job#database-connections' };
const num = (v) => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));

/**
 * Sidekiq's concurrency: sidekiq.yml (production: overrides the top level), else the Procfile's -c N, else
 * RAILS_MAX_THREADS as the Sidekiq process gets it (Sidekiq cli.rb: only when concurrency is unset).
 * `procEnv`: the VAR=value prefix of the Procfile line that runs Sidekiq.
 */
/**
 * The deployment lines that run Sidekiq (not its web UI, cron or scheduler): [{f, s, env?}]. Procfile lines, and the
 * commands of production Compose services (`env`: the service's own environment, over the image's) and Kamal roles
 * (`servers.ROLE.cmd`): Sidekiq's concurrency is the same whichever of them starts it (fifth blind trial, foreman's
 * Compose worker `bundle exec sidekiq … -c 15`). A Compose command in list form is read as its words joined.
 */
export function sidekiqLines(files) {
  const out = [];
  for (const f of files.filter((x) => !x.problem)) {
    if (f.kind === 'procfile') for (const s of f.settings) out.push({ f, s });
    if (f.kind === 'compose') {
      for (const svc of f.services || []) {
        if (svc.production !== true || !svc.command) continue;
        let value = svc.command.value;
        if (/^\[/.test(value)) { try { value = JSON.parse(value).join(' '); } catch { /* kept as written */ } }
        out.push({ f, s: { name: svc.name, value, line: svc.command.line }, env: svc.env });
      }
    }
    if (f.kind === 'kamal') for (const s of f.settings) if (s.key === 'cmd' && typeof s.value === 'string' && s.path?.[0] === 'servers') out.push({ f, s: { name: s.path[1], value: s.value, line: s.line } });
  }
  return out.filter(({ s }) => /\bsidekiq\b/.test(s.value) && !/\bsidekiq(-|_)?(web|cron|scheduler)\b/i.test(s.value));
}

/** The environment a job line's process gets: the job environment, then a Compose service's own over it. */
export function lineEnv(env, line) {
  if (!line?.env) return env;
  const out = new Map(env);
  for (const [k, v] of line.env) if (v.value !== null && v.value !== undefined) out.set(k, { value: String(v.value), file: line.f.path, line: v.line });
  return out;
}

export function sidekiqConcurrency(files, env, line = sidekiqLines(files)[0]) {
  const procEnv = line ? { ...Object.fromEntries([...(line.env || [])].filter(([, v]) => v.value !== null && v.value !== undefined).map(([k, v]) => [k, String(v.value)])), ...prefixEnv(line.s.value) } : {};
  // `sidekiq -C FILE` reads that file instead of config/sidekiq.yml (collect.mjs reads it): unknown when not given.
  const named = line && sidekiqConfigOf(line.s.value);
  const sq = named ? files.find((f) => f.kind === 'sidekiq-yml' && !f.problem && f.path.replace(/^(\.\/)+/, '').endsWith(named))
    : files.find((f) => f.kind === 'sidekiq-yml' && !f.problem && !sidekiqLines(files).some((l) => sidekiqConfigOf(l.s.value) && f.path.endsWith(sidekiqConfigOf(l.s.value))));
  // The command line's -c wins over the config file (Sidekiq cli.rb: parse_config(file).merge(opts)): catarse's
  // Procfile runs `sidekiq -c 10 -C config/sidekiq.yml` with `production: :concurrency: 5` in that file.
  // Sidekiq 7 capsules (`:capsules:` with their own `:concurrency:`) run threads of their own in the same process.
  const caps = (sq?.settings || []).filter((c) => c.key === 'concurrency' && (c.path[0] === 'capsules' || (c.path[0] === 'production' && c.path[1] === 'capsules')));
  const extra = caps.map((c) => num(effective(c, env)));
  const withCaps = (c, v) => (caps.length ? { ...c, value: v + extra.reduce((a, b) => a + b, 0), env: null, why: `${v} + ${extra.join(' + ')} in ${caps.length} capsule${caps.length === 1 ? '' : 's'} (${sq.path}:${caps.map((x) => x.line).join(', ')})` } : c);
  const cli = line && cliConcurrency(line, env, procEnv);
  if (cli) return cli.value !== null && !extra.includes(null) ? withCaps(cli, cli.value) : cli;
  if (named && !sq) return null;
  if (sq) {
    const pick = (path) => sq.settings.find((s) => s.path.join('.') === path);
    const s = pick('production.:concurrency') || pick('production.concurrency') || pick(':concurrency') || pick('concurrency');
    const v = s && num(effective(s, env));
    if (v !== null && v !== undefined && !extra.includes(null)) {
      return withCaps({ value: v, env: s.env && !env.has(s.env) ? s.env : null, file: sq.path, line: s.line, procEnv }, v);
    }
  }
  if (line) {
    const rmt = procEnv.RAILS_MAX_THREADS ?? env.get('RAILS_MAX_THREADS')?.value;
    if (num(rmt) !== null) return { value: num(rmt), env: null, file: line.f.path, line: line.s.line, procEnv, fromRailsMaxThreads: true };
  }
  return sidekiqDefault(files, env, line, sq, procEnv);
}

/** `sidekiq -c N` or `--concurrency $VAR` on the line that runs it, or null. */
function cliConcurrency(line, env, procEnv) {
  const m = /(?:-c|--concurrency)[\s=](\d+)\b/.exec(line.s.value);
  if (m) return { value: Number(m[1]), env: null, file: line.f.path, line: line.s.line, procEnv };
  // `--concurrency $RAILS_MAX_THREADS`: that variable, the same symbolic value as a pool read from it (shell-words.mjs).
  const v = /(?:-c|--concurrency)[\s=](\$\S+)/.exec(line.s.value);
  const sv = v && shellValue(v[1], env, procEnv);
  return sv ? { value: sv.value, env: sv.env, file: line.f.path, line: line.s.line, procEnv } : null;
}

// Nothing sets concurrency: Sidekiq takes RAILS_MAX_THREADS, else its version's default (capabilities/jobs.mjs),
// judged only when the files show Sidekiq runs (sidekiq.yml, a Procfile line, queue_adapter :sidekiq) and
// Gemfile.lock gives its version.
function sidekiqDefault(files, env, line, sq, procEnv) {
  const lock = files.find((f) => f.kind === 'gemfile-lock' && !f.problem);
  const gem = lock?.settings.find((s) => s.name === 'sidekiq');
  const adapter = files.some((f) => f.kind === 'rails-env' && !f.problem && f.settings.some((s) => s.name === 'config.active_job.queue_adapter'
    && !s.conditional && !inDevBranch(s) && /^:?["']?sidekiq["']?$/.test(String(s.value ?? ''))));
  if (!gem || !(sq || line || adapter)) return null;
  const at = sq ? { file: sq.path, line: 1 } : line ? { file: line.f.path, line: line.s.line } : { file: lock.path, line: gem.line };
  // Sidekiq before 4.2 does not read RAILS_MAX_THREADS: its default holds whatever the environment says.
  const readsRmt = gte(gem.value, JOB_RUNNERS.sidekiq.railsMaxThreadsSince);
  const rmt = readsRmt ? num(env.get('RAILS_MAX_THREADS')?.value) : null;
  if (rmt !== null) return { value: rmt, env: null, ...at, procEnv, fromRailsMaxThreads: true };
  const d = JOB_RUNNERS.sidekiq.defaultConcurrency.find((r) => inRange(gem.value, r));
  if (!d) return null;
  return { value: d.value, env: null, ...at, procEnv, fromDefault: true, why: `Sidekiq ${gem.value.split('.').slice(0, gte(gem.value, '6.0') ? 1 : 2).join('.')}'s default, sidekiq ${gem.value} at ${lock.path}:${gem.line}${readsRmt ? '; RAILS_MAX_THREADS unset' : ', which does not read RAILS_MAX_THREADS'}` };
}

/** The file a Sidekiq command names with -C/--config, relative (a leading ./ dropped), or null. */
export function sidekiqConfigOf(cmd) {
  const m = /(?:^|\s)(?:-C|--config)[\s=]+(?:\.\/)*([^\s$`*?]+)/.exec(String(cmd));
  return m && !m[1].startsWith('/') && !m[1].split('/').includes('..') ? m[1] : null;
}

// VAR=value words before the command of a Procfile line: that process's own environment.
export function prefixEnv(cmd) {
  const out = {};
  for (const m of String(cmd).matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=(\S+)(?=\s)/g)) out[m[1]] = m[2];
  return out;
}

/** The job process's environment: the app's, then env files named for jobs (config/jobs.env) over it. */
export function jobEnvOf(files) {
  const env = new Map(envOf(files));
  for (const f of files.filter((x) => x.kind === 'env' && !x.problem && /job|worker|queue|sidekiq/i.test(x.path.split('/').pop()))) {
    for (const s of envSettings(f)) env.set(s.name, { value: s.value, file: f.path, line: s.line });
  }
  return env;
}

export function jobFindings(files, answers) {
  const out = [];
  const appEnv = envOf(files);
  const env = jobEnvOf(files);
  const of = (k) => files.filter((f) => f.kind === k && !f.problem);
  const yml = of('database-yml')[0];
  const pool = productionPool(yml, env);

  // 1. Sidekiq: every job thread needs a connection (each line that runs it, with its own -C config and, for a
  // Compose service, its own environment: the DATABASE_URL, and so the pool, that process gets).
  const lines = sidekiqLines(files);
  for (const sl of lines.length ? lines : [undefined]) {
  const penv = lineEnv(env, sl);
  const conc = sidekiqConcurrency(files, penv, sl);
  const pool = productionPool(yml, penv);
  if (conc && pool) {
    const own = pool.env && conc.procEnv[pool.env] !== undefined ? num(conc.procEnv[pool.env]) : null;
    const size = own ?? pool.value;
    if (conc.value > size && !(conc.env && conc.env === pool.env)) {
      // Nothing these files show sets the pool's variable for the Sidekiq process: its default is the pool,
      // as for Puma's threads (problems.mjs), an error under load.
      // One pool line serves the web process and the Sidekiq process: the larger of their needs (pool-fix.mjs).
      const fix = sharedPoolFix(files, yml, pool, webPuma(files, answers), appEnv, { value: conc.value, label: `${conc.value} Sidekiq threads (${conc.file}:${conc.line})` });
      const assume = [conc.env && `${conc.env} unset`, pool.env && own === null && !(conc.fromDefault && pool.env === 'RAILS_MAX_THREADS') && `${pool.env} unset`].filter(Boolean);
      out.push({
        rule: 'pool-below-concurrency', severity: 'error', file: conc.file, line: conc.line, setting: 'concurrency', found: String(conc.value), expected: String(size),
        message: `Sidekiq runs ${conc.value} threads${conc.why ? ` (${conc.why})` : ''} but production's pool is ${size} (${pool.file}:${pool.line}, ${pool.from})${assume.length ? ` with ${assume.join(' and ')} (nothing in these files sets ${[conc.env, pool.env].filter(Boolean).join(' or ')} for the Sidekiq process)` : ''}: under load jobs wait for a connection and fail with ActiveRecord::ConnectionTimeoutError. Set ${describeFix(pool.key, fix)}`,
        evidence: [SIDEKIQ_POOL, SRC.railsPool], related: [{ file: pool.file, line: pool.line }], diff: fix.diff, replacement: fix.text,
      });
    }
  }
  }

  // 2. Solid Queue: each worker's threads plus two (polling, heartbeat) from the queue database's pool.
  // Without config/queue.yml Solid Queue runs its default worker: 3 threads (SolidQueue::Configuration).
  const q = of('queue-yml')[0] || (solidQueueAdapter(files) && yml ? defaultQueue(yml) : null);
  // `url:` from DATABASE_URL with no pool: Rails' 5 unless the URL carries ?pool= (a note: the files cannot tell).
  const qPool = pool || urlDefaultPool(yml, env);
  if (q && qPool && yml) {
    const queueDb = yml.settings.filter((s) => s.path[0] === 'production' && s.path[1] === 'queue' && (s.key === 'pool' || s.key === 'max_connections'))[0];
    const qv = queueDb ? num(effective(queueDb, env)) : null;
    const size = queueDb ? qv : qPool.value;
    const threads = q.settings.filter((s) => s.path[0] === 'production' && s.path[1] === 'workers' && s.key === 'threads');
    for (const t of threads) {
      const n = num(effective(t, env));
      if (n === null || size === null || n + 2 <= size) continue;
      const envPool = Boolean(queueDb ? queueDb.env && !env.has(queueDb.env) : qPool.env || qPool.urlEnv);
      const at = queueDb ? { implicit: false, line: queueDb.line, key: queueDb.key } : qPool;
      const fix = sharedPoolFix(files, yml, at, webPuma(files, answers), appEnv, { value: n + 2, label: `${n} Solid Queue worker threads + 2 (${q.path}:${t.line})` });
      out.push({
        rule: 'pool-below-concurrency', severity: envPool ? 'note' : n > size ? 'error' : 'warning', file: q.path, line: t.line, setting: q.implicit ? (queueDb?.key || pool.key) : 'threads', found: String(n), expected: String(size - 2),
        message: `a Solid Queue worker runs ${n} threads${q.implicit ? ' (its default: no config/queue.yml)' : ''} and needs ${n + 2} connections (one per thread, one for polling, one for the heartbeat), but the queue database's pool is ${size}${queueDb ? '' : ` (${qPool.from})`}${qPool.urlEnv && !queueDb ? `: if ${qPool.urlEnv} has no ?pool=, under load a thread waits for a connection and fails with ActiveRecord::ConnectionTimeoutError (Solid Queue ≥ 1.6 warns at start, older releases refuse to start)` : ''}. Set ${describeFix(at.key, fix)}`,
        evidence: [SOLID_QUEUE, ...(qPool.urlEnv && !queueDb ? [SRC.railsPool] : [])], related: [{ file: queueDb ? yml.path : qPool.file, line: queueDb ? queueDb.line : qPool.line }], diff: fix.diff, replacement: fix.text,
      });
      break;
    }
  }

  // 3. SOLID_QUEUE_IN_PUMA set, but Puma has no plugin :solid_queue and nothing else runs bin/jobs.
  const sqip = appEnv.get('SOLID_QUEUE_IN_PUMA');
  const puma = of('puma')[0];
  if (sqip && !/^(false|0|)$/i.test(sqip.value) && puma && (answers.server === 'puma' || !answers.server)) {
    const plugin = puma.settings.some((s) => s.name === 'plugin' && s.args?.some((a) => a.value === ':solid_queue'));
    const runner = of('procfile').some((f) => f.settings.some((s) => /\b(bin\/jobs|solid_queue:start|solid_queue)\b/.test(s.value)))
      || of('kamal').some((f) => f.settings.some((s) => s.path[0] === 'servers' && s.path[1] === 'job'));
    if (!plugin && !runner) {
      out.push({
        rule: 'jobs-not-run', severity: 'error', file: sqip.file, line: sqip.line, setting: 'SOLID_QUEUE_IN_PUMA', found: sqip.value, expected: null,
        message: `SOLID_QUEUE_IN_PUMA is set, but ${puma.path} has no plugin :solid_queue and no Procfile line or Kamal job role runs bin/jobs: jobs are enqueued and never run`,
        evidence: [SOLID_QUEUE_PUMA], related: [{ file: puma.path, line: 1 }],
      });
    }
  }

  // 4. Job runners inside the web process (Sidekiq embedded in puma.rb, GoodJob async): their threads and
  // Puma's take connections from the same pool.
  const emb = puma && (answers.server === 'puma' || !answers.server) ? embeddedRunner(files, puma, appEnv) : null;
  const webPool = productionPool(yml, appEnv);
  if (emb && webPool) {
    for (const t of pumaThreads(puma, appEnv)) {
      const same = t.env && webPool.env && t.env === webPool.env;
      const need = t.max + emb.n;
      const size = webPool.value; // the same variable as the threads: its value (or each default) and the pool's offset
      if (size >= need) continue;
      const envPool = Boolean(webPool.env) && !same;
      const fix = webPoolFix(files, yml, webPool, puma, t, appEnv);
      out.push({
        rule: 'pool-below-concurrency', severity: envPool ? 'note' : 'error', file: webPool.file, line: webPool.line, setting: webPool.key, found: String(size), expected: String(need),
        message: `${emb.what} runs ${emb.n} job threads inside each Puma process (${emb.file}:${emb.line}) next to ${t.max} Puma threads (${puma.path}:${t.s.line}): they need ${need} connections but production's pool is ${same ? `${t.env}, the same variable as the threads` : `${size} (${webPool.from})`}${envPool ? `, unless ${webPool.env} is set to ${need} or more` : ''}. Jobs and requests then wait for connections and fail with ActiveRecord::ConnectionTimeoutError. Set ${describeFix(webPool.key, fix)}`,
        evidence: [emb.evidence, SRC.railsPool, ...(fix.terms.some((x) => /load_async/.test(x.label)) ? [ASYNC_EVIDENCE] : [])], related: [{ file: emb.file, line: emb.line }, { file: puma.path, line: t.s.line }],
        diff: fix.diff, replacement: fix.text,
      });
      break;
    }
  }
  return out;
}

/** The Puma config of the web process, when Puma serves the app. */
const webPuma = (files, answers) => (answers.server === 'puma' || !answers.server ? files.find((f) => f.kind === 'puma' && !f.problem) : null);

/** production.rb sets config.active_job.queue_adapter = :solid_queue (not in a branch). */
function solidQueueAdapter(files) {
  return files.some((f) => f.kind === 'rails-env' && !f.problem && f.settings.some((s) => s.name === 'config.active_job.queue_adapter'
    && !s.conditional && !inDevBranch(s) && /^:?["']?solid_queue["']?$/.test(String(s.value ?? ''))));
}

// Solid Queue's built-in worker when config/queue.yml is absent (solid_queue lib/solid_queue/configuration.rb:
// WORKER_DEFAULTS threads: 3): the finding points at the pool that is too small, in database.yml.
const SOLID_QUEUE_DEFAULT_THREADS = 3;
function defaultQueue(yml) {
  const prod = yml.settings.filter((s) => s.path?.[0] === 'production');
  const at = prod.find((s) => s.path[1] === 'queue' && (s.key === 'pool' || s.key === 'max_connections'))
    || prod.find((s) => (s.path.length === 2 || s.path[1] === 'primary') && (s.key === 'pool' || s.key === 'max_connections')) || prod[0];
  if (!at) return null;
  return {
    path: yml.path, implicit: true,
    settings: [{ path: ['production', 'workers', 0], key: 'threads', value: SOLID_QUEUE_DEFAULT_THREADS, known: true, line: at.line }],
  };
}

/** A job runner in the web process: {what, n, file, line, evidence} or null. */
export function embeddedRunner(files, puma, appEnv) {
  // The web process's own VAR=value prefix in the Procfile (web: GOOD_JOB_EXECUTION_MODE=async bundle exec puma) over the app's.
  const web = files.filter((x) => x.kind === 'procfile' && !x.problem).flatMap((f) => f.settings.filter((s) => s.name === 'web').map((s) => ({ f, s })))[0];
  const env = new Map(appEnv);
  if (web) for (const [k, v] of Object.entries(prefixEnv(web.s.value))) env.set(k, { value: v, file: web.f.path, line: web.s.line });
  const lines = String(puma.text || '').split('\n');
  const at = lines.findIndex((l) => /^\s*[^#]*\bSidekiq\.configure_embed\b/.test(l));
  if (at >= 0) {
    for (let k = at; k < Math.min(lines.length, at + 30); k++) {
      // `config.concurrency = 2`, or read from ENV (`ENV.fetch("SIDEKIQ_CONCURRENCY", 2).to_i`): the fix keeps the variable.
      const m = /^\s*\w+\.concurrency\s*=\s*(\S.*)$/.exec(lines[k]);
      if (!m) continue;
      const code = m[1].replace(/\s#.*$/, '').trim();
      let arg;
      try { arg = evaluate(tokenize(code), new Map(), code); } catch { arg = null; }
      const n = num(effective(arg, env));
      if (n !== null) return { what: 'Embedded Sidekiq', n, arg: arg.env ? arg : null, file: puma.path, line: k + 1, evidence: SIDEKIQ_EMBED };
    }
  }
  // GoodJob's settings from production.rb or config/initializers/good_job.rb (unconditional, not development's).
  const cfg = files.filter((f) => (f.kind === 'rails-env' || f.kind === 'good-job') && !f.problem);
  const setting = (name) => cfg.flatMap((f) => f.settings.filter((s) => s.name === name && !inDevBranch(s) && !s.conditional).map((s) => ({ f, s })))[0];
  const mode = setting('config.good_job.execution_mode');
  const envMode = env.get('GOOD_JOB_EXECUTION_MODE');
  const isAsync = (v) => /^:?async(_server)?$/.test(String(v || '').replace(/["']/g, ''));
  if ((mode && isAsync(mode.s.value)) || (!mode && envMode && isAsync(envMode.value))) {
    const mt = setting('config.good_job.max_threads');
    // Configuration#max_threads: config.good_job.max_threads, GOOD_JOB_MAX_THREADS, RAILS_MAX_THREADS, else 5.
    const max = (mt && num(effective(mt.s.args?.[0], env))) ?? GOOD_JOB_CONNECTIONS.maxThreadsEnv.map((n) => num(env.get(n)?.value)).find((v) => v !== null) ?? GOOD_JOB_CONNECTIONS.defaultMaxThreads;
    // queues "a:3;b,c:2;*": one thread pool per entry, its :N suffix or max_threads (GoodJob README: Configuration).
    const q = setting('config.good_job.queues');
    const qv = q ? effective(q.s.args?.[0], env) : env.get('GOOD_JOB_QUEUES')?.value;
    const pools = typeof qv === 'string' && qv.trim() ? qv.split(';').map((p) => { const m = /:(\d+)\s*$/.exec(p); return m ? Number(m[1]) : max; }) : [max];
    const threads = pools.reduce((a, b) => a + b, 0);
    // + 1 for LISTEN/NOTIFY and + 2 for the cron scheduler and the executor (GoodJob README: Database connections).
    const where = mode ? { file: mode.f.path, line: mode.s.line } : { file: envMode.file, line: envMode.line };
    // The fix keeps the app's variable when one pool's threads come from it (GoodJob reads GOOD_JOB_MAX_THREADS itself
    // when max_threads is not configured); the 3 extra connections are the term's offset (pool-fix.mjs).
    const base = mt ? mt.s.args?.[0] : { env: 'GOOD_JOB_MAX_THREADS', known: true, value: max, text: '' };
    const arg = pools.length === 1 && !q && base?.env ? { ...base, offset: 3 } : null;
    return { what: `GoodJob in async mode (${threads} execution thread${threads === 1 ? '' : 's'} + 3 for LISTEN/NOTIFY, cron and the executor)`, n: threads + 3, arg, ...where, evidence: GOOD_JOB_CONN };
  }
  // Solid Queue's Puma plugin in async mode (`solid_queue_mode :async`, solid_queue ≥ 1.3): its workers are threads of
  // the Puma process and run jobs on the same primary pool (the default fork mode runs them in processes of their own).
  const plugin = puma.settings.find((s) => s.name === 'plugin' && s.args?.some((a) => a.value === ':solid_queue') && !inDevBranch(s));
  const sqOn = plugin && (!plugin.conditional || plugin.branch?.some((b) => /SOLID_QUEUE_IN_PUMA/.test(b.cond)) && env.has('SOLID_QUEUE_IN_PUMA'));
  const asyncMode = puma.settings.find((s) => s.name === 'solid_queue_mode' && /async/.test(String(s.args?.[0]?.value)) && !inDevBranch(s));
  if (sqOn && asyncMode) {
    const q = files.find((f) => f.kind === 'queue-yml' && !f.problem);
    const threads = (q?.settings || []).filter((s) => s.path[0] === 'production' && s.path[1] === 'workers' && s.key === 'threads').map((s) => num(effective(s, env)));
    const n = threads.length ? threads.reduce((a, b) => a + (b ?? 0), 0) : SOLID_QUEUE_DEFAULT_THREADS;
    return { what: 'Solid Queue in Puma (async mode)', n, file: puma.path, line: asyncMode.line, evidence: SOLID_QUEUE_PUMA };
  }
  return null;
}
