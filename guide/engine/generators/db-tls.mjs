// The certificate pair the database host presents to the app hosts (PostgreSQL's ssl_cert_file/ssl_key_file without a
// pooler, PgBouncer's client_tls_cert_file/client_tls_key_file with one), from the family's row
// (capabilities/distros.mjs dbTls): Debian's snakeoil pair, which its ssl-cert package makes at install; elsewhere a
// self-signed pair of the bundle's own, with the command that makes it (README's file table; SRE check 5, D3).
import { pgMajor } from './postgresql.mjs';
import { t } from '../text.mjs';

/** {cert, key, make}: make is null where the distribution made the pair, else the shell line that makes it once. */
export function dbTlsPair(ctx, service) {
  const tls = ctx.family.dbTls || {};
  if (!tls.pg) return { ...tls.snakeoil, make: null };
  const row = tls[service];
  const v = ctx.a.database_version;
  const dir = row.dir.replace('{pgDir}', (ctx.family.pgDir || '').replace('{v}', pgMajor(v)).replace('{major}', pgMajor(v)));
  const pair = { cert: `${dir}/server.crt`, key: `${dir}/server.key` };
  const chown = row.owner ? t('cmd.db-tls-pair.chown', { ...pair, owner: row.owner }) : '';
  return { ...pair, make: t('cmd.db-tls-pair', { ...pair, cn: ctx.hosts.db, chown }) };
}

