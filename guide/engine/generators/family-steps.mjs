// The README's commands for the chosen distribution family, each taken from its row of
// capabilities/family-commands.mjs: package installs (with the vendor repository a release lacks), the service
// user, the editor, service names, Apache's module switches, firewall and SELinux. No command is spelled here.
import { FAMILY_COMMANDS } from '../caps.mjs';
import { pgMajor } from './postgresql.mjs';
import { eolPassed, shippedBy } from '../version-defaults.mjs';

/** The command row of the app hosts' family, or null (no table: the README gives no shell steps). */
export const commandsOf = (ctx) => FAMILY_COMMANDS[ctx.family.id] || null;

/** What the answered release ships ({ruby, postgresql, …}), or null for a release the table does not know. */
export const releaseOf = (ctx) => shippedBy(ctx.a.distro);

const minor = (v) => String(v).split('.').slice(0, 2).join('.');

// The RHEL row's own pieces (module streams, boot enabling, firewall and SELinux) live in rhel-steps.mjs, a chunk on
// the page, reached for that family only: no other family's row has them (Debian's packages enable their services).
// The test is APPLIES['rhel-steps'] (applies.mjs), spelled here so that this first-load module does not import the
// predicates of every chunk.
const rhel = (ctx) => (ctx.family.id === 'rhel' ? ctx.generator('rhel-steps') : null);
/** The release's module stream that gives the answered CRuby at /usr/bin (RHEL 9's ruby:3.3), or null. */
export const rubyStreamOf = (ctx) => rhel(ctx)?.rubyStreamOf(ctx) ?? null;
/** Module stream lines before step 1's installs (RHEL 9's ruby:3.3, nginx:1.26), or none. */
const streamLines = (ctx) => rhel(ctx)?.streamLines(ctx) || [];
/** The line enabling the proxy and certbot's timer at boot where the packages do not (RHEL), or null. */
export const bootEnableLine = (ctx) => rhel(ctx)?.bootEnableLine(ctx) ?? null;
/** Firewall and SELinux lines for the proxy on this host (none on Debian). */
export const securityLines = (ctx) => rhel(ctx)?.securityLines(ctx) ?? [];

/** The distribution's Ruby when the units would run it (ruby_path /usr/bin) and it is not the answered one, else null. */
export function distroRubyMismatch(ctx) {
  if (rubyStreamOf(ctx)) return null;
  const shipped = ctx.linux && ctx.a.ruby === 'cruby' && ctx.rubyBin === '/usr/bin' && releaseOf(ctx)?.ruby;
  return shipped && shipped !== minor(ctx.a.ruby_version) ? shipped : null;
}

/** The implementation's name when the units would run the distribution's CRuby in its place (ruby_path /usr/bin), else null. */
export const distroRubyNotImpl = (ctx) => (ctx.linux && ctx.rubyBin === '/usr/bin' && !ctx.impl.distroRuby ? ctx.impl.label : null);

/**
 * The vendor repository's value for the answered MySQL series ({series} of the family's mysqlRepo) when the README
 * must add MySQL's own repository on the database's host (step 1, or the database host's block): a MySQL the known
 * release does not ship (Debian ships none, Ubuntu 24.04 and RHEL 9 ship 8.0). '' where the release ships it;
 * null where no repository step exists.
 */
export function mysqlRepoSeries(ctx) {
  if (ctx.a.database !== 'mysql') return '';
  const r = releaseOf(ctx);
  if (!r || r.mysql === minor(ctx.a.database_version)) return '';
  return rowValue(ctx, 'mysqlRepo.series')?.[minor(ctx.a.database_version)] || null;
}

/**
 * Answered versions the release does not ship, as {id, shipped, v}: nginx (the edge and a balancer run the
 * release's nginx: a newer answer emits directives `nginx -t` rejects), PostgreSQL (README adds PGDG) and the kernel.
 */
export function distroVersionMismatches(ctx) {
  const r = ctx.linux ? releaseOf(ctx) : null;
  if (!r) return [];
  // (A balancer's nginx takes proxy_version only when the edge is nginx too; otherwise the release's own.)
  const nginx = ctx.proxy === 'nginx';
  return [
    // (Not where the release has the answered nginx as a module stream: rhel-steps.mjs enables it and says so.)
    ...(nginx && r.nginx && r.nginx !== minor(ctx.proxyVersion) && !r.nginxStreams?.includes(minor(ctx.proxyVersion)) ? [{ id: 'distro-nginx', shipped: r.nginx, v: ctx.proxyVersion }] : []),
    ...(ctx.a.database === 'postgresql' && r.postgresql && r.postgresql !== pgMajor(ctx.a.database_version) ? [{ id: 'distro-postgresql', shipped: r.postgresql, v: pgMajor(ctx.a.database_version), eol: eolPassed('postgresql', r.postgresql, ctx.date) }] : []),
    ...(r.kernel && r.kernel !== minor(ctx.a.kernel) ? [{ id: 'distro-kernel', shipped: r.kernel, v: ctx.a.kernel }] : []),
  ];
}

/**
 * Entry `key` of the family's row as written (placeholders kept): the release's own entry where the row has one for
 * the answered EL major (byEl: RHEL 10's package names, its PGDG lines without a module step), else the family's.
 */
