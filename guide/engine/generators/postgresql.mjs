// PostgreSQL: settings as a conf.d include (postgresql.conf syntax) sized with PGTune's "web" formulas on the RAM and
// cores of the database host; when the database is reached over the network also pg_hba.conf (TLS + SCRAM for the
// app hosts only) and a role file with per-role timeouts.
import { databaseNames } from './database-yml.mjs';
import { SRC, DS, ART } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { pgtune } from '../pgtune.mjs';
import { pgSize } from '../topology.mjs';
import { dbPrefix } from './util.mjs';
import { connectionSum } from '../arithmetic.mjs';
import { t } from '../text.mjs';

export const id = 'postgresql';

// Sources per PGTune setting beyond PGTune itself (catalog "pg.<key>" gives the reason).
const MORE = { shared_buffers: [SRC.pgResource, ART.databases], work_mem: [SRC.pgResource, ART.databases], effective_io_concurrency: [SRC.pgResource], huge_pages: [SRC.pgResource], io_workers: [SRC.pgResource, ART.scalingDb] };

/** The database's major directory name: "17", or "9.6" before 10. */
export function pgMajor(v) {
  return gte(v, '10') ? v.split('.')[0] : v.split('.').slice(0, 2).join('.');
}

export function pgSettings(ctx) {
  const { a, hosts } = ctx;
  const v = a.database_version;
  const ram = ctx.dbRamMb;
  const vars = { ram, gb: a.ram_gb, cores: ctx.dbCores, needed: ctx.connectionsNeeded, hosts: a.app_hosts, processes: ctx.processes, pool: ctx.pool, sum: connectionSum(ctx), admin: ctx.adminConnections, reserved: ctx.reservedConnections, bouncer: ctx.pgbouncerPoolSize, storage: a.storage };
  const tuned = pgtune({ ramKb: ram * 1024, cores: ctx.dbCores, connections: ctx.maxConnections, storage: a.storage, version: v, os: a.os });
  const out = [{ comment: t(a.db_host === 'same' ? 'pg.sized.same' : 'pg.sized.separate', vars) }];
  for (const s of tuned) {
    const value = s.kind === 'size' ? pgSize(s.value) : s.value;
    if (s.key === 'max_connections') out.push({ key: s.key, value, why: t(ctx.pooler === 'pgbouncer' ? 'pg.max.bouncer' : 'pg.max', vars), evidence: [SRC.pgConnection, DS.pumaProcThreads] });
    else out.push({ key: s.key, value, why: t(`pg.${s.key}`, vars), evidence: [SRC.pgtune, ...(MORE[s.key] || [])] });
  }
  if (gte(v, '18')) out.push({ comment: t('pg.io-method') });
  // Slow queries and stuck transactions.
  out.push({ blank: true });
  out.push({ key: 'log_min_duration_statement', value: '500ms', why: t('pg.slow-log'), evidence: [SRC.pgLogging] });
  if (gte(v, '9.6')) out.push({ key: 'idle_in_transaction_session_timeout', value: '60s', why: t('pg.idle-in-tx'), evidence: [SRC.pgClient] });
  out.push({ comment: t('pg.statement-timeout') });
  if (hosts.dbNetworked) {
    out.push({ blank: true });
    // With PgBouncer on the database host, PostgreSQL itself only needs loopback: PgBouncer takes the network side.
    const listen = ctx.pooler === 'pgbouncer' ? 'localhost' : `localhost,${hosts.db}`;
    out.push({ key: 'listen_addresses', value: listen, why: t(ctx.pooler === 'pgbouncer' ? 'pg.listen.bouncer' : 'pg.listen', { addr: hosts.db }), evidence: [SRC.pgConnection] });
    if (ctx.pooler !== 'pgbouncer') {
      out.push({ key: 'ssl', value: true, why: t('pg.ssl'), evidence: [SRC.pgSsl] });
      // The family's pair (capabilities/distros.mjs dbTls): Debian's snakeoil, elsewhere one the file table says how to
      // make. Through the readme-hosts chunk, which the page loads whenever the database is reached over the network.
      const pair = ctx.generator('readme-hosts').dbTlsPair(ctx, 'pg');
      out.push({ key: 'ssl_cert_file', value: pair.cert, why: t(pair.make ? 'pg.ssl-cert.own' : 'pg.ssl-cert'), evidence: [SRC.pgSsl] });
      out.push({ key: 'ssl_key_file', value: pair.key });
      if (gte(v, '12')) out.push({ key: 'ssl_min_protocol_version', value: 'TLSv1.2', why: t('pg.ssl-min'), evidence: [SRC.pgSsl] });
    }
    if (gte(v, '10')) out.push({ key: 'password_encryption', value: 'scram-sha-256', why: t('pg.scram'), evidence: [SRC.pgHba] });
  }
  return out;
}

