// Service units (systemd) for the app server and the job runner (kamal-proxy.mjs writes kamal-proxy's), or a PAM
// limits file (other init systems). Readiness (Type=notify + WatchdogSec), reload and stop signals per server come from
// capabilities/process.mjs; secrets come from a root-only EnvironmentFile; the sandbox is checked with
// `systemd-analyze security` by the sweep test.
import { SRC, DS } from '../evidence.mjs';
import { SERVER_PROCESS, SANDBOX, RAILS_API } from '../caps.mjs';
import { has } from '../pick.mjs';
import { gte } from '../version.mjs';
import { railsServerCommand, SERVER_LABEL } from './util.mjs';
import { passengerRestart } from './commands.mjs';
import { t, cap } from '../text.mjs';
import { commandsOf, fam } from './family-steps.mjs';

export const id = 'systemd';
export const SECRETS_FILE = '/etc/rails-app/secrets.env';
export const WEB_UNIT = 'etc/systemd/system/rails-app.service';
// Per-unit journald rate limit (systemd 240+): 100,000 lines per 30 s, about 3,300 lines/s or 800 requests/s at
// Rails' four lines per request, more than one host's processes serve, while a runaway loop is still cut off.
export const JOURNALD = { interval: '30s', burst: 100000, defaultBurst: 10000 };

export function execStart(ctx) {
  const u = ctx.upstreams[0];
  switch (ctx.server) {
    case 'puma': return 'bundle exec puma -C config/puma.rb';
    // Rails 2.x apps have no config.ru; Unicorn ships unicorn_rails for them.
    case 'unicorn': return `bundle exec ${gte(ctx.a.rails, '3.0') ? 'unicorn' : 'unicorn_rails'} -c config/unicorn.rb -E production`;
    case 'pitchfork': return 'bundle exec pitchfork -c config/pitchfork.rb';
    case 'thin': return 'bundle exec thin start -C config/thin.yml';
    // Through Bundler like every server here: README and deploy.sh install the gems into the app's bundle path, not
    // into the system's gems. `bundle exec` puts the bundle's bin directory first in PATH, so the members mongrel_cluster
    // starts (`mongrel_rails start -d`, one per port) are the bundle's mongrel_rails too.
    // --clean: a member killed hard (OOM, SIGKILL at the stop timeout) leaves its PID file, and mongrel_rails refuses
    // to start over one; Restart= would loop. mongrel_cluster's --clean removes stale files first.
    case 'mongrel': return 'bundle exec mongrel_rails cluster::start -C config/mongrel_cluster.yml --clean';
    // Falcon's and Passenger Standalone's command lines live in their generators (loaded for those answers).
    case 'falcon': return ctx.generator('falcon').falconCommand(ctx);
    case 'passenger': return ctx.generator('passenger').standaloneCommand(ctx);
    // WEBrick through `rails server`, named: unnamed, Rails starts the first handler it can load (Puma in a Gemfile
    // that has it), not WEBrick.
    default: return `bundle exec ${railsServerCommand(ctx.a.rails)} ${has(RAILS_API.serverUsingOption, ctx.a.rails) ? '-u ' : ''}${ctx.server} -e production -b ${u.host} -p ${u.port}`;
  }
}

/** A command with its program made absolute: bundle and friends from ruby_path. */
export function absolute(ctx, cmd) {
  return cmd.replace(/^(bundle|mongrel_rails|ruby)\b/, `${ctx.rubyBin}/$1`);
}

// An explained entry without its own source cites systemd.exec, where every sandbox setting is documented.
const E = (key, value, why, evidence = []) => ({ key, value, why, evidence: why && evidence.length === 0 ? [SRC.systemdExec] : evidence });
// Passenger's instance registry (its directory: passenger.mjs PASSENGER_REGISTRY), created by the unit.
const passengerRegistry = (dir) => E('RuntimeDirectory', dir.replace('/run/', ''), t('systemd.passenger.registry', { dir }), [SRC.systemdExec, SRC.passengerStandalone]);

