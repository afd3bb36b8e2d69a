// The load balancer in front of several app hosts (lb = nginx | haproxy): lb-host/etc/haproxy/haproxy.cfg or
// lb-host/etc/nginx/nginx.conf. It speaks HTTP to port 80 of every app host (their proxy), spreads requests to the
// host with the fewest in flight, takes a host out when its health check or connections fail, and retries a request
// that never reached an app on another host, so stopping one host loses no request. TLS ends here when tls = upstream
// (derive.mjs moves it here from the app hosts when a balancer is chosen).
import { SRC } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { has } from '../pick.mjs';
import { choiceDefault } from '../version-defaults.mjs';
import { NGINX_TLS, MOZILLA, HAPROXY_DEBIAN, EDGE_LIMITS } from '../caps.mjs';
import { CABLE_PATH, cableEnabled, ACME_WEBROOT, ACME_PORT, hstsValue, timeoutChain, EDGE_CLEARED } from './edge.mjs';
import { t } from '../text.mjs';
import { S, BLANK, LB_PREFIX } from './util.mjs';
import { nginxHas } from './nginx.mjs';
import { APPLIES } from './applies.mjs';

export const id = 'load-balancer';

/** The app hosts as the balancer sees them, with the requests each can work on at once. */
export function backends(ctx) {
  return { hosts: ctx.hosts.app.map((addr, i) => ({ name: `app${i + 1}`, addr })), perHost: ctx.processes * ctx.threads, health: gte(ctx.a.rails, '7.1') ? '/up' : '/' };
}

const ACME_PREFIX = '/.well-known/acme-challenge/';
/** What the app hosts' nginx serves from disk (nginx.mjs assetLocations: `location ^~ /assets/`). */
const STATIC_PATH = '/assets/';

/** HAProxy's global maxconn never below this: a small plan's product (4 × 2 hosts × 3) would refuse a burst. */
const MAXCONN_FLOOR = 4096;

/** The budgets the balancer enforces: HTTP requests per host, WebSockets per host, body size in bytes. */
export function budgets(ctx) {
  const { hosts, perHost } = backends(ctx);
  const ws = cableEnabled(ctx) ? EDGE_LIMITS.websocketsPerHost : 0;
  // Four times the requests the hosts work on at once plus their WebSockets, with a floor for small plans.
  const busy = perHost * hosts.length * 4;
  return { perHost, ws, busy, floor: MAXCONN_FLOOR, total: Math.max(MAXCONN_FLOOR, busy + ws * hosts.length), bodyBytes: EDGE_LIMITS.bodyMb * 1024 * 1024 };
}

const hostHeaderValues = (ctx, tls) => [ctx.domain, `${ctx.domain}:80`, ...(tls ? [`${ctx.domain}:443`] : [])];

