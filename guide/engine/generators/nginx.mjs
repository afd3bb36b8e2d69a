// nginx: main nginx.conf and the Rails site (upstream = the app server's bind).
import { SRC, DS, ART } from '../evidence.mjs';
import { gte, lt, inRange } from '../version.mjs';
import { NGINX, NGINX_TLS, MOZILLA, NGINX_MODULES_INCLUDE, SERVER_PROCESS } from '../caps.mjs';
import { has } from '../pick.mjs';
import { ACME_WEBROOT, certs, hstsValue, CABLE_PATH, HEALTH_PATH, proxyReadTimeout, serverRequestTimeout, cableEnabled, EDGE_CLEARED, timeoutChain } from './edge.mjs';
import { behindBalancer, S, C, BLANK, addr, serverKeepsAlive, SERVER_LABEL } from './util.mjs';
import { t } from '../text.mjs';

export const id = 'nginx';

/** Does nginx version v have feature `name` (capabilities/nginx.mjs)? */
/** How long a reload lets old workers live: longer than this proxy waits for any answer (the timeout chain). */
function workerShutdown(ctx) {
  const { edge, margin } = timeoutChain(ctx);
  return S('worker_shutdown_timeout', `${edge + margin}s`, t('nginx.shutdown', { shutdown: edge + margin, edge }), [SRC.nginxCore]);
}

/** Behind the bundle's own balancer (nginx or HAProxy), which retries a closed connection on the other host. */
const appDownCloses = (ctx) => behindBalancer(ctx) && ['nginx', 'haproxy'].includes(ctx.a.lb);

export function nginxHas(name, v) {
  return (NGINX[name] || []).some((r) => inRange(v, r)); // absent before the catalog is installed
}

function assetLocations(ctx) {
  if (gte(ctx.a.rails, '3.1')) {
    return [{
      block: 'location', args: ['^~', '/assets/'],
      why: t('nginx.assets'),
      evidence: [SRC.pumaNginx, SRC.nginxGzipStatic],
      children: [S('gzip_static', 'on'), S('expires', 'max'), S('add_header', ['Cache-Control', 'public']), S('try_files', ['$uri', '=404'])],
    }];
  }
  return [{
    block: 'location', args: ['~', '^/(images|javascripts|stylesheets)/'],
    why: t('nginx.assets.old', { rails: ctx.a.rails }),
    evidence: [SRC.nginxHttpCore],
    children: [S('expires', 'max'), S('try_files', ['$uri', '=404'])],
  }];
}

/** The headers every proxied location sends (nginx drops inherited proxy_set_header once a location sets one). */
function forwardHeaders(ctx, { explain = false } = {}) {
  const proto = ctx.tls === 'upstream' ? '$forwarded_proto' : '$scheme';
  return [
    S('proxy_set_header', ['Host', '$host'], explain ? t('nginx.headers') : undefined, explain ? [SRC.pumaNginx] : []),
    // The first hop overwrites a client's own X-Forwarded-For (behind the bundle's balancer $remote_addr is the client
    // real_ip read from it); behind someone else's TLS terminator the list it sent is kept (SRE check 5, m7).
    S('proxy_set_header', ['X-Forwarded-For', ctx.tls === 'upstream' && !behindBalancer(ctx) ? '$proxy_add_x_forwarded_for' : '$remote_addr']),
    S('proxy_set_header', ['X-Forwarded-Proto', proto], explain ? t(`nginx.proto.${ctx.tls}`) : undefined, explain ? [SRC.railsConfiguring, SRC.nginxProxy] : []),
    // The client's own X-Forwarded-Host never reaches Rails (which prefers it to Host when building URLs).
    S('proxy_set_header', ['X-Forwarded-Host', '$host'], explain ? t('nginx.forwarded-host') : undefined, explain ? [SRC.railsForwardedHost, SRC.nginxProxy] : []),
    S('proxy_set_header', ['X-Forwarded-Port', ctx.tls === 'upstream' ? '$forwarded_port' : '$server_port']),
    // Rack reads RFC 7239 Forwarded before X-Forwarded-* (Rack::Request.forwarded_priority): a client's own header
    // would set request.ip and the scheme Rails sees. An empty value keeps nginx from passing it on.
    S('proxy_set_header', ['Forwarded', ''], explain ? t('edge.forwarded') : undefined, explain ? [SRC.rackRequest, SRC.nginxProxy] : []),
    // Rack's scheme (request.ssl?) reads X-Forwarded-Ssl and X-Forwarded-Scheme too: a client's own never passes.
    ...EDGE_CLEARED.map((h, i) => S('proxy_set_header', [h, ''], explain && i === 0 ? t('edge.cleared') : undefined, explain && i === 0 ? [SRC.rackRequest, SRC.nginxProxy] : [])),
    ...(nginxHas('msecVariable', ctx.proxyVersion) ? [S('proxy_set_header', ['X-Request-Start', 't=${msec}'], explain ? t('nginx.request-start') : undefined, explain ? [SRC.pumaNginx, ART.observability] : [])] : []),
  ];
}