/** Sandbox settings shared by every Ruby unit; writable: the app's tmp, log and storage directories only. */
export function hardening(ctx, { bindLowPorts = false, writable = [] } = {}) {
  const rw = [`${ctx.root}/tmp`, `${ctx.root}/log`, `${ctx.root}/storage`, ...writable];
  if (ctx.a.database === 'sqlite' && !gte(ctx.a.rails, '5.2')) rw.push(`${ctx.root}/db`);
  const homeRuby = ctx.rubyBin.startsWith('/home/') || ctx.root.startsWith('/home/');
  const fill = { '{rw}': rw.join(' '), '{home}': homeRuby ? 'read-only' : 'yes', '{caps}': bindLowPorts ? 'CAP_NET_BIND_SERVICE' : '' };
  const why = { '{home}': homeRuby ? 'systemd.home.ro' : 'systemd.home', '{caps}': bindLowPorts ? 'systemd.caps.bind' : 'systemd.caps' };
  return [
    ...SANDBOX.map(([key, value, id]) => E(key, value in fill ? fill[value] : value, id ? t(why[id] || id) : undefined, id === 'systemd.sandbox' ? [SRC.systemdExec, SRC.systemdAnalyze] : [])),
    ...(bindLowPorts ? [E('AmbientCapabilities', 'CAP_NET_BIND_SERVICE')] : []),
    { comment: t('systemd.mdwe') },
    // Rails 7.1+ logs to STDOUT, i.e. to journald, whose default limit (10,000 messages per 30 s per unit) a busy app
    // passes: journald then drops lines, and says so only in its own log.
    E('LogRateLimitIntervalSec', JOURNALD.interval, t('systemd.log-rate', JOURNALD), [SRC.journaldRate]),
    E('LogRateLimitBurst', JOURNALD.burst),
  ];
}

// Only units on this host: with a separate database host, PostgreSQL and PgBouncer run there (db-host/), and an
// ordering on a unit this host does not have says something untrue (SRE check 23b, D19).
function dbAfter(ctx) {
  const here = ctx.a.db_host === 'same';
  // The family's unit names (capabilities/family-commands.mjs dbAfter); Debian's where the family has no table.
  const db = here && ctx.a.database !== 'sqlite' ? (commandsOf(ctx) ? fam(ctx, `dbAfter.${ctx.a.database}`) : ctx.a.database === 'postgresql' ? 'postgresql.service' : 'mariadb.service mysql.service') : '';
  return `network.target${db ? ` ${db}` : ''}${here && ctx.pooler === 'pgbouncer' ? ' pgbouncer.service' : ''}`;
}

function environment(ctx, extraFiles = []) {
  // Puma's words and sources only in Puma's own unit (SRE trial D16: they were in every server's and the jobs unit).
  const puma = ctx.server === 'puma' && !extraFiles.length;
  return [
    E('User', ctx.user, t('systemd.user', { user: ctx.user }), [SRC.systemdExec]),
    E('Group', ctx.user),
    E('WorkingDirectory', ctx.appDir, ctx.releases ? t(puma ? 'systemd.current' : 'systemd.current.other') : undefined, ctx.releases ? [SRC.systemdExec, ...(puma ? [SRC.pumaRestart] : [])] : []),
    E('Environment', 'RAILS_ENV=production'),
    ...(ctx.releases ? [E('Environment', `BUNDLE_GEMFILE=${ctx.appDir}/Gemfile`, t('systemd.gemfile'), [puma ? SRC.pumaRestart : SRC.systemdExec])] : []),
    E('Environment', `PATH=${[...new Set([ctx.rubyBin, '/usr/local/bin', '/usr/bin', '/bin'])].join(':')}`, t('systemd.path', { bin: ctx.rubyBin }), [SRC.systemdExec]),
    E('EnvironmentFile', `${ctx.appDir}/config/ruby.env`, t('systemd.2'), [SRC.systemdExec]),
    ...extraFiles.map((f) => E('EnvironmentFile', f)),
    E('EnvironmentFile', SECRETS_FILE, t('systemd.secrets', { file: SECRETS_FILE }), [SRC.systemdExec, SRC.railsConfiguring]),
  ];
}

// A memory ceiling (SRE check 5, D9): the unit's own lines of the memory plan (an instance's share where the unit is
// a template) plus what the plan leaves free, so a leak is killed inside the app, not in PostgreSQL or Redis.
// capabilities/memory.mjs says why MemoryMax and not MemoryHigh, OOMPolicy=continue and OOMScoreAdjust.
export function ceiling(ctx, lines, per, runner, parent, jit = 0) {
  const c = cap('memory-ceiling');
  const own = Math.round(ctx.memory.filter((x) => c[lines]?.includes(x.kind)).reduce((s, x) => s + x.mb, 0) / per) + jit;
  const free = Math.max(0, ctx.ramMb - ctx.memoryTotalMb);
  return [
    E('MemoryMax', `${own + free}M`, t('ceiling.max', { own, free, ram: ctx.ramMb, planned: ctx.memoryTotalMb }), [SRC.systemdResource, SRC.cgroupMemory]),
    { comment: t('ceiling.high') },
    E('OOMPolicy', c.oomPolicy, t(parent ? 'ceiling.policy' : 'ceiling.policy.main', { runner, parent, since: c.oomPolicySince }), [SRC.systemdService]),
    E('OOMScoreAdjust', c.oomScoreAdjust, t('ceiling.score', { adj: c.oomScoreAdjust }), [SRC.systemdExec, SRC.pgOvercommit]),
  ];
}

