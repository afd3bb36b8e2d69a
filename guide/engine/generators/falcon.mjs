// Falcon: started by the init system with command-line options (see systemd.mjs); advice for isolation level.
import { SRC, DS } from '../evidence.mjs';
import { RAILS_API } from '../capabilities/rails.mjs';
import { has } from '../pick.mjs';

export const id = 'falcon';

export function falconCommand(ctx) {
  const u = ctx.upstreams[0];
  return `bundle exec falcon serve --bind http://${u.host}:${u.port} --count ${ctx.processes}`;
}

export function generate(ctx) {
  if (ctx.server !== 'falcon') return {};
  const advice = [];
  if (has(RAILS_API.isolationLevel, ctx.a.rails)) {
    advice.push({
      id: 'falcon-isolation-level', title: 'Set the fiber isolation level for Falcon',
      body: 'In config/application.rb add `config.active_support.isolation_level = :fiber`. Falcon runs each request in a fiber; per-request state (CurrentAttributes, connection checkout) must be kept per fiber, not per thread.',
      evidence: [SRC.railsConfiguring, SRC.falcon, DS.fibers],
    });
  }
  return { advice };
}
