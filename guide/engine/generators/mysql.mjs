// MySQL / MariaDB settings (my.cnf include).
import { SRC, DS } from '../evidence.mjs';

export const id = 'mysql';

export function mysqlSettings(ctx) {
  const { a } = ctx;
  const ram = ctx.dbRamMb;
  const pool = Math.max(128, Math.round(ram * (a.db_host === 'same' ? 0.75 : 0.7)));
  const vars = a.database === 'mariadb' ? SRC.mariadbVars : SRC.mysqlVars;
  return [{
    section: 'mysqld',
    entries: [
      { comment: a.db_host === 'same' ? `Sized for the ${ram} MB left for ${a.database === 'mariadb' ? 'MariaDB' : 'MySQL'} on the shared app host.` : `Sized for a dedicated database host with ${a.ram_gb} GB.` },
      { key: 'max_connections', value: ctx.maxConnections, why: `${ctx.connectionsNeeded} app connections (${a.app_hosts} × ${ctx.processes} × ${ctx.pool}) + ${ctx.adminConnections} for admin; never below the default 151.`, evidence: [vars, DS.pumaProcThreads] },
      { key: 'innodb_buffer_pool_size', value: `${pool}M`, why: 'The InnoDB page cache: most of the memory the database may use (MySQL\u2019s dedicated-server sizing uses 50–75 %), never below the 128M default.', evidence: [SRC.mysqlDedicated] },
    ],
  }];
}

export function generate(ctx) {
  if (ctx.a.database !== 'mysql' && ctx.a.database !== 'mariadb') return {};
  const path = ctx.a.database === 'mariadb' ? 'etc/mysql/mariadb.conf.d/60-rails.cnf' : 'etc/mysql/conf.d/60-rails.cnf';
  return { files: [{ path, format: 'ini', body: mysqlSettings(ctx) }] };
}
