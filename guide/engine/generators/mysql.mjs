// MySQL / MariaDB: server settings (my.cnf include) per version, and when the database is reached over the network
// its bind address and an SQL file with one TLS-only account per app host.
import { databaseNames, whenMigrating, MIGRATE_ENV } from './database-yml.mjs';
import { SRC, DS } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { dbPrefix } from './util.mjs';
import { connectionSum } from '../arithmetic.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';
import { MYSQL_CONF_FILES, RAILS_API } from '../caps.mjs';
import { has } from '../pick.mjs';
import { mysqlRepoSeries, releaseOf, commandsOf, fam } from './family-steps.mjs';
import { familyDestination } from './readme.mjs';
import { compareLines, restartIfChanged } from './restart-on-change.mjs';

export const id = 'mysql';

const minor = (v) => String(v).split('.').slice(0, 2).join('.');
/**
 * MariaDB's own repository lines for the answered series, ending with its server's install (the family row's
 * mariadbRepo), where the release ships an older series and the repository builds the answered one; else null (the
 * release's own package, and the distro-database warning where it is another series). family-steps.mjs (step 1) and
 * readme-hosts.mjs (step 0) reach it through ctx.generator('mysql'): this chunk is loaded for MySQL and MariaDB only.
 */
export function mariadbRepo(ctx) {
  const row = commandsOf(ctx)?.mariadbRepo;
  const r = releaseOf(ctx);
  const v = minor(ctx.a.database_version);
  if (ctx.a.database !== 'mariadb' || !row || !r?.mariadb || !row.series.includes(v) || v === r.mariadb || !gte(v, r.mariadb)) return null;
  return [...fam(ctx, 'mariadbRepo.lines', { series: v, os: r.os, codename: r.codename }), fam(ctx, 'mariadbRepo.package')];
}

/** The client README feeds the grants to. From 11.0 MariaDB's `mysql` names are compatibility links moved to -compat
 *  packages, and its own RPMs stopped installing them with 11.4.5, so a host set up from MariaDB's repository may have
 *  no `mysql` (SRE check 6, D1); `mariadb` is the client's own name since 10.4.6. The distributions' MariaDB packages
 *  keep `mysql` (booted so in the lab on Debian 13), and MySQL has no other name. */
export const sqlClient = (ctx) => (mariadbRepo(ctx) ? 'mariadb' : 'mysql');

/** MySQL/MariaDB the release does not ship (PostgreSQL gets the PGDG step instead), else null. Here, not in
 * family-steps.mjs (first-load script): only this chunk asks. */
function distroDbMismatch(ctx) {
  const shipped = releaseOf(ctx)?.[ctx.a.database];
  const minor = String(ctx.a.database_version).split('.').slice(0, 2).join('.');
  return shipped && shipped !== minor ? shipped : null;
}

/** database.yml (database-yml.mjs, through ctx.generator('mysql')): migrations wait at most 5 s for a table's metadata
 *  lock (lock_wait_timeout, default one year; MariaDB 10.2.4+ one day). An ALTER waiting behind a long transaction
 *  makes every later query on that table wait behind it, so the site stalls for as long as it waits (SRE check 5, D6).
 *  Rails 4.0+ sets the MySQL adapters' `variables:`; JRuby's JDBC adapter is left as it was. */
export const migrationVariablesApply = (ctx) => ctx.adapter !== 'jdbc' && has(RAILS_API.mysqlSessionVariables, ctx.a.rails);
export function migrationVariables(ctx) {
  return { key: 'variables', why: t('db.mysql-migrate-variables', { env: MIGRATE_ENV }), evidence: [SRC.railsConfiguring, SRC.mysqlMetadataLocks], children: [{ key: 'lock_wait_timeout', value: whenMigrating(5) }] };
}

const GB = 1024;

/** Redo log size in MB: MySQL's innodb_dedicated_server table (8.0 reference manual) by RAM. */
export function redoLogMb(ramMb) {
  return ramMb < 8 * GB ? 512 : ramMb <= 128 * GB ? 1024 : 2048;
}

