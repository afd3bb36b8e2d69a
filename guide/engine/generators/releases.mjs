// The release layout's names and the two facts README and deploy.sh share (the /up check, what a deploy does to
// the running server), used by README steps 1, 6 and 7 (readme-ops.mjs) and by deploy-script.mjs.
import { SERVER_PROCESS, RAILS_API } from '../caps.mjs';
import { has } from '../pick.mjs';
import { gte } from '../version.mjs';
import { behindBalancer, upCurl } from './util.mjs';
import { TIMEOUT_CHAIN } from '../capabilities/edge.mjs';
import { passengerRestart } from './commands.mjs';

export const DEPLOY_SCRIPT = 'deploy.sh';
export const SHARED_DIRS = ['tmp', 'log', 'storage'];
export const KEEP_RELEASES = 5;
// Gems, shared by every release (Bundler's path): installed once, not per deploy.
export const SHARED_BUNDLE = 'shared/bundle';

/** The health path: Rails 7.1+ generates /up (rails/health#show); before it, the root page, as the balancer asks. */
export const healthPath = (ctx) => (gte(ctx.a.rails, '7.1') ? '/up' : '/');

/** Seconds the /up check retries: a server whose start returns before it loads the app (process row bootWait:
 * Thin's daemons) gets its own, the others the chain's (capabilities/edge.mjs). */
export const upDeadline = (ctx) => (SERVER_PROCESS[ctx.server] || {}).bootWait || TIMEOUT_CHAIN.upDeadlineS;

/** The /up check README step 6 and the deploy run on an app host (the balancer asks the same way). */
export function upCheck(ctx) {
  const up = healthPath(ctx);
  const scheme = ctx.tls === 'none' ? 'http' : 'https';
  const opts = upCurl(upDeadline(ctx));
  if (behindBalancer(ctx) && ctx.tls === 'upstream') return `curl ${opts} -H 'Host: ${ctx.domain}' -H 'X-Forwarded-Proto: https' http://127.0.0.1${up}`;
  // This host's own edge, whatever DNS says (a CDN in front, or a name not yet pointed here): --resolve.
  return `curl ${opts} --resolve ${ctx.domain}:${scheme === 'https' ? 443 : 80}:127.0.0.1 ${scheme}://${ctx.domain}${up}`;
}

/** What a deploy does to the running server: reload (loads new code, keeps the socket) or restart. */
export function switchMode(ctx) {
  const p = SERVER_PROCESS[ctx.server] || {};
  const reloads = p.deploy === 'reload' && !((p.reload.handover || p.reload.mainPidOnly) && ctx.proxy === 'thruster');
  // Passenger inside Apache has no unit of ours: the unit's reload command, run directly.
  const reload = ctx.passengerIntegrated ? passengerRestart(ctx) : 'systemctl reload rails-app';
  return { reloads, command: reloads ? reload : 'systemctl restart rails-app', signal: reloads ? p.reload.signal || p.reload.command : '' };
}

/** The process row's reload when a deploy's reload hands over to a new master (Unicorn's USR2), else null: deploy.sh
 * waits for the handover, and the deploy-memory rule counts the server twice for it. */
export function handoverReload(ctx) {
  const reload = (SERVER_PROCESS[ctx.server] || {}).reload;
  return switchMode(ctx).reloads && reload?.handover ? reload : null;
}

/** What assets:precompile gets instead of the app's secrets (deploy.sh, README step 7 without releases): Rails 7.1+
 * makes up a throw-away secret_key_base for SECRET_KEY_BASE_DUMMY; older versions read SECRET_KEY_BASE from the
 * environment first, so a placeholder that only this one process sees. */
export const precompileEnv = (ctx) => (has(RAILS_API.secretKeyBaseDummy, ctx.a.rails) ? 'SECRET_KEY_BASE_DUMMY=1' : 'SECRET_KEY_BASE=assets-precompile-only');
