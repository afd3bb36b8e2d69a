// pgbouncer.ini in transaction mode.
import { SRC, DS } from '../evidence.mjs';
import { gte } from '../version.mjs';

export const id = 'pgbouncer';

export function generate(ctx) {
  if (ctx.pooler !== 'pgbouncer') return {};
  const v = ctx.a.pooler_version;
  const dbHost = ctx.a.db_host === 'same' ? '127.0.0.1' : 'db.internal';
  const entries = [
    { key: 'listen_addr', value: '127.0.0.1' },
    { key: 'listen_port', value: 6432 },
    { key: 'auth_type', value: 'scram-sha-256' },
    { key: 'auth_file', value: '/etc/pgbouncer/userlist.txt' },
    { key: 'pool_mode', value: 'transaction', why: 'A server connection is lent to a client for one transaction, so many Rails connections share few PostgreSQL backends.', evidence: [SRC.pgbouncer] },
    { key: 'max_client_conn', value: ctx.pgbouncerMaxClient, why: `All app connections (${ctx.connectionsNeeded}) plus admin headroom.`, evidence: [DS.pumaProcThreads] },
    { key: 'default_pool_size', value: ctx.pgbouncerPoolSize, why: 'Server connections per database/user pair (PgBouncer\u2019s default, 20): the PostgreSQL backends actually doing work, far fewer than the app\u2019s client connections.', evidence: [SRC.pgbouncer] },
  ];
  if (gte(v, '1.21')) {
    entries.push({ key: 'max_prepared_statements', value: 200, why: `PgBouncer ${v} tracks protocol-level prepared statements in transaction mode when this is above 0 (1.24 turns it on by default); Rails uses them.`, evidence: [SRC.pgbouncerChangelog] });
  } else {
    entries.push({ comment: `PgBouncer ${v} cannot keep prepared statements in transaction mode: database.yml sets prepared_statements: false.` });
  }
  const sections = [
    { section: 'databases', entries: [{ key: 'app_production', value: `host=${dbHost} port=5432 dbname=app_production` }] },
    { section: 'pgbouncer', entries },
  ];
  return { files: [{ path: 'etc/pgbouncer/pgbouncer.ini', format: 'ini-semicolon', body: sections }] };
}