function hsts(ctx) {
  const always = gte(ctx.proxyVersion, '1.7.5') ? ['always'] : [];
  return S('add_header', ['Strict-Transport-Security', hstsValue(), ...always], t('nginx.hsts'), [SRC.hsts, SRC.mozillaTls]);
}

function tlsDirectives(ctx) {
  const v = ctx.proxyVersion;
  const c = certs(ctx);
  const protocols = has(NGINX_TLS.tls13, v) ? MOZILLA.intermediateProtocols : ['TLSv1.2'];
  const out = [
    S('ssl_certificate', c.cert, t('nginx.cert', { domain: ctx.domain }), [SRC.nginxSsl, SRC.certbot]),
    S('ssl_certificate_key', c.key),
    S('ssl_protocols', protocols, t(has(NGINX_TLS.tls13, v) ? 'nginx.protocols' : 'nginx.protocols.old', { v }), [SRC.mozillaTls, SRC.nginxSsl]),
    S('ssl_ciphers', MOZILLA.intermediateCiphers, t('nginx.ciphers'), [SRC.mozillaTls]),
    S('ssl_prefer_server_ciphers', 'off', t('nginx.prefer'), [SRC.mozillaTls]),
    S('ssl_session_timeout', MOZILLA.sessionTimeout, t('nginx.session'), [SRC.mozillaTls, SRC.nginxSsl]),
    S('ssl_session_cache', 'shared:MozSSL:10m'),
  ];
  if (has(NGINX_TLS.sslSessionTickets, v)) out.push(S('ssl_session_tickets', 'off', t('nginx.tickets'), [SRC.mozillaTls]));
  out.push({ comment: t('nginx.ocsp') });
  return out;
}

/** The IPv4 and IPv6 sockets of a port (on Linux `listen 80` is IPv4 only; [::] is IPv6 only since nginx 1.3.4). */
function listen(ctx, port, { ssl = false } = {}) {
  const v = ctx.proxyVersion;
  const h2Param = ssl && has(NGINX_TLS.http2Module, v) && !has(NGINX_TLS.http2Directive, v);
  const rest = [...(ssl ? ['ssl'] : []), ...(h2Param ? ['http2'] : []), 'backlog=4096'];
  return [
    S('listen', [String(port), ...rest],
      t(ssl ? (h2Param ? 'nginx.listen.h2param' : 'nginx.listen.ssl') : 'nginx.backlog', { v }), [SRC.nginxCore, SRC.ipSysctl, DS.sysctl, ...(ssl ? [SRC.nginxHttp2] : [])]),
    S('listen', [`[::]:${port}`, ...rest], t('nginx.listen.ipv6'), [SRC.nginxHttpCore, SRC.mozillaTls]),
  ];
}

