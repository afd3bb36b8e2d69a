// Caddy 2 Caddyfile.
import { SRC } from '../evidence.mjs';
import { t } from '../text.mjs';
import { SERVER_LABEL } from './util.mjs';

export const id = 'caddy';

function dial(u) {
  return u.type === 'unix' ? `unix/${u.path}` : `${u.host}:${u.port}`;
}

export function caddyBody(ctx) {
  const site = [
    { d: 'root', args: ['*', `${ctx.root}/public`] },
    { d: 'encode', args: ['zstd', 'gzip'], why: t('caddy.encode'), evidence: [SRC.caddyEncode] },
    { d: '@static', args: ['file'], why: t('caddy.static'), evidence: [SRC.caddyMatchers] },
    { d: 'handle', args: ['@static'], children: [{ d: 'file_server' }], why: t('caddy.file-server'), evidence: [SRC.caddyHandle] },
    {
      d: 'handle',
      children: [{
        d: 'reverse_proxy', args: ctx.upstreams.map(dial), why: t('caddy.proxy', { server: SERVER_LABEL[ctx.server] }),
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
    advice.push({ id: 'caddy-downloads', title: t('a.caddy-downloads.title'), body: t('a.caddy.downloads'), evidence: [SRC.caddyProxy] });
  }
  return { files: [{ path: 'etc/caddy/Caddyfile', format: 'caddyfile', body: caddyBody(ctx) }], advice };
}
