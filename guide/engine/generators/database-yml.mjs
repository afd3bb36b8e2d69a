// config/database.yml (production), pool sized to the server's threads.
import { SRC, DS, ART } from '../evidence.mjs';
import { RAILS_API } from '../caps.mjs';
import { has } from '../pick.mjs';
import { gte } from '../version.mjs';
import { poolSum, connectionSum, queuePoolSum } from '../arithmetic.mjs';
import { t } from '../text.mjs';

export const id = 'database-yml';

const JDBC = { postgresql: 'postgresql', mysql: 'mysql', mariadb: 'mysql', sqlite: 'sqlite3' };

export function adapterName(ctx) {
  if (ctx.adapter === 'jdbc') return JDBC[ctx.a.database];
  if (ctx.adapter === 'pg') return 'postgresql';
  return ctx.adapter; // mysql2, trilogy, mysql, sqlite3
}

const ROLE_DB = { cache: 'cache', queue: 'queue', cable: 'cable' };

/** Names of the server databases the app uses (primary first); the setup SQL of the database generators creates them. */
export function databaseNames(ctx) {
  return ['app_production', ...ctx.dbRoles.filter((r) => r !== 'primary').map((r) => `app_production_${ROLE_DB[r]}`)];
}

// Migrations connect differently from the app (issue 23): README runs them with this variable set, which gives
// them their own session settings (no statement timeout for DDL, a short lock timeout) instead of the app role's
// 30 s statement_timeout and, through PgBouncer, a session-mode alias where Rails' advisory lock works, so two
// hosts migrating at once run the migrations once.
export const MIGRATE_ENV = 'RAILS_DB_MIGRATE';
// The job process's own statement timeout (config/jobs.env): jobs run batch queries the web path never does, so the
// app role's 30 s would cut them off; a bound still ends a runaway query. Empty for web processes (the role's 30 s).
export const JOBS_TIMEOUT_ENV = 'JOBS_STATEMENT_TIMEOUT';
export const JOBS_STATEMENT_TIMEOUT = '5min';
export const MIGRATE_SUFFIX = '_migrate';
export const whenMigrating = (v) => ({ raw: `<%= ${JSON.stringify(v)} if ENV[${JSON.stringify(MIGRATE_ENV)}] %>` });
const dbName = (ctx, name) => (ctx.pooler === 'pgbouncer' ? { raw: `<%= ENV[${JSON.stringify(MIGRATE_ENV)}] ? ${JSON.stringify(name + MIGRATE_SUFFIX)} : ${JSON.stringify(name)} %>` } : name);

/** database.yml carries per-process PostgreSQL session settings (migrations, job processes). */
export const sessionVariablesApply = (ctx) => ctx.a.database === 'postgresql' && gte(ctx.a.rails, '2.3');
/** Whether README and deploy.sh run migrations with MIGRATE_ENV set (database.yml gives them their own settings:
 *  PostgreSQL's here, MySQL's and MariaDB's lock wait in the mysql chunk, which the page loads for those databases:
 *  generators/applies.mjs). */
export const migrateEnvApplies = (ctx) => sessionVariablesApply(ctx) || (['mysql', 'mariadb'].includes(ctx.a.database) && ctx.generator('mysql').migrationVariablesApply(ctx));
/** The job process's own statement timeout is a session SET: through PgBouncer's transaction pooling the server
 *  connection, and the setting with it, passes to web requests (PgBouncer's features page: SET is unsupported in
 *  transaction mode), so behind PgBouncer jobs keep the role's 30 s. Migrations use the session-mode alias. */
export const jobsTimeoutApplies = (ctx) => sessionVariablesApply(ctx) && ctx.pooler !== 'pgbouncer';

