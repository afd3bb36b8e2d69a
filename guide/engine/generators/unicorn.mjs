// config/unicorn.rb (Unicorn::Configurator DSL; hash-rocket syntax so it parses on Ruby 1.8 too).
import { SRC, DS, ART } from '../evidence.mjs';
import { RAILS_API } from '../capabilities/rails.mjs';
import { has } from '../pick.mjs';

export const id = 'unicorn';

export function listenArg(u) {
  return u.type === 'unix' ? u.path : `${u.host}:${u.port}`;
}

export function generate(ctx) {
  if (ctx.server !== 'unicorn') return {};
  const { a } = ctx;
  const u = ctx.upstreams[0];
  const body = [
    { call: 'worker_processes', args: [ctx.processes], why: `${ctx.processes} workers for ${a.cores} core(s): each Unicorn worker serves one request at a time, so a ${a.workload} workload needs ${a.workload === 'io' ? 'about two per core' : a.workload === 'cpu' ? 'one per core' : 'about 1.5 per core'}${ctx.memoryLimited ? ', capped by RAM' : ''}.`, evidence: [SRC.unicornConf, DS.serverMemory] },
    { call: 'working_directory', args: [ctx.root] },
    { call: 'listen', args: [listenArg(u), { hash: { backlog: 1024 } }], why: `Same ${u.type === 'unix' ? 'socket path' : 'address'} as the proxy upstream. backlog 1024 (Unicorn's default) is effective only if net.core.somaxconn is at least as large.`, evidence: [SRC.unicornConf, SRC.ipSysctl] },
    { call: 'timeout', args: [30], why: 'Kill a worker stuck for 30 s (Unicorn\u2019s example; the default is 60).', evidence: [SRC.unicornConf] },
    { call: 'pid', args: [`${ctx.root}/tmp/pids/unicorn.pid`] },
    { call: 'stderr_path', args: [`${ctx.root}/log/unicorn.stderr.log`] },
    { call: 'stdout_path', args: [`${ctx.root}/log/unicorn.stdout.log`] },
    { call: 'preload_app', args: [true], why: 'Load the app once in the master, then fork: less memory through copy-on-write and fast worker respawns.', evidence: [SRC.unicornConf] },
  ];
  if (a.ruby === 'ree') {
    body.push({ code: ['GC.respond_to?(:copy_on_write_friendly=) and GC.copy_on_write_friendly = true'], why: 'REE\u2019s copy-on-write friendly GC keeps preloaded pages shared between forked workers.', evidence: [SRC.reeGc] });
  }
  body.push({ call: 'check_client_connection', args: [false] });
  body.push({ blank: true });
  body.push({
    hook: 'before_fork', params: ['server', 'worker'],
    body: ['defined?(ActiveRecord::Base) and ActiveRecord::Base.connection.disconnect!'],
    why: 'The master must not hand its database socket to the children.', evidence: [SRC.unicornConf],
  });
  body.push({
    hook: 'after_fork', params: ['server', 'worker'],
    body: ['defined?(ActiveRecord::Base) and ActiveRecord::Base.establish_connection'],
    why: has(RAILS_API.poolPerPid, a.rails)
      ? `Rails ${a.rails} already gives each process its own pool; reconnecting explicitly is harmless and keeps the file valid across upgrades.`
      : `Required on Rails ${a.rails}: pools are not per process before Rails 4.0.`,
    evidence: [SRC.unicornConf, SRC.railsPool],
  });
  return { files: [{ path: 'config/unicorn.rb', format: 'ruby', body }] };
}
