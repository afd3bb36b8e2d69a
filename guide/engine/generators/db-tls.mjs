// The certificate pair the database host presents to the app hosts (PostgreSQL's ssl_cert_file/ssl_key_file without a
// pooler, PgBouncer's client_tls_cert_file/client_tls_key_file with one), from the family's row
// (capabilities/distros.mjs dbTls): Debian's snakeoil pair, which its ssl-cert package makes at install; elsewhere a
// self-signed pair of the bundle's own, with the command that makes it (README's file table; SRE check 5, D3).
import { pgMajor } from './postgresql.mjs';
import { t } from '../text.mjs';

const DEBIAN = { snakeoil: { cert: '/etc/ssl/certs/ssl-cert-snakeoil.pem', key: '/etc/ssl/private/ssl-cert-snakeoil.key' } };

/** {cert, key, make}: make is null where the distribution made the pair, else the shell line that makes it once. */
export function dbTlsPair(ctx, service) {
  const tls = ctx.family.dbTls || DEBIAN;
  if (tls.snakeoil) return { ...tls.snakeoil, make: null };
  const row = tls[service];
  const v = ctx.a.database_version;
  const dir = row.dir.replace('{pgDir}', (ctx.family.pgDir || '').replace('{v}', pgMajor(v)).replace('{major}', pgMajor(v)));
  const pair = { cert: `${dir}/server.crt`, key: `${dir}/server.key` };
  const chown = row.owner ? t('cmd.db-tls-pair.chown', { ...pair, owner: row.owner }) : '';
  return { ...pair, make: t('cmd.db-tls-pair', { ...pair, cn: ctx.hosts.db, chown }) };
}

/** Notes for README's file table (readme.mjs appends them to a file's row): where the database host's files name a
 * pair the distribution does not make, the command that makes it; and, on families without README step 0
 * (readme-hosts.mjs: Debian only), that PostgreSQL must restart for listen_addresses, which a reload leaves on loopback. */
export function dbHostRowNotes(ctx, files) {
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
