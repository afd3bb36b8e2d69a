// Shared edge facts for the proxy generators: which scheme Rails must see, HSTS, certificate paths, the
// Action Cable path and the timeout chain (each hop outlasts the one behind it).
import { MOZILLA } from '../caps.mjs';
// Read directly, not through the catalog: the page's core needs the chain before the catalog has loaded.
import { TIMEOUT_CHAIN } from '../capabilities/edge.mjs';
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

// Headers every edge removes from the client's request: Rack derives the scheme from X-Forwarded-Ssl (on = https) and
// X-Forwarded-Scheme as well as X-Forwarded-Proto (Rack::Request#scheme), and no proxy here sets them.
export const EDGE_CLEARED = ['X-Forwarded-Ssl', 'X-Forwarded-Scheme'];

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
  return TIMEOUT_CHAIN.serverOwnS[ctx.server] ?? null;
}

/**
 * Every hop's wait in seconds, from TIMEOUT_CHAIN (capabilities/edge.mjs): the app server's own timeout (or null),
 * the app host's proxy (edge), the balancer (lb), each marginS longer than the one behind it, so the innermost one
 * gives up first; shutdown: how long a balancer's reload lets old connections finish (longer than any request the
 * chain allows, bounded so WebSockets cannot keep old workers forever).
 */
export function timeoutChain(ctx) {
  const C = TIMEOUT_CHAIN;
  const server = serverRequestTimeout(ctx);
  const edge = Math.max(C.edgeReadS, server ? server + C.marginS : 0);
  const lb = edge + C.marginS;
  return { server, edge, lb, shutdown: lb + C.marginS, margin: C.marginS, connect: C.connectS, clientIdle: C.clientIdleS, clientHeader: C.clientHeaderS, queue: C.queueS };
}

/** Seconds the app host's proxy waits for a response: longer than the server's own timeout so that one fires (and logs) first. */
export function proxyReadTimeout(ctx) {
  return timeoutChain(ctx).edge;
}

/** Whether the proxy serves WebSockets for this stack (Action Cable needs Rails 5.0). */
export function cableEnabled(ctx) {
  return Boolean(ctx.websockets) && gte(ctx.a.rails, '5.0');
}
