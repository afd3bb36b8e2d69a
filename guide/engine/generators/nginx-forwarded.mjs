// The app host's nginx behind TLS that ends upstream: which X-Forwarded-Proto and -Port it passes to Rails (issue 23).
// nginx.mjs puts these blocks at the top of the site file, through ctx.generator('nginx-forwarded'). An optional
// generator of no files of its own (applies.mjs: nginx with TLS ending upstream), so that the page fetches this code
// as a chunk for those answers instead of carrying it in its first-load script.
import { SRC } from '../evidence.mjs';
import { t } from '../text.mjs';
import { S, behindBalancer } from './util.mjs';
import { nginxHas } from './nginx.mjs';

export const id = 'nginx-forwarded';

/** Nothing to write: nginx.mjs asks for the maps. */
export function generate() {
  return {};
}

/**
 * TLS ends upstream (at a balancer): the scheme and port the browser used, from the balancer's X-Forwarded-Proto and
 * -Port, but only when the connection comes from the balancer ($realip_remote_addr: the address before real_ip
 * replaced it with the client's) and only http/https or a number; from anyone else (another host on the private
 * network, a client reaching port 80 directly) this host's own scheme and port. Without a balancer address that
 * nginx can check (before 1.9.7, or no balancer), the header is taken as it comes, as before, with a comment.
 */
export function forwardedMaps(ctx) {
  const trusted = behindBalancer(ctx) && nginxHas('realipRemoteAddr', ctx.proxyVersion);
  if (!trusted) {
    return [{
      block: 'map', args: ['$http_x_forwarded_proto', '$forwarded_proto'], why: t('nginx.map-proto'), evidence: [SRC.nginxMap, SRC.railsConfiguring],
      children: [S('default', '$http_x_forwarded_proto'), { d: '""', args: ['$scheme'] }],
    }, {
      block: 'map', args: ['$http_x_forwarded_port', '$forwarded_port'], why: t('nginx.map-port'), evidence: [SRC.nginxMap],
      children: [S('default', '$http_x_forwarded_port'), { d: '""', args: ['$server_port'] }],
    }];
  }
  return [{
    block: 'geo', args: ['$realip_remote_addr', '$from_balancer'], why: t('nginx.from-balancer', { lb: ctx.hosts.lb }), evidence: [SRC.nginxGeo, SRC.nginxRealIp],
    children: [S('default', '0'), { d: ctx.hosts.lb, args: ['1'] }, { d: '127.0.0.1', args: ['1'], why: t('nginx.from-loopback'), evidence: [SRC.nginxGeo] }, { d: '::1', args: ['1'] }],
  }, {
    block: 'map', args: ['$from_balancer:$http_x_forwarded_proto', '$forwarded_proto'], why: t('nginx.map-proto.trusted'), evidence: [SRC.nginxMap, SRC.railsConfiguring],
    children: [S('default', '$scheme'), { d: '1:https', args: ['https'] }, { d: '1:http', args: ['http'] }],
  }, {
    block: 'map', args: ['$from_balancer:$http_x_forwarded_port', '$forwarded_port'], why: t('nginx.map-port.trusted'), evidence: [SRC.nginxMap],
    children: [S('default', '$server_port'), { d: '"~^1:(?<balancer_port>[0-9]{1,5})$"', args: ['$balancer_port'] }],
  }];
}