/** PostgreSQL session settings for migrations only (Rails skips a variable whose value is empty). */
function migrationVariables(ctx) {
  const jobs = jobsTimeoutApplies(ctx);
  return { key: 'variables', why: t(jobs ? 'db.session-variables' : 'db.migrate-variables', { env: MIGRATE_ENV, jobsEnv: JOBS_TIMEOUT_ENV, jobs: JOBS_STATEMENT_TIMEOUT }), evidence: [SRC.railsConfiguring, SRC.pgClient, ...(jobs ? [] : [SRC.pgbouncer])], children: [
    { key: 'statement_timeout', value: jobs ? { raw: `<%= ENV[${JSON.stringify(MIGRATE_ENV)}] ? 0 : ENV[${JSON.stringify(JOBS_TIMEOUT_ENV)}] %>` } : whenMigrating(0) },
    { key: 'lock_timeout', value: whenMigrating('5s') },
  ] };
}

/**
 * Pool value for a role: the threads of the process reading the file (RAILS_MAX_THREADS), + 2 for Solid Queue's queue
 * database; the primary (and the roles that inherit it) + Action Cable's worker pool and load_async's executor.
 */
/** What the queue database's pool adds to RAILS_MAX_THREADS (derive.mjs: Solid Queue's + 2, and no less than the
 * primary's extra threads, since a channel action may enqueue; inside Puma also its control threads).
 * config/queue.yml and config/jobs.env quote the same figure. */
export const queuePoolPlus = (ctx) => ctx.queuePlus;

function poolValue(ctx, erb, role) {
  // The queue database: ctx.queuePlus (derive.mjs), which queue.yml and jobs.env quote too.
  const plus = role === 'queue' ? queuePoolPlus(ctx) : ctx.pool - ctx.threads;
  if (!erb) return ctx.threads + plus;
  return { raw: plus ? `<%= ENV.fetch("RAILS_MAX_THREADS") { ${ctx.threads} }.to_i + ${plus} %>` : `<%= ENV.fetch("RAILS_MAX_THREADS") { ${ctx.threads} } %>` };
}

function poolWhy(ctx, id, vars) {
  return [t(id, vars), ctx.cableWorkers ? t('db.pool.cable', { cable: ctx.cableWorkers }) : ''].filter(Boolean).join(' ');
}

/** SQLite files live in storage/ (kept across deploys; the Rails 7.1+ template default); db/ before Active Storage existed. */
function sqlitePath(ctx, role) {
  const dir = gte(ctx.a.rails, '5.2') ? 'storage' : 'db';
  return `${dir}/production${role === 'primary' ? '' : `_${role}`}.sqlite3`;
}

