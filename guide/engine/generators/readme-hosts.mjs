// The README steps for the other machines of a multi-host bundle: "0." the database host (before the app hosts,
// which migrate against it) and "11." the load balancer (after them, so its health checks find them up). Shell
// blocks are exact: tests/wizard/lab-multi-host.test.mjs runs them in network namespaces. Debian family only; on
// other families the file table says where each file goes.
import { LB_PREFIX, behindBalancer, UP_CHECK } from './util.mjs';
import { pgMajor } from './postgresql.mjs';
import { t } from '../text.mjs';

const sh = (lines) => ({ code: lines.join('\n'), lang: 'sh' });
const installAll = (files, prefix) => files.map((f) => f.path).filter((p) => p.startsWith(`${prefix}etc/`))
  .map((p) => `install -D -m 0644 ${p} /${p.slice(prefix.length)}`);

export function dbHostBlocks(ctx, files) {
  const { a } = ctx;
  if (a.db_host !== 'separate' || ctx.family.id !== 'debian' || !['postgresql', 'mysql', 'mariadb'].includes(a.database)) return [];
  const lines = [];
  if (a.database === 'postgresql') {
    const major = pgMajor(a.database_version);
    lines.push(`test -d /etc/postgresql/${major}/main || { echo "PostgreSQL ${major} is not installed (apt-get install postgresql-${major})"; exit 1; }`);
    if (ctx.pooler === 'pgbouncer') lines.push('command -v pgbouncer >/dev/null || apt-get install -y pgbouncer');
    lines.push(...installAll(files.filter((f) => !f.path.includes('/pgbouncer/')), 'db-host/'), 'systemctl restart postgresql',
      'editor db-host/setup/postgresql-roles.sql', 'runuser -u postgres -- psql -v ON_ERROR_STOP=1 < db-host/setup/postgresql-roles.sql');
    if (ctx.pooler === 'pgbouncer') {
      // PgBouncer checks SCRAM passwords against the role's stored secret, copied from PostgreSQL (never the plain text).
      lines.push(...installAll(files.filter((f) => f.path.includes('/pgbouncer/')), 'db-host/'),
        `runuser -u postgres -- psql -Atc "SELECT format('\\"%s\\" \\"%s\\"', rolname, rolpassword) FROM pg_authid WHERE rolname = 'app'" > /etc/pgbouncer/userlist.txt`,
        'chown postgres:postgres /etc/pgbouncer/userlist.txt && chmod 0640 /etc/pgbouncer/userlist.txt',
        'systemctl restart pgbouncer');
    }
  } else {
    const svc = a.database === 'mariadb' ? 'mariadb' : 'mysql';
    lines.push(...installAll(files, 'db-host/'), `systemctl restart ${svc}`, 'editor db-host/setup/mysql-grants.sql', 'mysql < db-host/setup/mysql-grants.sql');
  }
  return [{ h: 3, text: t('ops.readme.dbhost') }, { p: t(ctx.pooler === 'pgbouncer' ? 'ops.readme.dbhost.pgb' : 'ops.readme.dbhost.p', { addr: ctx.hosts.db }) }, sh(lines)];
}

export function lbBlocks(ctx, files) {
  const { a, domain } = ctx;
  if (!behindBalancer(ctx) || ctx.family.id !== 'debian' || (a.lb !== 'haproxy' && a.lb !== 'nginx')) return [];
  const svc = a.lb;
  const lines = [`command -v ${svc} >/dev/null || apt-get install -y ${svc}`, ...installAll(files, LB_PREFIX)];
  const tls = ctx.tls === 'upstream';
  if (tls) {
    // certbot's standalone server needs port 80, which the balancer holds: stop it around each issue and renewal.
    const hooks = [`--pre-hook "systemctl stop ${svc}"`, `--post-hook "systemctl start ${svc}"`];
    if (svc === 'haproxy') {
      lines.push('install -d -m 0700 /etc/haproxy/certs');
      hooks.push(`--deploy-hook 'cat "$RENEWED_LINEAGE/fullchain.pem" "$RENEWED_LINEAGE/privkey.pem" > /etc/haproxy/certs/${domain}.pem && chmod 0600 /etc/haproxy/certs/${domain}.pem'`);
    }
    lines.push(`certbot certonly --standalone -d ${domain} ${hooks.join(' ')}`);
  }
  lines.push(svc === 'haproxy' ? 'haproxy -c -q -f /etc/haproxy/haproxy.cfg && systemctl reload haproxy' : 'nginx -t && systemctl reload nginx',
    `curl ${UP_CHECK} ${tls ? 'https' : 'http'}://${domain}/up`);
  return [{ h: 3, text: t('ops.readme.lb') }, { p: t(tls ? 'ops.readme.lb.tls' : 'ops.readme.lb.p', { lb: svc, n: a.app_hosts, domain }) }, sh(lines)];
}
