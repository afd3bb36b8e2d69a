// Phusion Passenger: Apache integration (directives in the Apache site) or Passenger Standalone behind nginx/Caddy.
import { SRC, DS } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { PASSENGER_APACHE, PASSENGER_STANDALONE } from '../caps.mjs';
import { has } from '../pick.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';
import { W } from '../rules.mjs';
import { CABLE_PATH, cableEnabled } from './edge.mjs';
import { commandsOf } from './family-steps.mjs';
import { SECRETS_FILE } from './systemd.mjs';

export const id = 'passenger';

// Passenger Standalone's command line (systemd.mjs's unit, rc-freebsd.mjs and README run it through
// ctx.generator('passenger'); here, not in the first-load script, since only Passenger's answers need it): the
// distribution's `passenger` where the family's table names it (README step 1 installs it), else the Gemfile's. The
// app directory is named rather than taken from the working directory: Passenger reads that through getcwd(), which
// resolves `current` to one release, and a restart would spawn the old code again. PID and log files go where the
// unit may write (tmp/pids, log/: logrotate's rails-app file rotates log/*.log). Not /dev/stdout: under systemd that
// is a socket to the journal, which open(2) cannot reopen (Passenger's agent then fails to start; seen in the lab,
// where it is a root-owned file).
export function standaloneCommand(ctx) {
  const u = ctx.upstreams[0];
  const v = ctx.a.server_version;
  const bin = commandsOf(ctx)?.passengerBin?.start;
  return [bin || 'bundle exec passenger', 'start', ...(ctx.releases ? [ctx.appDir] : []),
    ...(has(PASSENGER_STANDALONE.engine, v) ? [`--engine ${PASSENGER_STANDALONE.engine.value}`] : []),
    ...(has(PASSENGER_STANDALONE.ruby, v) ? [`--ruby ${ctx.rubyBin}/ruby`] : []),
    `--address ${u.host} --port ${u.port} --environment production --max-pool-size ${ctx.processes} --min-instances ${passengerMinInstances(ctx)} --spawn-method ${ctx.canFork ? 'smart' : 'direct'}`,
    `--pid-file ${ctx.root}/tmp/pids/passenger.pid --log-file ${ctx.root}/log/passenger.log`,
    ...(ctx.linux && ctx.a.init === 'systemd' ? [`--instance-registry-dir ${PASSENGER_REGISTRY}`] : [])].join(' ');
}

// Where Passenger records its instance: one of the places passenger-status and passenger-config look by default
// (Passenger's admin_tools/instance_registry.rb lists /var/run/passenger-instreg). The default, /tmp, is the unit's
// private /tmp under PrivateTmp=yes, where an operator's passenger-status would not find it. The unit creates it
// (RuntimeDirectory=), writable under ProtectSystem=strict.
export const PASSENGER_REGISTRY = '/run/passenger-instreg';

/** Processes Passenger keeps running: the cores' worth, within the pool, one left for Action Cable's own group. */
export function passengerMinInstances(ctx) {
  return Math.max(1, Math.min(ctx.processes - (ctx.passengerCableGroup ? 1 : 0), ctx.a.cores));
}

/** Server-level Apache directives for Passenger. */
export function passengerApacheDirectives(ctx) {
  const v = ctx.a.server_version;
  const scheme = ctx.tls === 'proxy' ? 'https' : 'http';
  return [
    { d: 'PassengerMaxPoolSize', args: [ctx.processes], why: passengerPoolWhy(ctx), evidence: [DS.passengerOptions, SRC.passenger, SRC.passengerOptimization] },
    { d: 'PassengerPreStart', args: [`${scheme}://${ctx.domain}/`], why: t('passenger.prestart'), evidence: [SRC.passenger] },
  ].filter((d) => has(PASSENGER_APACHE[d.d], v));
}

/** Action Cable runs in Passenger's own process group (Passenger's Action Cable guide); derive.mjs decides. */
export function passengerCable(ctx) {
  return Boolean(ctx.passengerCableGroup);
}

/** The pool size's reason with every factor: the cores' count, what fits in memory, the floor of one per group. */
export function passengerPoolWhy(ctx) {
  const vars = { n: ctx.processes, byCores: ctx.processesByCores, cores: ctx.a.cores, perCore: ctx.perCore, byMemory: ctx.processesByMemory };
  return [t('passenger.pool', vars), ...(passengerCable(ctx) ? [t('passenger.pool.cable')] : [])].join(' ');
}

/** The <Location /cable> section for Action Cable inside Passenger, or null. */
export function passengerCableLocation(ctx) {
  if (!passengerCable(ctx)) return null;
  return {
    section: 'Location', args: [CABLE_PATH], why: t('passenger.cable'), evidence: [SRC.passenger, SRC.actionCable],
    children: [{ d: 'PassengerAppGroupName', args: ['rails_app_action_cable'] }, { d: 'PassengerForceMaxConcurrentRequestsPerProcess', args: [0] }],
  };
}

