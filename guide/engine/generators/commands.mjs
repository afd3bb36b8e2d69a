// Command lines that start an app server configured by flags rather than a file of its own. The server's
// generator quotes them in advice and the init-system units run them, so they live apart from both (the page
// loads the Falcon and Passenger generators only when they are chosen; the units are always there).
import { PASSENGER_STANDALONE, SERVER_PROCESS } from '../caps.mjs';
import { has } from '../pick.mjs';
import { commandsOf } from './family-steps.mjs';

// Falcon: config.ru named through the app directory (current with release directories), so every child the HUP
// restart forks reads the release current points at, not the directory the controller started in; the graceful stop
// from the process row, within the unit's TimeoutStopSec (falcon serve waits 1 s by default, then kills).
export function falconCommand(ctx) {
  const u = ctx.upstreams[0];
  const p = SERVER_PROCESS.falcon;
  return `bundle exec falcon serve --bind http://${u.host}:${u.port} --count ${ctx.processes} --config ${ctx.appDir}/config.ru --graceful-stop ${p.gracefulStop}`;
}

// Passenger Standalone: the distribution's `passenger` where the family's table names it (README step 1 installs
// it), else the Gemfile's. The app directory is named rather than taken from the working directory: Passenger reads
// that through getcwd(), which resolves `current` to one release, and a restart would spawn the old code again. PID
// and log files go where the unit may write (tmp/pids, log/: logrotate's rails-app file rotates log/*.log). Not
// /dev/stdout: under systemd that is a socket to the journal, which open(2) cannot reopen (Passenger's agent then
// fails to start; seen in the lab, where it is a root-owned file).
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

/** restart-app for the unit's reload: the distribution's passenger-config, else the Gemfile's. */
export function passengerRestart(ctx) {
  const bin = commandsOf(ctx)?.passengerBin?.config;
  return `${bin || `${ctx.rubyBin}/bundle exec passenger-config`} restart-app ${ctx.root} --ignore-app-not-running`;
}