export function generate(ctx) {
  const { a } = ctx;
  const erb = gte(a.rails, '2.3');
  const poolKey = has(RAILS_API.maxConnectionsKey, a.rails) ? 'max_connections' : 'pool';
  const multi = ctx.dbRoles.length > 1;
  const prod = [{ key: 'adapter', value: adapterName(ctx), why: ctx.adapter === 'jdbc' ? t('db.jdbc') : t('db.adapter', { adapter: ctx.adapter }), evidence: [SRC.railsConfiguring] }];
  if (a.database === 'sqlite') {
    prod.push({ key: 'database', value: sqlitePath(ctx, 'primary'), why: gte(a.rails, '5.2') ? t('db.sqlite-storage') : undefined, evidence: gte(a.rails, '5.2') ? [SRC.railsDbTemplate, SRC.sqliteRails] : [] });
    prod.push({ key: poolKey, value: poolValue(ctx, erb, 'primary'), why: poolWhy(ctx, 'db.sqlite-pool', { pool: poolSum(ctx) }), evidence: [SRC.railsPool] });
    prod.push({ key: 'timeout', value: 5000, why: t('db.sqlite-timeout'), evidence: [SRC.sqliteRails] });
  } else {
    const pg = a.database === 'postgresql';
    const viaBouncer = ctx.pooler === 'pgbouncer';
    prod.push({ key: 'database', value: pg ? dbName(ctx, 'app_production') : 'app_production', ...(pg && viaBouncer ? { why: t('db.migrate-alias', { env: MIGRATE_ENV }), evidence: [SRC.pgbouncer] } : {}) });
    prod.push({ key: 'username', value: 'app' });
    prod.push({ key: 'password', value: erb ? { raw: '<%= ENV["DATABASE_PASSWORD"] %>' } : 'change-me', why: t(erb ? 'db.password.env' : 'db.password'), evidence: [SRC.railsConfiguring, SRC.systemdExec] });
    const net = ctx.hosts.dbNetworked;
    prod.push({ key: 'host', value: net ? ctx.hosts.db : pg && !viaBouncer ? 'localhost' : '127.0.0.1', why: net ? t('db.host-net', { addr: ctx.hosts.db }) : undefined, evidence: net ? [SRC.railsConfiguring] : [] });
    prod.push({ key: 'port', value: viaBouncer ? 6432 : pg ? 5432 : 3306, why: viaBouncer ? t('db.bouncer-port') : undefined, evidence: viaBouncer ? [SRC.pgbouncer] : [] });
    // Over the network the password and the data travel encrypted; the server side refuses anything else.
    if (net && pg) prod.push({ key: 'sslmode', value: 'require', why: t('db.sslmode'), evidence: [SRC.pgSsl] });
    if (net && ctx.adapter === 'mysql2') prod.push({ key: 'ssl_mode', value: 'required', why: t('db.ssl-mode'), evidence: [SRC.mysqlCreateUser] });
    if (!pg && ctx.adapter !== 'jdbc') prod.push({ key: 'encoding', value: gte(a.database_version, a.database === 'mysql' ? '5.5.3' : '5.5') ? 'utf8mb4' : 'utf8' });
    prod.push({
      key: poolKey, value: poolValue(ctx, erb, 'primary'),
      why: poolWhy(ctx, viaBouncer ? 'db.pool.bouncer' : multi ? (ctx.jobsInPuma ? 'db.pool.multi.puma' : 'db.pool.multi') : 'db.pool', { threads: ctx.threads, pool: poolSum(ctx), sum: connectionSum(ctx), limit: ctx.appSideLimit }),
      evidence: [SRC.railsPool, DS.pumaProcThreads, ART.databases],
    });
    // Prepared statements and advisory locks behind PgBouncer: its generator's (a chunk the page loads for these answers).
    if (viaBouncer) prod.push(...ctx.generator('pgbouncer').databaseYmlEntries(ctx));
  }
  if (sessionVariablesApply(ctx)) prod.push(migrationVariables(ctx));
  // MySQL and MariaDB: the migrations' metadata-lock wait (the mysql chunk's).
  else if (migrateEnvApplies(ctx)) prod.push(ctx.generator('mysql').migrationVariables(ctx));
  if (!multi) return { files: [{ path: 'config/database.yml', format: 'yaml', body: [{ key: 'production', children: prod }] }] };
  // Rails 8 layout: one entry per database, each inheriting the primary's settings.
  const roles = ctx.dbRoles.filter((r) => r !== 'primary').map((role) => {
    const children = [{ merge: 'primary_production' }];
    const name = databaseNames(ctx)[ctx.dbRoles.indexOf(role)];
    children.push({ key: 'database', value: a.database === 'sqlite' ? sqlitePath(ctx, role) : a.database === 'postgresql' ? dbName(ctx, name) : name });
    if (role === 'queue') children.push({ key: poolKey, value: poolValue(ctx, erb, 'queue'), why: ctx.jobsInPuma ? t('db.queue-pool.puma', { sum: queuePoolSum(ctx) }) : t('db.queue-pool', { plus: queuePoolPlus(ctx), extra: ctx.pool - ctx.threads }), evidence: [ctx.jobsInPuma ? SRC.solidQueuePuma : SRC.solidQueue] });
    children.push({ key: 'migrations_paths', value: `db/${role}_migrate` });
    return { key: role, why: t(`db.role.${role}`), evidence: [SRC.railsDbTemplate, SRC.railsMultiDb], children };
  });
  const body = [{
    key: 'production', why: t('db.multi', { roles: ctx.dbRoles.join(', ') }), evidence: [SRC.railsDbTemplate, SRC.railsMultiDb],
    children: [{ key: 'primary', anchor: 'primary_production', children: prod }, ...roles],
  }];
  return { files: [{ path: 'config/database.yml', format: 'yaml', body }] };
}