export function siteBody(ctx) {
  const { a } = ctx;
  const v = ctx.proxyVersion;
  // No upstream keepalive to a Unix socket: connecting to it costs next to nothing, and a Puma hot restart
  // (USR2, the reload of a single-mode or preloaded Puma) closes idle kept-alive connections on which nginx may
  // already be sending a request, which it then answers with 502. tests/wizard/e2e.test.mjs reloads under wrk:
  // with keepalive about one run in two saw one 502 (nginx 1.22, Puma 6.6), without it none did.
  // A reload whose old workers may close connections unanswered (process.mjs reload.dropsAccepted: Falcon): no
  // keepalive, since they close every idle kept-alive connection at once (with keepalive the lab logged 10–90 upstream
  // resets per reload run, masked by nginx's retry of a cached connection, and one full run lost a request as 502;
  // without it none in 12 reloads). And, for a fresh connection accepted but not yet read when the stop begins,
  // which nginx tries once with one server, the same address follows as a backup: tried next on a connection error
  // only (proxy_next_upstream below), never a POST or PATCH once sent. Keepalive with the backup was worse (each
  // entry is tried once per request: 6 of 333 answers 502). tests/wizard/lab-falcon-thin.test.mjs reloads under load.
  const retrySame = ctx.upstreams.length === 1 && SERVER_PROCESS[ctx.server]?.reload?.dropsAccepted;
  const tcpUpstream = ctx.upstreams.some((u) => u.type === 'tcp');
  const keepaliveOk = !retrySame && tcpUpstream && serverKeepsAlive(ctx) && nginxHas('upstreamKeepalive', v) && nginxHas('proxyHttpVersion', v);
  const keepaliveDefault = nginxHas('keepaliveByDefault', v);
  const https = ctx.tls === 'proxy';
  const cable = cableEnabled(ctx) && has(NGINX_TLS.websocketProxy, v);
  const upstream = {
    block: 'upstream', args: ['rails_app'],
    why: t('nginx.upstream', { list: ctx.upstreams.map(addr).join(', ') }),
    evidence: [SRC.nginxUpstream, SRC.pumaNginx],
    children: ctx.upstreams.map((u) => S('server', [addr(u), 'fail_timeout=0'])),
  };
  if (retrySame) {
    upstream.children.push(S('server', [addr(ctx.upstreams[0]), 'max_fails=0', 'backup'],
      t('nginx.upstream.retry', { server: SERVER_LABEL[ctx.server] }), [SRC.nginxUpstream, SRC.nginxProxy]));
  }
  if (keepaliveOk && !keepaliveDefault) {
    upstream.children.push(S('keepalive', String(Math.max(8, ctx.processes * ctx.threads)),
      t('nginx.keepalive', { server: SERVER_LABEL[ctx.server] }),
      [SRC.nginxUpstream, DS.keepalive]));
  }
  const own = serverRequestTimeout(ctx);
  const readTimeout = S('proxy_read_timeout', `${proxyReadTimeout(ctx)}s`, t(own ? 'nginx.read-timeout.server' : 'nginx.read-timeout', { server: SERVER_LABEL[ctx.server], own, s: proxyReadTimeout(ctx) }), [SRC.nginxProxy]);
  const proxied = [
    S('proxy_pass', 'http://rails_app'),
    ...forwardHeaders(ctx, { explain: true }),
    S('proxy_redirect', 'off', t('nginx.redirect'), [SRC.nginxProxy]),
    S('proxy_buffering', 'on', t(['unicorn', 'pitchfork', 'thin', 'mongrel'].includes(ctx.server) ? 'nginx.buffering.required' : 'nginx.buffering', { server: SERVER_LABEL[ctx.server] }), [SRC.nginxProxy, SRC.unicorn, DS.reverseProxy, ART.proxies]),
    readTimeout,
  ];
  if (keepaliveOk && !keepaliveDefault) {
    proxied.push(S('proxy_http_version', '1.1', t('nginx.http11'), [SRC.nginxProxy]));
    proxied.push(S('proxy_set_header', ['Connection', ''], t('nginx.connection'), [SRC.nginxUpstream]));
  }
  if (a.downloads) {
    proxied.push(S('proxy_set_header', ['X-Accel-Mapping', `${ctx.root}/private/=/private-files/`],
      t('nginx.accel-mapping'), [SRC.rackSendfile]));
  }
  const assets = assetLocations(ctx);
  if (https) for (const loc of assets) if (loc.children.some((c) => c.d === 'add_header')) loc.children.push(hsts(ctx));
  const locations = [
    ...assets,
    BLANK,
    {
      block: 'location', args: ['=', HEALTH_PATH], why: t('nginx.up'), evidence: [SRC.railsHealth, SRC.nginxLog],
      children: [S('access_log', 'off'), S('proxy_pass', 'http://rails_app'), ...forwardHeaders(ctx)],
    },
  ];
  if (cable) {
    locations.push(BLANK, {
      block: 'location', args: [CABLE_PATH], why: t('nginx.cable'), evidence: [SRC.nginxWebsocket, SRC.actionCable],
      children: [
        S('proxy_pass', 'http://rails_app'),
        ...forwardHeaders(ctx),
        S('proxy_http_version', '1.1', t('nginx.cable.http11'), [SRC.nginxWebsocket]),
        S('proxy_set_header', ['Upgrade', '$http_upgrade']),
        S('proxy_set_header', ['Connection', '$connection_upgrade']),
        S('proxy_read_timeout', '60s', t('nginx.cable.timeout'), [SRC.actionCable, SRC.nginxWebsocket]),
      ],
    });
  }
  locations.push(
    BLANK,
    { block: 'location', args: ['/'], why: t('nginx.try-files'), evidence: [SRC.pumaNginx], children: [S('try_files', ['$uri', '$uri/index.html', '@rails'])] },
    BLANK,
    { block: 'location', args: ['@rails'], children: proxied },
  );
  // Behind the bundle's own balancer: when this host's app server is down, close the connection instead of
  // answering 502, so the balancer sees a failed host (nginx: an error, retried elsewhere and counted; HAProxy:
  // an empty response, retried) rather than an answer it passes on. The app's own 5xx pass through untouched.
  if (appDownCloses(ctx)) {
    locations.push(BLANK, { block: 'location', args: ['@app_down'], children: [S('return', '444')] });
  }
  if (a.downloads) {
    locations.push(BLANK, {
      block: 'location', args: ['/private-files/'],
      why: t('nginx.private'),
      evidence: [SRC.nginxInternal, SRC.rackSendfile],
      children: [S('internal', []), S('alias', `${ctx.root}/private/`)],
    });
  }
  const common = [
    S('server_name', ctx.domain, t('nginx.server-name', { domain: ctx.domain }), [SRC.nginxHttpCore]),
    S('root', `${ctx.appDir}/public`, t('nginx.root'), [SRC.pumaNginx]),
    S('client_max_body_size', '25m', t('nginx.body-size'), [SRC.nginxCore]),
    // Behind the balancer (issue 11): the client's address, not the balancer's, in logs, Rails and rate limits.
    ...(behindBalancer(ctx) ? [S('set_real_ip_from', ctx.hosts.lb, t('edge.real-ip', { lb: ctx.hosts.lb }), [SRC.nginxRealIp, SRC.nginxconfig]), S('real_ip_header', 'X-Forwarded-For')] : []),
    ...(retrySame ? [S('proxy_next_upstream', 'error', t('nginx.next-upstream'), [SRC.nginxProxy])] : []),
    ...(appDownCloses(ctx) ? [S('error_page', ['502', '=', '@app_down'], t('nginx.app-down'), [SRC.nginxHttpCore, SRC.nginxUpstream])] : []),
  ];
  const top = [];
  if (cable) {
    top.push({
      block: 'map', args: ['$http_upgrade', '$connection_upgrade'], why: t('nginx.map-upgrade'), evidence: [SRC.nginxWebsocket],
      children: [S('default', 'upgrade'), { d: '""', args: ['close'] }],
    }, BLANK);
  }
  // The forwarded-header maps live in their own optional generator (a chunk the page loads for these answers).
  if (ctx.tls === 'upstream') top.push(...ctx.generator('nginx-forwarded').forwardedMaps(ctx), BLANK);
  top.push(upstream, BLANK);
  if (!https) {
    top.push({ block: 'server', children: [...listen(ctx, 80), ...common, BLANK, ...locations] }, BLANK, defaultServer(ctx, false));
    return top;
  }
  const h2Directive = has(NGINX_TLS.http2Directive, v);
  top.push({
    block: 'server', why: t('nginx.http-server'), evidence: [SRC.certbot, SRC.hsts],
    children: [
      S('listen', '80'),
      S('listen', '[::]:80'),
      S('server_name', ctx.domain),
      { block: 'location', args: ['^~', '/.well-known/acme-challenge/'], why: t('nginx.acme'), evidence: [SRC.certbot], children: [S('root', ACME_WEBROOT)] },
      { block: 'location', args: ['/'], why: t('nginx.redirect-https'), evidence: [SRC.nginxRewrite], children: [S('return', ['301', `https://${ctx.domain}$request_uri`])] },
    ],
  }, BLANK, {
    block: 'server',
    children: [
      ...listen(ctx, 443, { ssl: true }),
      ...(h2Directive ? [S('http2', 'on', t('nginx.http2', { v }), [SRC.nginxHttp2])] : has(NGINX_TLS.http2Module, v) ? [] : [{ comment: t('nginx.no-http2', { v }) }]),
      ...common,
      BLANK,
      ...tlsDirectives(ctx),
      hsts(ctx),
      S('proxy_hide_header', 'Strict-Transport-Security', t('nginx.hide-hsts'), [SRC.railsSsl, SRC.nginxProxy]),
      BLANK,
      ...locations,
    ],
  }, BLANK, defaultServer(ctx, true));
  return top;
}

