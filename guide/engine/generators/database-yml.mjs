// config/database.yml (production), pool sized to the server's threads.
import { SRC, DS, ART } from '../evidence.mjs';
import { RAILS_API } from '../caps.mjs';
import { has } from '../pick.mjs';
import { gte } from '../version.mjs';
import { t } from '../text.mjs';

export const id = 'database-yml';

const JDBC = { postgresql: 'postgresql', mysql: 'mysql', mariadb: 'mysql', sqlite: 'sqlite3' };

export function adapterName(ctx) {
  if (ctx.adapter === 'jdbc') return JDBC[ctx.a.database];
  if (ctx.adapter === 'pg') return 'postgresql';
  return ctx.adapter; // mysql2, trilogy, mysql, sqlite3
}

export function generate(ctx) {
  const { a } = ctx;
  const erb = gte(a.rails, '2.3');
  const poolKey = has(RAILS_API.maxConnectionsKey, a.rails) ? 'max_connections' : 'pool';
  const poolValue = erb ? { raw: `<%= ENV.fetch("RAILS_MAX_THREADS") { ${ctx.pool} } %>` } : ctx.pool;
  const prod = [{ key: 'adapter', value: adapterName(ctx), why: ctx.adapter === 'jdbc' ? t('db.jdbc') : t('db.adapter', { adapter: ctx.adapter }), evidence: [SRC.railsConfiguring] }];
  if (a.database === 'sqlite') {
    prod.push({ key: 'database', value: 'db/production.sqlite3' });
    prod.push({ key: poolKey, value: poolValue, why: t('db.sqlite-pool', { pool: ctx.pool }), evidence: [SRC.railsPool] });
    prod.push({ key: 'timeout', value: 5000, why: t('db.sqlite-timeout'), evidence: [SRC.sqliteRails] });
  } else {
    const pg = a.database === 'postgresql';
    const viaBouncer = ctx.pooler === 'pgbouncer';
    prod.push({ key: 'database', value: 'app_production' });
    prod.push({ key: 'username', value: 'app' });
    prod.push({ key: 'password', value: erb ? { raw: '<%= ENV["DATABASE_PASSWORD"] %>' } : 'change-me', why: t('db.password'), evidence: [SRC.railsConfiguring] });
    const net = ctx.hosts.dbNetworked;
    prod.push({ key: 'host', value: net ? ctx.hosts.db : pg && !viaBouncer ? 'localhost' : '127.0.0.1', why: net ? t('db.host-net', { addr: ctx.hosts.db }) : undefined, evidence: net ? [SRC.railsConfiguring] : [] });
    prod.push({ key: 'port', value: viaBouncer ? 6432 : pg ? 5432 : 3306, why: viaBouncer ? t('db.bouncer-port') : undefined, evidence: viaBouncer ? [SRC.pgbouncer] : [] });
    // Over the network the password and the data travel encrypted; the server side refuses anything else.
    if (net && pg) prod.push({ key: 'sslmode', value: 'require', why: t('db.sslmode'), evidence: [SRC.pgSsl] });
    if (net && ctx.adapter === 'mysql2') prod.push({ key: 'ssl_mode', value: 'required', why: t('db.ssl-mode'), evidence: [SRC.mysqlCreateUser] });
    if (!pg && ctx.adapter !== 'jdbc') prod.push({ key: 'encoding', value: gte(a.database_version, a.database === 'mysql' ? '5.5.3' : '5.5') ? 'utf8mb4' : 'utf8' });
    prod.push({
      key: poolKey, value: poolValue,
      why: t(viaBouncer ? 'db.pool.bouncer' : 'db.pool', { threads: ctx.threads, hosts: a.app_hosts, processes: ctx.processes, pool: ctx.pool, needed: ctx.connectionsNeeded, limit: ctx.appSideLimit }),
      evidence: [SRC.railsPool, DS.pumaProcThreads, ART.databases],
    });
    if (viaBouncer) {
      const psOk = gte(a.pooler_version, '1.21');
      if (!psOk && has(RAILS_API.pgPreparedStatements, a.rails)) prod.push({ key: 'prepared_statements', value: false, why: t('db.no-prepared', { v: a.pooler_version }), evidence: [SRC.pgbouncerChangelog] });
      if (has(RAILS_API.advisoryLocksOption, a.rails)) prod.push({ key: 'advisory_locks', value: false, why: t('db.advisory'), evidence: [SRC.railsConfiguring, SRC.railsAdvisoryOption] });
      else if (has(RAILS_API.migrationAdvisoryLocks, a.rails)) prod.push({ comment: t('db.advisory-5', { rails: a.rails }) });
    }
  }
  const body = [
    { key: 'production', children: prod },
  ];
  return { files: [{ path: 'config/database.yml', format: 'yaml', body }] };
}
