// pgbouncer.ini in transaction mode. One PgBouncer on the database host serves every app host: its server pool is
// the global connection budget (per-app-host PgBouncers would multiply default_pool_size by the host count).
// Reached over the network it takes TLS and checks client addresses with its own HBA file.
import { SRC, DS } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { dbPrefix } from './util.mjs';
import { databaseNames, MIGRATE_SUFFIX, MIGRATE_ENV } from './database-yml.mjs';
import { RAILS_API } from '../caps.mjs';
import { has } from '../pick.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';
import { dbTlsPair } from './db-tls.mjs';
import { commandsOf, fam } from './family-steps.mjs';
import { restartOnly } from './readme-apply.mjs';

export const id = 'pgbouncer';

export function hbaMethod(v) {
  return gte(v, '1.14') ? 'scram-sha-256' : 'md5'; // SCRAM arrived in PgBouncer 1.14
}

/**
 * database.yml's entries for Rails behind PgBouncer (database-yml.mjs adds them through ctx.generator('pgbouncer'), so
 * they load with this chunk): prepared statements off before PgBouncer 1.21 where Rails uses them; advisory locks
 * where Rails has the option, on only for migrations (PostgreSQL, which connect around PgBouncer), else a comment.
 */
export function databaseYmlEntries(ctx) {
  const { a } = ctx;
  const pg = a.database === 'postgresql';
  const out = [];
  const psOk = gte(a.pooler_version, '1.21');
  if (!psOk && has(RAILS_API.pgPreparedStatements, a.rails)) out.push({ key: 'prepared_statements', value: false, why: t('db.no-prepared', { v: a.pooler_version }), evidence: [SRC.pgbouncerChangelog] });
  if (has(RAILS_API.advisoryLocksOption, a.rails)) out.push({ key: 'advisory_locks', value: pg ? { raw: `<%= ENV[${JSON.stringify(MIGRATE_ENV)}] ? true : false %>` } : false, why: t(pg ? 'db.advisory.migrate' : 'db.advisory', { env: MIGRATE_ENV }), evidence: [SRC.railsConfiguring, SRC.railsAdvisoryOption] });
  else if (has(RAILS_API.migrationAdvisoryLocks, a.rails)) out.push({ comment: t('db.advisory-5', { rails: a.rails }) });
  return out;
}

