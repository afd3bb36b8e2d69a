// The README steps for the other machines of a multi-host bundle: "0." the database host (before the app hosts,
// which migrate against it) and "11." the load balancer (after them, so its health checks find them up). Shell
// blocks are exact: tests/wizard/lab-multi-host.test.mjs runs Debian's in network namespaces. Every command comes from
// the family's row (capabilities/family-commands.mjs): Debian's and RHEL's (the latter checked by structure,
// tests/wizard/rhel-steps2.test.mjs); a family without a row gets none, and the file table says where each file goes.
// A chunk of its own on the page (guide/ui/generators.mjs): most bundles have one host, and the first-load script
// has a size budget. It runs as a finishing step just before readme's and leaves its blocks on the summary.
import { LB_PREFIX, behindBalancer, UP_CHECK } from './util.mjs';
import { pgMajor } from './postgresql.mjs';
import { fam, releaseOf, mysqlRepoSeries, commandsOf } from './family-steps.mjs';
import { t } from '../text.mjs';
import { ACME_PORT, ACME_WEBROOT } from './edge.mjs';
import { familyDestination } from './readme.mjs';
import { pgApply, certLines, restartOnly } from './readme-apply.mjs';
import { compareLines, restartIfChanged } from './restart-on-change.mjs';
import { pgbouncerCompare } from './pgbouncer.mjs';

import { APPLIES } from './applies.mjs';
import { rolls, rollingLines, rotationScript, ROTATION_SCRIPT } from './lb-rotation.mjs';
import { backends } from './load-balancer.mjs';
import { dbTlsPair } from './db-tls.mjs';
import { nginxStreamOf } from './rhel-steps.mjs';

// postgresql.mjs (first-load script) asks for the pair through ctx.generator('readme-hosts'): this chunk applies
// whenever the database is reached over the network, the only case with ssl = on.
export { dbTlsPair };

export const id = 'readme-hosts';

// Steps 0 and 11 come from the family's command row; a family without one (Alpine, FreeBSD, macOS) gets none, and README's
// file table says where each file goes (rows below). Until stop 35 RHEL's row had none either and a warning
// (hosts-by-hand) said those hosts were set up by hand; with both rows writing the steps, it had no case left.
export function generate() {
  return {};
}

/** Leaves {db, lb} README blocks on the summary for readme's finishing step (order.mjs runs this one first), and
 * behind the bundle's balancer the rolling deploy's lines for README steps 7 and 8 with the balancer's half of it,
 * lb-host/lb-rotation.sh (lb-rotation.mjs). */
export function finish(summary) {
  const { ctx } = summary;
  if (!APPLIES['readme-hosts'](ctx)) return [];
  const rolling = rolls(ctx) ? { deploy: rollingLines(ctx, 'deploy /path/to/checkout'), rollback: rollingLines(ctx, 'rollback') } : null;
  summary.hostBlocks = { ...summary.hostBlocks, db: dbHostBlocks(ctx, summary.files), lb: lbBlocks(ctx, summary.files), ...(rolling ? { rolling } : {}) };
  summary.rowNotes = { ...summary.rowNotes, ...dbHostRowNotes(ctx, summary.files), ...lbRowNotes(ctx, summary.files, summary.hostBlocks.lb) };
  return rolling ? [{ path: ROTATION_SCRIPT, format: 'sh', body: rotationScript(ctx) }] : [];
}

const sh = (lines) => ({ code: lines.join('\n'), lang: 'sh' });
// The balancer's files in README's table: where step 11 installs them, or, on a family without it, what to do by hand
// (the row used to point at a step 11 those READMEs do not have: SRE check 5, D4).
function lbRowNotes(ctx, files, lb) {
  const selinux = ctx.family.selinux && ctx.a.lb === 'nginx' ? t('readme.install.lb-nostep.selinux') : t('readme.install.lb-nostep.none');
  const note = lb.length ? t('readme.install.lb-step') : t('readme.install.lb-nostep', { family: ctx.family.id, selinux });
  return Object.fromEntries(files.filter((f) => f.path.startsWith(`${LB_PREFIX}etc/`)).map((f) => [f.path, note]));
}
// Each file of a host's prefix installed where its family reads it (readme.mjs familyDestination: /var/lib/pgsql/NN/data,
// /etc/my.cnf.d on RHEL; the bundle path on Debian).
const placements = (ctx, files, prefix) => files.map((f) => f.path).filter((p) => p.startsWith(`${prefix}etc/`))
  .map((src) => ({ src, dest: familyDestination(ctx, src) || `/${src.slice(prefix.length)}` }));
