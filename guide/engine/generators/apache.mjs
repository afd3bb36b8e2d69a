// Apache httpd 2.2/2.4 site: mod_proxy to the app server, or Passenger inside Apache.
import { SRC, DS } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { passengerApacheDirectives, passengerVhostDirectives } from './passenger.mjs';
import { t } from '../text.mjs';
import { SERVER_LABEL } from './util.mjs';

export const id = 'apache';

const D = (d, args, why, evidence) => ({ d, args: Array.isArray(args) ? args : [args], why, evidence });

/** Modules the site needs (a2enmod …); tests load exactly these. */
export function apacheModules(ctx) {
  if (ctx.passengerIntegrated) return ['passenger', 'expires', 'headers'].concat(ctx.a.downloads ? ['xsendfile'] : []);
  const mods = ['proxy', 'proxy_http', 'headers', 'expires', 'rewrite'];
  // Apache 2.4 split the balancer's load-balancing methods and shared memory into their own modules.
  if (ctx.upstreams.length > 1) mods.push('proxy_balancer', ...(gte(ctx.proxyVersion, '2.4') ? ['lbmethod_byrequests', 'slotmem_shm'] : []));
  if (ctx.a.downloads) mods.push('xsendfile');
  return mods;
}

function target(u) {
  return u.type === 'unix' ? `unix:${u.path}|http://localhost/` : `http://${u.host}:${u.port}/`;
}

export function siteBody(ctx) {
  const v24 = gte(ctx.proxyVersion, '2.4');
  const access = v24 ? [D('Require', ['all', 'granted'])] : [D('Order', ['allow,deny']), D('Allow', ['from', 'all'])];
  const vhost = [
    D('ServerName', 'localhost'),
    D('DocumentRoot', `${ctx.root}/public`, t('apache.root'), [SRC.apacheCore]),
    { section: 'Directory', args: [`${ctx.root}/public`], children: [D('Options', '-MultiViews'), D('AllowOverride', 'None'), ...access] },
  ];
  if (gte(ctx.a.rails, '3.1')) {
    vhost.push({
      section: 'LocationMatch', args: ['^/assets/'], why: t('apache.assets'), evidence: [SRC.pumaNginx],
      children: [D('ExpiresActive', 'On'), D('ExpiresDefault', 'access plus 1 year'), D('Header', ['set', 'Cache-Control', 'public'])],
    });
  }
  if (ctx.passengerIntegrated) {
    vhost.push(...passengerVhostDirectives(ctx));
  } else {
    vhost.push(D('ProxyPreserveHost', 'On'));
    vhost.push(D('RequestHeader', ['set', 'X-Forwarded-Proto', 'http']));
    vhost.push(D('ProxyPass', ['/assets/', '!'], t('apache.assets-not-proxied'), [SRC.apacheProxy]));
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
  const body = [];
  if (ctx.passengerIntegrated) body.push(...passengerApacheDirectives(ctx), { blank: true });
  body.push({ section: 'VirtualHost', args: ['*:80'], children: vhost });
  return body;
}

export function generate(ctx) {
  if (ctx.proxy !== 'apache') return {};
  const advice = [{
    id: 'apache-mpm', title: t('a.apache-mpm.title'),
    body: t('a.apache.mpm', { mods: apacheModules(ctx).join(' ') }),
    evidence: [SRC.apacheMpm, DS.passengerHosts],
  }];
  return { files: [{ path: 'etc/apache2/sites-available/rails-app.conf', format: 'apache', body: siteBody(ctx), meta: { modules: apacheModules(ctx) } }], advice };
}