export function mysqlSettings(ctx) {
  const { a, hosts } = ctx;
  const maria = a.database === 'mariadb';
  const v = a.database_version;
  const ram = ctx.dbRamMb;
  const docs = maria ? SRC.mariadbVars : SRC.mysqlVars;
  const db = maria ? 'MariaDB' : 'MySQL';
  const e = [
    { comment: t(a.db_host === 'same' ? 'my.sized.same' : 'my.sized.separate', { ram, gb: a.ram_gb, db }) },
    { key: 'max_connections', value: ctx.maxConnections, why: t('my.max', { sum: connectionSum(ctx), admin: ctx.adminConnections }), evidence: [docs, DS.pumaProcThreads] },
    { key: 'innodb_buffer_pool_size', value: `${ctx.bufferPoolMb}M`, why: t(a.db_host === 'same' ? 'my.pool' : 'my.pool.dedicated'), evidence: [SRC.mysqlDedicated] },
  ];
  // Redo log: one capacity setting from MySQL 8.0.30; a file size before (and in MariaDB, one file since 10.5).
  // A series answer ("8.0") means its current patch release, which is past 8.0.30 (8.0.30 deprecated
  // innodb_log_file_size for innodb_redo_log_capacity: SRE trial D12); "8.0.28" keeps the file size.
  if (!maria && (gte(v, '8.0.30') || (String(v).split('.').length < 3 && gte(v, '8.0')))) {
    const gb = Math.min(16, Math.max(1, Math.floor(ctx.dbCores / 2)));
    e.push({ key: 'innodb_redo_log_capacity', value: `${gb}G`, why: t('my.redo-capacity', { cores: ctx.dbCores }), evidence: [SRC.mysqlRedo, SRC.mysqlDedicated] });
  } else if (maria || gte(v, '5.6.8')) {
    e.push({ key: 'innodb_log_file_size', value: `${redoLogMb(ram)}M`, why: t('my.redo-file'), evidence: [SRC.mysqlDedicated, docs] });
  }
  // O_DIRECT skips the double buffering in the page cache. Default on Linux in MySQL 8.4 and MariaDB 10.6;
  // MariaDB 11.0 deprecated the variable.
  const directDefault = maria ? gte(v, '10.6') : gte(v, '8.4');
  if (a.os === 'linux' && !directDefault) e.push({ key: 'innodb_flush_method', value: 'O_DIRECT', why: t('my.flush'), evidence: [docs] });
  // Slow-query log.
  e.push({ key: 'slow_query_log', value: 'ON', why: t('my.slow'), evidence: [SRC.mysqlSlowLog] });
  e.push({ key: 'long_query_time', value: '0.5' });
  // Binary log expiry: MySQL 8.0 writes a binary log by default and keeps it 30 days.
  if (!maria && gte(v, '8.0')) e.push({ key: 'binlog_expire_logs_seconds', value: 604800, why: t('my.binlog'), evidence: [SRC.mysqlBinlog] });
  else e.push({ comment: t(maria ? 'my.binlog-maria' : 'my.binlog-old') });
  // MySQL 8.0+ loads the X Plugin (port 33060, all interfaces) by default; the app uses the classic protocol only.
  if (!maria && gte(v, '8.0')) e.push({ key: 'mysqlx', value: 'OFF', why: t('my.mysqlx'), evidence: [SRC.mysqlX] });
  // Same host: pin loopback (MySQL's default bind-address is every interface; Debian's MariaDB sets 127.0.0.1 in a
  // file of its own, which a later file may change).
  if (!hosts.dbNetworked) e.push({ key: 'bind-address', value: '127.0.0.1', why: t('my.bind.local'), evidence: [docs] });
  if (hosts.dbNetworked) {
    // Several comma-separated addresses from MySQL 8.0.13 and MariaDB 10.11; one address before.
    const multi = maria ? gte(v, '10.11') : gte(v, '8.0.13');
    e.push({ key: 'bind-address', value: multi ? `127.0.0.1,${hosts.db}` : hosts.db, why: t('my.bind', { addr: hosts.db }), evidence: [docs] });
    const secure = maria ? gte(v, '10.5.2') : gte(v, '5.7.8');
    if (secure) e.push({ key: 'require_secure_transport', value: 'ON', why: t('my.secure'), evidence: [docs] });
  }
  return [{ section: 'mysqld', entries: e }];
}

/**
 * One account per app host, TLS required, rights on the application databases only (CREATE USER … REQUIRE: MySQL
 * 5.7, MariaDB 10.2). On the same host: the loopback account database.yml uses (127.0.0.1 over TCP, which the
 * server names 'localhost' when it resolves names and '127.0.0.1' when it does not), no TLS needed on loopback.
 */
export function grantsSql(ctx) {
  const dbs = databaseNames(ctx); // Rails 8: also the cache, queue and cable databases
  const local = !ctx.hosts.dbNetworked;
  const lines = [`-- ${t(local ? 'my.grants.local' : 'my.grants', { n: ctx.hosts.app.length })}`, `-- see: ${SRC.mysqlCreateUser.url}`, ...dbs.map((db) => `CREATE DATABASE IF NOT EXISTS ${db};`)];
  for (const addr of local ? ['localhost', '127.0.0.1'] : ctx.hosts.app) lines.push(`CREATE USER IF NOT EXISTS 'app'@'${addr}' IDENTIFIED BY 'change-me'${local ? '' : ' REQUIRE SSL'};`, ...dbs.map((db) => `GRANT ALL PRIVILEGES ON ${db}.* TO 'app'@'${addr}';`));
  return lines;
}

