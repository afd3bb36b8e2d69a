// The README steps for the other machines of a multi-host bundle: "0." the database host (before the app hosts,
// which migrate against it) and "11." the load balancer (after them, so its health checks find them up). Shell
// blocks are exact: tests/wizard/lab-multi-host.test.mjs runs them in network namespaces. Only for a family whose
// command row has hostSteps (Debian); on others the file table says where each file goes, and a warning says so.
// A chunk of its own on the page (guide/ui/generators.mjs): most bundles have one host, and the first-load script
// has a size budget. It runs as a finishing step just before readme's and leaves its blocks on the summary.
import { LB_PREFIX, behindBalancer, UP_CHECK } from './util.mjs';
import { pgMajor } from './postgresql.mjs';
import { fam, releaseOf, mysqlRepoSeries, commandsOf } from './family-steps.mjs';
import { t } from '../text.mjs';
import { W } from '../rules.mjs';
import { SRC } from '../evidence.mjs';
import { HAPROXY_DEBIAN } from '../caps.mjs';
import { ACME_PORT } from './edge.mjs';
import { pgApply, certLines, restartOnly } from './readme-apply.mjs';
import { compareLines, restartIfChanged } from './restart-on-change.mjs';
import { pgbouncerCompare } from './pgbouncer.mjs';

import { APPLIES } from './applies.mjs';
import { rolls, rollingLines, rotationScript, ROTATION_SCRIPT } from './lb-rotation.mjs';
import { backends } from './load-balancer.mjs';
import { dbTlsPair } from './db-tls.mjs';

// postgresql.mjs (first-load script) asks for the pair through ctx.generator('readme-hosts'): this chunk applies
// whenever the database is reached over the network, the only case with ssl = on.
export { dbTlsPair };

export const id = 'readme-hosts';

// A database host or balancer whose family has no host steps (below: the row's hostSteps, Debian's only): README
// covers the app hosts, the others are set up by hand (trial 24: Rocky 9 + HAProxy + a MySQL host cited a step 11).
function hostsByHand(ctx) {
  const db = ctx.a.db_host === 'separate' && ctx.a.database !== 'sqlite';
  const lb = behindBalancer(ctx) && (ctx.a.lb === 'haproxy' || ctx.a.lb === 'nginx');
  const row = commandsOf(ctx);
  if (!row || row.hostSteps || !(db || lb)) return null;
  const hosts = [db ? t('w.hosts-by-hand.db') : '', lb ? t('w.hosts-by-hand.lb', { lb: ctx.a.lb }) : ''].filter(Boolean).join(t('w.hosts-by-hand.and'));
  return W('hosts-by-hand', 'warning', { family: ctx.family.id, hosts }, [SRC.systemdService]);
}