const installAll = (ctx, files, prefix) => placements(ctx, files, prefix).map(({ src, dest }) => `install -D -m 0644 ${src} ${dest}`);
// A bundle file and where step 0 installs it, for the comparisons before a reload or restart.
const placed = (files, prefix, re) => files.map((f) => f.path).filter((p) => re.test(p)).map((p) => ({ src: p, dest: `/${p.slice(prefix.length)}` }))[0];
const DB_PORT = { postgresql: 5432, pgbouncer: 6432, mysql: 3306, mariadb: 3306 };

/** The family's firewall lines opening `port` to each app host only (RHEL: firewalld rich rules), or none. */
function fromAppHosts(ctx, port) {
  const c = commandsOf(ctx);
  if (!c.hostFirewall) return [];
  return [...ctx.hosts.app.map((addr) => fam(ctx, 'hostFirewall.from', { addr, port, ipFamily: addr.includes(':') ? 'ipv6' : 'ipv4' })), fam(ctx, 'hostFirewall.reload')];
}

/** The certificate pair's command where a database-host file names a pair the distribution does not make (RHEL). */
function tlsPairLines(ctx, files, service, re) {
  const f = files.find((x) => re.test(x.path));
  const pair = f && dbTlsPair(ctx, service);
  return pair?.make && f.content.includes(pair.cert) ? [pair.make] : [];
}

/**
 * The database server's packages, repository and first start on the database host, from the family's row as on an app
 * host (family-steps.mjs packageLines): PGDG (always on RHEL, whose PGDG packages are the postgresqlNN-server ones;
 * on Debian for a major the release lacks), initdb and the unit's enabling where the packages leave it off, MySQL's own
 * repository with the community RPM's first-start fixes, MariaDB's own repository for a newer series.
 */
function dbServerLines(ctx) {
  const { a } = ctx;
  const c = commandsOf(ctx);
  const service = fam(ctx, `services.${a.database}`);
  if (a.database === 'postgresql') {
    const shipped = releaseOf(ctx)?.postgresql;
    const pgdg = c.pgInit.length || (shipped && shipped !== pgMajor(a.database_version));
    return [...(pgdg ? fam(ctx, 'pgRepo') : []), fam(ctx, 'packages.postgresql'), ...(ctx.pooler === 'pgbouncer' ? [fam(ctx, 'packages.pgbouncer')] : []),
      ...fam(ctx, 'pgInit'), ...fam(ctx, 'dbStart', { service })];
  }
  const repo = mysqlRepoSeries(ctx);
  // MariaDB's own repository where the release ships an older series (mysql.mjs mariadbRepo, its server's line last).
  const maria = a.database === 'mariadb' && ctx.generator('mysql').mariadbRepo(ctx);
  if (!repo) return [...(maria || [fam(ctx, `packages.${a.database}`)]), ...fam(ctx, 'dbStart', { service })];
  return [...fam(ctx, 'mysqlRepo.lines', { series: repo, aptConfig: c.mysqlRepo.aptConfig, release: c.mysqlRepo.release }), fam(ctx, 'mysqlRepo.package'),
    ...fam(ctx, 'mysqlRepo.init'), ...fam(ctx, 'dbStart', { service }), ...fam(ctx, 'mysqlRepo.secure')];
}

