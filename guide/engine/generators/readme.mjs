// README.md for the bundle: what each file is, where it goes, the sizing numbers and the warnings.
import { SERVER_LABEL } from './util.mjs';
import { t } from '../text.mjs';
import { memorySum } from '../arithmetic.mjs';
import { opsBlocks } from './readme-ops.mjs';
import { execStart, absolute } from './systemd.mjs';
import { distroRubyMismatch } from './family-steps.mjs';

export const id = 'readme';

// path pattern → catalog id of the install instruction
const INSTALL = [
  // PgBouncer's own access file before PostgreSQL's (the same name): reloading PostgreSQL would not read it.
  [/(^|\/)setup\//, 'setup'], [/(^|\/)etc\/pgbouncer\/pg_hba\.conf$/, 'pgbouncer-hba'], [/pg_hba\.conf$/, 'pg-hba'], [/^db-host\//, 'db-host'], [/^lb-host\/lb-rotation\.sh$/, 'lb-rotation'], [/^lb-host\//, 'lb-host'],
  [/^etc\/nginx\/nginx\.conf$/, 'nginx-main'], [/^etc\/nginx\/sites-enabled\//, 'nginx-site'], [/^etc\/apache2\//, 'apache'],
  [/^etc\/caddy\//, 'caddy'], [/^etc\/sysctl\.d\//, 'sysctl'], [/^etc\/udev\//, 'udev'], [/^etc\/systemd\/system\/[^/]+\.d\//, 'systemd-dropin'], [/^etc\/redis\//, 'redis'], [/^etc\/systemd\//, 'systemd'],
  [/^usr\/local\/etc\/rc\.d\//, 'rc'], [/^usr\/local\/etc\/rails-app\//, 'secrets-freebsd'], [/^etc\/security\//, 'limits'], [/^etc\/postgresql\//, 'postgresql'], [/^etc\/mysql\//, 'mysql'], [/^etc\/pgbouncer\//, 'pgbouncer'],
  [/^config\//, 'config'], [/^migrate-to\//, 'migrate'], [/^etc\/rails-app\/passenger-ruby$/, 'passenger-ruby'], [/^etc\/rails-app\//, 'secrets'], [/^etc\/logrotate\.d\//, 'logrotate'],
];

/** Where a file goes on a non-Debian family (capabilities/distros.mjs), or null when the bundle path is the place. */
export function familyDestination(ctx, path) {
  const f = ctx.family;
  if (!f || f.id === 'debian') return null;
  const p = path.replace(/^(db-host|lb-host)\//, '');
  let m;
  if (/^etc\/nginx\/sites-enabled\/rails-app\.conf$/.test(p)) return f.nginxSite;
  if (/^etc\/apache2\/sites-available\/rails-app\.conf$/.test(p)) return f.apacheSite;
  if ((m = /^etc\/postgresql\/([\d.]+)\/main\/(.+)$/.exec(p))) return `${f.pgDir.replace('{v}', m[1]).replace('{major}', m[1].split('.')[0])}/${m[2]}`;
  if ((m = /^etc\/mysql\/(?:mariadb\.|mysql\.)?conf\.d\/(.+)$/.exec(p))) return `${f.mysqlDir}/${m[1]}`;
  if (f.id === 'freebsd' && /^etc\/(nginx|pgbouncer)\//.test(p)) return `/usr/local/${p}`;
  return null;
}

export function finish(summary) {
  const { files, warnings, ctx } = summary;
  const shipped = distroRubyMismatch(ctx);
  const { a } = ctx;
  const rows = files.map((f) => {
    // {dest}: the file's place on its host (lb-host/etc/nginx/nginx.conf → /etc/nginx/nginx.conf), for rows that name it.
    const kind = (INSTALL.find(([re]) => re.test(f.path)) || [null, 'other'])[1];
    // With Passenger's wrapper the secrets file is also the app's group's (README step 2).
    const how = t(`readme.install.${kind === 'secrets' && ctx.passengerEnvWrapper ? 'secrets-passenger' : kind}`, { dest: `/${f.path.replace(/^(lb-host|db-host)\//, '')}`, user: ctx.user });
    const dest = familyDestination(ctx, f.path);
    // What another finishing step knows about the file (readme-hosts.mjs: the database host's certificate pair).
    const note = summary.rowNotes?.[f.path];
    return [f.path, [how, dest ? t('readme.install.family', { family: ctx.family.id, dest }) : '', note || ''].filter(Boolean).join(' ')];
  });
  rows.push(['CHECKLIST.md', t('readme.checklist')]);
  const vars = {
    impl: ctx.impl.label, ruby: shipped ? t('readme.stack.ruby', { ruby: a.ruby_version, distro: a.distro, shipped }) : a.ruby_version, rails: a.rails, server: SERVER_LABEL[ctx.server], serverVersion: ctx.serverVersion, proxy: a.proxy, proxyVersion: a.proxy_version,
    db: a.database, dbVersion: a.database_version, adapter: ctx.adapter + (ctx.pooler !== 'none' ? ', PgBouncer' : ''), os: a.os, kernel: a.os === 'linux' ? a.kernel : '', cores: a.cores, ram: a.ram_gb, hosts: a.app_hosts, root: ctx.root,
  };
  const blocks = [
    { h: 1, text: t('readme.title') },
    { p: t('readme.stack', vars) },
    { p: t('readme.root', vars) },
    { h: 2, text: t('readme.sizing') },
    {
      table: {
        head: [t('readme.item'), t('readme.value')],
        rows: [
          [t('readme.processes'), String(ctx.processes)],
          [t('readme.threads'), String(ctx.threads)],
          [t('readme.pool'), String(ctx.pool)],
          [t('readme.needed'), String(ctx.connectionsNeeded)],
          [t('readme.jobs'), ctx.jobsInPuma ? t('readme.jobs.puma', { threads: ctx.jobThreads, runner: ctx.jobRunner.label }) : ctx.jobRunner ? t('readme.jobs.runner', { n: ctx.jobProcesses, threads: ctx.jobThreads, runner: ctx.jobRunner.label }) : t('readme.jobs.none')],
          [t('readme.job-connections'), String(ctx.jobConnections)],
          [t('readme.web-connections'), t('readme.web-connections.value', { n: ctx.webConnectionsPerProcess, roles: ctx.webDbRoles.join(', ') })],
          [t('readme.tls'), t(`readme.tls.${ctx.tls}`, { proxy: ctx.proxy, domain: ctx.domain })],
          [t('readme.limit'), ctx.appSideLimit === null ? t('readme.na') : String(ctx.appSideLimit)],
          [t('readme.memory'), `${t('readme.memory.value', { total: ctx.memoryTotalMb, ram: ctx.ramMb })}: ${memorySum(ctx.memory)}`],
          // Without systemd (init = other, FreeBSD, Alpine's OpenRC, macOS) the reader's init system runs this in the foreground.
          ...(ctx.a.init !== 'systemd' && !ctx.passengerIntegrated ? [[t('readme.foreground'), t('readme.foreground.value', { cmd: absolute(ctx, execStart(ctx)), root: ctx.root, user: ctx.user })]] : []),
          [t('readme.worker-mb'), [ctx.workerMbMeasured ? t('mem.worker.measured', { mb: ctx.perWorkerMb }) : t('mem.worker.estimate', { mb: ctx.perWorkerMb, why: `${t(`mem.worker.${ctx.workerMbWhy}`)}.` }), ctx.forkSharing ? t('mem.worker.model', { pct: ctx.forkSharing.privatePct }) : ''].filter(Boolean).join(' ')],
          [t('readme.hosts'), t('readme.hosts.value', { app: [...new Set([ctx.hosts.app[0], ctx.hosts.app.at(-1)])].join(' … '), db: ctx.hosts.db, lb: `${a.lb} ${ctx.hosts.lb}` })],
        ],
      },
    },
    { h: 2, text: t('readme.files') },
    { table: { head: [t('readme.file'), t('readme.install')], rows } },
  ];
  if (warnings.length) {
    blocks.push({ h: 2, text: t('readme.warnings') });
    blocks.push({ list: warnings.map((w) => `${w.severity.toUpperCase()}: ${w.message} ${w.suggestion || ''}`.trim()) });
  }
  blocks.push(...opsBlocks(ctx, files, summary.hostBlocks || {}));
  blocks.push({ p: t('readme.estimates') });
  return [{ path: 'README.md', format: 'markdown', body: blocks }];
}

export function generate() {
  return {};
}
