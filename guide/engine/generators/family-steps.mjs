// The README's commands for the chosen distribution family, each taken from its row of
// capabilities/family-commands.mjs: package installs (with the vendor repository a release lacks), the service
// user, the editor, service names, Apache's module switches, firewall and SELinux. No command is spelled here.
import { FAMILY_COMMANDS, DISTRO_RELEASES } from '../caps.mjs';
import { pgMajor } from './postgresql.mjs';

const fill = (s, vars) => s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));

/** The command row of the app hosts' family, or null (no table: the README gives no shell steps). */
export function commandsOf(ctx) {
  return FAMILY_COMMANDS[ctx.family.id] || null;
}

/** What the answered release ships ({ruby, postgresql, …}), or null for a release the table does not know. */
export function releaseOf(ctx) {
  return DISTRO_RELEASES.find((r) => new RegExp(r.match, 'i').test(ctx.a.distro || '')) || null;
}

const minor = (v) => String(v).split('.').slice(0, 2).join('.');

/** The distribution's Ruby when the units would run it (ruby_path /usr/bin) and it is not the answered one, else null. */
export function distroRubyMismatch(ctx) {
  const shipped = ctx.linux && ctx.a.ruby === 'cruby' && ctx.rubyBin === '/usr/bin' && releaseOf(ctx)?.ruby;
  return shipped && shipped !== minor(ctx.a.ruby_version) ? shipped : null;
}

/** MySQL/MariaDB the release does not ship (PostgreSQL gets the PGDG step instead), else null. */
export function distroDbMismatch(ctx) {
  const shipped = ['mysql', 'mariadb'].includes(ctx.a.database) && releaseOf(ctx)?.[ctx.a.database];
  return shipped && shipped !== minor(ctx.a.database_version) ? shipped : null;
}

function vars(ctx) {
  const db = ctx.a.database === 'postgresql' ? pgMajor(ctx.a.database_version) : '';
  const arm = ctx.a.arch === 'arm64';
  return { major: db, root: ctx.root, el: releaseOf(ctx)?.el || '9', arch: arm ? 'aarch64' : 'x86_64', triplet: arm ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu' };
}

export const serviceName = (ctx, key) => fill(commandsOf(ctx).services[key], vars(ctx));
export const editCommand = (ctx, file) => fill(commandsOf(ctx).edit, { file });
export const systemUser = (ctx, user, home) => fill(commandsOf(ctx).systemUser, { user, home });
export const apacheTest = (ctx) => commandsOf(ctx).apacheTest;
export const pgConfD = (ctx) => commandsOf(ctx).pgConfD.map((l) => fill(l, vars(ctx)));
export const apacheEnable = (ctx, mods) => commandsOf(ctx).apacheEnable.map((l) => fill(l, { mods: mods.join(' ') }));

/** The same-host database server, or '' (SQLite, or a database on its own host). */
function localDb(ctx) {
  return ctx.a.db_host === 'same' && ['postgresql', 'mysql', 'mariadb'].includes(ctx.a.database) ? ctx.a.database : '';
}

/** Package install lines for this host: repositories first (PGDG where the release lacks the major), then one install. */
export function packageLines(ctx) {
  const c = commandsOf(ctx);
  const v = vars(ctx);
  const keys = [];
  if (['nginx', 'apache', 'caddy'].includes(ctx.proxy)) keys.push(ctx.proxy);
  if (ctx.tls === 'proxy' && ['nginx', 'apache'].includes(ctx.proxy)) keys.push('certbot');
  const db = localDb(ctx);
  if (db) keys.push(db);
  if (db === 'postgresql' && ctx.pooler === 'pgbouncer') keys.push('pgbouncer');
  if (ctx.rubyBin === '/usr/bin') keys.push('bundler');
  const shipped = releaseOf(ctx)?.postgresql;
  const pg = db === 'postgresql';
  // RHEL's PGDG packages are the only ones named postgresqlNN-server; Debian needs PGDG only for a major it lacks.
  return [
    ...(pg && (c.pgInit.length || (shipped && shipped !== v.major)) ? c.pgRepo : []),
    ...(keys.some((k) => c.epel?.includes(k)) ? [c.epelInstall] : []),
    ...keys.map((k) => c.packages[k]),
    ...(pg ? c.pgInit : []),
    ...(db ? c.dbStart : []),
  ].map((l) => fill(l, { ...v, service: db && serviceName(ctx, db) }));
}

/** Firewall and SELinux lines for a proxy on this host (RHEL family; Debian enables neither by default). */
export function securityLines(ctx) {
  const c = commandsOf(ctx);
  if (!['nginx', 'apache', 'caddy'].includes(ctx.proxy)) return [];
  const s = c.selinux;
  const unix = ctx.upstreams.some((u) => u.type === 'unix');
  const lines = [...c.firewall];
  if (ctx.proxy !== 'caddy') {
    lines.push(...(unix ? s.socket : s.tcp));
    if (!ctx.root.startsWith('/var/www/')) lines.push(...s.content); // /var/www is httpd_sys_content_t already
  }
  return lines.map((l) => fill(l, vars(ctx)));
}
