// Service unit with LimitNOFILE (systemd), or a PAM limits file (other init systems).
import { SRC, DS } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { railsServerCommand, SERVER_LABEL, APP_USER } from './util.mjs';
import { falconCommand } from './falcon.mjs';
import { standaloneCommand } from './passenger.mjs';
import { t } from '../text.mjs';

export const id = 'systemd';

export function execStart(ctx) {
  const u = ctx.upstreams[0];
  switch (ctx.server) {
    case 'puma': return 'bundle exec puma -C config/puma.rb';
    // Rails 2.x apps have no config.ru; Unicorn ships unicorn_rails for them.
    case 'unicorn': return `bundle exec ${gte(ctx.a.rails, '3.0') ? 'unicorn' : 'unicorn_rails'} -c config/unicorn.rb -E production`;
    case 'pitchfork': return 'bundle exec pitchfork -c config/pitchfork.rb';
    case 'thin': return 'bundle exec thin start -C config/thin.yml';
    case 'mongrel': return 'mongrel_rails cluster::start -C config/mongrel_cluster.yml';
    case 'falcon': return falconCommand(ctx);
    case 'passenger': return standaloneCommand(ctx);
    default: return `bundle exec ${railsServerCommand(ctx.a.rails)} -e production -b ${u.host} -p ${u.port}`;
  }
}

export function generate(ctx) {
  if (!ctx.linux) return {};
  if (ctx.passengerIntegrated) {
    // Passenger lives inside Apache; Apache's own unit applies. Still raise its file limit.
    return ctx.a.init === 'systemd'
      ? { files: [{ path: 'etc/systemd/system/apache2.service.d/limits.conf', format: 'systemd', body: [{ section: 'Service', entries: [{ key: 'LimitNOFILE', value: 65536, why: t('systemd.1'), evidence: [SRC.fdLimits, DS.sysctl] }] }] }] }
      : { files: [limitsFile(ctx, 'www-data')] };
  }
  if (ctx.a.init !== 'systemd') return { files: [limitsFile(ctx, APP_USER)] };
  const db = ctx.a.db_host === 'same' && ctx.a.database !== 'sqlite' ? (ctx.a.database === 'postgresql' ? 'postgresql.service' : 'mariadb.service mysql.service') : '';
  const daemonizing = ctx.server === 'mongrel';
  const unit = [
    {
      section: 'Unit', entries: [
        { key: 'Description', value: `Rails application (${SERVER_LABEL[ctx.server]})` },
        { key: 'After', value: `network.target${db ? ` ${db}` : ''}${ctx.pooler === 'pgbouncer' ? ' pgbouncer.service' : ''}` },
      ],
    },
    {
      section: 'Service', entries: [
        { key: 'Type', value: daemonizing ? 'forking' : 'simple' },
        { key: 'User', value: APP_USER, why: t('systemd.user'), evidence: [SRC.systemdExec] },
        { key: 'WorkingDirectory', value: ctx.root },
        { key: 'Environment', value: 'RAILS_ENV=production' },
        { key: 'EnvironmentFile', value: `${ctx.root}/config/ruby.env`, why: t('systemd.2'), evidence: [SRC.systemdExec] },
        { key: 'ExecStart', value: `/usr/bin/env ${execStart(ctx)}`, why: t('systemd.exec'), evidence: [SRC.systemdService] },
        { key: 'Restart', value: 'always', why: t('systemd.restart'), evidence: [SRC.systemdService] },
        { key: 'LimitNOFILE', value: 65536, why: t('systemd.3'), evidence: [SRC.fdLimits, DS.sysctl] },
        { key: 'TimeoutStopSec', value: 35, why: t('systemd.stop'), evidence: [SRC.systemdService, SRC.pumaConfig] },
      ],
    },
    { section: 'Install', entries: [{ key: 'WantedBy', value: 'multi-user.target' }] },
  ];
  return { files: [{ path: 'etc/systemd/system/rails-app.service', format: 'systemd', body: unit }] };
}

function limitsFile(ctx, user) {
  return {
    path: 'etc/security/limits.d/90-rails.conf', format: 'lines',
    body: [
      `# ${t('systemd.limits', { user })}`,
      `# see: ${DS.sysctl.url}`,
      `${user} soft nofile 65536`,
      `${user} hard nofile 65536`,
    ],
  };
}
