// Apache httpd 2.2/2.4 site: mod_proxy to the app server, or Passenger inside Apache.
import { SRC, DS } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { passengerApacheDirectives, passengerVhostDirectives, passengerCableLocation } from './passenger.mjs';
import { t } from '../text.mjs';
import { SERVER_LABEL, behindBalancer } from './util.mjs';
import { APACHE_TLS, MOZILLA, EDGE_LIMITS } from '../caps.mjs';
import { has } from '../pick.mjs';
import { ACME_WEBROOT, certs, hstsValue, CABLE_PATH, HEALTH_PATH, proxyReadTimeout, cableEnabled, EDGE_CLEARED } from './edge.mjs';
import { APPLIES } from './applies.mjs';
import { W } from '../rules.mjs';

export const id = 'apache';

const D = (d, args, why, evidence) => ({ d, args: Array.isArray(args) ? args : [args], why, evidence });

/** Modules the site needs (a2enmod …); tests load exactly these. */
export function apacheModules(ctx) {
  if (ctx.passengerIntegrated) return [...new Set(['passenger', 'expires', 'headers', ...(ctx.a.downloads ? ['xsendfile'] : []), ...edgeModules(ctx)])];
  const mods = ['proxy', 'proxy_http', 'headers', 'expires', 'rewrite'];
  // Apache 2.4 split the balancer's load-balancing methods and shared memory into their own modules.
  if (ctx.upstreams.length > 1) mods.push('proxy_balancer', ...(gte(ctx.proxyVersion, '2.4') ? ['lbmethod_byrequests', 'slotmem_shm'] : []));
  if (ctx.a.downloads) mods.push('xsendfile');
  if (ONE_PER_WORKER.includes(ctx.server)) mods.push('env'); // SetEnv proxy-sendcl
  if (behindBalancer(ctx) && gte(ctx.proxyVersion, '2.4')) mods.push('remoteip');
  return [...mods, ...edgeModules(ctx)];
}

/** Modules for HTTPS, HTTP/2, WebSockets and the quiet health check. */
function edgeModules(ctx) {
  const v = ctx.proxyVersion;
  const mods = ['setenvif'];
  if (ctx.tls === 'proxy') mods.push('ssl', ...(has(APACHE_TLS.http2, v) ? ['http2'] : []), ...(ctx.passengerIntegrated ? ['headers', 'alias'] : []));
  if (cableVia(ctx) === 'wstunnel') mods.push('proxy_wstunnel');
  return [...new Set(mods)];
}

/** How WebSockets reach the app: 'upgrade' (mod_proxy_http, 2.4.47+), 'wstunnel', 'passenger' or null. */
function cableVia(ctx) {
  if (!cableEnabled(ctx)) return null;
  if (ctx.passengerIntegrated) return 'passenger';
  if (ctx.upstreams.length !== 1) return null;
  if (has(APACHE_TLS.upgradeWebsocket, ctx.proxyVersion)) return 'upgrade';
  if (has(APACHE_TLS.proxyWstunnel, ctx.proxyVersion)) return 'wstunnel';
  return null;
}

function cableTarget(u, via) {
  if (via === 'upgrade') return u.type === 'unix' ? `unix:${u.path}|http://localhost${CABLE_PATH}` : `http://${u.host}:${u.port}${CABLE_PATH}`;
  return u.type === 'unix' ? `unix:${u.path}|ws://localhost${CABLE_PATH}` : `ws://${u.host}:${u.port}${CABLE_PATH}`;
}

function target(u) {
  return u.type === 'unix' ? `unix:${u.path}|http://localhost/` : `http://${u.host}:${u.port}/`;
}