/** Does this server (and interpreter) send sd_notify readiness and watchdog pings? */
export function notifies(ctx) {
  const p = SERVER_PROCESS[ctx.server] || {};
  return Boolean(p.notify) && has(p.notify, ctx.serverVersion) && ctx.mri;
}

/** The server's PID file (inside the app root) when its process row names one. */
export function pidFilePath(ctx) {
  const p = SERVER_PROCESS[ctx.server] || {};
  // {first}: the number a cluster server inserts into its file name (Thin: 0 on sockets, the first port on TCP).
  const u = ctx.upstreams[0];
  return p.pidFile ? `${ctx.root}/${p.pidFile.replace('{first}', u.type === 'unix' ? 0 : u.port)}` : null;
}

function reloadEntry(ctx) {
  const r = (SERVER_PROCESS[ctx.server] || {}).reload;
  if (!r) return { comment: t('systemd.reload.none', { server: SERVER_LABEL[ctx.server] }) };
  if (r.command) return E('ExecReload', passengerRestart(ctx), t(`systemd.reload.${ctx.server}`), [SRC.passengerRestart]);
  // Under Thruster the master is thrust's child: when the old master exits after the handover, thrust exits too.
  if ((r.handover || r.mainPidOnly) && ctx.proxy === 'thruster') return { comment: t('systemd.reload.handover-thruster', { server: SERVER_LABEL[ctx.server] }) };
  if (r.handover) return E('ExecReload', `/bin/kill -${r.signal} $MAINPID`, t(`systemd.reload.${ctx.server}`, { signal: r.signal }), [SRC.unicornSignals, SRC.systemdService]);
  // Under Thruster the main process is thrust; Puma is its child and has a pidfile.
  if (ctx.proxy === 'thruster') {
    const pidfile = `${ctx.root}/tmp/pids/${ctx.server}.pid`;
    return E('ExecReload', `/bin/sh -c 'kill -${r.signal} "$(cat ${pidfile})"'`, t(`systemd.reload.${ctx.server}-thruster`), [SRC.pumaRestart]);
  }
  const sources = r.sources ? r.sources.map((k) => SRC[k]) : [SRC.pumaRestart, SRC.pumaSystemd];
  return E('ExecReload', `/bin/kill -${r.signal} $MAINPID`, t(`systemd.reload.${ctx.server}`, { preload: ctx.mode === 'cluster' ? t('systemd.reload.preload') : '' }), sources);
}

/** Type= from the process row: notify when the server (and interpreter) speaks sd_notify, else the row's type. */
function unitType(ctx, p, notify) {
  if (notify) return E('Type', 'notify', t(p.watchdog === false ? 'systemd.notify.no-watchdog' : 'systemd.notify', { server: SERVER_LABEL[ctx.server] }), [SRC.systemdService, ...(p.reload?.sources || ['pumaSystemd']).map((k) => SRC[k])]);
  if (p.type === 'forking' && ctx.proxy !== 'thruster') {
    return E('Type', 'forking', t(p.pidFile ? `systemd.forking.${ctx.server}` : 'systemd.forking', { server: SERVER_LABEL[ctx.server] }), [SRC.systemdService, ...(p.pidFile ? [SRC.unicornSignals] : [])]);
  }
  return E('Type', 'exec', t('systemd.exec-type', { server: SERVER_LABEL[ctx.server] }), [SRC.systemdService]);
}