/**
 * The default server of each port: a request whose Host is not the domain (a scanner, a forged name, a stale DNS
 * entry) is closed without an answer (444) and never reaches Rails. /up stays open to a monitor or cloud balancer
 * that asks by address, with the domain as Host (config.hosts would refuse the address).
 */
function defaultServer(ctx, https) {
  // HTTPS: the site's own certificate (public anyway), then 444 by Host, rather than refusing the handshake
  // (ssl_reject_handshake), which would also refuse a client that connects by address and sends the domain as Host.
  const tls = https ? [S('listen', ['443', 'ssl', 'default_server']), S('listen', ['[::]:443', 'ssl', 'default_server']), S('ssl_certificate', certs(ctx).cert), S('ssl_certificate_key', certs(ctx).key)] : [];
  return { block: 'server', why: t('nginx.default-server', { domain: ctx.domain }), evidence: [SRC.nginxDefaultServer, SRC.railsHosts], children: [
    S('listen', ['80', 'default_server']),
    S('listen', ['[::]:80', 'default_server']),
    ...tls,
    { block: 'location', args: ['=', HEALTH_PATH], children: [S('access_log', 'off'), S('proxy_pass', 'http://rails_app'), ...forwardHeaders(ctx).map((d) => (d.args[0] === 'Host' || d.args[0] === 'X-Forwarded-Host' ? S('proxy_set_header', [d.args[0], ctx.domain]) : d))] },
    { block: 'location', args: ['/'], children: [S('return', '444')] },
  ] };
}