export function generate(ctx) {
  if (!APPLIES.pgbouncer(ctx)) return {};
  const v = ctx.a.pooler_version;
  const net = ctx.hosts.dbNetworked;
  const dir = `${dbPrefix(ctx)}etc/pgbouncer`;
  const dbs = databaseNames(ctx);
  const entries = [
    { key: 'listen_addr', value: net ? `127.0.0.1,${ctx.hosts.db}` : '127.0.0.1', why: t(net ? 'pgb.listen-net' : 'pgb.listen-local', { addr: ctx.hosts.db, n: ctx.a.app_hosts }), evidence: [SRC.pgbouncer] },
    { key: 'listen_port', value: 6432, why: t('pgb.listen'), evidence: [SRC.pgbouncer] },
    { key: 'auth_type', value: net ? 'hba' : hbaMethod(v), why: t(net ? 'pgb.auth-hba' : 'pgb.auth'), evidence: [SRC.pgbouncer] },
    { key: 'auth_file', value: '/etc/pgbouncer/userlist.txt' },
  ];
  if (net) {
    entries.push({ key: 'auth_hba_file', value: '/etc/pgbouncer/pg_hba.conf' });
    const pair = dbTlsPair(ctx, 'pgbouncer');
    entries.push({ key: 'client_tls_sslmode', value: 'require', why: t(pair.make ? 'pgb.tls.own' : 'pgb.tls'), evidence: [SRC.pgbouncer] });
    entries.push({ key: 'client_tls_cert_file', value: pair.cert });
    entries.push({ key: 'client_tls_key_file', value: pair.key });
  }
  entries.push(
    { key: 'pool_mode', value: 'transaction', why: t('pgb.mode'), evidence: [SRC.pgbouncer] },
    // Measured in the lab (tests/wizard/faults-balancers.test.mjs, issue 23): with the default 15 s, requests kept
    // failing for 9 s after a PostgreSQL restart had finished.
    { key: 'server_login_retry', value: 1, why: t('pgb.login-retry'), evidence: [SRC.pgbouncer] },
    { key: 'max_client_conn', value: ctx.pgbouncerMaxClient, why: t('pgb.max', { needed: ctx.connectionsNeeded, hosts: ctx.a.app_hosts }), evidence: [DS.pumaProcThreads, SRC.pgbouncer] },
    { key: 'default_pool_size', value: ctx.pgbouncerPoolSize, why: t('pgb.pool', { cores: ctx.dbCores, n: ctx.pgbouncerPoolSize }), evidence: [SRC.pgbouncer, SRC.pgWikiConnections] },
  );
  // Pools are per database and user: with Rails 8's four databases the server side could open four pools' worth.
  if (dbs.length > 1) entries.push({ key: 'max_user_connections', value: ctx.pgbouncerPoolSize, why: t('pgb.max-user', { n: ctx.pgbouncerPoolSize, dbs: dbs.length }), evidence: [SRC.pgbouncer] });
  if (gte(v, '1.21')) {
    entries.push({ key: 'max_prepared_statements', value: 200, why: t('pgb.prepared', { v }), evidence: [SRC.pgbouncerChangelog] });
  } else {
    entries.push({ comment: t('pgb.no-prepared', { v }) });
  }
  const sections = [
    // One entry per database of the app (Rails 8: also cache, queue and cable): PgBouncer refuses a name it does not list.
    { section: 'databases', entries: [
      ...dbs.map((db, i) => ({ key: db, value: `host=127.0.0.1 port=5432 dbname=${db}`, ...(i ? {} : { why: t('pgb.db-local'), evidence: [SRC.pgbouncer] }) })),
      // Migrations (README sets RAILS_DB_MIGRATE): the same databases in session mode, where Rails' advisory lock
      // and the migration's own SET statement_timeout stay on one server connection.
      // Two server connections per migrating host (Rails holds its advisory lock on a second one), for every app host:
      // a second host started by mistake gets its connections and stops at once on the lock (ConcurrentMigrationError)
      // instead of queueing in PgBouncer until query_wait_timeout (SRE check 4, D9).
      ...dbs.map((db, i) => ({ key: db + MIGRATE_SUFFIX, value: `host=127.0.0.1 port=5432 dbname=${db} pool_mode=session pool_size=${2 * ctx.a.app_hosts}`, ...(i ? {} : { why: t('pgb.db-migrate', { n: 2 * ctx.a.app_hosts, hosts: ctx.a.app_hosts }), evidence: [SRC.pgbouncer, SRC.railsAdvisoryOption] }) })),
    ] },
    { section: 'pgbouncer', entries },
  ];
  const files = [{ path: `${dir}/pgbouncer.ini`, format: 'ini-semicolon', body: sections }];
  if (net) {
    const m = hbaMethod(v);
    files.push({
      path: `${dir}/pg_hba.conf`, format: 'lines',
      body: [
        `# ${t('pgb.hba', { n: ctx.hosts.app.length })}`, `# see: ${SRC.pgbouncer.url}`,
        `host all all 127.0.0.1/32 ${m}`,
        ...ctx.hosts.app.map((addr) => `hostssl ${[...dbs, ...dbs.map((d) => d + MIGRATE_SUFFIX)].join(',')} app ${addr}/32 ${m}`),
      ],
    });
  }
  // The file limit max_client_conn counts against (pgb.max): Debian's pgbouncer.service sets none, so systemd's soft
  // limit of 1024 would apply; a drop-in raises it to the 65536 the ini's comment relies on.
  if (ctx.a.init === 'systemd' && ctx.linux) {
    files.push({
      path: `${dir.replace(/pgbouncer$/, 'systemd/system/pgbouncer.service.d')}/limits.conf`, format: 'systemd',
      body: [
        // Listening on the private address too: start once the network is up, or PgBouncer comes up on loopback only
        // (it logs the failed bind and runs on) and every app host is refused until someone restarts it.
        ...(net ? [{ section: 'Unit', entries: [
          { key: 'Wants', value: 'network-online.target', why: t('pgb.network-online', { addr: ctx.hosts.db }), evidence: [SRC.systemdService, SRC.pgbouncer] },
          { key: 'After', value: 'network-online.target' },
        ] }] : []),
        { section: 'Service', entries: [{ key: 'LimitNOFILE', value: 65536, why: t('pgb.nofile', { max: ctx.pgbouncerMaxClient }), evidence: [SRC.pgbouncer, SRC.fdLimits] }] },
      ],
    });
  }
  return { files };
}

