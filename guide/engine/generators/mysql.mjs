// MySQL / MariaDB settings (my.cnf include).
import { SRC, DS } from '../evidence.mjs';
import { t } from '../text.mjs';

export const id = 'mysql';

export function mysqlSettings(ctx) {
  const { a } = ctx;
  const ram = ctx.dbRamMb;
  const pool = Math.max(128, Math.round(ram * (a.db_host === 'same' ? 0.75 : 0.7)));
  const vars = a.database === 'mariadb' ? SRC.mariadbVars : SRC.mysqlVars;
  return [{
    section: 'mysqld',
    entries: [
      { comment: t(a.db_host === 'same' ? 'my.sized.same' : 'my.sized.separate', { ram, gb: a.ram_gb, db: a.database === 'mariadb' ? 'MariaDB' : 'MySQL' }) },
      { key: 'max_connections', value: ctx.maxConnections, why: t('my.max', { needed: ctx.connectionsNeeded, hosts: a.app_hosts, processes: ctx.processes, pool: ctx.pool, admin: ctx.adminConnections }), evidence: [vars, DS.pumaProcThreads] },
      { key: 'innodb_buffer_pool_size', value: `${pool}M`, why: t('my.pool'), evidence: [SRC.mysqlDedicated] },
    ],
  }];
}

export function generate(ctx) {
  if (ctx.a.database !== 'mysql' && ctx.a.database !== 'mariadb') return {};
  const path = ctx.a.database === 'mariadb' ? 'etc/mysql/mariadb.conf.d/60-rails.cnf' : 'etc/mysql/conf.d/60-rails.cnf';
  return { files: [{ path, format: 'ini', body: mysqlSettings(ctx) }] };
}