export function generate(ctx) {
  if (!APPLIES.mysql(ctx)) return {};
  const pre = dbPrefix(ctx);
  const maria = ctx.a.database === 'mariadb';
  // The directory the server reads last, so these settings win over the package's own (capabilities/distros.mjs).
  const path = `${pre}${MYSQL_CONF_FILES[ctx.a.database]}`;
  const files = [{ path, format: 'ini', body: mysqlSettings(ctx) }];
  files.push({ path: `${pre}setup/mysql-grants.sql`, format: 'sql', body: grantsSql(ctx) });
  // Bound to a private address (SRE trial D5): the distribution's unit starts after network.target only, when that
  // address may not be configured yet (DHCP, hotplug); mysqld/mariadbd then fail to bind it and exit. Ordering the unit
  // after network-online.target (a drop-in, unit name from the family's table) rather than net.ipv4.ip_nonlocal_bind:
  // that sysctl is host-wide, lets every program bind addresses the host does not have, and leaves the server up on an
  // address nothing can reach yet, where the ordering only delays this one unit until the network is configured.
  if (ctx.hosts.dbNetworked && ctx.a.init === 'systemd' && ctx.linux) {
    const svc = fam(ctx, `services.${ctx.a.database}`) || ctx.a.database;
    files.push({ path: `${pre}etc/systemd/system/${svc}.service.d/network-online.conf`, format: 'systemd', body: [{ section: 'Unit', entries: [
      { key: 'Wants', value: 'network-online.target', why: t('my.network-online', { addr: ctx.hosts.db, db: maria ? 'MariaDB' : 'MySQL' }), evidence: [SRC.systemdService, maria ? SRC.mariadbVars : SRC.mysqlVars] },
      { key: 'After', value: 'network-online.target' },
    ] }] });
  }
  // A version the distribution release does not ship: the README's package line would install another one.
  // MySQL from its vendor's repository (family-steps.mjs mysqlRepoSeries): README step 1 adds it, so the finding is an
  // info; a series without a repository step on a release that lacks it is a warning, as for any other version.
  const repo = mysqlRepoSeries(ctx);
  const shipped = distroDbMismatch(ctx);
  const none = t('w.distro-database.none');
  const has = releaseOf(ctx)?.mysql ? `MySQL ${releaseOf(ctx).mysql}` : none;
  const vars = { distro: ctx.a.distro, shipped, has, db: maria ? 'MariaDB' : 'MySQL', v: ctx.a.database_version, series: repo, family: ctx.family.id };
  const W = (severity, m, s, evidence) => [{ id: 'distro-database', severity, message: t(m, vars), suggestion: t(s, vars), evidence }];
  // MariaDB from its own repository (mariadbRepo above): README says so, and which series the release itself has.
  const warnings = repo ? W('info', 'w.mysql-vendor-repository.m', 'w.mysql-vendor-repository.s', [SRC.mysqlRepo, SRC.mysqlReleases])
    : mariadbRepo(ctx) ? W('info', 'w.mariadb-vendor-repository.m', 'w.mariadb-vendor-repository.s', [SRC.mariadbRepo, SRC.mariadbMaintenance])
    : shipped ? W('warning', 'w.distro-database.m', 'w.distro-database.s', [maria ? SRC.mariadbMaintenance : SRC.mysqlReleases])
      : repo === null ? W('warning', 'w.distro-database.none.m', 'w.distro-database.s', [SRC.mysqlReleases]) : [];
  // The APT release package is pinned but not checksummed (family-commands.mjs mysqlRepo.aptConfig): say so.
  const pin = repo && commandsOf(ctx)?.mysqlRepo?.aptConfig;
  if (pin) warnings[0].suggestion += ` ${t('w.mysql-apt-config', { v: pin })}`;
  // The vendor's server package needs its own first-start steps here (family row mysqlRepo.init): say what they leave.
  if (repo && commandsOf(ctx)?.mysqlRepo?.init?.length) warnings.push({ ...W('info', 'w.mysql-community-root.m', 'w.mysql-community-root.s', [SRC.mysqlYumRepo])[0], id: 'mysql-community-root' });
  return { files, warnings };
}

/**
 * README step 3's lines for MySQL/MariaDB on the app host (left on the summary): its files compared with the
 * installed ones before step 3 installs them, and a restart only when one changed (SRE check 5, m1: every re-run of
 * the step restarted the server, with a cold buffer pool after it). The database host's step 0: readme-hosts.mjs.
 */
export function finish(summary) {
  const { ctx } = summary;
  const paths = summary.files.map((f) => f.path).filter((p) => p.startsWith('etc/mysql/') || p.endsWith('.service.d/network-online.conf') && !p.startsWith('db-host/'));
  if (!APPLIES.mysql(ctx) || !paths.length) return [];
  summary.hostBlocks = { ...summary.hostBlocks,
    before: [...(summary.hostBlocks?.before || []), ...compareLines('MY', paths.map((p) => ({ src: p, dest: familyDestination(ctx, p) || `/${p}` })))],
    mysql: [restartIfChanged('MY', fam(ctx, `services.${ctx.a.database}`))] };
  return [];
}
