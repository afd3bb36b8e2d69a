// nginx: main nginx.conf and the Rails site (upstream = the app server's bind).
import { SRC, DS, ART } from '../evidence.mjs';
import { gte, lt, inRange } from '../version.mjs';
import { NGINX } from '../capabilities/nginx.mjs';
import { S, C, BLANK, addr, serverKeepsAlive, SERVER_LABEL } from './util.mjs';
import { t } from '../text.mjs';

export const id = 'nginx';

/** Does nginx version v have feature `name` (capabilities/nginx.mjs)? */
export function nginxHas(name, v) {
  return NGINX[name].some((r) => inRange(v, r));
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

export function siteBody(ctx) {
  const { a } = ctx;
  const v = ctx.proxyVersion;
  const keepaliveOk = serverKeepsAlive(ctx) && nginxHas('upstreamKeepalive', v) && nginxHas('proxyHttpVersion', v);
  const keepaliveDefault = nginxHas('keepaliveByDefault', v);
  const upstream = {
    block: 'upstream', args: ['rails_app'],
    why: t('nginx.upstream', { list: ctx.upstreams.map(addr).join(', ') }),
    evidence: [SRC.nginxUpstream, SRC.pumaNginx],
    children: ctx.upstreams.map((u) => S('server', [addr(u), 'fail_timeout=0'])),
  };
  if (keepaliveOk && !keepaliveDefault) {
    upstream.children.push(S('keepalive', String(Math.max(8, ctx.processes * ctx.threads)),
      t('nginx.keepalive', { server: SERVER_LABEL[ctx.server] }),
      [SRC.nginxUpstream, DS.keepalive]));
  }
  const proxied = [
    S('proxy_pass', 'http://rails_app'),
    S('proxy_set_header', ['Host', '$host'], t('nginx.headers'), [SRC.pumaNginx]),
    S('proxy_set_header', ['X-Forwarded-For', '$proxy_add_x_forwarded_for']),
    S('proxy_set_header', ['X-Forwarded-Proto', '$scheme']),
    ...(nginxHas('msecVariable', v) ? [S('proxy_set_header', ['X-Request-Start', 't=${msec}'], t('nginx.request-start'), [SRC.pumaNginx])] : []),
    S('proxy_redirect', 'off', t('nginx.redirect'), [SRC.nginxProxy]),
    S('proxy_buffering', 'on', t(['unicorn', 'pitchfork', 'thin', 'mongrel'].includes(ctx.server) ? 'nginx.buffering.required' : 'nginx.buffering', { server: SERVER_LABEL[ctx.server] }), [SRC.nginxProxy, SRC.unicorn, DS.reverseProxy, ART.proxies]),
  ];
  if (keepaliveOk && !keepaliveDefault) {
    proxied.push(S('proxy_http_version', '1.1', t('nginx.http11'), [SRC.nginxProxy]));
    proxied.push(S('proxy_set_header', ['Connection', ''], t('nginx.connection'), [SRC.nginxUpstream]));
  }
  if (a.downloads) {
    proxied.push(S('proxy_set_header', ['X-Accel-Mapping', `${ctx.root}/private/=/private-files/`],
      t('nginx.accel-mapping'), [SRC.rackSendfile]));
  }
  const server = {
    block: 'server',
    children: [
      S('listen', ['80', 'backlog=4096'], t('nginx.backlog'), [SRC.nginxCore, SRC.ipSysctl, DS.sysctl]),
      S('server_name', '_', t('nginx.server-name'), [SRC.nginxHttpCore]),
      S('root', `${ctx.root}/public`, t('nginx.root'), [SRC.pumaNginx]),
      S('client_max_body_size', '25m', t('nginx.body-size'), [SRC.nginxCore]),
      BLANK,
      ...assetLocations(ctx),
      BLANK,
      { block: 'location', args: ['/'], why: t('nginx.try-files'), evidence: [SRC.pumaNginx], children: [S('try_files', ['$uri', '$uri/index.html', '@rails'])] },
      BLANK,
      { block: 'location', args: ['@rails'], children: proxied },
    ],
  };
  if (a.downloads) {
    server.children.push(BLANK, {
      block: 'location', args: ['/private-files/'],
      why: t('nginx.private'),
      evidence: [SRC.nginxInternal, SRC.rackSendfile],
      children: [S('internal', []), S('alias', `${ctx.root}/private/`)],
    });
  }
  return [upstream, BLANK, server];
}

export function mainBody(ctx) {
  const nofile = 65536;
  const autoOk = nginxHas('workerProcessesAuto', ctx.proxyVersion);
  return [
    S('user', 'www-data', t('nginx.user'), [SRC.nginxCore]),
    S('worker_processes', autoOk ? 'auto' : String(ctx.a.cores), t(autoOk ? 'nginx.workers.auto' : 'nginx.workers'), [SRC.nginxCore]),
    S('worker_rlimit_nofile', String(nofile), t('nginx.nofile'), [SRC.nginxCore, DS.sysctl]),
    S('pid', '/run/nginx.pid'),
    S('error_log', ['/var/log/nginx/error.log', 'warn']),
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
        S('gzip', 'on', t('nginx.gzip'), [SRC.nginxGzipStatic]),
        S('gzip_types', ['text/css', 'application/javascript', 'application/json', 'image/svg+xml']),
        S('include', 'sites-enabled/*.conf', t('nginx.include'), [SRC.nginxCore]),
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
