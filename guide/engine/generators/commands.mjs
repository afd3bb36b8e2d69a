// Command lines that start an app server configured by flags rather than a file of its own. The server's
// generator quotes them in advice and the init-system units run them, so they live apart from both (the page
// loads the Falcon and Passenger generators only when they are chosen; the units are always there).
import { SERVER_PROCESS } from '../caps.mjs';
// Falcon: config.ru named through the app directory (current with release directories), so every child the HUP
// restart forks reads the release current points at, not the directory the controller started in; the graceful stop
// from the process row, within the unit's TimeoutStopSec (falcon serve waits 1 s by default, then kills).
export function falconCommand(ctx) {
  const u = ctx.upstreams[0];
  const p = SERVER_PROCESS.falcon;
  return `bundle exec falcon serve --bind http://${u.host}:${u.port} --count ${ctx.processes} --config ${ctx.appDir}/config.ru --graceful-stop ${p.gracefulStop}`;
}

export function standaloneCommand(ctx) {
  const u = ctx.upstreams[0];
  return `bundle exec passenger start --address ${u.host} --port ${u.port} --environment production --max-pool-size ${ctx.processes} --min-instances ${Math.min(ctx.processes, ctx.a.cores)} --spawn-method ${ctx.canFork ? 'smart' : 'direct'}`;
}
