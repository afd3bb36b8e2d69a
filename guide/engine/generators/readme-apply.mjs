// README lines that are safe to run again (issue 23): a server whose file a step installs is reloaded, and restarted
// only when a setting it reads at start changed (capabilities/restart-only.mjs); the first certificate is issued
// through the webroot the proxy already serves, so no step ever stops the only proxy, and a run that finds the
// certificate issued leaves it to certbot's renewals. tests/wizard/lab-default-bundle.test.mjs runs README steps 1–6
// twice and checks the second run under load.
import { RESTART_ONLY } from '../caps.mjs';
import { ACME_WEBROOT } from './edge.mjs';
import { gte } from '../version.mjs';
import { lines } from '../text.mjs';

/**
 * PostgreSQL after its conf.d file is installed: a reload applies what can be applied (or starts a server that is
 * not running), then PostgreSQL itself lists the changed settings that need a restart (pg_file_settings re-reads the
 * files when asked: a changed start-only setting shows "setting could not be applied"), and only then it restarts.
 * Before 9.5 (no pg_file_settings) a restart, as before.
 */
export function pgApply(svc, version) {
  if (!gte(version, '9.5')) return [`systemctl restart ${svc}`];
  return lines('cmd.readme.pg-apply', { svc });
}

/** The settings README names as needing a restart (the rest take a reload). */
export const restartOnly = (server) => [...(RESTART_ONLY[server] || [])];

/**
 * The first certificate, issued while the proxy serves: a throw-away certificate where the site expects the real
 * one lets the proxy load the site, whose port-80 server answers certbot's challenge from the webroot; certbot then
 * takes the name (its live directory must not exist yet) and its deploy hook reloads the proxy, at the first issue
 * and every renewal. Skipped once certbot keeps the name (its renewal file exists). `enable`: lines that make the
 * site live (Apache's a2enmod/a2ensite), `check`: the proxy's config test. The lines: catalog-shell.mjs.
 */
export function certLines({ domain, svc, check, enable = [] }) {
  return lines('cmd.readme.cert', { domain, svc, check, webroot: ACME_WEBROOT, live: `/etc/letsencrypt/live/${domain}`, enable: enable.map((l) => `  ${l}`) });
}