/** VirtualHost directives (names per Passenger version; legacy names are still accepted as aliases). */
export function passengerVhostDirectives(ctx) {
  const v = ctx.a.server_version;
  const modern = gte(v, '4.0');
  const spawn = ctx.canFork ? 'smart' : 'direct';
  const out = [
    { d: 'PassengerAppRoot', args: [ctx.appDir], why: t('passenger.root'), evidence: [SRC.passenger] },
    { d: 'PassengerRuby', args: [ctx.passengerEnvWrapper || `${ctx.rubyBin}/ruby`], why: t(ctx.passengerEnvWrapper ? 'passenger.ruby.wrapper' : 'passenger.ruby', { ruby: `${ctx.rubyBin}/ruby` }), evidence: [SRC.passenger, SRC.passengerEnv] },
    { d: 'PassengerUser', args: [ctx.user], why: t('passenger.user', { user: ctx.user }), evidence: [SRC.passenger] },
    { d: 'PassengerGroup', args: [ctx.user] },
    { d: modern ? 'PassengerAppEnv' : 'RailsEnv', args: ['production'] },
    { d: modern ? 'PassengerSpawnMethod' : 'RailsSpawnMethod', args: [spawn], why: t(`passenger.spawn.${spawn}`, { impl: ctx.impl.label }), evidence: [DS.passengerOptions, SRC.passenger] },
    // With Action Cable's group in the same pool, one process stays free for it.
    { d: 'PassengerMinInstances', args: [passengerMinInstances(ctx)], why: t('passenger.min'), evidence: [SRC.passenger] },
    { d: modern ? 'PassengerMaxPreloaderIdleTime' : 'RailsAppSpawnerIdleTime', args: [0], why: t('passenger.preloader'), evidence: [DS.passengerOptions] },
  ];
  return out.filter((d) => has(PASSENGER_APACHE[d.d], v));
}

// Rules about this generator's own server or proxy (moved from rules.mjs: their code loads with this chunk).
function passengerOnJvm(ctx) {
  if (ctx.server !== 'passenger' || ctx.canFork) return null;
  return W('passenger-without-fork', 'warning', { impl: ctx.impl.label }, [SRC.passenger]);
}

function passengerStandaloneVersion(ctx) {
  if (ctx.server !== 'passenger' || ctx.passengerIntegrated || gte(ctx.a.server_version, '3.0')) return null;
  return W('passenger-2-no-standalone', 'warning', { version: ctx.a.server_version, proxy: ctx.proxy === 'none' ? t('w.no-proxy') : ctx.proxy }, [SRC.passengerStandalone]);
}

// Standalone has one process group: each open WebSocket holds one of its single-request processes.
function passengerStandaloneCable(ctx) {
  if (ctx.server !== 'passenger' || ctx.passengerIntegrated || !cableEnabled(ctx)) return null;
  return W('passenger-standalone-cable', 'warning', { n: ctx.processes }, [SRC.passengerStandalone, SRC.actionCable]);
}

/** The PassengerRuby wrapper: the app's Ruby settings and secrets, then the answered Ruby (README step 2 installs it). */
function envWrapper(ctx) {
  return [
    `# ${t('passenger.wrapper', { user: ctx.user, secrets: SECRETS_FILE })}`,
    `# see: ${SRC.passengerEnv.url}`,
    'set -a',
    '# shellcheck source=/dev/null',
    `. ${ctx.appDir}/config/ruby.env`,
    '# shellcheck source=/dev/null',
    `. ${SECRETS_FILE}`,
    'set +a',
    `exec ${ctx.rubyBin}/ruby "$@"`,
  ];
}

export function generate(ctx) {
  if (!APPLIES.passenger(ctx)) return {};
  const advice = [{ id: 'passenger-max-requests', title: t('a.passenger-max-requests.title'), body: t('a.passenger.max-requests'), evidence: [DS.passengerOptions, SRC.passenger] }];
  if (ctx.proxy !== 'apache') {
    const u = ctx.upstreams[0];
    advice.push({ id: 'passenger-standalone', title: t('a.passenger-standalone.title'), body: t('a.passenger.standalone', { addr: `${u.host}:${u.port}` }), evidence: [DS.passengerHosts, SRC.passengerStandalone] });
  }
  const files = ctx.passengerEnvWrapper ? [{ path: ctx.passengerEnvWrapper.slice(1), format: 'sh', body: envWrapper(ctx) }] : [];
  return { files, advice, warnings: [passengerOnJvm(ctx), passengerStandaloneVersion(ctx), passengerStandaloneCable(ctx)].filter(Boolean) };
}
