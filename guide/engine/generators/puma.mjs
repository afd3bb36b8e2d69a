// config/puma.rb for the chosen Puma version (DSL names from capabilities/puma.mjs).
import { PUMA_DSL } from '../capabilities/puma.mjs';
import { FEATURES } from '../capabilities/ruby.mjs';
import { RAILS_API } from '../capabilities/rails.mjs';
import { SRC, DS, ART } from '../evidence.mjs';
import { has } from '../pick.mjs';
import { gte } from '../version.mjs';

export const id = 'puma';

/** Name of a DSL method in this Puma version (new hook names from 7.0), or null if it does not exist. */
export function dslName(name, version) {
  const cap = PUMA_DSL[name];
  if (cap && has(cap, version) && !(cap.deprecatedSince && gte(version, cap.deprecatedSince))) return name;
  if (cap && cap.replacement && has(PUMA_DSL[cap.replacement], version)) return cap.replacement;
  return cap && has(cap, version) ? name : null;
}

/** Structure of a puma.rb for ctx (also used for the migrate-to/ file of dead servers). */
export function pumaBody(ctx, { version = ctx.serverVersion, forMigration = false } = {}) {
  const { a } = ctx;
  const cluster = ctx.canFork && (forMigration ? a.cores >= 2 : ctx.mode === 'cluster');
  const workers = forMigration ? Math.max(2, Math.ceil(ctx.processes / 2)) : ctx.processes;
  const threads = forMigration ? (ctx.mri ? 2 : ctx.threads) : ctx.threads;
  const u = ctx.upstreams[0] || { type: 'tcp', host: '127.0.0.1', port: 3000 };
  const bind = forMigration || !u || ctx.server !== 'puma'
    ? (ctx.proxy !== 'none' && a.os !== 'macos' ? `unix://${ctx.root}/tmp/sockets/puma.sock` : 'tcp://127.0.0.1:3000')
    : (u.type === 'unix' ? `unix://${u.path}` : `tcp://${u.host}:${u.port}`);
  const body = [];
  if (forMigration) {
    body.push({ comment: `Migration target: Puma replacing ${ctx.a.server}. Puma's guide for moving from Unicorn: half as many workers, 2 threads each; measure and adjust.` });
    body.push({ blank: true });
  }
  body.push({ call: 'directory', args: [ctx.root], why: 'Application root; the proxy serves public/ from the same tree.' });
  body.push({ call: 'environment', args: [{ raw: 'ENV.fetch("RAILS_ENV") { "production" }' }] });
  body.push({ blank: true });
  body.push({
    code: [`max_threads = Integer(ENV.fetch("RAILS_MAX_THREADS") { ${threads} })`],
    why: ctx.mri
      ? `${threads} threads per process: on CRuby the GVL lets one thread run Ruby at a time, so extra threads only help while others wait on I/O (${a.workload} workload). Rails ${gte(a.rails, '7.2') ? '7.2+ generates 3' : 'generates 5'}; database.yml's pool reads the same variable.`
      : `${threads} threads: ${ctx.impl.label} runs threads in parallel and cannot fork, so one process with more threads replaces workers.`,
    evidence: [SRC.pumaDeploy, SRC.railsPumaTemplate, DS.pumaProcThreads, ART.concurrency],
  });
  body.push({ call: 'threads', args: [{ raw: 'max_threads' }, { raw: 'max_threads' }], why: 'min = max (as in Rails\u2019 template): threads are started once and no time is spent growing the pool under load.' });
  if (cluster) {
    body.push({
      call: 'workers', args: [{ raw: `Integer(ENV.fetch("WEB_CONCURRENCY") { ${workers} })` }],
      why: `${workers} worker processes: Puma recommends about one worker per CPU core (x86 vCPUs, ARM physical cores)${ctx.memoryLimited && !forMigration ? `, reduced to what fits in ${ctx.ramMb} MB of RAM` : ''}.`,
      evidence: [SRC.pumaDeploy, DS.pumaProcThreads, ART.appServers],
    });
    body.push({
      call: 'preload_app!', why: `Boot the app once in the master and fork workers from it: faster restarts and copy-on-write sharing.${gte(version, '7.0') ? ' (Default in cluster mode since Puma 7.0; stated for clarity.)' : ''}`,
      evidence: [SRC.pumaDeploy],
    });
  } else {
    body.push({ comment: ctx.canFork ? `Single mode (one process): ${a.cores} core(s) or memory do not justify cluster mode.` : `Single mode: ${ctx.impl.label} cannot fork, so there are no workers.` });
  }
  body.push({ blank: true });
  body.push({
    call: 'bind', args: [bind],
    why: bind.startsWith('unix')
      ? `Unix socket shared with the ${ctx.proxy === 'cherokee' ? 'nginx' : ctx.proxy} upstream (same path in both files); no TCP port is exposed.`
      : 'TCP on localhost; the proxy\u2019s upstream points here.',
    evidence: [SRC.pumaNginx],
  });
  body.push({ call: 'pidfile', args: [`${ctx.root}/tmp/pids/puma.pid`] });
  body.push({ call: 'state_path', args: [`${ctx.root}/tmp/pids/puma.state`] });
  if (cluster) {
    const fork = [];
    fork.push('ActiveRecord::Base.connection_pool.disconnect! if defined?(ActiveRecord::Base)');
    if (ctx.a.ruby === 'cruby' && has(FEATURES.processWarmup, a.ruby_version)) fork.push('Process.warmup # Ruby 3.3+: GC, compaction and heap tidy-up before forking');
    else if (ctx.a.ruby === 'cruby' && has(FEATURES.gcCompact, a.ruby_version)) fork.push('GC.compact # Ruby 2.7+: compact once so forked workers share more pages');
    body.push({
      hook: 'before_fork', body: fork,
      why: 'Runs once in the master before workers are forked: close the master\u2019s connections (children must not share sockets) and tidy the heap for copy-on-write.',
      evidence: [DS.compactionMem, SRC.rubyNews(has(FEATURES.processWarmup, a.ruby_version) ? '3.3.0' : '2.7.0')],
    });
    if (!has(RAILS_API.poolPerPid, a.rails)) {
      body.push({
        hook: dslName('on_worker_boot', version), body: ['ActiveRecord::Base.establish_connection if defined?(ActiveRecord::Base)'],
        why: `Rails ${a.rails} does not key connection pools by process, so each forked worker must reconnect.`,
        evidence: [SRC.railsPool],
      });
    }
  }
  return body;
}

export function generate(ctx) {
  const files = [];
  if (ctx.server === 'puma') files.push({ path: 'config/puma.rb', format: 'ruby', body: pumaBody(ctx) });
  else if (['thin', 'mongrel', 'webrick'].includes(ctx.a.server) || (ctx.a.server === 'puma' && ctx.server !== 'puma')) {
    // Dead or development servers: a Puma configuration to migrate to.
    files.push({ path: 'migrate-to/config/puma.rb', format: 'ruby', body: pumaBody(ctx, { version: '6.4', forMigration: true }) });
  }
  return { files };
}