/** pg_hba.conf rules as lines "TYPE DATABASE USER [ADDRESS] METHOD" (exported for tests and the namespace proof). */
export function hbaRules(ctx) {
  const m = gte(ctx.a.database_version, '10') ? 'scram-sha-256' : 'md5';
  // The replication line keeps what Debian's own file allows: pg_basebackup run as postgres on the host (the
  // CHECKLIST's backup) needs a replication rule, which `all` does not match.
  const rules = ['local all postgres peer', 'local replication postgres peer', 'local all all peer', `host all all 127.0.0.1/32 ${m}`];
  // Every database of the app (Rails 8: also cache, queue and cable), or those connections are refused.
  const dbs = databaseNames(ctx).join(',');
  if (ctx.pooler !== 'pgbouncer') for (const addr of ctx.hosts.app) rules.push(`hostssl ${dbs} app ${addr}/32 ${m}`);
  return rules;
}

export function generate(ctx) {
  if (ctx.a.database !== 'postgresql') return {};
  const dir = `${dbPrefix(ctx)}etc/postgresql/${pgMajor(ctx.a.database_version)}/main`;
  const files = [{ path: `${dir}/conf.d/60-rails.conf`, format: 'pgconf', body: pgSettings(ctx) }];
  if (ctx.hosts.dbNetworked) {
    const why = t(ctx.pooler === 'pgbouncer' ? 'pg.hba.bouncer' : 'pg.hba', { n: ctx.hosts.app.length });
    files.push({ path: `${dir}/pg_hba.conf`, format: 'lines', body: [`# ${why}`, `# see: ${SRC.pgHba.url}`, ...hbaRules(ctx), `# ${t('pg.hba.rest')}`] });
  }
  files.push({ path: `${dbPrefix(ctx)}setup/postgresql-roles.sql`, format: 'sql', body: roleSql(ctx) });
  return { files };
}

/**
 * The role and the databases (Rails 8: also cache, queue and cable), safe to run again from 9.6 (psql's \gexec): the
 * role only when missing (a DO block), each database only when missing (CREATE DATABASE cannot run inside DO;
 * \gexec runs the statement the query returns, none when the database exists). Older servers: plain statements.
 */
function createOnce(ctx) {
  const dbs = databaseNames(ctx);
  if (!gte(ctx.a.database_version, '9.6')) return ["CREATE ROLE app LOGIN PASSWORD 'change-me';", ...dbs.map((db) => `CREATE DATABASE ${db} OWNER app;`)];
  return [
    "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'app') THEN CREATE ROLE app LOGIN PASSWORD 'change-me'; END IF; END $$;",
    ...dbs.map((db) => `SELECT 'CREATE DATABASE ${db} OWNER app' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '${db}')\\gexec`),
  ];
}

/** The application role with its per-role timeouts (postgresql.conf would also hit migrations, pg_dump and VACUUM). */
function roleSql(ctx) {
  const lines = [
    `-- ${t('pg.roles')}`,
    `-- see: ${SRC.pgClient.url}`,
    ...createOnce(ctx),
    `-- ${t('pg.statement-timeout.why')}`,
    "ALTER ROLE app SET statement_timeout = '30s';",
  ];
  return lines;
}