/**
 * PgBouncer's restart-or-reload decision for README (step 4 here, the database host's block in readme-hosts.mjs), in
 * this chunk rather than readme-apply.mjs, which the first-load script carries: before its files are installed, the
 * start-only settings of the new pgbouncer.ini and the unit's drop-in are compared with the installed ones (PgBouncer
 * cannot say what is pending): PGB is `restart` when they differ (or nothing is installed yet), else
 * `reload-or-restart` (SIGHUP re-reads the rest, the auth file too).
 */
export function pgbouncerCompare(ini, dropIn) {
  const lines = ['PGB=reload-or-restart', `K='^(${restartOnly('pgbouncer').join('|')})\\b'`];
  if (dropIn) lines.push(`cmp -s ${dropIn.src} ${dropIn.dest} || PGB=restart`);
  lines.push(`[ "$(grep -E "$K" ${ini.src})" = "$(grep -sE "$K" ${ini.dest})" ] || PGB=restart`);
  return lines;
}

/**
 * README step 4's lines for a PgBouncer on the app host (a separate database host has its own, readme-hosts.mjs),
 * left on the summary with the files they install (step 3 leaves those out): restart or reload decided before its
 * files go in, then its auth file from the role's stored SCRAM secret (never the plain text), owned by the user the
 * family's PgBouncer runs as, then the reload, before db:prepare connects through it (trial 24: the files were
 * installed in step 3 and PgBouncer never got userlist.txt nor a reload, so db:prepare through it failed).
 */
export function finish(summary) {
  const { ctx } = summary;
  if (!APPLIES.pgbouncer(ctx) || ctx.a.db_host !== 'same' || !ctx.linux || !commandsOf(ctx)?.pgbouncerUser) return [];
  const paths = summary.files.map((f) => f.path).filter((p) => /^etc\/(pgbouncer\/|systemd\/system\/pgbouncer\.service\.d\/)/.test(p));
  const ini = paths.find((p) => p.endsWith('/pgbouncer.ini'));
  if (!ini) return [];
  const dropIn = paths.find((p) => p.includes('.service.d/'));
  const owner = fam(ctx, 'pgbouncerUser');
  summary.hostBlocks = { ...summary.hostBlocks, pgbouncer: { files: paths, lines: [
    ...pgbouncerCompare({ src: ini, dest: `/${ini}` }, dropIn && { src: dropIn, dest: `/${dropIn}` }),
    ...paths.map((p) => `install -D -m 0644 ${p} /${p}`),
    `runuser -u postgres -- psql -Atc "SELECT format('\\"%s\\" \\"%s\\"', rolname, rolpassword) FROM pg_authid WHERE rolname = 'app'" > /etc/pgbouncer/userlist.txt`,
    `chown ${owner}:${owner} /etc/pgbouncer/userlist.txt && chmod 0640 /etc/pgbouncer/userlist.txt`,
    'systemctl daemon-reload', `systemctl "$PGB" ${fam(ctx, 'services.pgbouncer')}`,
    // Enabled at boot where the family's packages leave it disabled (RHEL's bootEnable).
    ...(commandsOf(ctx).bootEnable ? [fam(ctx, 'bootEnable', { units: fam(ctx, 'services.pgbouncer') })] : []),
  ] } };
  return [];
}