export function webUnit(ctx) {
  const p = SERVER_PROCESS[ctx.server] || {};
  const notify = notifies(ctx);
  const thruster = ctx.proxy === 'thruster';
  let cmd = absolute(ctx, execStart(ctx)) + (p.daemonize && !thruster ? ` ${p.daemonize}` : '');
  const thrusterEnv = [];
  if (thruster) {
    cmd = `${ctx.rubyBin}/bundle exec thrust ${cmd}`;
    const port = ctx.upstreams[0].port;
    thrusterEnv.push(E('Environment', `TARGET_PORT=${port}`, t('systemd.thruster.port', { port }), [SRC.thruster]));
    thrusterEnv.push(E('Environment', 'HTTP_PORT=80'));
    if (ctx.tls === 'proxy') {
      thrusterEnv.push(E('Environment', `TLS_DOMAIN=${ctx.domain}`, t('systemd.thruster.tls', { domain: ctx.domain }), [SRC.thruster]));
      thrusterEnv.push(E('Environment', 'HTTPS_PORT=443'));
    } else thrusterEnv.push({ comment: t(`systemd.thruster.${ctx.tls}`) });
  }
  const pidFile = pidFilePath(ctx);
  const service = [
    unitType(ctx, p, notify),
    ...(pidFile && p.type === 'forking' && !thruster ? [E('PIDFile', pidFile, t('systemd.pidfile', { server: SERVER_LABEL[ctx.server] }), [SRC.systemdService])] : []),
    // A reload that re-executes the server (Puma's hot restart) boots the app before the next watchdog ping: no
    // WatchdogSec there, or an app booting longer than the period is killed mid-deploy (puma/puma#3329, #3675).
    // A server that sends no WATCHDOG=1 (Falcon) gets no WatchdogSec: systemd would kill it after the first period.
    ...(notify && p.watchdog !== false ? [p.reload?.reexec ? { comment: t('systemd.watchdog.reexec', { server: SERVER_LABEL[ctx.server] }) } : E('WatchdogSec', 10, t('systemd.watchdog'), [SRC.pumaSystemd, SRC.systemdService])] : []),
    ...(notify && thruster ? [E('NotifyAccess', 'all', t('systemd.notify-all'), [SRC.systemdService])] : []),
    ...environment(ctx),
    ...(ctx.jobsInPuma ? [E('Environment', 'SOLID_QUEUE_IN_PUMA=1', t(`systemd.jobs-in-puma${ctx.jobsInPuma === 'nofork' ? '.nofork' : ''}`), [SRC.solidQueuePuma, SRC.railsPumaTemplate])] : []),
    ...thrusterEnv,
    ...(ctx.server === 'passenger' ? [passengerRegistry(ctx.generator('passenger').PASSENGER_REGISTRY)] : []),
    E('ExecStart', cmd, t(p.daemonize && !thruster ? 'systemd.exec.daemon' : 'systemd.exec', { bin: ctx.rubyBin }), [SRC.systemdService, ...(ctx.server === 'webrick' ? [SRC.railsServerUsing] : [])]),
    reloadEntry(ctx),
    E('KillSignal', p.stopSignal, t(`systemd.kill.${ctx.server}`, { server: SERVER_LABEL[ctx.server], graceful: p.gracefulStop }), [SRC.systemdKill, ...(['unicorn', 'pitchfork'].includes(ctx.server) ? [SRC.unicornSignals, SRC.unicornSystemd] : p.reload?.sources ? p.reload.sources.map((k) => SRC[k]) : ctx.server === 'puma' ? [SRC.pumaConfig] : [])]),
    E('KillMode', p.killMode, t(`systemd.killmode.${p.killMode}`), [SRC.systemdKill]),
    E('TimeoutStopSec', p.stopTimeout, t(['unicorn', 'pitchfork'].includes(ctx.server) ? 'systemd.stop.unicorn' : ctx.server === 'puma' ? 'systemd.stop' : 'systemd.stop.other', { server: SERVER_LABEL[ctx.server], s: p.stopTimeout }), [SRC.systemdService, ...(ctx.server === 'puma' ? [SRC.pumaConfig] : [])]),
    E('Restart', 'always', t('systemd.restart'), [SRC.systemdService]),
    E('LimitNOFILE', 65536, t('systemd.3'), [SRC.fdLimits, DS.sysctl]),
    ...ceiling(ctx, 'web', 1, SERVER_LABEL[ctx.server], ctx.hasMaster && 'master'),
    ...hardening(ctx, { bindLowPorts: thruster }),
  ];
  return [
    { section: 'Unit', entries: [E('Description', `Rails application (${SERVER_LABEL[ctx.server]}${thruster ? ' behind Thruster' : ''})`), E('After', dbAfter(ctx)), ...(ctx.proxy === 'kamal-proxy' ? [E('Wants', 'kamal-proxy.service')] : [])] },
    { section: 'Service', entries: service },
    { section: 'Install', entries: [E('WantedBy', 'multi-user.target')] },
  ];
}

