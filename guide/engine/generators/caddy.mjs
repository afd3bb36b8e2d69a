// Caddy 2 Caddyfile. A host-name site address turns on Caddy's automatic HTTPS (certificates, HTTP→HTTPS
// redirect, HTTP/2 and HTTP/3); "localhost" gets a certificate from Caddy's own local CA.
import { SRC } from '../evidence.mjs';
import { CADDY_EDGE, EDGE_LIMITS } from '../caps.mjs';
import { has } from '../pick.mjs';
import { t } from '../text.mjs';
import { SERVER_LABEL, behindBalancer } from './util.mjs';
import { hstsValue, HEALTH_PATH, EDGE_CLEARED, proxyReadTimeout } from './edge.mjs';
import { APPLIES } from './applies.mjs';
import { W } from '../rules.mjs';
import { gte } from '../version.mjs';

export const id = 'caddy';

function dial(u) {
  return u.type === 'unix' ? `unix/${u.path}` : `${u.host}:${u.port}`;
}

export function caddyBody(ctx) {
  const https = ctx.tls === 'proxy';
  const proxy = [
    { d: 'header_up', args: ['X-Request-Start', 't={time.now.unix_ms}'] },
    { d: 'header_up', args: ['-Forwarded'], why: t('edge.forwarded'), evidence: [SRC.caddyProxy, SRC.rackRequest] },
  ];
  proxy.push(...EDGE_CLEARED.map((h, i) => ({ d: 'header_up', args: [`-${h}`], ...(i === 0 ? { why: t('edge.cleared'), evidence: [SRC.caddyProxy, SRC.rackRequest] } : {}) })));
  proxy.push({ d: 'header_up', args: ['-X-Forwarded-Port'], why: t('caddy.port'), evidence: [SRC.caddyProxy, SRC.rackRequest] });
  if (ctx.tls === 'upstream' && has(CADDY_EDGE.trustedProxies, ctx.proxyVersion)) {
    // Behind the bundle's balancer its address only; otherwise (a balancer the bundle does not know) private ranges.
    proxy.push(behindBalancer(ctx)
      ? { d: 'trusted_proxies', args: [ctx.hosts.lb], why: t('caddy.trusted.lb', { lb: ctx.hosts.lb }), evidence: [SRC.caddyProxy, SRC.railsConfiguring] }
      : { d: 'trusted_proxies', args: ['private_ranges'], why: t('caddy.trusted'), evidence: [SRC.caddyProxy, SRC.railsConfiguring] });
  }
  // The app host's link of the timeout chain (TIMEOUT_CHAIN): Caddy waits for the app without limit by default,
  // so a balancer in front would time out first; answer 504 here after the same wait as nginx and Apache.
  proxy.push({ d: 'transport', args: ['http'], why: t('caddy.timeout', { s: proxyReadTimeout(ctx) }), evidence: [SRC.caddyProxy], children: [{ d: 'response_header_timeout', args: [`${proxyReadTimeout(ctx)}s`] }] });
  if (https) proxy.push({ d: 'header_down', args: ['-Strict-Transport-Security'], why: t('nginx.hide-hsts'), evidence: [SRC.caddyProxy, SRC.railsSsl] });
  const site = [{ d: 'root', args: ['*', `${ctx.appDir}/public`] }];
  // The request body limit every other edge of the bundle applies (EDGE_LIMITS): Caddy has none by default and streams
  // any upload to the app server, which spools it to a temp file on the root file system (SRE check 5, D5). In bytes:
  // early Caddy 2 releases read max_size with strconv.Atoi and ignore "25MB" (no limit at all); later ones read both.
  site.push({ d: 'request_body', children: [{ d: 'max_size', args: [String(EDGE_LIMITS.bodyMb * 1024 * 1024)] }], why: t('caddy.body-size', { mb: EDGE_LIMITS.bodyMb }), evidence: [SRC.caddyRequestBody] });
  if (https) {
    site.push({ d: 'header', args: ['Strict-Transport-Security', hstsValue()], why: t('caddy.hsts'), evidence: [SRC.hsts, SRC.caddyHeader] });
    if (ctx.domain === 'localhost') site.push({ d: 'tls', args: ['internal'], why: t('caddy.internal'), evidence: [SRC.caddyTls] });
  }
  site.push(
    { d: 'encode', args: ['zstd', 'gzip'], why: t('caddy.encode'), evidence: [SRC.caddyEncode] },
    // The same far-future caching nginx and Apache give digest-stamped assets (Caddy sets no Cache-Control itself).
    { d: '@assets', args: ['path', '/assets/*'], why: t('caddy.assets'), evidence: [SRC.caddyMatchers] },
    { d: 'header', args: ['@assets', 'Cache-Control', 'public, max-age=31536000, immutable'], why: t('caddy.assets-cache'), evidence: [SRC.caddyHeader] },
    { d: '@static', args: ['file'], why: t('caddy.static'), evidence: [SRC.caddyMatchers] },
    { d: 'handle', args: ['@static'], children: [{ d: 'file_server' }], why: t('caddy.file-server'), evidence: [SRC.caddyHandle] },
    {
      d: 'handle',
      children: [{
        d: 'reverse_proxy', args: ctx.upstreams.map(dial), why: t('caddy.proxy', { server: SERVER_LABEL[ctx.server] }) + t('caddy.proxy.ws', { up: HEALTH_PATH }),
        evidence: [SRC.caddyProxy],
        children: proxy,
      }],
    },
  );
  // With TLS elsewhere (or nowhere) Caddy must not try to fetch certificates: an explicit http:// address or port.
  const address = https ? ctx.domain : ctx.tls === 'upstream' ? `http://${ctx.domain}` : ':80';
  return [{ d: address, children: site, why: t(`caddy.address.${ctx.tls}`, { domain: ctx.domain }), evidence: [SRC.caddyHttps] }];
}

// Rules about this generator's own server or proxy (moved from rules.mjs: their code loads with this chunk).
function caddyOne(ctx) {
  if (ctx.proxy !== 'caddy' || gte(ctx.proxyVersion, '2.0')) return null;
  return W('caddy-1-end-of-life', 'warning', {}, [SRC.caddyProxy]);
}

export function generate(ctx) {
  if (!APPLIES.caddy(ctx)) return {};
  const advice = [];
  if (ctx.a.downloads) {
    advice.push({ id: 'caddy-downloads', title: t('a.caddy-downloads.title'), body: t('a.caddy.downloads'), evidence: [SRC.caddyProxy] });
  }
  return { files: [{ path: 'etc/caddy/Caddyfile', format: 'caddyfile', body: caddyBody(ctx) }], advice, warnings: [caddyOne(ctx)].filter(Boolean) };
}
