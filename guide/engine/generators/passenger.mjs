// Phusion Passenger: Apache integration (directives in the Apache site) or Passenger Standalone behind nginx/Caddy.
import { SRC, DS } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { PASSENGER_APACHE } from '../capabilities/passenger.mjs';
import { has } from '../pick.mjs';

export const id = 'passenger';

/** Apache directives for Passenger (names per Passenger version; legacy names are still accepted as aliases). */
export function passengerApacheDirectives(ctx) {
  const v = ctx.a.server_version;
  const modern = gte(v, '4.0');
  const out = [];
  out.push({ d: 'PassengerMaxPoolSize', args: [ctx.processes], why: `At most ${ctx.processes} application processes (open-source Passenger runs one request per process). The thesis used 4 on a dual-core machine; size to cores and RAM.`, evidence: [DS.passengerOptions, SRC.passenger] });
  return out;
}

export function passengerVhostDirectives(ctx) {
  const v = ctx.a.server_version;
  const modern = gte(v, '4.0');
  const spawn = ctx.canFork ? 'smart' : 'direct';
  const out = [
    { d: 'PassengerAppRoot', args: [ctx.root], why: 'The application root (older Passenger versions find it as the parent of DocumentRoot).' },
    { d: modern ? 'PassengerAppEnv' : 'RailsEnv', args: ['production'] },
    { d: modern ? 'PassengerSpawnMethod' : 'RailsSpawnMethod', args: [spawn], why: spawn === 'smart' ? 'Smart spawning preloads the app once and forks processes from it (Passenger\u2019s default for Ruby apps).' : `${ctx.impl.label} cannot fork, so processes are spawned directly.`, evidence: [DS.passengerOptions, SRC.passenger] },
    { d: 'PassengerMinInstances', args: [Math.min(ctx.processes, Math.max(1, ctx.a.cores))], why: 'Keep processes warm instead of spawning them on the first request after an idle period.', evidence: [SRC.passenger] },
    { d: modern ? 'PassengerMaxPreloaderIdleTime' : 'RailsAppSpawnerIdleTime', args: [0], why: 'Never shut down the preloader, so new processes fork quickly (the thesis used 0).', evidence: [DS.passengerOptions] },
  ];
  return out.filter((d) => has(PASSENGER_APACHE[d.d], v));
}

export function standaloneCommand(ctx) {
  const u = ctx.upstreams[0];
  return `bundle exec passenger start --address ${u.host} --port ${u.port} --environment production --max-pool-size ${ctx.processes} --min-instances ${Math.min(ctx.processes, ctx.a.cores)} --spawn-method ${ctx.canFork ? 'smart' : 'direct'}`;
}

export function generate(ctx) {
  if (ctx.server !== 'passenger') return {};
  const advice = [{
    id: 'passenger-max-requests', title: 'Do not recycle Passenger processes by request count unless you must',
    body: 'The thesis set a maximum of 5000 requests per process as a workaround for memory leaks. Passenger\u2019s default (0, never) is right for an application that does not leak; if yours does, PassengerMaxRequests (passenger_max_requests) limits the damage while you find the leak.',
    evidence: [DS.passengerOptions, SRC.passenger],
  }];
  if (ctx.proxy !== 'apache') {
    advice.push({
      id: 'passenger-standalone', title: 'Passenger runs as Passenger Standalone behind the proxy',
      body: `The bundle starts Passenger Standalone on ${ctx.upstreams[0].host}:${ctx.upstreams[0].port} (see the service file) and proxies to it. Passenger can also be compiled into nginx (passenger_* directives); the thesis measured Passenger inside nginx using less memory and failing less than inside Apache.`,
      evidence: [DS.passengerHosts, SRC.passengerStandalone],
    });
  }
  return { advice };
}