export function jobUnit(ctx) {
  const r = ctx.jobRunner;
  const notify = Boolean(r.notify) && ctx.mri; // Sidekiq ≥ 6.0.6, GoodJob ≥ 3.17.0 (the gem's version is not asked: current releases qualify)
  const templated = ctx.jobs !== 'solid_queue';
  const cmd = ctx.jobs === 'solid_queue' ? `${ctx.rubyBin}/bundle exec bin/jobs start` : absolute(ctx, r.command);
  const service = [
    E('Type', notify ? 'notify' : 'exec', t(notify ? 'systemd.jobs.notify' : 'systemd.jobs.exec', { runner: r.label, since: r.notify?.since }), [SRC.systemdService, ...(notify ? [jobSource(ctx)] : [])]),
    ...(notify ? [E('WatchdogSec', 10, t('systemd.jobs.watchdog', { runner: r.label }), [jobSource(ctx)])] : []),
    ...environment(ctx, [`${ctx.appDir}/config/jobs.env`]),
    E('ExecStart', cmd, t(`systemd.jobs.${ctx.jobs}`, { n: ctx.jobProcesses, threads: ctx.jobThreads }), [jobSource(ctx)]),
    // No ExecReload: quieting (Sidekiq's TSTP) is not a reload (capabilities/jobs.mjs quiet); the comment says how to quiet.
    ...(r.quiet ? [{ comment: t('systemd.jobs.quiet', { signal: r.quiet.signal, runner: r.label, unit: templated ? 'rails-jobs@1' : 'rails-jobs' }) }] : []),
    E('KillSignal', r.stopSignal, t('systemd.jobs.kill', { runner: r.label, s: r.stopTimeout }), [SRC.systemdKill, jobSource(ctx)]),
    E('KillMode', 'mixed', t('systemd.killmode.mixed'), [SRC.systemdKill]),
    E('TimeoutStopSec', r.stopTimeout + 10, t('systemd.jobs.timeout'), [SRC.systemdService]),
    E('Restart', 'always', t('systemd.restart'), [SRC.systemdService]),
    E('LimitNOFILE', 65536),
    // One process per instance of a template; Solid Queue's one unit is a supervisor that replaces its workers. The
    // plan's job lines leave out YJIT, which Rails enables in every process that boots the app: the ceiling adds it.
    ...ceiling(ctx, 'jobs', templated ? ctx.jobMemoryProcesses : 1, r.label, !templated && 'supervisor', ctx.yjitMbPerProcess * (templated ? 1 : ctx.jobMemoryProcesses)),
    ...hardening(ctx),
  ];
  return {
    path: `etc/systemd/system/${templated ? 'rails-jobs@.service' : 'rails-jobs.service'}`,
    body: [
      { section: 'Unit', entries: [E('Description', `Rails background jobs (${r.label}${templated ? ' process %i' : ''})`), E('After', dbAfter(ctx)), ...(ctx.passengerIntegrated ? [] : [E('PartOf', 'rails-app.service', t('systemd.jobs.partof'), [SRC.systemdService])])] },
      { section: 'Service', entries: service },
      { section: 'Install', entries: [E('WantedBy', 'multi-user.target')] },
    ],
  };
}

function jobSource(ctx) {
  return { solid_queue: SRC.solidQueue, sidekiq: SRC.sidekiq, good_job: SRC.goodJob, delayed_job: SRC.delayedJob }[ctx.jobs];
}

export function generate(ctx) {
  // No unit of ours on another init system (limits.mjs raises the file limit there). Passenger inside Apache: no web
  // unit (Apache's own runs the app; limits.mjs adds its drop-in), but the job runner still needs its unit.
  if (!ctx.linux || ctx.a.init !== 'systemd') return {};
  const files = ctx.passengerIntegrated ? [] : [{ path: WEB_UNIT, format: 'systemd', body: webUnit(ctx), meta: { role: 'web', server: ctx.server } }];
  // Solid Queue inside Puma (small hosts): no jobs unit; the web unit sets SOLID_QUEUE_IN_PUMA.
  if (ctx.jobRunner && !ctx.jobsInPuma) {
    const j = jobUnit(ctx);
    files.push({ path: j.path, format: 'systemd', body: j.body, meta: { role: 'jobs', runner: ctx.jobs } });
  }
  return { files };
}