export function haproxyBody(ctx) {
  const { hosts, health } = backends(ctx);
  const { perHost, ws, busy, floor, total, bodyBytes } = budgets(ctx);
  const tls = ctx.tls === 'upstream';
  const vars = { n: hosts.length, per: perHost, ws, busy, floor, sum: busy + ws * hosts.length, wsAll: ws * hosts.length, health, domain: ctx.domain, total, mb: EDGE_LIMITS.bodyMb, status: EDGE_LIMITS.unknownHostStatus, port: ACME_PORT };
  const H = HAPROXY_DEBIAN;
  const T = timeoutChain(ctx);
  const front = [
    S('bind', [':::80', 'v4v6'], t('lb.bind'), [SRC.haproxy]),
    ...(tls ? [S('bind', [':::443', 'v4v6', 'ssl', 'crt', `/etc/haproxy/certs/${ctx.domain}.pem`, 'alpn', 'h2,http/1.1'], t('lb.haproxy.tls', vars), [SRC.haproxy, SRC.mozillaTls])] : []),
    S('acl', ['site_host', 'req.hdr(host),lower', '-m', 'str', ...hostHeaderValues(ctx, tls)], t('lb.host-acl', vars), [SRC.haproxy, SRC.railsHosts]),
    S('http-request', ['deny', 'deny_status', EDGE_LIMITS.unknownHostStatus, 'unless', 'site_host'], t('lb.unknown-host', vars), [SRC.haproxy, SRC.railsHosts]),
    S('http-request', ['deny', 'deny_status', '413', 'if', '{', 'req.hdr_val(content-length)', 'gt', bodyBytes, '}'], t('lb.body-size', vars), [SRC.haproxy, SRC.nginxCore]),
    ...(tls ? [
      S('acl', ['acme', 'path_beg', ACME_PREFIX], t('lb.acme', vars), [SRC.haproxy, SRC.certbot]),
      S('http-request', ['redirect', 'scheme', 'https', 'code', '301', 'if', '!{', 'ssl_fc', '}', '!acme'], t('lb.redirect'), [SRC.haproxy]),
    ] : []),
    S('http-request', ['set-header', 'X-Forwarded-Proto', tls ? '%[ssl_fc,iif(https,http)]' : 'http'], t('lb.proto'), [SRC.haproxy, SRC.railsSsl]),
    S('http-request', ['set-header', 'X-Forwarded-Host', '%[req.hdr(host)]'], t('lb.forwarded-host'), [SRC.haproxy, SRC.railsHosts]),
    S('http-request', ['set-header', 'X-Forwarded-Port', '%[dst_port]']),
    S('http-request', ['del-header', 'Forwarded'], t('edge.forwarded'), [SRC.haproxy, SRC.rackRequest]),
    ...EDGE_CLEARED.map((h, i) => S('http-request', ['del-header', h], i === 0 ? t('edge.cleared') : undefined, i === 0 ? [SRC.haproxy, SRC.rackRequest] : [])),
    ...(tls ? [S('http-response', ['set-header', 'Strict-Transport-Security', `max-age=${MOZILLA.hstsMaxAge}`, 'if', '{', 'ssl_fc', '}'], t('lb.hsts'), [SRC.hsts, SRC.mozillaTls])] : []),
    ...(tls ? [S('use_backend', ['acme', 'if', 'acme'])] : []),
    ...(ws ? [S('use_backend', ['rails_cable', 'if', '{', 'path_beg', CABLE_PATH, '}'], t('lb.cable', vars), [SRC.haproxy, SRC.actionCable])] : []),
    S('use_backend', ['rails_static', 'if', '{', 'path_beg', STATIC_PATH, '}'], t('lb.static', vars), [SRC.haproxy, SRC.nginxCore]),
    S('default_backend', 'rails_hosts'),
  ];
  const check = [
    S('option', 'httpchk', t('lb.health', vars), [SRC.haproxy, SRC.railsHealth]),
    // As the balancer's own requests arrive: with TLS here the app hosts' Rails sees https, so an app with force_ssl
    // and no assume_ssl answers /up 200, not a 301 that would mark every host down.
    S('http-check', ['send', 'meth', 'GET', 'uri', health, 'ver', 'HTTP/1.1', 'hdr', 'Host', ctx.domain, ...(tls ? ['hdr', 'X-Forwarded-Proto', 'https'] : [])]),
    S('http-check', ['expect', 'status', '200']),
  ];
  return [
    { section: 'global', children: [
      S('log', ['/dev/log', 'local0']),
      S('log', ['/dev/log', 'local1', 'notice']),
      S('chroot', H.chroot, t('lb.haproxy.hardening'), [SRC.haproxyDebian, SRC.haproxy]),
      S('stats', ['socket', ...H.statsSocket]),
      S('stats', ['timeout', H.statsTimeout]),
      S('server-state-file', H.stateFile, t('lb.haproxy.state-file'), [SRC.haproxy]),
      S('user', H.user),
      S('group', H.group),
      S('maxconn', total, t(`lb.haproxy.maxconn${ws ? '.ws' : ''}${total === floor ? '.floor' : ''}`, vars), [SRC.haproxy]),
      ...(tls ? [
        S('ssl-default-bind-ciphers', MOZILLA.intermediateCiphers, t('lb.ciphers'), [SRC.mozillaTls]),
        S('ssl-default-bind-ciphersuites', MOZILLA.intermediateCiphersuites),
        S('ssl-default-bind-options', ['prefer-client-ciphers', 'ssl-min-ver', 'TLSv1.2', 'no-tls-tickets'], t('lb.tls-min'), [SRC.mozillaTls]),
      ] : []),
    ] },
    BLANK,
    { section: 'defaults', children: [
      S('mode', 'http'),
      S('log', 'global'),
      S('option', 'httplog'),
      S('option', 'dontlognull'),
      S('option', 'forwardfor', t('lb.forwardfor'), [SRC.haproxy, SRC.nginxRealIp]),
      S('option', ['redispatch', '1'], t('lb.redispatch'), [SRC.haproxy]),
      S('load-server-state-from-file', 'global', t('lb.haproxy.load-state'), [SRC.haproxy]),
      S('retries', 2),
      S('retry-on', ['conn-failure', 'empty-response', '502'], t('lb.retry-on'), [SRC.haproxy]),
      S('timeout', ['server', `${T.lb}s`], t('lb.timeouts', T), [SRC.haproxy, SRC.nginxProxy]),
      S('timeout', ['client', `${T.lb}s`], t('lb.haproxy.timeout-client'), [SRC.haproxy]),
      S('timeout', ['connect', `${T.connect}s`], t('lb.timeouts.rest', T), [SRC.haproxy, SRC.nginxconfig]),
      S('timeout', ['http-request', `${T.clientHeader}s`]),
      S('timeout', ['http-keep-alive', `${T.clientIdle}s`]),
      S('timeout', ['queue', `${T.queue}s`]),
      // Without `timeout check`, a health check must finish within `inter` (2 s): the check is one more connection
      // to a host whose threads are all busy, so slow requests alone would take every host out (SRE check 23b, D1).
      S('timeout', ['check', '10s'], t('lb.timeout-check'), [SRC.haproxy]),
    ] },
    BLANK,
    { section: 'frontend', args: ['www'], children: front },
    BLANK,
    { section: 'backend', args: ['rails_hosts'], children: [
      S('balance', 'leastconn', t('lb.leastconn'), [SRC.haproxy]),
      // Only requests that are safe to send twice are retried after they reached an app host.
      S('http-request', ['disable-l7-retry', 'unless', 'METH_GET', 'or', 'METH_HEAD'], t('lb.no-retry-post'), [SRC.haproxy]),
      ...check,
      S('default-server', ['check', 'inter', '2s', 'fastinter', '500ms', 'fall', '3', 'rise', '2', 'observe', 'layer7', 'error-limit', '1', 'on-error', 'fastinter', 'maxconn', perHost], t('lb.maxconn', vars), [SRC.haproxy]),
      ...hosts.map((h) => S('server', [h.name, `${h.addr}:80`])),
    ] },
    ...(ws ? [BLANK, { section: 'backend', args: ['rails_cable'], children: [
      S('balance', 'leastconn'),
      S('timeout', ['tunnel', '1h'], t('lb.cable.tunnel'), [SRC.haproxy, SRC.actionCable]),
      S('default-server', ['maxconn', ws], t('lb.cable.maxconn', vars), [SRC.haproxy]),
      ...hosts.map((h) => S('server', [h.name, `${h.addr}:80`, 'track', `rails_hosts/${h.name}`])),
    ] }] : []),
    // Compiled assets come from each app host's nginx (from disk), not from the app server: no per-host slot limit.
    BLANK, { section: 'backend', args: ['rails_static'], children: [
      S('balance', 'roundrobin'),
      ...hosts.map((h) => S('server', [h.name, `${h.addr}:80`, 'track', `rails_hosts/${h.name}`])),
    ] },
    ...(tls ? [BLANK, { section: 'backend', args: ['acme'], children: [
      S('server', ['certbot', `127.0.0.1:${ACME_PORT}`], t('lb.acme.backend', vars), [SRC.certbot]),
    ] }] : []),
  ];
}

