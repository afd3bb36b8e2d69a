// config/puma.rb for the chosen Puma version (DSL names from capabilities/puma.mjs).
import { PUMA_DSL, PUMA_FACTS, FEATURES, RAILS_API } from '../caps.mjs';
import { SRC, DS, ART } from '../evidence.mjs';
import { has } from '../pick.mjs';
import { gte } from '../version.mjs';
import { t } from '../text.mjs';

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
  const u = ctx.upstreams[0];
  const bind = forMigration || ctx.server !== 'puma'
    ? (ctx.proxy !== 'none' && a.os !== 'macos' ? `unix://${ctx.root}/tmp/sockets/puma.sock` : 'tcp://127.0.0.1:3000')
    : (u.type === 'unix' ? `unix://${u.path}` : `tcp://${u.host}:${u.port}`);
  const vars = { threads, workers, per: ctx.threadsPerCore, workload: a.workload, impl: ctx.impl.label, railsThreads: gte(a.rails, '7.2') ? 3 : 5, ram: ctx.ramMb, proxy: ctx.proxy, from: a.server, cores: a.cores };
  const body = [];
  if (forMigration) body.push({ comment: t('puma.migration', vars) }, { blank: true });
  body.push({ call: 'directory', args: [forMigration ? ctx.root : ctx.appDir], why: t(ctx.appDir !== ctx.root && !forMigration ? 'puma.directory.current' : 'puma.directory'), evidence: [SRC.pumaConfig] });
  body.push({ call: 'environment', args: [{ raw: 'ENV.fetch("RAILS_ENV") { "production" }' }], why: t('puma.environment'), evidence: [SRC.pumaConfig] });
  body.push({ blank: true });
  body.push({
    code: [`max_threads = Integer(ENV.fetch("RAILS_MAX_THREADS") { ${threads} })`],
    why: t(ctx.mri ? 'puma.threads.mri' : ctx.threadsPerCore && !forMigration ? 'puma.threads.jruby' : 'puma.threads.jvm', vars),
    evidence: [SRC.pumaDeploy, SRC.railsPumaTemplate, DS.pumaProcThreads, ART.concurrency],
  });
  body.push({ call: 'threads', args: [{ raw: 'max_threads' }, { raw: 'max_threads' }], why: t('puma.threads.minmax'), evidence: [SRC.railsPumaTemplate] });
  if (cluster) {
    const why = `${t('puma.workers', vars)}${ctx.memoryLimited && !forMigration ? t('puma.workers.ram', vars) : ''}.`;
    const evidence = [SRC.pumaDeploy, DS.pumaProcThreads, ART.appServers];
    if (has(PUMA_FACTS.webConcurrencyAuto, version)) {
      // Puma 6.5+ reads WEB_CONCURRENCY (a number or "auto") itself; Integer() would raise on "auto".
      const auto = has(PUMA_FACTS.workersAuto, version) && workers === a.cores && !ctx.memoryLimited ? t('puma.workers.auto') : '';
      body.push({ code: [`workers ${workers} unless ENV.key?("WEB_CONCURRENCY")`], why: `${why} ${t('puma.workers.env', vars)}${auto}.`, evidence: [...evidence, SRC.pumaHistory] });
    } else {
      body.push({ call: 'workers', args: [{ raw: `Integer(ENV.fetch("WEB_CONCURRENCY") { ${workers} })` }], why, evidence });
    }
    body.push({ call: 'preload_app!', why: t('puma.preload') + (gte(version, '7.0') ? t('puma.preload.default') : ''), evidence: [SRC.pumaDeploy] });
  } else {
    body.push({ comment: t(ctx.canFork ? 'puma.single.cores' : 'puma.single.nofork', vars) });
  }
  body.push({ blank: true });
  body.push({ call: 'bind', args: [bind], why: t(bind.startsWith('unix') ? 'puma.bind.unix' : 'puma.bind.tcp', vars), evidence: [SRC.pumaNginx] });
  body.push({ call: 'pidfile', args: [`${ctx.root}/tmp/pids/puma.pid`], why: t('puma.pidfile'), evidence: [SRC.pumaConfig] });
  body.push({ call: 'state_path', args: [`${ctx.root}/tmp/pids/puma.state`] });
  if (!forMigration && gte(a.rails, '5.0') && gte(version, '3.0')) {
    body.push({ call: 'plugin', args: [{ sym: 'tmp_restart' }], why: t('puma.tmp-restart'), evidence: [SRC.railsPumaTemplate, SRC.pumaRestart] });
  }
  if (!forMigration && ctx.jobs === 'solid_queue') {
    const inPuma = ctx.jobsInPuma; // the smaller plan of small hosts (small-host.mjs)
    body.push({ code: ['plugin :solid_queue if ENV["SOLID_QUEUE_IN_PUMA"]'], why: t(inPuma ? `puma.solid-queue.in-puma${inPuma === 'nofork' ? '.nofork' : ''}` : 'puma.solid-queue'), evidence: [inPuma ? SRC.solidQueuePuma : SRC.solidQueue, SRC.railsPumaTemplate, ART.jobs] });
    // The plugin defines solid_queue_mode when it is loaded, hence the same condition.
    if (inPuma) body.push({ code: ['solid_queue_mode :async if ENV["SOLID_QUEUE_IN_PUMA"]'], why: t('puma.solid-queue.async'), evidence: [SRC.solidQueuePuma] });
  }
  if (cluster) {
    const fork = ['ActiveRecord::Base.connection_pool.disconnect! if defined?(ActiveRecord::Base)'];
    const warm = ctx.a.ruby === 'cruby' && has(FEATURES.processWarmup, a.ruby_version);
    if (warm) fork.push(`Process.warmup # ${t('puma.fork.warmup')}`);
    else if (ctx.a.ruby === 'cruby' && has(FEATURES.gcCompact, a.ruby_version)) fork.push(`GC.compact # ${t('puma.fork.compact')}`);
    body.push({ hook: 'before_fork', body: fork, why: t('puma.fork'), evidence: [DS.compactionMem, SRC.rubyNews(warm ? '3.3.0' : '2.7.0')] });
    if (!has(RAILS_API.poolPerPid, a.rails)) {
      body.push({ hook: dslName('on_worker_boot', version), body: ['ActiveRecord::Base.establish_connection if defined?(ActiveRecord::Base)'], why: t('puma.worker-boot', { rails: a.rails }), evidence: [SRC.railsPool] });
    }
  }
  return body;
}

export function generate(ctx) {
  const files = [];
  if (ctx.server === 'puma') files.push({ path: 'config/puma.rb', format: 'ruby', body: pumaBody(ctx) });
  else if (['thin', 'mongrel', 'webrick'].includes(ctx.a.server)) {
    // Dead or development servers: a Puma configuration to migrate to.
    files.push({ path: 'migrate-to/config/puma.rb', format: 'ruby', body: pumaBody(ctx, { version: '6.4', forMigration: true }) });
  }
  return { files };
}