export function rowValue(ctx, key) {
  const get = (row) => key.split('.').reduce((o, k) => o?.[k], row);
  const c = commandsOf(ctx);
  return get(c?.byEl?.[releaseOf(ctx)?.el]) ?? get(c);
}

/**
 * Entry `key` of the family's row with its placeholders filled: a string, or a list of lines; `key` may be a path
 * ("services.nginx"). Placeholders: {major} (PostgreSQL), {root}, {el}, {arch}, {triplet}, {service} and `extra`.
 */
export function fam(ctx, key, extra = {}) {
  const arm = ctx.a.arch === 'arm64';
  const vars = { major: ctx.a.database === 'postgresql' ? pgMajor(ctx.a.database_version) : '', root: ctx.root, el: releaseOf(ctx)?.el || '9', arch: arm ? 'aarch64' : 'x86_64', triplet: `${arm ? 'aarch64' : 'x86_64'}-linux-gnu`, ...extra };
  const fill = (s) => s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  const v = rowValue(ctx, key) ?? [];
  return Array.isArray(v) ? v.map(fill) : fill(v);
}

/** The same-host database server, or '' (SQLite, or a database on its own host). */
const localDb = (ctx) => (ctx.a.db_host === 'same' && ['postgresql', 'mysql', 'mariadb'].includes(ctx.a.database) ? ctx.a.database : '');

/** Package lines for this host: repositories first (PGDG where the release lacks the major), one guarded line each. */
export function packageLines(ctx) {
  const c = commandsOf(ctx);
  const db = localDb(ctx);
  // MariaDB's own repository and server where the release ships an older series (mysql.mjs, a chunk: MariaDB only).
  const maria = db === 'mariadb' && ctx.generator('mysql').mariadbRepo(ctx);
  const keys = [
    ...(['nginx', 'apache', 'caddy'].includes(ctx.proxy) ? [ctx.proxy] : []),
    ...(ctx.tls === 'proxy' && ['nginx', 'apache'].includes(ctx.proxy) ? ['certbot'] : []),
    ...(db && !maria ? [db] : []),
    ...(db === 'postgresql' && ctx.pooler === 'pgbouncer' ? ['pgbouncer'] : []),
    // The distribution's bundler package runs its own CRuby: only for a CRuby bundle (capabilities/ruby.mjs distroRuby).
    ...(ctx.rubyBin === '/usr/bin' && ctx.impl.distroRuby ? ['bundler'] : []),
    // Passenger from the distribution (Standalone's program, or Apache's module in integrated mode).
    ...(ctx.server === 'passenger' ? [ctx.passengerIntegrated ? 'passengerApache' : 'passenger'] : []),
  ];
  const pg = db === 'postgresql';
  const shipped = releaseOf(ctx)?.postgresql;
  const extra = { service: db && fam(ctx, `services.${db}`) };
  // RHEL's PGDG packages are the only ones named postgresqlNN-server; Debian needs PGDG only for a major it lacks.
  const mysqlRepo = db === 'mysql' && mysqlRepoSeries(ctx);
  const lines = [
    ...(pg && (c.pgInit.length || (shipped && shipped !== pgMajor(ctx.a.database_version))) ? fam(ctx, 'pgRepo') : []),
    ...(mysqlRepo ? fam(ctx, 'mysqlRepo.lines', { series: mysqlRepo, aptConfig: c.mysqlRepo.aptConfig, release: c.mysqlRepo.release }) : []),
    ...(maria || []),
    ...(keys.some((k) => c.epel?.includes(k)) ? [c.epelInstall] : []),
    // Caddy's own repository where the release has no caddy package (its row's caddy is '').
    ...(ctx.proxy === 'caddy' && releaseOf(ctx)?.caddy === '' ? fam(ctx, 'caddyRepo') : []),
    ...(ctx.server === 'passenger' ? fam(ctx, 'passengerRepo') : []),
    // The answered Ruby's and nginx's module streams before the packages that pull them in (RHEL 9's ruby:3.3, nginx:1.26).
    ...streamLines(ctx),
    ...keys.map((k) => (k === 'mysql' && mysqlRepo ? fam(ctx, 'mysqlRepo.package') : fam(ctx, `packages.${k}`))),
    ...(pg ? fam(ctx, 'pgInit') : []),
    // The vendor's server package's own first-start fixes (RHEL's community RPM: my.cnf.d, the data directory).
    ...(mysqlRepo ? fam(ctx, 'mysqlRepo.init') : []),
    ...(db ? fam(ctx, 'dbStart', extra) : []),
    // …and its root password right after the first start (RHEL's community RPM: --initialize-insecure left none).
    ...(mysqlRepo ? fam(ctx, 'mysqlRepo.secure') : []),
  ];
  // The package index first where the family needs one (`refresh`: apt's lists are empty or stale on a fresh image,
  // and `apt-get install` then finds no package or fetches a superseded one), only when some install below will run:
  // the installs' own guards, joined (a host that has everything refreshes nothing).
  const guards = [...new Set(lines.map((l) => /^(.+?)(?: >\/dev\/null)? \|\| (?:DEBIAN_FRONTEND=\S+ )?apt-get install\b/.exec(l)?.[1]).filter(Boolean))]
    .map((g) => `${g} >/dev/null`);
  return [...(c.refresh && guards.length ? [`${guards.join(' && ')} || ${c.refresh}`] : []), ...lines];
}