export function generate(ctx) {
  if (!APPLIES['readme-hosts'](ctx)) return {};
  return { warnings: [hostsByHand(ctx)].filter(Boolean) };
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
const installAll = (files, prefix) => files.map((f) => f.path).filter((p) => p.startsWith(`${prefix}etc/`))
  .map((p) => `install -D -m 0644 ${p} /${p.slice(prefix.length)}`);
// A bundle file and where step 0 installs it, for the comparisons before a reload or restart.
const placed = (files, prefix, re) => files.map((f) => f.path).filter((p) => re.test(p)).map((p) => ({ src: p, dest: `/${p.slice(prefix.length)}` }))[0];

export function dbHostBlocks(ctx, files) {
  const { a } = ctx;
  if (a.db_host !== 'separate' || !commandsOf(ctx)?.hostSteps || !['postgresql', 'mysql', 'mariadb'].includes(a.database)) return [];
  const lines = [];
  if (a.database === 'postgresql') {
    const major = pgMajor(a.database_version);
    // The same package lines as an app host's step 1 (family table): PGDG first when the release lacks the major.
    // No `exit` in a pasted block: it would close the reader's root shell.
    const pgdg = releaseOf(ctx)?.postgresql && releaseOf(ctx).postgresql !== major;
    lines.push(...(pgdg ? fam(ctx, 'pgRepo') : []), fam(ctx, 'packages.postgresql'));
    if (ctx.pooler === 'pgbouncer') lines.push(fam(ctx, 'packages.pgbouncer'));
    // Before anything is installed: does PgBouncer need a restart, or will a reload do (readme-apply.mjs)?
    const bouncer = ctx.pooler === 'pgbouncer' && placed(files, 'db-host/', /^db-host\/etc\/pgbouncer\/pgbouncer\.ini$/);
    if (bouncer) lines.push(...pgbouncerCompare(bouncer, placed(files, 'db-host/', /^db-host\/etc\/systemd\/system\/pgbouncer\.service\.d\//)));
    lines.push(...installAll(files.filter((f) => !f.path.includes('/pgbouncer/')), 'db-host/'), ...pgApply('postgresql', a.database_version),
      'editor db-host/setup/postgresql-roles.sql', 'runuser -u postgres -- psql -v ON_ERROR_STOP=1 < db-host/setup/postgresql-roles.sql');
    if (ctx.pooler === 'pgbouncer') {
      // PgBouncer checks SCRAM passwords against the role's stored secret, copied from PostgreSQL (never the plain text).
      lines.push(...installAll(files.filter((f) => f.path.includes('/pgbouncer/')), 'db-host/'),
        `runuser -u postgres -- psql -Atc "SELECT format('\\"%s\\" \\"%s\\"', rolname, rolpassword) FROM pg_authid WHERE rolname = 'app'" > /etc/pgbouncer/userlist.txt`,
        'chown postgres:postgres /etc/pgbouncer/userlist.txt && chmod 0640 /etc/pgbouncer/userlist.txt',
        'systemctl daemon-reload', 'systemctl "$PGB" pgbouncer');
    }
  } else {
    const svc = a.database === 'mariadb' ? 'mariadb' : 'mysql';
    // The server first, from the family table (MySQL's own repository where the release lacks the series), as step 1.
    const repo = mysqlRepoSeries(ctx);
    lines.push(...(repo ? [...fam(ctx, 'mysqlRepo.lines', { series: repo, aptConfig: fam(ctx, 'mysqlRepo.aptConfig') }), fam(ctx, 'mysqlRepo.package')] : [fam(ctx, `packages.${a.database}`)]));
    // Restarted only when one of its files changed (restart-on-change.mjs; SRE check 5, m1).
    const mine = files.map((f) => f.path).filter((p) => p.startsWith('db-host/etc/')).map((src) => ({ src, dest: `/${src.slice(8)}` }));
    lines.push(...compareLines('MY', mine), ...installAll(files, 'db-host/'), 'systemctl daemon-reload', restartIfChanged('MY', svc), 'editor db-host/setup/mysql-grants.sql', 'mysql < db-host/setup/mysql-grants.sql');
  }
  const again = a.database === 'postgresql' ? ` ${t(ctx.pooler === 'pgbouncer' ? 'ops.readme.dbhost.again.pgb' : 'ops.readme.dbhost.again', { keys: restartOnly('pgbouncer').join(', ') })}` : '';
  return [{ h: 3, text: t('ops.readme.dbhost') }, { p: t(ctx.pooler === 'pgbouncer' ? 'ops.readme.dbhost.pgb' : 'ops.readme.dbhost.p', { addr: ctx.hosts.db }) + again }, sh(lines)];
}

export function lbBlocks(ctx, files) {
  const { a, domain } = ctx;
  if (!behindBalancer(ctx) || !commandsOf(ctx)?.hostSteps || (a.lb !== 'haproxy' && a.lb !== 'nginx')) return [];
  const svc = a.lb;
  const lines = [`command -v ${svc} >/dev/null || apt-get install -y ${svc}`, ...installAll(files, LB_PREFIX)];
  const tls = ctx.tls === 'upstream';
  const check = svc === 'haproxy' ? 'haproxy -c -q -f /etc/haproxy/haproxy.cfg' : 'nginx -t';
  // Debian's tmpfiles.d makes /run/haproxy at boot; the stats socket of haproxy.cfg lives there.
  if (svc === 'haproxy') lines.push(`install -d -o ${HAPROXY_DEBIAN.user} -g ${HAPROXY_DEBIAN.group} ${HAPROXY_DEBIAN.runDir}`);
  // The long commands are words of the catalog (cmd.lb.*): the page's first-load script stays within its budget.
  if (tls && svc === 'haproxy') {
    // The balancer starts with a throw-away certificate, then forwards the ACME challenge to certbot on a loopback
    // port: the first issue and every renewal run while it serves, and the deploy hook reloads it (never a stop).
    const vars = { pem: `/etc/haproxy/certs/${domain}.pem`, domain, port: ACME_PORT };
    lines.push('install -d -m 0700 /etc/haproxy/certs', t('cmd.lb.haproxy-cert', vars), `${check} && systemctl reload haproxy`, fam(ctx, 'packages.certbot'), t('cmd.lb.haproxy-certbot', vars));
  } else if (tls) {
    // The first certificate through the webroot nginx serves on a throw-away certificate (readme-apply.mjs): nginx
    // never stops; certbot's deploy hook reloads it at the first issue and every renewal.
    // …then the configuration as installed above, with the certificate certbot keeps (a second run: the new config).
    lines.push(fam(ctx, 'packages.certbot'), ...certLines({ domain, svc: 'nginx', check }), `${check} && systemctl reload-or-restart nginx`);
  }
  if (!tls) lines.push(`${check} && systemctl reload ${svc}`);
  lines.push(`curl ${UP_CHECK} ${tls ? 'https' : 'http'}://${domain}/up`);
  return [{ h: 3, text: t('ops.readme.lb') }, { p: t(tls ? `ops.readme.lb.tls.${svc}` : 'ops.readme.lb.p', { lb: svc, n: a.app_hosts, domain }) }, sh(lines), { p: t(svc === 'haproxy' ? 'ops.readme.lb.drain' : `ops.readme.lb.nginx-health${rolls(ctx) ? '' : '.manual'}`, { health: backends(ctx).health }) }];
}

/** Notes for README's file table (readme.mjs appends them to a file's row): where the database host's files name a
 * pair the distribution does not make, the command that makes it; and, on families without README step 0
 * (dbHostBlocks above: Debian only), that PostgreSQL must restart for listen_addresses, which a reload leaves on loopback. */
function dbHostRowNotes(ctx, files) {
  const notes = {};
  const rows = [['pg', /^db-host\/etc\/postgresql\/[^/]+\/main\/conf\.d\//], ['pgbouncer', /^db-host\/etc\/pgbouncer\/pgbouncer\.ini$/]];
  for (const [service, re] of rows) {
    const f = files.find((x) => re.test(x.path));
    if (!f) continue;
    const pair = dbTlsPair(ctx, service);
    const parts = [];
    if (pair.make && f.content.includes(pair.cert)) parts.push(t('readme.install.tls-pair', { cmd: pair.make }));
    if (service === 'pg' && ctx.family.id !== 'debian') parts.push(t('readme.install.pg-restart'));
    if (parts.length) notes[f.path] = parts.join(' ');
  }
  return notes;
}