export function mainBody(ctx) {
  const nofile = 65536;
  const autoOk = nginxHas('workerProcessesAuto', ctx.proxyVersion);
  const modules = NGINX_MODULES_INCLUDE[ctx.family.id];
  return [
    ...(ctx.family.webUser ? [S('user', ctx.family.webUser, t('nginx.user'), [SRC.nginxCore])] : []),
    ...(modules ? [S('include', modules, t('nginx.modules'), [SRC.nginxCore, SRC.nginxconfig])] : []),
    S('worker_processes', autoOk ? 'auto' : String(ctx.a.cores), t(autoOk ? 'nginx.workers.auto' : 'nginx.workers'), [SRC.nginxCore]),
    S('worker_rlimit_nofile', String(nofile), t('nginx.nofile'), [SRC.nginxCore, DS.sysctl]),
    S('pid', '/run/nginx.pid'),
    S('error_log', ['/var/log/nginx/error.log', 'warn']),
    // WebSockets end here: without a bound, every reload (a renewal, a re-run of README) leaves old workers for as
    // long as their sockets live. Longer than any request the timeout chain lets this proxy wait.
    ...(cableEnabled(ctx) && nginxHas('workerShutdownTimeout', ctx.proxyVersion) ? [workerShutdown(ctx)] : []),
    BLANK,
    {
      block: 'events',
      children: [
        S('worker_connections', '4096', t('nginx.connections'), [SRC.nginxCore]),
        C(t('nginx.epoll')),
      ],
    },
    BLANK,
    {
      block: 'http',
      children: [
        S('include', 'mime.types', t('nginx.mime'), [SRC.nginxHttpCore]),
        S('default_type', 'application/octet-stream'),
        S('sendfile', 'on', t('nginx.sendfile'), [SRC.nginxCore]),
        S('tcp_nopush', 'on', t('nginx.nopush'), [SRC.nginxCore]),
        S('keepalive_timeout', '65', t('nginx.client-keepalive'), [DS.keepalive]),
        S('server_tokens', 'off', t('nginx.tokens'), [SRC.nginxHttpCore]),
        S('access_log', '/var/log/nginx/access.log'),
        S('gzip', 'on', t('nginx.gzip'), [SRC.nginxGzip, SRC.nginxconfig]),
        S('gzip_vary', 'on', t('nginx.gzip-vary'), [SRC.nginxGzip]),
        S('gzip_proxied', 'any', t('nginx.gzip-proxied'), [SRC.nginxGzip]),
        S('gzip_comp_level', '6'),
        S('gzip_types', ['text/plain', 'text/css', 'text/xml', 'application/json', 'application/javascript', 'application/rss+xml', 'application/atom+xml', 'image/svg+xml']),
        S('include', `${ctx.family.nginxInclude || 'sites-enabled'}/*.conf`, t('nginx.include'), [SRC.nginxCore]), // the family's site directory (README names it)
      ],
    },
  ];
}

export function generate(ctx) {
  if (ctx.proxy !== 'nginx') return {};
  const prefix = ctx.a.proxy === 'cherokee' ? 'migrate-to/' : '';
  const files = [
    { path: `${prefix}etc/nginx/nginx.conf`, format: 'nginx', body: mainBody(ctx) },
    { path: `${prefix}etc/nginx/sites-enabled/rails-app.conf`, format: 'nginx', body: siteBody(ctx) },
  ];
  const advice = [];
  if (lt(ctx.proxyVersion, '1.18')) {
    advice.push({ id: 'nginx-upgrade', title: t('a.nginx-upgrade.title', { v: ctx.proxyVersion }), body: t('a.nginx.upgrade'), evidence: [SRC.nginxChanges] });
  }
  return { files, advice };
}