export function siteBody(ctx) {
  const v24 = gte(ctx.proxyVersion, '2.4');
  const access = v24 ? [D('Require', ['all', 'granted'])] : [D('Order', ['allow,deny']), D('Allow', ['from', 'all'])];
  const vhost = [
    D('ServerName', 'localhost'),
    D('DocumentRoot', `${ctx.appDir}/public`, t('apache.root'), [SRC.apacheCore]),
    { section: 'Directory', args: [`${ctx.appDir}/public`], children: [D('Options', '-MultiViews'), D('AllowOverride', 'None'), ...access] },
    // The bundle's one request body limit (EDGE_LIMITS), as nginx and the balancers: Apache's own default is 1 GiB
    // (2.4.54+; unlimited before), which mod_proxy or Passenger then spool to disk (SRE check 5, D5).
    D('LimitRequestBody', String(EDGE_LIMITS.bodyMb * 1024 * 1024), t('apache.body-size', { mb: EDGE_LIMITS.bodyMb }), [SRC.apacheCore]),
  ];
  // Behind the balancer (issue 11): mod_remoteip (2.4+) takes the client's address from the balancer's header.
  if (behindBalancer(ctx) && v24) vhost.push(D('RemoteIPHeader', 'X-Forwarded-For', t('edge.real-ip', { lb: ctx.hosts.lb }), [SRC.apacheRemoteIp]), D('RemoteIPInternalProxy', ctx.hosts.lb));
  if (gte(ctx.a.rails, '3.1')) {
    vhost.push({
      section: 'LocationMatch', args: ['^/assets/'], why: t('apache.assets'), evidence: [SRC.pumaNginx],
      children: [D('ExpiresActive', 'On'), D('ExpiresDefault', 'access plus 1 year'), D('Header', ['set', 'Cache-Control', 'public'])],
    });
  }
  if (ctx.passengerIntegrated) {
    vhost.push(...passengerVhostDirectives(ctx));
    const cable = passengerCableLocation(ctx);
    if (cable) vhost.push(cable);
  } else {
    vhost.push(D('ProxyPreserveHost', 'On'));
    // mod_proxy appends the real Host to X-Forwarded-Host; a client's own value is removed first (issue 23).
    if (v24) vhost.push(D('RequestHeader', ['unset', 'X-Forwarded-Host', 'early'], t('apache.forwarded-host'), [SRC.apacheHeaders, SRC.railsForwardedHost]));
    if (v24) vhost.push(D('RequestHeader', ['unset', 'Forwarded', 'early'], t('edge.forwarded'), [SRC.apacheHeaders, SRC.rackRequest]));
    if (v24) vhost.push(...EDGE_CLEARED.map((h, i) => D('RequestHeader', ['unset', h, 'early'], i === 0 ? t('edge.cleared') : undefined, i === 0 ? [SRC.apacheHeaders, SRC.rackRequest] : [])));
    // X-Forwarded-Proto and -Port: the balancer's only (CONN_REMOTE_ADDR: the connection's address, which
    // mod_remoteip leaves alone); without a balancer mod_proxy sets no port, so a client's would reach Rails.
    const trustLb = ctx.tls === 'upstream' && behindBalancer(ctx) && v24;
    if (trustLb) {
      const cond = `expr=%{CONN_REMOTE_ADDR} != '${ctx.hosts.lb}' && %{CONN_REMOTE_ADDR} != '127.0.0.1'`;
      vhost.push(D('RequestHeader', ['unset', 'X-Forwarded-Proto', cond], t('apache.trust-lb', { lb: ctx.hosts.lb }), [SRC.apacheHeaders, SRC.apacheRemoteIp]), D('RequestHeader', ['unset', 'X-Forwarded-Port', cond]));
    } else if (v24) {
      vhost.push(D('RequestHeader', ['unset', 'X-Forwarded-Port', 'early'], t('apache.port'), [SRC.apacheHeaders, SRC.rackRequest]));
    }
    if (ctx.tls === 'upstream' && !gte(ctx.proxyVersion, '2.4.7')) vhost.push({ comment: t('apache.proto.upstream-old') });
    else vhost.push(ctx.tls === 'upstream'
      ? D('RequestHeader', ['setifempty', 'X-Forwarded-Proto', 'http'], t('apache.proto.upstream'), [SRC.apacheHeaders, SRC.railsSsl])
      : D('RequestHeader', ['set', 'X-Forwarded-Proto', ctx.tls === 'proxy' ? 'https' : 'http'], t(`apache.proto.${ctx.tls}`), [SRC.apacheHeaders, SRC.railsSsl]));
    vhost.push(D('ProxyTimeout', String(proxyReadTimeout(ctx)), t('apache.timeout', { s: proxyReadTimeout(ctx) }), [SRC.apacheProxy]));
    // Unicorn and Pitchfork serve one request per worker: mod_proxy must read the whole request body before it
    // connects (proxy-sendcl spools it, to disk when large), or a slow upload holds a worker for its duration.
    if (ONE_PER_WORKER.includes(ctx.server)) vhost.push(D('SetEnv', ['proxy-sendcl', '1'], t('apache.sendcl', { server: SERVER_LABEL[ctx.server] }), [SRC.apacheProxy, SRC.unicorn]));
    vhost.push(D('ProxyPass', ['/assets/', '!'], t('apache.assets-not-proxied'), [SRC.apacheProxy]));
    const via = cableVia(ctx);
    if (via) {
      const tgt = cableTarget(ctx.upstreams[0], via);
      vhost.push(D('ProxyPass', [CABLE_PATH, tgt, ...(via === 'upgrade' ? ['upgrade=websocket'] : [])], t(`apache.cable.${via}`), [via === 'upgrade' ? SRC.apacheProxy : SRC.apacheWstunnel, SRC.actionCable]));
      vhost.push(D('ProxyPassReverse', [CABLE_PATH, tgt]));
    }
    if (ctx.upstreams.length > 1) {
      vhost.push({
        section: 'Proxy', args: ['balancer://rails_app'], why: t('apache.balancer', { server: SERVER_LABEL[ctx.server] }), evidence: [SRC.apacheBalancer],
        children: ctx.upstreams.map((u) => D('BalancerMember', target(u).replace(/\/$/, ''))),
      });
      vhost.push(D('ProxyPass', ['/', 'balancer://rails_app/'], t('apache.proxy-balancer'), [SRC.apacheProxy]));
      vhost.push(D('ProxyPassReverse', ['/', 'balancer://rails_app/']));
    } else {
      const tgt = target(ctx.upstreams[0]);
      vhost.push(D('ProxyPass', ['/', tgt], t(ctx.upstreams[0].type === 'unix' ? 'apache.proxy-unix' : 'apache.proxy-tcp', { server: SERVER_LABEL[ctx.server] }), [SRC.apacheProxy]));
      vhost.push(D('ProxyPassReverse', ['/', tgt]));
    }
  }
  if (ctx.a.downloads) {
    vhost.push(D('XSendFile', 'On', t('apache.xsendfile'), [SRC.xsendfile, SRC.rackSendfile]));
    vhost.push(D('XSendFilePath', `${ctx.root}/private`));
  }
  // The health check is not logged (load balancers and monitors call it every few seconds).
  vhost.push(D('SetEnvIf', ['Request_URI', `^${HEALTH_PATH}$`, 'dontlog'], t('apache.up'), [SRC.railsHealth, SRC.apacheLog]));
  // The family's log directory (capabilities/distros.mjs): ${APACHE_LOG_DIR} exists only in Debian's envvars.
  vhost.push(D('CustomLog', [ctx.family.apacheAccessLog || '${APACHE_LOG_DIR}/access.log', 'combined', 'env=!dontlog']));
  const body = [];
  if (ctx.passengerIntegrated) body.push(...passengerApacheDirectives(ctx), { blank: true });
  if (ctx.tls !== 'proxy') {
    vhost[0] = D('ServerName', ctx.domain, t('apache.server-name'), [SRC.apacheCore]);
    body.push({ section: 'VirtualHost', args: ['*:80'], children: vhost });
    return body;
  }
  const v = ctx.proxyVersion;
  const c = certs(ctx);
  const tls13 = has(APACHE_TLS.tls13, v);
  const redirect = [
    D('ServerName', ctx.domain),
    D('Alias', ['/.well-known/acme-challenge/', `${ACME_WEBROOT}/.well-known/acme-challenge/`], t('apache.acme'), [SRC.certbot]),
    { section: 'Directory', args: [ACME_WEBROOT], children: v24 ? [D('Require', ['all', 'granted'])] : [D('Order', ['allow,deny']), D('Allow', ['from', 'all'])] },
    D('RedirectMatch', ['301', '^/(?!\\.well-known/acme-challenge/)(.*)$', `https://${ctx.domain}/$1`], t('apache.redirect'), [SRC.apacheAlias]),
  ];
  const tls = [
    D('ServerName', ctx.domain, t('apache.server-name'), [SRC.apacheCore]),
    ...(has(APACHE_TLS.http2, v) ? [D('Protocols', ['h2', 'http/1.1'], t('apache.h2'), [SRC.apacheHttp2])] : []),
    D('SSLEngine', 'on', t('apache.cert', { domain: ctx.domain }), [SRC.apacheSsl, SRC.certbot]),
    D('SSLCertificateFile', c.cert),
    D('SSLCertificateKeyFile', c.key),
    D('SSLProtocol', ['-all', '+TLSv1.2', ...(tls13 ? ['+TLSv1.3'] : [])], t('apache.protocols'), [SRC.mozillaTls, SRC.apacheSsl]),
    D('SSLCipherSuite', MOZILLA.intermediateCiphers, t('nginx.ciphers'), [SRC.mozillaTls]),
    D('SSLHonorCipherOrder', 'off', t('nginx.prefer'), [SRC.mozillaTls]),
    ...(has(APACHE_TLS.sessionTickets, v) ? [D('SSLSessionTickets', 'off', t('nginx.tickets'), [SRC.mozillaTls])] : []),
    D('Header', ['always', 'set', 'Strict-Transport-Security', hstsValue()], t('nginx.hsts'), [SRC.hsts, SRC.mozillaTls]),
    // SRE trial D18: `always` writes another table than the one mod_proxy puts the backend's headers in, so Rails'
    // own HSTS header (force_ssl) would go out beside it; the default (onsuccess) table's copy is removed here.
    D('Header', ['unset', 'Strict-Transport-Security'], t('apache.hide-hsts'), [SRC.apacheHeaders, SRC.railsSsl]),
    ...vhost.slice(1),
  ];
  body.push(
    { comment: t('nginx.ocsp') },
    { blank: true },
    { section: 'VirtualHost', args: ['*:80'], why: t('nginx.http-server'), evidence: [SRC.certbot], children: redirect },
    { blank: true },
    { section: 'VirtualHost', args: ['*:443'], children: tls },
  );
  return body;
}

