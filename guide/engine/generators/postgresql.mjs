// PostgreSQL settings as a conf.d include (postgresql.conf syntax), sized with the PGTune "web" formulas
// on the RAM available to PostgreSQL.
import { SRC, DS, ART } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { t } from '../text.mjs';

export const id = 'postgresql';

const mb = (n) => `${Math.max(1, Math.round(n))}MB`;

export function pgSettings(ctx) {
  const { a } = ctx;
  const ram = ctx.dbRamMb;
  const shared = Math.max(128, ram / 4);
  const conns = ctx.maxConnections;
  const workMem = Math.max(4, (ram - shared) / ((conns + 8) * 3));
  const hddOrSsd = a.storage === 'hdd' ? 4 : 1.1;
  const vars = { ram, gb: a.ram_gb, needed: ctx.connectionsNeeded, hosts: a.app_hosts, processes: ctx.processes, pool: ctx.pool, admin: ctx.adminConnections, reserved: ctx.reservedConnections, bouncer: ctx.pgbouncerPoolSize };
  const out = [
    { comment: t(a.db_host === 'same' ? 'pg.sized.same' : 'pg.sized.separate', vars) },
    { key: 'max_connections', value: conns, why: t(ctx.pooler === 'pgbouncer' ? 'pg.max.bouncer' : 'pg.max', vars), evidence: [SRC.pgConnection, DS.pumaProcThreads] },
    { key: 'shared_buffers', value: mb(shared), why: t('pg.shared'), evidence: [SRC.pgResource, SRC.pgtune, ART.databases] },
    { key: 'effective_cache_size', value: mb(ram * 0.75), why: t('pg.ecs'), evidence: [SRC.pgtune] },
    { key: 'work_mem', value: mb(workMem), why: t('pg.work'), evidence: [SRC.pgResource, SRC.pgtune, ART.databases] },
    { key: 'maintenance_work_mem', value: mb(Math.min(2048, Math.max(64, ram / 16))), why: t('pg.maint'), evidence: [SRC.pgtune] },
  ];
  if (gte(a.database_version, '8.3')) out.push({ key: 'checkpoint_completion_target', value: 0.9, why: t('pg.checkpoint'), evidence: [SRC.pgtune] });
  out.push({ key: 'wal_buffers', value: mb(Math.min(16, Math.max(1, shared * 0.03))), why: t('pg.wal'), evidence: [SRC.pgtune] });
  out.push({ key: 'random_page_cost', value: hddOrSsd, why: t(a.storage === 'hdd' ? 'pg.rpc.hdd' : 'pg.rpc.ssd'), evidence: [SRC.pgtune] });
  return out;
}

export function generate(ctx) {
  if (ctx.a.database !== 'postgresql') return {};
  const major = ctx.a.database_version.split('.')[0];
  const dir = gte(ctx.a.database_version, '10') ? major : ctx.a.database_version.split('.').slice(0, 2).join('.');
  return { files: [{ path: `etc/postgresql/${dir}/main/conf.d/60-rails.conf`, format: 'pgconf', body: pgSettings(ctx) }] };
}
