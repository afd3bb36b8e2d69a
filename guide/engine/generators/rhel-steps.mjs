// The README's pieces that only the RHEL family's row asks for (trial 24): the Ruby module stream step 1 enables,
// the line that enables the proxy and certbot's timer at boot (RHEL's packages leave them disabled), and the firewall
// and SELinux lines with the paths of the release directories. family-steps.mjs reaches them through
// ctx.generator('rhel-steps') for that family only; on the page this is a chunk (guide/ui/generators.mjs), so
// Debian bundles, the default among them, do not carry the code in their first-load script. It writes no file.
import { commandsOf, releaseOf, fam } from './family-steps.mjs';
import { W } from '../rules.mjs';
import { SRC } from '../evidence.mjs';

export const id = 'rhel-steps';

const minor = (v) => String(v).split('.').slice(0, 2).join('.');

/**
 * The release's nginx module stream for the answered nginx where it is not the release's default nginx (RHEL 9 ships
 * 1.20 as its RPM and nginx:1.22, 1.24 and 1.26 as AppStream module streams from 9.1, 9.3 and 9.5), or null. The
 * edge's nginx, and a balancer's when the edge is nginx too (it takes proxy_version then).
 */
export function nginxStreamOf(ctx) {
  const v = minor(ctx.proxyVersion);
  const r = releaseOf(ctx);
  return ctx.proxy === 'nginx' && commandsOf(ctx)?.nginxStream && r?.nginx !== v && r?.nginxStreams?.includes(v) ? v : null;
}

/**
 * The info that README step 1 (and 11) enable the stream, in place of the distro-nginx warning (family-steps.mjs);
 * and, where the release's Redis service is another server (RHEL 10: Valkey, family-commands.mjs byEl), that README
 * installs that one for Sidekiq, which supports it as a Redis.
 */
export function generate(ctx) {
  const stream = nginxStreamOf(ctx);
  // (Only for the RHEL family: Debian's unit is redis-server, which is Redis itself.)
  const redis = ctx.family.id === 'rhel' && ctx.jobs === 'sidekiq' && ctx.linux ? fam(ctx, 'services.redis') : 'redis';
  return { warnings: [
    ...(stream ? [W('distro-nginx-stream', 'info', { distro: ctx.a.distro, shipped: releaseOf(ctx).nginx, v: ctx.proxyVersion, stream }, [SRC.rhelAppStreams, SRC.nginxChanges])] : []),
    ...(redis !== 'redis' ? [W('redis-fork', 'info', { distro: ctx.a.distro, server: redis, v: releaseOf(ctx)?.redis }, [SRC.sidekiqRedis])] : []),
  ] };
}

/** The release's module stream that gives the answered CRuby at /usr/bin (RHEL 9's ruby:3.3), or null. */
export function rubyStreamOf(ctx) {
  const v = minor(ctx.a.ruby_version);
  const ok = ctx.linux && ctx.a.ruby === 'cruby' && ctx.rubyBin === '/usr/bin' && commandsOf(ctx)?.rubyStream;
  return ok && releaseOf(ctx)?.rubyStreams?.includes(v) ? v : null;
}

/** Module streams enabled before step 1's installs: the answered Ruby's and nginx's where the release has them. */
export function streamLines(ctx) {
  const ruby = rubyStreamOf(ctx);
  const nginx = nginxStreamOf(ctx);
  return [...(ruby ? [fam(ctx, 'rubyStream', { stream: ruby })] : []), ...(nginx ? [fam(ctx, 'nginxStream', { stream: nginx })] : [])];
}

/**
 * The family's line that enables this host's proxy and certbot's renewal timer at boot, or null where the packages
 * enable them on install (the row's bootEnable is empty). PgBouncer's is with its lines (pgbouncer.mjs).
 */
export function bootEnableLine(ctx) {
  const c = commandsOf(ctx);
  if (!c?.bootEnable) return null;
  const keys = [
    ...(['nginx', 'apache', 'caddy'].includes(ctx.proxy) ? [ctx.proxy] : []),
    ...(ctx.tls === 'proxy' && ['nginx', 'apache'].includes(ctx.proxy) ? ['certbot'] : []),
  ];
  return keys.length ? fam(ctx, 'bootEnable', { units: keys.map((k) => fam(ctx, `services.${k}`)).join(' ') }) : null;
}

/**
 * Firewall and SELinux lines for the proxy on this host, per upstream type. {public} is the tree labelled for the
 * proxy to read and {publicDir} the directory restorecon walks. With release directories that is all of releases/:
 * deploy.sh makes each new release there (install -d, tar -x), and a new file takes its parent directory's label, not
 * the policy's rule, until a restorecon (which deploy.sh never runs). Labelling only releases/<id>/public left every
 * later release with its parent's label: under /var/www that is httpd_sys_content_t anyway, but with an app root
 * elsewhere (/srv/app: var_t) nginx could not read the assets of the next release (trial 24 m2, issue 24 D4). So the
 * whole releases tree is readable to the proxy, as everything under /var/www is by default; `restorecon -R` of a
 * missing path fails, so it walks releases/ (deploy.sh init has moved public/ there). nginx.conf's
 * worker_rlimit_nofile needs httpd_setrlimit (the row's nginxRlimit); httpd's configuration sets no limit.
 */
export function securityLines(ctx) {
  const type = ctx.upstreams.some((u) => u.type === 'unix') ? 'unix' : 'tcp';
  const lines = fam(ctx, `security.${ctx.proxy === 'apache' ? 'nginx' : ctx.proxy}.${type}`,
    ctx.releases ? { public: `${ctx.root}/releases`, publicDir: `${ctx.root}/releases` } : { public: `${ctx.root}/public`, publicDir: `${ctx.root}/public` });
  return ctx.proxy === 'nginx' && lines.length ? [...lines, fam(ctx, 'nginxRlimit')] : lines;
}
