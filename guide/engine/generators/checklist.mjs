// CHECKLIST.md: the advice as a printable task list, plus the install steps.
import { t } from '../text.mjs';
import { SRC } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { railsTask, prepareTask } from './rails-commands.mjs';
import { healthPath } from './releases.mjs';
import { behindBalancer } from './util.mjs';

/** Operations items for this stack: [text, evidence] pairs (health checks, backups, restarts, logs, connections). */
/** Host set-up that depends on the distribution family (capabilities/distros.mjs): firewall, SELinux, init, kernel. */
export function familyItems(ctx) {
  const { a, family: f, hosts } = ctx;
  const out = [];
  const port = ctx.pooler === 'pgbouncer' ? 6432 : a.database === 'postgresql' ? 5432 : 3306;
  const db = a.db_host === 'separate' && a.database !== 'sqlite' ? { port, n: hosts.app.length } : null;
  if (ctx.familyGuessed) out.push([t('ops.family-unknown', { distro: a.distro }), SRC.nginxCore]);
  if (f.selinux && ctx.proxy !== 'none') {
    out.push(ctx.upstreams.some((u) => u.type === 'unix') ? [t('ops.selinux.unix', { root: ctx.root }), SRC.selinuxHttpd] : [t('ops.selinux.tcp'), SRC.selinuxHttpd]);
  }
  // ufw and a firewalld rich rule take one source address per rule (SRE trial D20: "from A, B" is neither's syntax):
  // one rule per app host (the first three, then "the same for the others"). SSH is allowed before `ufw enable`,
  // which would otherwise cut the session that runs it.
  const rules = (fw) => ({ ...db, rules: hosts.app.slice(0, 3).map((addr) => t(`ops.${fw}.rule`, { addr, port })).join('; '), more: hosts.app.length > 3 ? t('ops.ufw.db.more', { n: hosts.app.length - 3 }) : '' });
  if (f.firewall === 'firewalld') out.push([t('ops.firewalld'), SRC.firewalld], ...(db ? [[t('ops.firewalld.db', rules('firewalld')), SRC.firewalld]] : []));
  if (f.firewall === 'ufw' && ctx.linux && !ctx.familyGuessed) out.push([t(behindBalancer(ctx) ? 'ops.ufw.lb' : 'ops.ufw', { lb: hosts.lb }), SRC.ufw], ...(db ? [[t('ops.ufw.db', rules('ufw')), SRC.ufw]] : []));
  if (f.id === 'alpine') out.push([t('ops.openrc'), SRC.alpineNginx]);
  if (f.id === 'freebsd') out.push([t('ops.freebsd.sysctl'), SRC.freebsdTuning], [t('ops.freebsd.rc'), SRC.freebsdRc]);
  return out;
}

export function operations(ctx, { restart: withRestart = true } = {}) {
  const { a } = ctx;
  const db = a.database === 'mariadb' ? 'mysql' : a.database;
  const restart = { puma: 'puma', unicorn: 'unicorn', pitchfork: 'unicorn', passenger: 'passenger' }[ctx.server] || 'other';
  const items = [
    gte(a.rails, '7.1') ? [t('ops.health.up'), SRC.railsHealth] : [t('ops.health.own', { rails: a.rails }), SRC.railsHealth],
    [t(`ops.backup.${db}`), SRC[{ postgresql: 'pgBackup', mysql: 'mysqlBackup', sqlite: 'sqliteBackup' }[db]]],
    [t('ops.logs'), SRC.logrotate],
    // Old code runs against the new schema during every deploy and after a rollback (README step 7; SRE check 4, D8).
    [t('ops.migrations.expand'), SRC.strongMigrations],
  ];
  // systemd hosts get the unit's reload as their deploy step (issue 10's items); the others get the server's own.
  if (withRestart) items.splice(2, 0, [t(`ops.restart.${restart === 'puma' && ctx.mode !== 'cluster' ? 'other' : restart}`), SRC[{ puma: 'pumaRestart', unicorn: 'unicornSignals', passenger: 'passengerRestart', other: 'systemdService' }[restart]]]);
  items.push(...familyItems(ctx));
  if (ctx.pooler === 'pgbouncer') items.push([t('ops.connections.pgbouncer', { pool: ctx.pgbouncerPoolSize }), SRC.pgbouncerShow]);
  if (db === 'postgresql') items.push([t('ops.connections.pg', { max: ctx.maxConnections }), SRC.pgMonitoring]);
  if (db === 'mysql') items.push([t('ops.connections.mysql', { max: ctx.maxConnections }), SRC.mysqlVars]);
  return items;
}

export const id = 'checklist';

export function finish({ advice, warnings, files, ctx }) {
  const blocks = [
    { h: 1, text: t('checklist.title') },
    { h: 2, text: t('checklist.config') },
    { list: files.filter((f) => !f.path.startsWith('migrate-to/') && f.path !== 'README.md').map((f) => t('checklist.install', { path: f.path })), task: true },
  ];
  const errors = warnings.filter((w) => w.severity !== 'info');
  if (errors.length) blocks.push({ h: 2, text: t('checklist.resolve') }, { list: errors.map((w) => `${w.message} ${w.suggestion || ''}`.trim()), task: true });
  // Operations: the service set-up steps (issue 10, systemd hosts), then health checks, backups, restarts, logs and
  // connection monitoring for this stack (issue 11), each with its source.
  const setup = ctx && ctx.linux && ctx.a.init === 'systemd' && !ctx.passengerIntegrated
    ? ['secrets', 'database', ctx.tls === 'proxy' ? 'certs' : `certs-${ctx.tls}`, 'start', 'deploy', 'rollback', 'sandbox'].map((k) => t(`checklist.ops.${k}`, { domain: ctx.domain, prepare: railsTask(ctx, prepareTask(ctx)), up: healthPath(ctx) }))
    : [];
  blocks.push({ h: 2, text: t('checklist.ops') });
  blocks.push({ list: [...setup, ...operations(ctx, { restart: setup.length === 0 }).map(([text, e]) => `${text} (${t('checklist.evidence')}: ${e.url})`)], task: true });
  blocks.push({ h: 2, text: t('checklist.app') });
  blocks.push({ list: advice.map((x) => `${x.title}: ${x.body} (${t('checklist.evidence')}: ${x.evidence.map((e) => e.url).join(', ')})`), task: true });
  return [{ path: 'CHECKLIST.md', format: 'markdown', body: blocks }];
}

export function generate() {
  return {};
}
