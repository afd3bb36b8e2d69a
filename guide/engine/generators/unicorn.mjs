// config/unicorn.rb (Unicorn::Configurator DSL; hash-rocket syntax so it parses on Ruby 1.8 too).
import { SRC, DS } from '../evidence.mjs';
import { RAILS_API } from '../caps.mjs';
import { has } from '../pick.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';
import { serverRequestTimeout } from './edge.mjs';
import { gte } from '../version.mjs';
import { UNICORN_DSL } from '../capabilities/unicorn.mjs';

export const id = 'unicorn';

// The zero-downtime handover of `systemctl reload` (USR2, capabilities/process.mjs): the new master, once it forks its
// last worker, sends QUIT to the old master named in unicorn.pid.oldbin (Unicorn's examples/unicorn.conf.rb).
const HANDOVER = [
  '# systemctl reload (USR2): once this new master forks its last worker, the old master (unicorn.pid.oldbin) stops gracefully',
  'old_pid = "#{server.config[:pid]}.oldbin"',
  'if worker.nr == server.worker_processes - 1 && old_pid != server.pid && File.exist?(old_pid)',
  '  begin',
  '    Process.kill("QUIT", File.read(old_pid).to_i)',
  '  rescue Errno::ENOENT, Errno::ESRCH',
  '  end',
  'end',
];

export function listenArg(u) {
  return u.type === 'unix' ? u.path : `${u.host}:${u.port}`;
}

export function generate(ctx) {
  if (!APPLIES.unicorn(ctx)) return {};
  const { a } = ctx;
  const u = ctx.upstreams[0];
  const vars = { processes: ctx.processes, cores: a.cores, workload: a.workload, per: t(`unicorn.per.${a.workload}`), ram: ctx.memoryLimited ? t('unicorn.ram') : '', what: t(u.type === 'unix' ? 'unicorn.what.socket' : 'unicorn.what.address'), rails: a.rails };
  const body = [
    { call: 'worker_processes', args: [ctx.processes], why: t('unicorn.workers', vars), evidence: [SRC.unicornConf, DS.serverMemory] },
    { call: 'working_directory', args: [ctx.appDir], why: t('unicorn.wd'), evidence: [SRC.unicornConf] },
    { call: 'listen', args: [listenArg(u), { hash: { backlog: 1024 } }], why: t('unicorn.listen', vars), evidence: [SRC.unicornConf, SRC.ipSysctl] },
    { call: 'timeout', args: [serverRequestTimeout(ctx)], why: t('unicorn.timeout'), evidence: [SRC.unicornConf] },
    { call: 'pid', args: [`${ctx.root}/tmp/pids/unicorn.pid`], why: t('unicorn.pid'), evidence: [SRC.unicornConf] },
    { call: 'stderr_path', args: [`${ctx.root}/log/unicorn.stderr.log`] },
    { call: 'stdout_path', args: [`${ctx.root}/log/unicorn.stdout.log`] },
    { call: 'preload_app', args: [true], why: t('unicorn.preload'), evidence: [SRC.unicornConf] },
  ];
  if (a.ruby === 'ree') {
    body.push({ code: ['GC.respond_to?(:copy_on_write_friendly=) and GC.copy_on_write_friendly = true'], why: t('unicorn.ree-cow'), evidence: [SRC.reeGc] });
  }
  // Only where this Unicorn has the setting (capabilities/unicorn.mjs): an unknown name stops the master at boot.
  if (!a.server_version || gte(a.server_version, UNICORN_DSL.check_client_connection.since)) {
    body.push({ call: 'check_client_connection', args: [false], why: t('unicorn.check'), evidence: [SRC.unicornConf] });
  }
  body.push({ blank: true });
  body.push({ hook: 'before_fork', params: ['server', 'worker'], body: ['defined?(ActiveRecord::Base) and ActiveRecord::Base.connection.disconnect!', ...HANDOVER], why: t('unicorn.before-fork'), evidence: [SRC.unicornConf, SRC.unicornSignals] });
  body.push({
    hook: 'after_fork', params: ['server', 'worker'], body: ['defined?(ActiveRecord::Base) and ActiveRecord::Base.establish_connection'],
    why: t(has(RAILS_API.poolPerPid, a.rails) ? 'unicorn.after-fork.modern' : 'unicorn.after-fork.old', vars), evidence: [SRC.unicornConf, SRC.railsPool],
  });
  return { files: [{ path: 'config/unicorn.rb', format: 'ruby', body }] };
}
