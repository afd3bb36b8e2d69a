// pgbouncer.ini in transaction mode.
import { SRC, DS } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { t } from '../text.mjs';

export const id = 'pgbouncer';

export function generate(ctx) {
  if (ctx.pooler !== 'pgbouncer') return {};
  const v = ctx.a.pooler_version;
  const dbHost = ctx.a.db_host === 'same' ? '127.0.0.1' : 'db.internal';
  const entries = [
    { key: 'listen_addr', value: '127.0.0.1' },
    { key: 'listen_port', value: 6432, why: t('pgb.listen'), evidence: [SRC.pgbouncer] },
    { key: 'auth_type', value: 'scram-sha-256', why: t('pgb.auth'), evidence: [SRC.pgbouncer] },
    { key: 'auth_file', value: '/etc/pgbouncer/userlist.txt' },
    { key: 'pool_mode', value: 'transaction', why: t('pgb.mode'), evidence: [SRC.pgbouncer] },
    { key: 'max_client_conn', value: ctx.pgbouncerMaxClient, why: t('pgb.max', { needed: ctx.connectionsNeeded }), evidence: [DS.pumaProcThreads] },
    { key: 'default_pool_size', value: ctx.pgbouncerPoolSize, why: t('pgb.pool'), evidence: [SRC.pgbouncer] },
  ];
  if (gte(v, '1.21')) {
    entries.push({ key: 'max_prepared_statements', value: 200, why: t('pgb.prepared', { v }), evidence: [SRC.pgbouncerChangelog] });
  } else {
    entries.push({ comment: t('pgb.no-prepared', { v }) });
  }
  const sections = [
    { section: 'databases', entries: [{ key: 'app_production', value: `host=${dbHost} port=5432 dbname=app_production` }] },
    { section: 'pgbouncer', entries },
  ];
  return { files: [{ path: 'etc/pgbouncer/pgbouncer.ini', format: 'ini-semicolon', body: sections }] };
}
