// nginx: main nginx.conf and the Rails site (upstream = the app server's bind).
import { SRC, DS, ART } from '../evidence.mjs';
import { gte, lt } from '../version.mjs';
import { S, C, BLANK, addr, serverKeepsAlive } from './util.mjs';

export const id = 'nginx';

const KEEPALIVE_DEFAULT_SINCE = '1.29.7';
const KEEPALIVE_SINCE = '1.1.4';

function assetLocations(ctx) {
  if (gte(ctx.a.rails, '3.1')) {
    return [{
      block: 'location', args: ['^~', '/assets/'],
      why: 'Digest-stamped asset files never change, so they may be cached "forever"; gzip_static serves the .gz files the asset pipeline writes.',
      evidence: [SRC.pumaNginx, SRC.nginxGzipStatic],
      children: [S('gzip_static', 'on'), S('expires', 'max'), S('add_header', ['Cache-Control', 'public']), S('try_files', ['$uri', '=404'])],
    }];
  }
  return [{
    block: 'location', args: ['~', '^/(images|javascripts|stylesheets)/'],
    why: `Rails ${ctx.a.rails} serves static files from public/images, javascripts and stylesheets with ?timestamp query strings.`,
    children: [S('expires', 'max'), S('try_files', ['$uri', '=404'])],
  }];
}

export function siteBody(ctx) {
  const { a } = ctx;
  const keepaliveOk = serverKeepsAlive(ctx) && gte(ctx.proxyVersion, KEEPALIVE_SINCE);
  const keepaliveDefault = gte(ctx.proxyVersion, KEEPALIVE_DEFAULT_SINCE);
  const upstream = {
    block: 'upstream', args: ['rails_app'],
    why: `The app server's address${ctx.upstreams.length > 1 ? 'es' : ''}: must match its bind (${ctx.upstreams.map(addr).join(', ')}).`,
    children: ctx.upstreams.map((u) => S('server', [addr(u), 'fail_timeout=0'])),
  };
  if (keepaliveOk && !keepaliveDefault) {
    upstream.children.push(S('keepalive', String(Math.max(8, ctx.processes * ctx.threads)),
      `Keep idle connections to ${ctx.server} open instead of a new connection per request; needs HTTP/1.1 and an empty Connection header below (nginx before ${KEEPALIVE_DEFAULT_SINCE}).`,
      [SRC.nginxUpstream, DS.keepalive]));
  }
  const proxied = [
    S('proxy_pass', 'http://rails_app'),
    S('proxy_set_header', ['Host', '$host']),
    S('proxy_set_header', ['X-Forwarded-For', '$proxy_add_x_forwarded_for']),
    S('proxy_set_header', ['X-Forwarded-Proto', '$scheme']),
    S('proxy_set_header', ['X-Request-Start', 't=${msec}'], 'Lets the app (and APM tools) measure time spent queued in front of the app server.', [SRC.pumaNginx]),
    S('proxy_redirect', 'off'),
    S('proxy_buffering', 'on', `nginx reads the app's response at full speed and feeds slow clients itself, so a ${ctx.server} process is freed at once (the default; stated because ${['unicorn', 'pitchfork', 'thin', 'mongrel'].includes(ctx.server) ? 'this server requires it' : 'it matters'}).`, [SRC.nginxProxy, SRC.unicorn, DS.reverseProxy, ART.proxies]),
  ];
  if (keepaliveOk && !keepaliveDefault) {
    proxied.push(S('proxy_http_version', '1.1', 'Required for upstream keepalive before nginx 1.29.7.', [SRC.nginxProxy]));
    proxied.push(S('proxy_set_header', ['Connection', ''], 'Do not forward "Connection: close" to the upstream.', [SRC.nginxUpstream]));
  }
  if (a.downloads) {
    proxied.push(S('proxy_set_header', ['X-Accel-Mapping', `${ctx.root}/private/=/private-files/`],
      'Maps the file path Rails sends in X-Accel-Redirect to the internal location below.', [SRC.rackSendfile]));
  }
  const server = {
    block: 'server',
    children: [
      S('listen', ['80', 'backlog=4096'], 'Accept queue for bursts; nginx asks for 511 by default on Linux. The kernel caps it at net.core.somaxconn (4096 by default since Linux 5.4; the sysctl file raises it on older kernels).', [SRC.nginxCore, SRC.ipSysctl, DS.sysctl]),
      S('server_name', '_'),
      S('root', `${ctx.root}/public`, 'Static files are served by nginx straight from public/.', [SRC.pumaNginx]),
      S('client_max_body_size', '25m'),
      BLANK,
      ...assetLocations(ctx),
      BLANK,
      { block: 'location', args: ['/'], children: [S('try_files', ['$uri', '$uri/index.html', '@rails'])] },
      BLANK,
      { block: 'location', args: ['@rails'], children: proxied },
    ],
  };
  if (a.downloads) {
    server.children.push(BLANK, {
      block: 'location', args: ['/private-files/'],
      why: 'Large downloads: Rails answers with an X-Accel-Redirect header and nginx sends the file from this internal location, so no Ruby process streams it.',
      evidence: [SRC.nginxInternal, SRC.rackSendfile],
      children: [S('internal', []), S('alias', `${ctx.root}/private/`)],
    });
  }
  return [upstream, BLANK, server];
}

export function mainBody(ctx) {
  const nofile = 65536;
  const v = ctx.proxyVersion;
  const autoOk = gte(v, '1.3.8') || (gte(v, '1.2.5') && lt(v, '1.3'));
  return [
    S('user', 'www-data'),
    S('worker_processes', autoOk ? 'auto' : String(ctx.a.cores), autoOk ? 'One worker per CPU core (auto since nginx 1.2.5/1.3.8).' : 'One worker per CPU core.', [SRC.nginxCore]),
    S('worker_rlimit_nofile', String(nofile), 'Raise the open-files limit of the workers: every client and every upstream connection is a file descriptor (the thesis raised 1024 to 65536).', [SRC.nginxCore, DS.sysctl]),
    S('pid', '/run/nginx.pid'),
    S('error_log', ['/var/log/nginx/error.log', 'warn']),
    BLANK,
    {
      block: 'events',
      children: [
        S('worker_connections', '4096', 'Per worker, counting both client and upstream connections (default 512).', [SRC.nginxCore]),
        C('No "use epoll;": nginx selects the most efficient method (epoll on Linux) by itself.'),
      ],
    },
    BLANK,
    {
      block: 'http',
      children: [
        S('include', 'mime.types'),
        S('default_type', 'application/octet-stream'),
        S('sendfile', 'on', 'Static files and X-Accel-Redirect downloads go from page cache to socket without copying through nginx.', [SRC.nginxCore]),
        S('tcp_nopush', 'on'),
        S('keepalive_timeout', '65', 'Keep client connections open: in the wrk measurements keep-alive raised throughput from 10185 to 13577 req/s.', [DS.keepalive]),
        S('server_tokens', 'off'),
        S('access_log', '/var/log/nginx/access.log'),
        S('gzip', 'on'),
        S('gzip_types', ['text/css', 'application/javascript', 'application/json', 'image/svg+xml']),
        S('include', 'sites-enabled/*.conf'),
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
    advice.push({ id: 'nginx-upgrade', title: `Upgrade nginx ${ctx.proxyVersion}`, body: 'Old nginx releases lack security fixes; the generated files also work on current releases.', evidence: [SRC.nginxChanges] });
  }
  return { files, advice };
}