export function nginxLbBody(ctx) {
  const { hosts, perHost, health } = backends(ctx);
  const v = ctx.a.proxy === 'nginx' ? ctx.proxyVersion : choiceDefault('proxy_version', { ...ctx.a, proxy: 'nginx' }) || '1.26';
  const tls = ctx.tls === 'upstream';
  const T = timeoutChain(ctx);
  const cable = cableEnabled(ctx) && has(NGINX_TLS.websocketProxy, v);
  const cableCap = cable && nginxHas('upstreamMaxConns', v);
  const vars = { n: hosts.length, per: perHost, health, domain: ctx.domain, mb: EDGE_LIMITS.bodyMb, ws: EDGE_LIMITS.websocketsPerHost, ...T };
  const keepaliveDefault = nginxHas('keepaliveByDefault', v);
  const headers = [
    S('proxy_set_header', ['Host', '$host']),
    S('proxy_set_header', ['X-Forwarded-For', '$proxy_add_x_forwarded_for'], t('lb.forwardfor'), [SRC.nginxProxy, SRC.nginxRealIp]),
    S('proxy_set_header', ['X-Forwarded-Proto', '$scheme'], t('lb.proto'), [SRC.nginxProxy, SRC.railsSsl]),
    S('proxy_set_header', ['X-Forwarded-Host', '$host'], t('lb.nginx.forwarded'), [SRC.nginxProxy, SRC.railsForwardedHost]),
    S('proxy_set_header', ['X-Forwarded-Port', '$server_port']),
    S('proxy_set_header', ['Forwarded', ''], t('edge.forwarded'), [SRC.nginxProxy, SRC.rackRequest]),
    ...EDGE_CLEARED.map((h, i) => S('proxy_set_header', [h, ''], i === 0 ? t('edge.cleared') : undefined, i === 0 ? [SRC.nginxProxy, SRC.rackRequest] : [])),
  ];
  // Only a failed connection marks a host failed and moves a request on (never a timeout: see timeouts below).
  const retries = [
    S('proxy_next_upstream', 'error', t('lb.nginx.next'), [SRC.nginxProxy, SRC.nginxUpstream]),
    S('proxy_next_upstream_tries', 2),
  ];
  const timeouts = [
    S('proxy_connect_timeout', `${T.connect}s`, t('lb.nginx.timeouts', T), [SRC.nginxProxy, SRC.nginxUpstream]),
    S('proxy_send_timeout', `${T.lb}s`),
    S('proxy_read_timeout', `${T.lb}s`),
  ];
  const proxy = [
    S('proxy_pass', 'http://rails_hosts'),
    ...(keepaliveDefault ? [] : [S('proxy_http_version', '1.1', t('lb.nginx.keepalive'), [SRC.nginxUpstream]), S('proxy_set_header', ['Connection', ''])]),
    ...headers,
    ...retries,
    ...timeouts,
    // The idle limit lb.timeouts.rest promises browsers (nginx's own default is 75 s), as HAProxy's `timeout http-keep-alive`.
    S('keepalive_timeout', `${T.clientIdle}s`, null, [SRC.nginxCore]),
  ];
  // Action Cable through the balancer: its own upstream (a WebSocket never shares the HTTP connections' budget),
  // and the Upgrade header, which the location / above drops (hop-by-hop).
  const cableLocation = cable ? [BLANK, { block: 'location', args: [CABLE_PATH], why: t('lb.nginx.cable', vars), evidence: [SRC.nginxWebsocket, SRC.actionCable], children: [
    S('proxy_pass', `http://${cableCap ? 'rails_cable' : 'rails_hosts'}`),
    ...headers.filter((d) => d.d === 'proxy_set_header'),
    ...retries,
    ...timeouts,
    S('proxy_http_version', '1.1', t('nginx.cable.http11'), [SRC.nginxWebsocket]),
    S('proxy_set_header', ['Upgrade', '$http_upgrade']),
    S('proxy_set_header', ['Connection', '$connection_upgrade']),
  ] }] : [];
  const h2 = has(NGINX_TLS.http2Directive, v) ? [S('http2', 'on', t('nginx.http2', { v }), [SRC.nginxHttp2])] : [];
  const acme = { block: 'location', args: ['^~', '/.well-known/acme-challenge/'], why: t('lb.nginx.acme'), evidence: [SRC.certbotHooks], children: [S('root', ACME_WEBROOT)] };
  // The first server of each port is the default: it answers every Host but the domain (a scanner, a forged name).
  const servers = [{ block: 'server', why: t('lb.nginx.default-server', vars), evidence: [SRC.nginxDefaultServer, SRC.railsHosts], children: [
    S('listen', ['80', 'default_server']), S('listen', ['[::]:80', 'default_server']),
    ...(tls ? [S('listen', ['443', 'ssl', 'default_server']), S('listen', ['[::]:443', 'ssl', 'default_server']),
      S('ssl_certificate', `/etc/letsencrypt/live/${ctx.domain}/fullchain.pem`), S('ssl_certificate_key', `/etc/letsencrypt/live/${ctx.domain}/privkey.pem`)] : []),
    S('return', '444'),
  ] }, BLANK];
  if (tls) {
    servers.push({ block: 'server', children: [S('listen', '80'), S('listen', '[::]:80', t('lb.ipv6'), [SRC.nginxCore]), S('server_name', ctx.domain), acme,
      { block: 'location', args: ['/'], children: [S('return', ['301', `https://${ctx.domain}$request_uri`], t('lb.redirect'), [SRC.nginxRewrite])] }] }, BLANK);
    servers.push({ block: 'server', children: [
      S('listen', ['443', 'ssl']), S('listen', ['[::]:443', 'ssl'], t('lb.ipv6'), [SRC.nginxCore]), S('server_name', ctx.domain),
      S('ssl_certificate', `/etc/letsencrypt/live/${ctx.domain}/fullchain.pem`, t('lb.nginx.tls', vars), [SRC.mozillaTls]),
      S('ssl_certificate_key', `/etc/letsencrypt/live/${ctx.domain}/privkey.pem`),
      ...h2,
      S('ssl_protocols', ['TLSv1.2', 'TLSv1.3'], t('lb.tls-min'), [SRC.mozillaTls]),
      // nginx from 1.23.2 rotates session ticket keys itself in the shared cache, so tickets stay on there (Mozilla too).
      S('ssl_ciphers', MOZILLA.intermediateCiphers, t(has(NGINX_TLS.sslSessionTickets, v) ? 'lb.ciphers.nginx-old' : 'lb.ciphers.nginx'), [SRC.mozillaTls]),
      // Mozilla's session settings (parity table nginx-lb): resumed sessions skip the full handshake at the balancer.
      S('ssl_prefer_server_ciphers', 'off', t('nginx.prefer'), [SRC.mozillaTls]),
      S('ssl_session_timeout', MOZILLA.sessionTimeout, t('nginx.session'), [SRC.mozillaTls, SRC.nginxSsl]),
      S('ssl_session_cache', 'shared:MozSSL:10m'),
      ...(has(NGINX_TLS.sslSessionTickets, v) ? [S('ssl_session_tickets', 'off', t('nginx.tickets'), [SRC.mozillaTls])] : []),
      S('add_header', ['Strict-Transport-Security', hstsValue(), 'always'], t('lb.hsts'), [SRC.hsts, SRC.mozillaTls]),
      S('proxy_hide_header', 'Strict-Transport-Security'),
      S('client_max_body_size', `${EDGE_LIMITS.bodyMb}m`, t('lb.nginx.body-size', vars), [SRC.nginxCore]),
      { block: 'location', args: ['/'], children: proxy },
      ...cableLocation,
    ] });
  } else {
    servers.push({ block: 'server', children: [S('listen', '80'), S('listen', '[::]:80', t('lb.ipv6'), [SRC.nginxCore]), S('server_name', ctx.domain),
      S('client_max_body_size', `${EDGE_LIMITS.bodyMb}m`, t('lb.nginx.body-size', vars), [SRC.nginxCore]),
      { block: 'location', args: ['/'], children: proxy }, ...cableLocation] });
  }
  return [
    S('user', ctx.family.webUser || 'www-data'),
    S('worker_processes', 'auto'),
    S('pid', '/run/nginx.pid'),
    S('worker_rlimit_nofile', 65536),
    ...(nginxHas('workerShutdownTimeout', v) ? [S('worker_shutdown_timeout', `${T.shutdown}s`, t('lb.nginx.shutdown', T), [SRC.nginxCore])] : []),
    { block: 'events', children: [S('worker_connections', 16384, t('lb.nginx.connections'), [SRC.nginxCore])] },
    BLANK,
    { block: 'http', children: [
      ...(cable ? [{ block: 'map', args: ['$http_upgrade', '$connection_upgrade'], why: t('nginx.map-upgrade'), evidence: [SRC.nginxWebsocket], children: [S('default', 'upgrade'), { d: '""', args: ['close'] }] }, BLANK] : []),
      { block: 'upstream', args: ['rails_hosts'], why: t('lb.nginx.upstream', vars), evidence: [SRC.nginxUpstream], children: [
        S('least_conn', []),
        ...hosts.map((h) => S('server', [`${h.addr}:80`, 'max_fails=2', 'fail_timeout=10s'])),
        S('keepalive', 32),
      ] },
      BLANK,
      ...(cableCap ? [{ block: 'upstream', args: ['rails_cable'], why: t('lb.nginx.upstream-cable', vars), evidence: [SRC.nginxUpstream, SRC.actionCable], children: [
        S('zone', ['rails_cable', '64k']),
        S('least_conn', []),
        ...hosts.map((h) => S('server', [`${h.addr}:80`, `max_conns=${EDGE_LIMITS.websocketsPerHost}`, 'max_fails=2', 'fail_timeout=10s'])),
      ] }, BLANK] : []),
      ...servers,
    ] },
  ];
}

export function generate(ctx) {
  if (!APPLIES['load-balancer'](ctx)) return {};
  const file = ctx.a.lb === 'haproxy'
    ? { path: `${LB_PREFIX}etc/haproxy/haproxy.cfg`, format: 'haproxy', body: haproxyBody(ctx) }
    : { path: `${LB_PREFIX}etc/nginx/nginx.conf`, format: 'nginx', body: nginxLbBody(ctx) };
  return { files: [file] };
}