// Rules about this generator's own server or proxy (moved from rules.mjs: their code loads with this chunk).
function apacheOld(ctx) {
  if (ctx.proxy !== 'apache' || ctx.passengerIntegrated || gte(ctx.proxyVersion, '2.4.7')) return null;
  return W('apache-no-unix-socket-proxy', 'info', { version: ctx.proxyVersion }, [SRC.apacheProxy]);
}

// An Apache series ("2.4") read as the release's own 2.4.x (derive.mjs), or, on a release the table does not know,
// as x.y.0, which lacks what later patch releases added: said either way (trial 24).
function apacheSeries(ctx) {
  const s = ctx.subs.find((x) => x.key === 'proxy_version' && x.reason === 'apache-series');
  if (s) return W('apache-series', 'info', { from: s.from, to: s.to, distro: ctx.a.distro }, [SRC.apacheProxy]);
  if (ctx.passengerIntegrated || String(ctx.proxyVersion) !== '2.4') return null;
  return W('apache-series-zero', 'warning', { v: ctx.proxyVersion }, [SRC.apacheProxy]);
}

const ONE_PER_WORKER = ['unicorn', 'pitchfork'];

/** Unicorn/Pitchfork want a proxy that buffers whole requests and responses; Apache does the first only. */
function oneRequestServerBehindApache(ctx) {
  if (!ONE_PER_WORKER.includes(ctx.server)) return null;
  return W('apache-not-fully-buffering', 'warning', { server: SERVER_LABEL[ctx.server] }, [SRC.unicorn, SRC.apacheProxy]);
}

export function generate(ctx) {
  if (!APPLIES.apache(ctx)) return {};
  const advice = [{
    id: 'apache-mpm', title: t('a.apache-mpm.title'),
    body: t('a.apache.mpm', { mods: apacheModules(ctx).join(' ') }),
    evidence: [SRC.apacheMpm, DS.passengerHosts],
  }];
  return { files: [{ path: 'etc/apache2/sites-available/rails-app.conf', format: 'apache', body: siteBody(ctx), meta: { modules: apacheModules(ctx) } }], advice, warnings: [apacheSeries(ctx), apacheOld(ctx), oneRequestServerBehindApache(ctx)].filter(Boolean) };
}
