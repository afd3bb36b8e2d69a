// Command lines that start an app server configured by flags rather than a file of its own. The server's
// generator quotes them in advice and the init-system units run them, so they live apart from both (the page
// loads the Falcon and Passenger generators only when they are chosen; the units are always there).
export function falconCommand(ctx) {
  const u = ctx.upstreams[0];
  return `bundle exec falcon serve --bind http://${u.host}:${u.port} --count ${ctx.processes}`;
}

export function standaloneCommand(ctx) {
  const u = ctx.upstreams[0];
  return `bundle exec passenger start --address ${u.host} --port ${u.port} --environment production --max-pool-size ${ctx.processes} --min-instances ${Math.min(ctx.processes, ctx.a.cores)} --spawn-method ${ctx.canFork ? 'smart' : 'direct'}`;
}
