// Caddy 2 Caddyfile.
import { SRC } from '../evidence.mjs';

export const id = 'caddy';

function dial(u) {
  return u.type === 'unix' ? `unix/${u.path}` : `${u.host}:${u.port}`;
}

export function caddyBody(ctx) {
  const site = [
    { d: 'root', args: ['*', `${ctx.root}/public`] },
    { d: 'encode', args: ['zstd', 'gzip'], why: 'Compress responses (Caddy has zstd and gzip built in).' },
    { d: '@static', args: ['file'], why: 'Requests for files that exist under public/.' },
    { d: 'handle', args: ['@static'], children: [{ d: 'file_server' }], why: 'Existing files are served by Caddy itself.' },
    {
      d: 'handle',
      children: [{
        d: 'reverse_proxy', args: ctx.upstreams.map(dial), why: `Everything else goes to ${ctx.server} at the same address it binds. Caddy keeps idle upstream connections alive by default.`,
        evidence: [SRC.caddyProxy],
        children: [{ d: 'header_up', args: ['X-Request-Start', 't={time.now.unix_ms}'] }],
      }],
    },
  ];
  return [{ d: ':80', children: site }];
}

export function generate(ctx) {
  if (ctx.proxy !== 'caddy') return {};
  const advice = [];
  if (ctx.a.downloads) {
    advice.push({ id: 'caddy-downloads', title: 'Large downloads behind Caddy', body: 'Caddy has no X-Accel-Redirect or X-Sendfile switch; emulate it with reverse_proxy\u2019s handle_response on a response header, or serve the files from a file_server route.', evidence: [SRC.caddyProxy] });
  }
  return { files: [{ path: 'etc/caddy/Caddyfile', format: 'caddyfile', body: caddyBody(ctx) }], advice };
}
