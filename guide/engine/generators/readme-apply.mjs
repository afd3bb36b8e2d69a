// README lines that are safe to run again (issue 23): a server whose file a step installs is reloaded, and restarted
// only when a setting it reads at start changed (capabilities/restart-only.mjs); the first certificate is issued
// through the webroot the proxy already serves, so no step ever stops the only proxy, and a run that finds the
// certificate issued leaves it to certbot's renewals. tests/wizard/lab-default-bundle.test.mjs runs README steps 1–6
// twice and checks the second run under load.
import { RESTART_ONLY } from '../caps.mjs';
import { ACME_WEBROOT } from './edge.mjs';
import { gte } from '../version.mjs';

/**
 * PostgreSQL after its conf.d file is installed: a reload applies what can be applied (or starts a server that is
 * not running), then PostgreSQL itself lists the changed settings that need a restart (pg_file_settings re-reads the
 * files when asked: a changed start-only setting shows "setting could not be applied"), and only then it restarts.
 * Before 9.5 (no pg_file_settings) a restart, as before.
 */
export function pgApply(svc, version) {
  if (!gte(version, '9.5')) return [`systemctl restart ${svc}`];
  return [
    `systemctl reload-or-restart ${svc}`,
    `if runuser -u postgres -- psql -Atc "SELECT name FROM pg_file_settings WHERE error IS NOT NULL" | grep .; then systemctl restart ${svc}; fi`,
  ];
}

/** The settings README names as needing a restart (the rest take a reload). */
export const restartOnly = (server) => [...(RESTART_ONLY[server] || [])];

/**
 * PgBouncer: before its files are installed, the start-only settings of the new pgbouncer.ini and the unit's
 * drop-in are compared with the installed ones (PgBouncer cannot say what is pending): PGB is `restart` when they
 * differ (or nothing is installed yet), else `reload-or-restart` (SIGHUP re-reads the rest, the auth file included).
 */
export function pgbouncerCompare(ini, dropIn) {
  const lines = ['PGB=reload-or-restart', `K='^(${restartOnly('pgbouncer').join('|')})\\b'`];
  if (dropIn) lines.push(`cmp -s ${dropIn.src} ${dropIn.dest} || PGB=restart`);
  lines.push(`[ "$(grep -E "$K" ${ini.src})" = "$(grep -sE "$K" ${ini.dest})" ] || PGB=restart`);
  return lines;
}

/**
 * The first certificate, issued while the proxy serves: a throw-away certificate where the site expects the real
 * one lets the proxy load the site, whose port-80 server answers certbot's challenge from the webroot; certbot then
 * takes the name (its live directory must not exist yet) and its deploy hook reloads the proxy, at the first issue
 * and every renewal. Skipped once certbot keeps the name (its renewal file exists). `enable`: lines that make the
 * site live (Apache's a2enmod/a2ensite), `check`: the proxy's config test.
 */
export function certLines({ domain, svc, check, enable = [] }) {
  const live = `/etc/letsencrypt/live/${domain}`;
  return [
    `install -d ${ACME_WEBROOT}`,
    `if [ ! -e /etc/letsencrypt/renewal/${domain}.conf ]; then`,
    `  install -d -m 0700 ${live}`,
    `  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=${domain}" -keyout ${live}/privkey.pem -out ${live}/fullchain.pem 2>/dev/null`,
    ...enable.map((l) => `  ${l}`),
    `  ${check} && systemctl reload-or-restart ${svc}`,
    // Set aside, not deleted: if certbot fails (DNS, port 80), the proxy's next reload still finds a certificate.
    `  mv ${live} ${live}.selfsigned`,
    `  certbot certonly --webroot -w ${ACME_WEBROOT} -d ${domain} --deploy-hook "systemctl reload ${svc}" || { rm -rf ${live}; mv ${live}.selfsigned ${live}; echo "certbot failed: ${svc} keeps the throw-away certificate (2 days); fix DNS or port 80, then run this step again" >&2; false; }`,
    `  rm -r ${live}.selfsigned`,
    'fi',
  ];
}
