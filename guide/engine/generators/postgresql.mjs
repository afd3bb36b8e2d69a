// PostgreSQL settings as a conf.d include (postgresql.conf syntax), sized with the PGTune "web" formulas
// on the RAM available to PostgreSQL.
import { SRC, DS, ART } from '../evidence.mjs';
import { gte } from '../version.mjs';

export const id = 'postgresql';

const mb = (n) => `${Math.max(1, Math.round(n))}MB`;

export function pgSettings(ctx) {
  const { a } = ctx;
  const ram = ctx.dbRamMb;
  const shared = Math.max(128, ram / 4);
  const conns = ctx.maxConnections;
  const workMem = Math.max(4, (ram - shared) / ((conns + 8) * 3));
  const hddOrSsd = a.storage === 'hdd' ? 4 : 1.1;
  const where = a.db_host === 'same' ? `the ${ram} MB left for PostgreSQL on the shared app host (a quarter of its RAM)` : `a dedicated database host with ${a.ram_gb} GB (assumed the same size as the app host)`;
  const out = [
    { comment: `Sized for ${where}.` },
    { key: 'max_connections', value: conns, why: ctx.pooler === 'pgbouncer' ? `PgBouncer\u2019s server pool (${ctx.pgbouncerPoolSize}) + admin connections; the app\u2019s ${ctx.connectionsNeeded} client connections go to PgBouncer.` : `${ctx.connectionsNeeded} app connections (${a.app_hosts} × ${ctx.processes} × ${ctx.pool}) + ${ctx.adminConnections} for consoles and migrations + ${ctx.reservedConnections} superuser reserved; never below the default 100.`, evidence: [SRC.pgConnection, DS.pumaProcThreads] },
    { key: 'shared_buffers', value: mb(shared), why: 'About 25 % of the memory PostgreSQL may use (the PostgreSQL docs\u2019 starting point), never below the 128MB default.', evidence: [SRC.pgResource, SRC.pgtune, ART.databases] },
    { key: 'effective_cache_size', value: mb(ram * 0.75), why: 'Planner hint: memory available for caching (75 % of PostgreSQL\u2019s share). Allocates nothing.', evidence: [SRC.pgtune] },
    { key: 'work_mem', value: mb(workMem), why: 'Per sort or hash operation, possibly several per query and connection: (RAM − shared_buffers) / (connections × 3), at least the 4MB default.', evidence: [SRC.pgResource, SRC.pgtune, ART.databases] },
    { key: 'maintenance_work_mem', value: mb(Math.min(2048, Math.max(64, ram / 16))), why: 'VACUUM and CREATE INDEX memory: RAM/16, between the 64MB default and 2GB.', evidence: [SRC.pgtune] },
  ];
  if (gte(a.database_version, '8.3')) out.push({ key: 'checkpoint_completion_target', value: 0.9, why: 'Spread checkpoint writes over the interval instead of bursts.', evidence: [SRC.pgtune] });
  out.push({ key: 'wal_buffers', value: mb(Math.min(16, Math.max(1, shared * 0.03))), why: '3 % of shared_buffers, at most 16MB.', evidence: [SRC.pgtune] });
  out.push({ key: 'random_page_cost', value: hddOrSsd, why: a.storage === 'hdd' ? 'Random reads are expensive on spinning disks (4 is the default).' : 'Random reads cost little more than sequential ones on SSD/NVMe, so index scans are preferred.', evidence: [SRC.pgtune] });
  return out;
}

export function generate(ctx) {
  if (ctx.a.database !== 'postgresql') return {};
  const major = ctx.a.database_version.split('.')[0];
  const dir = gte(ctx.a.database_version, '10') ? major : ctx.a.database_version.split('.').slice(0, 2).join('.');
  return { files: [{ path: `etc/postgresql/${dir}/main/conf.d/60-rails.conf`, format: 'pgconf', body: pgSettings(ctx) }] };
}
