// README.md for the bundle: what each file is, where it goes, the sizing numbers and the warnings.
import { SERVER_LABEL } from './util.mjs';
import { t } from '../text.mjs';
import { opsBlocks } from './readme-ops.mjs';

export const id = 'readme';

// path pattern → catalog id of the install instruction
const INSTALL = [
  [/(^|\/)setup\//, 'setup'], [/pg_hba\.conf$/, 'pg-hba'], [/^db-host\//, 'db-host'], [/^lb-host\//, 'lb-host'],
  [/^etc\/nginx\/nginx\.conf$/, 'nginx-main'], [/^etc\/nginx\/sites-enabled\//, 'nginx-site'], [/^etc\/apache2\//, 'apache'],
  [/^etc\/caddy\//, 'caddy'], [/^etc\/sysctl\.d\//, 'sysctl'], [/^etc\/udev\//, 'udev'], [/^etc\/systemd\//, 'systemd'],
  [/^etc\/security\//, 'limits'], [/^etc\/postgresql\//, 'postgresql'], [/^etc\/mysql\//, 'mysql'], [/^etc\/pgbouncer\//, 'pgbouncer'],
  [/^config\//, 'config'], [/^migrate-to\//, 'migrate'], [/^etc\/rails-app\//, 'secrets'], [/^etc\/logrotate\.d\//, 'logrotate'],
];

export function finish({ files, warnings, ctx }) {
  const { a } = ctx;
  const rows = files.map((f) => [f.path, t(`readme.install.${(INSTALL.find(([re]) => re.test(f.path)) || [null, 'other'])[1]}`)]);
  rows.push(['CHECKLIST.md', t('readme.checklist')]);
  const vars = {
    impl: ctx.impl.label, ruby: a.ruby_version, rails: a.rails, server: SERVER_LABEL[ctx.server], serverVersion: ctx.serverVersion, proxy: a.proxy, proxyVersion: a.proxy_version,
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
          [t('readme.jobs'), ctx.jobRunner ? t('readme.jobs.runner', { n: ctx.jobProcesses, threads: ctx.jobThreads, runner: ctx.jobRunner.label }) : t('readme.jobs.none')],
          [t('readme.job-connections'), String(ctx.jobConnections)],
          [t('readme.web-connections'), t('readme.web-connections.value', { n: ctx.webConnectionsPerProcess, roles: ctx.webDbRoles.join(', ') })],
          [t('readme.tls'), t(`readme.tls.${ctx.tls}`, { proxy: ctx.proxy, domain: ctx.domain })],
          [t('readme.limit'), ctx.appSideLimit === null ? t('readme.na') : String(ctx.appSideLimit)],
          [t('readme.memory'), t('readme.memory.value', { total: ctx.memoryTotalMb, ram: ctx.ramMb })],
          [t('readme.worker-mb'), ctx.workerMbMeasured ? t('mem.worker.measured', { mb: ctx.perWorkerMb }) : t('mem.worker.estimate', { mb: ctx.perWorkerMb, why: `${t(`mem.worker.${ctx.workerMbWhy}`)}.` })],
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
  blocks.push(...opsBlocks(ctx, files));
  blocks.push({ p: t('readme.estimates') });
  return [{ path: 'README.md', format: 'markdown', body: blocks }];
}

export function generate() {
  return {};
}
