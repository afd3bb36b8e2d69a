// Shared edge facts for the proxy generators: which scheme Rails must see, HSTS, certificate paths, the
// Action Cable path and the per-server request timeout the proxy has to outlast.
import { MOZILLA } from '../caps.mjs';
import { gte } from '../version.mjs';

export const ACME_WEBROOT = '/var/www/letsencrypt';
// certbot answers HTTP-01 challenges on this loopback port behind HAProxy, which forwards
// /.well-known/acme-challenge/ to it: issuing and renewing never stop the balancer (README step 11).
export const ACME_PORT = 8402;
// Proxies that are one Go binary in front of one upstream (no configuration file).
export const SINGLE_TARGET_PROXIES = ['thruster', 'kamal-proxy'];

/** Where certificates live: certbot's layout for the domain. */
export function certificatePaths(domain) {
  return { cert: `/etc/letsencrypt/live/${domain}/fullchain.pem`, key: `/etc/letsencrypt/live/${domain}/privkey.pem` };
}

export const CABLE_PATH = '/cable'; // Action Cable's default mount path (config.action_cable.mount_path)
export const HEALTH_PATH = '/up'; // Rails 7.1+ health check route (rails/health#show)

export function hstsValue() {
  return `max-age=${MOZILLA.hstsMaxAge}`;
}

export function certs(ctx) {
  return certificatePaths(ctx.domain);
}

/** Seconds after which the app server itself gives up on a request (null = it has no such timeout). */
export function serverRequestTimeout(ctx) {
  if (['unicorn', 'pitchfork'].includes(ctx.server)) return 30; // `timeout 30` in the generated config
  return null;
}

/** Seconds the proxy waits for a response: longer than the server's own timeout so that one fires (and logs) first. */
export function proxyReadTimeout(ctx) {
  const own = serverRequestTimeout(ctx);
  return own ? own + 30 : 60;
}

/** Whether the proxy serves WebSockets for this stack (Action Cable needs Rails 5.0). */
export function cableEnabled(ctx) {
  return Boolean(ctx.websockets) && gte(ctx.a.rails, '5.0');
}