export function dbHostBlocks(ctx, files) {
  const { a } = ctx;
  if (a.db_host !== 'separate' || !commandsOf(ctx) || !['postgresql', 'mysql', 'mariadb'].includes(a.database)) return [];
  // The same package lines as an app host's step 1 (family table). No `exit` in a pasted block: it would close the
  // reader's root shell.
  const lines = dbServerLines(ctx);
  const service = fam(ctx, `services.${a.database}`);
  const edit = (file) => fam(ctx, 'edit', { file });
  if (a.database === 'postgresql') {
    const bouncer = ctx.pooler === 'pgbouncer' && placed(files, 'db-host/', /^db-host\/etc\/pgbouncer\/pgbouncer\.ini$/);
    // Before anything is installed: does PgBouncer need a restart, or will a reload do (readme-apply.mjs)?
    if (bouncer) lines.push(...pgbouncerCompare(bouncer, placed(files, 'db-host/', /^db-host\/etc\/systemd\/system\/pgbouncer\.service\.d\//)));
    // PostgreSQL's certificate pair before the settings that name it (ssl = on: it would not start without it); the
    // conf.d include where initdb leaves it out; the unit's own name (PGDG's postgresql-NN).
    lines.push(...tlsPairLines(ctx, files, 'pg', /^db-host\/etc\/postgresql\/[^/]+\/main\/conf\.d\//),
      ...installAll(ctx, files.filter((f) => !f.path.includes('/pgbouncer/')), 'db-host/'), ...fam(ctx, 'pgConfD'), ...pgApply(service, a.database_version),
      edit('db-host/setup/postgresql-roles.sql'), 'runuser -u postgres -- psql -v ON_ERROR_STOP=1 < db-host/setup/postgresql-roles.sql');
    if (bouncer) {
      // PgBouncer checks SCRAM passwords against the role's stored secret, copied from PostgreSQL (never the plain
      // text), into a file its own user reads (Debian's runs as postgres, PGDG's as pgbouncer).
      const owner = fam(ctx, 'pgbouncerUser');
      lines.push(...tlsPairLines(ctx, files, 'pgbouncer', /^db-host\/etc\/pgbouncer\/pgbouncer\.ini$/), ...installAll(ctx, files.filter((f) => f.path.includes('/pgbouncer/')), 'db-host/'),
        `runuser -u postgres -- psql -Atc "SELECT format('\\"%s\\" \\"%s\\"', rolname, rolpassword) FROM pg_authid WHERE rolname = 'app'" > /etc/pgbouncer/userlist.txt`,
        `chown ${owner}:${owner} /etc/pgbouncer/userlist.txt && chmod 0640 /etc/pgbouncer/userlist.txt`,
        'systemctl daemon-reload', `systemctl "$PGB" ${fam(ctx, 'services.pgbouncer')}`,
        ...(commandsOf(ctx).bootEnable ? [fam(ctx, 'bootEnable', { units: fam(ctx, 'services.pgbouncer') })] : []));
    }
    lines.push(...fromAppHosts(ctx, DB_PORT[bouncer ? 'pgbouncer' : 'postgresql']));
  } else {
    // Restarted only when one of its files changed (restart-on-change.mjs; SRE check 5, m1).
    lines.push(...compareLines('MY', placements(ctx, files, 'db-host/')), ...installAll(ctx, files, 'db-host/'), 'systemctl daemon-reload', restartIfChanged('MY', service), ...fromAppHosts(ctx, DB_PORT[a.database]),
      edit('db-host/setup/mysql-grants.sql'), `${ctx.generator('mysql').sqlClient(ctx)} < db-host/setup/mysql-grants.sql`);
  }
  const again = a.database === 'postgresql' ? ` ${t(ctx.pooler === 'pgbouncer' ? 'ops.readme.dbhost.again.pgb' : 'ops.readme.dbhost.again', { keys: restartOnly('pgbouncer').join(', ') })}` : '';
  return [{ h: 3, text: t('ops.readme.dbhost') }, { p: t(ctx.pooler === 'pgbouncer' ? 'ops.readme.dbhost.pgb' : 'ops.readme.dbhost.p', { addr: ctx.hosts.db }) + again }, sh(lines)];
}

export function lbBlocks(ctx, files) {
  const { a, domain } = ctx;
  const c = commandsOf(ctx);
  if (!behindBalancer(ctx) || !c || (a.lb !== 'haproxy' && a.lb !== 'nginx')) return [];
  const svc = a.lb;
  const tls = ctx.tls === 'upstream';
  // The family's enabling line for these units where its packages leave them off (RHEL; Debian's row has none).
  const enable = (...units) => (c.bootEnable ? [fam(ctx, 'bootEnable', { units: units.map((u) => fam(ctx, `services.${u}`)).join(' ') })] : []);
  const certbot = [...(c.epel?.includes('certbot') ? [c.epelInstall] : []), fam(ctx, 'packages.certbot'), ...(tls ? enable('certbot') : [])];
  // An nginx balancer runs the answered nginx when the edge is nginx too: its module stream first where the release has one.
  const stream = svc === 'nginx' && nginxStreamOf(ctx);
  const lines = [...(stream ? [fam(ctx, 'nginxStream', { stream })] : []), fam(ctx, `packages.${svc}`), ...(svc === 'haproxy' && c.packages.socat ? [fam(ctx, 'packages.socat')] : []), ...installAll(ctx, files, LB_PREFIX),
    // The firewall and SELinux lines the family needs for this balancer (RHEL's lbSecurity; none on Debian).
    ...fam(ctx, `lbSecurity.${svc}`, { webroot: ACME_WEBROOT })];
  const check = svc === 'haproxy' ? 'haproxy -c -q -f /etc/haproxy/haproxy.cfg' : 'nginx -t';
  // haproxy.cfg's stats socket lives in /run/haproxy (Debian's tmpfiles.d makes it at boot; RHEL gets an entry).
  if (svc === 'haproxy') lines.push(...fam(ctx, 'haproxyRunDir'));
  // The long commands are words of the catalog (cmd.lb.*): the page's first-load script stays within its budget.
  if (tls && svc === 'haproxy') {
    // The balancer starts with a throw-away certificate, then forwards the ACME challenge to certbot on a loopback
    // port: the first issue and every renewal run while it serves, and the deploy hook reloads it (never a stop).
    // A reload of a unit that is not running fails: where the package leaves HAProxy off, it is enabled and started.
    const vars = { pem: `/etc/haproxy/certs/${domain}.pem`, domain, port: ACME_PORT };
    lines.push('install -d -m 0700 /etc/haproxy/certs', t('cmd.lb.haproxy-cert', vars), ...enable('haproxy'), `${check} && systemctl reload haproxy`, ...certbot, t('cmd.lb.haproxy-certbot', vars));
  } else if (tls) {
    // The first certificate through the webroot nginx serves on a throw-away certificate (readme-apply.mjs): nginx
    // never stops; certbot's deploy hook reloads it at the first issue and every renewal.
    // …then the configuration as installed above, with the certificate certbot keeps (a second run: the new config).
    lines.push(...certbot, ...certLines({ domain, svc: 'nginx', check }), `${check} && systemctl reload-or-restart nginx`, ...enable('nginx'));
  }
  if (!tls) lines.push(...enable(svc), `${check} && systemctl reload ${svc}`);
  lines.push(`curl ${UP_CHECK} ${tls ? 'https' : 'http'}://${domain}/up`);
  return [{ h: 3, text: t('ops.readme.lb') }, { p: t(tls ? `ops.readme.lb.tls.${svc}` : 'ops.readme.lb.p', { lb: svc, n: a.app_hosts, domain }) }, sh(lines), { p: t(svc === 'haproxy' ? 'ops.readme.lb.drain' : `ops.readme.lb.nginx-health${rolls(ctx) ? '' : '.manual'}`, { health: backends(ctx).health, socat: fam(ctx, 'socat') }) }];
}

/** Notes for README's file table (readme.mjs appends them to a file's row): where the database host's files name a
 * pair the distribution does not make, the command that makes it; and, on families without README step 0
 * (dbHostBlocks above: those without a command row), that PostgreSQL must restart for listen_addresses, which a reload leaves on loopback. */
function dbHostRowNotes(ctx, files) {
  const notes = {};
  const rows = [['pg', /^db-host\/etc\/postgresql\/[^/]+\/main\/conf\.d\//], ['pgbouncer', /^db-host\/etc\/pgbouncer\/pgbouncer\.ini$/]];
  for (const [service, re] of rows) {
    const f = files.find((x) => re.test(x.path));
    if (!f) continue;
    const pair = dbTlsPair(ctx, service);
    const parts = [];
    if (pair.make && f.content.includes(pair.cert)) parts.push(t('readme.install.tls-pair', { cmd: pair.make }));
    if (service === 'pg' && !commandsOf(ctx)) parts.push(t('readme.install.pg-restart'));
    if (parts.length) notes[f.path] = parts.join(' ');
  }
  return notes;
}
