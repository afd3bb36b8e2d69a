// Falcon: started by the init system with command-line options (see systemd.mjs); advice for isolation level.
import { SRC, DS } from '../evidence.mjs';
import { RAILS_API, SERVER_PROCESS } from '../caps.mjs';
import { has } from '../pick.mjs';
import { connectionSum } from '../arithmetic.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';
import { W } from '../rules.mjs';
import { lt } from '../version.mjs';

export const id = 'falcon';

// The command line that starts Falcon (systemd.mjs's unit and rc-freebsd.mjs run it through ctx.generator('falcon');
// here, not in the first-load script, since only Falcon's answers need it). config.ru named through the app directory
// (current with release directories), so every child the HUP restart forks reads the release current points at, not
// the directory the controller started in; the graceful stop from the process row, within the unit's TimeoutStopSec
// (falcon serve waits 1 s by default, then kills).
export function falconCommand(ctx) {
  const u = ctx.upstreams[0];
  const p = SERVER_PROCESS.falcon;
  return `bundle exec falcon serve --bind http://${u.host}:${u.port} --count ${ctx.processes} --config ${ctx.appDir}/config.ru --graceful-stop ${p.gracefulStop}`;
}

// Rules about this generator's own server or proxy (moved from rules.mjs: their code loads with this chunk).
function falconNotes(ctx) {
  if (ctx.server !== 'falcon') return null;
  if (lt(ctx.a.rails, '7.0')) return W('falcon-before-rails-7', 'warning', { rails: ctx.a.rails }, [SRC.railsConfiguring, SRC.falcon]);
  if (!ctx.mri) return W('falcon-non-cruby', 'warning', { impl: ctx.impl.label }, [SRC.falcon]);
  return null;
}

export function generate(ctx) {
  if (!APPLIES.falcon(ctx)) return {};
  const advice = [{ id: 'falcon-serve-vs-host', title: t('a.falcon-serve-vs-host.title'), body: t('a.falcon.host', { cmd: falconCommand(ctx) }), evidence: [SRC.falcon] }];
  if (ctx.a.database !== 'sqlite') advice.push({ id: 'falcon-pool', title: t('a.falcon-pool.title'), body: t('falcon.pool', { pool: ctx.pool, sum: connectionSum(ctx), limit: ctx.appSideLimit }), evidence: [SRC.railsPool, SRC.falcon, DS.fibers] });
  if (has(RAILS_API.isolationLevel, ctx.a.rails)) advice.push({ id: 'falcon-isolation-level', title: t('a.falcon-isolation-level.title'), body: t('a.falcon.body'), evidence: [SRC.railsConfiguring, SRC.falcon, DS.fibers] });
  return { advice, warnings: [falconNotes(ctx)].filter(Boolean) };
}
