// Sidekiq's threads when the files read do not show production's pool. With no config/database.yml (or one with no
// production: section) Rails configures production from DATABASE_URL alone, and its pool is Rails' default 5 unless
// the URL carries ?pool=; a production `url:` from DATABASE_URL with no `pool:` beside it is the same. The platform
// sets that URL outside the app (Heroku's config vars), so the doctor cannot see it: a note, never a warning (the
// sixth blind trial: catarse's Procfile runs `sidekiq -c 10` with no database.yml, and --check said nothing). Where
// the files do show the pool (database.yml's pool:, DATABASE_URL …?pool= in Compose, Kamal, a Dockerfile or an env
// file) jobs.mjs judges it instead. Puma's threads the same way when no database.yml (or no production: section) is
// read: an app on DATABASE_URL alone with 10 Puma threads has 5 connections unless the URL says ?pool= (problems.mjs
// judges a production url: from DATABASE_URL itself).
import { sidekiqLines, sidekiqConcurrency, jobEnvOf, lineEnv } from './jobs.mjs';
import { productionPool, urlDefaultPool, pumaThreads } from './problems.mjs';
import { envOf } from './crossfile.mjs';
import { implicitThreads, commandSetsThreads } from './implicit-threads.mjs';
import { SRC } from '../engine/evidence.mjs';

const RAILS_DEFAULT_POOL = 5;
const SIDEKIQ_POOL = { label: 'Sidekiq wiki: Advanced options (concurrency and the database pool)', url: 'https://github.com/sidekiq/sidekiq/wiki/Advanced-Options#concurrency' };
const RAILS_URL_CONFIG = { label: 'Rails guides: Configuring a database (DATABASE_URL, its query parameters such as ?pool=)', url: 'https://guides.rubyonrails.org/configuring.html#configuring-a-database' };
const AR_GEMS = ['rails', 'activerecord', 'pg', 'mysql2', 'trilogy', 'sqlite3'];

/** The app uses Active Record: Gemfile.lock locks activerecord, or (no lockfile) the Gemfile asks for Rails or an adapter. */
function usesActiveRecord(files) {
  const lock = files.find((f) => f.kind === 'gemfile-lock' && !f.problem);
  if (lock) return lock.settings.some((s) => s.name === 'activerecord');
  const gemfile = files.find((f) => f.kind === 'gemfile' && !f.problem);
  return Boolean(gemfile?.settings.some((s) => AR_GEMS.includes(s.name) && !s.devOnly));
}

/** Production's pool as far as the files show it is "5 unless DATABASE_URL says otherwise": {from, file?, line?} or null. */
function unseen(files, yml, env) {
  if (productionPool(yml, env)) return null;
  const prod = (yml?.settings || []).filter((s) => s.path?.[0] === 'production');
  if (prod.length) {
    const u = urlDefaultPool(yml, env);
    return u && { from: `${u.file}:${u.line} takes url: from ${u.urlEnv} with no pool: beside it`, url: u.urlEnv };
  }
  if (!usesActiveRecord(files)) return null;
  return { from: yml ? `${yml.path} has no production: section` : 'no config/database.yml was read', url: 'DATABASE_URL' };
}

/** Puma's threads per process from the config (production lines), else the command line or Puma's default. */
function webThreads(files, answers, env) {
  const puma = files.find((f) => f.kind === 'puma' && !f.problem);
  if (puma && !commandSetsThreads(files)) {
    const t = pumaThreads(puma, env).sort((a, b) => b.max - a.max)[0];
    if (t) return { max: t.max, env: t.env, file: puma.path, line: t.s.line, why: `${puma.path}:${t.s.line}` };
  }
  const i = implicitThreads(files, answers, env);
  return i && i.max !== null ? { max: i.max, env: i.env, file: i.file, line: i.line, why: `${i.why}, ${i.file}:${i.line}` } : null;
}

export function unseenPoolFindings(files, answers = {}) {
  const out = [];
  const yml0 = files.find((f) => f.kind === 'database-yml' && !f.problem);
  const webEnv = envOf(files);
  // Only where no production: section is read: a production url: from ENV is problems.mjs's note.
  if ((!answers.server || answers.server === 'puma') && !(yml0?.settings || []).some((s) => s.path?.[0] === 'production')) {
    const t = webThreads(files, answers, webEnv);
    const u = t && t.max > RAILS_DEFAULT_POOL && unseen(files, yml0, webEnv);
    if (u) {
      out.push({
        rule: 'pool-below-threads', severity: 'note', file: t.file, line: t.line, setting: 'threads', found: String(t.max), expected: String(RAILS_DEFAULT_POOL),
        message: `Puma runs ${t.max} threads per process (${t.why})${t.env ? ` with ${t.env} unset` : ''} and each needs a connection, but production's pool is not in the files read (${u.from}): Rails then takes it from ${u.url}${yml0 ? '' : ' (or from a database.yml the deployment puts in place, which these files do not show)'}, and it is Rails' default, ${RAILS_DEFAULT_POOL}, unless the URL carries ?pool=${t.max} or more. Below that, under load requests wait for a connection and fail with ActiveRecord::ConnectionTimeoutError. Check ${u.url} where the platform sets it`,
        evidence: [SRC.railsPool, RAILS_URL_CONFIG],
        ...(t.env ? { assumes: [`${t.env} unset`] } : {}),
      });
    }
  }
  const yml = files.find((f) => f.kind === 'database-yml' && !f.problem);
  const env = jobEnvOf(files);
  for (const sl of sidekiqLines(files)) {
    const penv = lineEnv(env, sl);
    const conc = sidekiqConcurrency(files, penv, sl);
    if (!conc || conc.value === null || conc.value <= RAILS_DEFAULT_POOL) continue;
    const u = unseen(files, yml, penv);
    if (!u) continue;
    out.push({
      rule: 'pool-below-concurrency', severity: 'note', file: conc.file, line: conc.line, setting: 'concurrency', found: String(conc.value), expected: String(RAILS_DEFAULT_POOL),
      message: `Sidekiq runs ${conc.value} threads${conc.why ? ` (${conc.why})` : ''} and needs a pool of at least ${conc.value}, but production's pool is not in the files read (${u.from}): Rails then takes it from ${u.url}, and it is Rails' default, ${RAILS_DEFAULT_POOL}, unless the URL carries ?pool=${conc.value} or more. Below that, under load jobs wait for a connection and fail with ActiveRecord::ConnectionTimeoutError. Check ${u.url} where the platform sets it`,
      evidence: [SIDEKIQ_POOL, SRC.railsPool, RAILS_URL_CONFIG],
    });
  }
  return out;
}
