// Small helpers shared by generators.
import { SRC } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { TIMEOUT_CHAIN } from '../capabilities/edge.mjs';

export const S = (name, args, why, evidence = []) => ({ d: name, args: Array.isArray(args) ? args : [args], why, evidence });
export const C = (comment) => ({ comment });
export const BLANK = { blank: true };

export function upstreamName() {
  return 'rails_app';
}

/** "unix:/path" or "127.0.0.1:3000" for proxies. */
export function addr(u) {
  return u.type === 'unix' ? `unix:${u.path}` : `${u.host}:${u.port}`;
}

/** The command that starts Rails' own server for a Rails version. */
export function railsServerCommand(rails) {
  if (gte(rails, '4.0')) return 'bin/rails server';
  if (gte(rails, '3.0')) return 'script/rails server';
  return 'script/server';
}

export const APP_USER = 'deploy';
export const SERVER_LABEL = { puma: 'Puma', unicorn: 'Unicorn', pitchfork: 'Pitchfork', passenger: 'Passenger', thin: 'Thin', falcon: 'Falcon', webrick: 'WEBrick', mongrel: 'Mongrel' };

/** Whether the app server keeps HTTP/1.1 connections from the proxy alive (worth upstream keepalive). */
export function serverKeepsAlive(ctx) {
  return ['puma', 'falcon', 'passenger'].includes(ctx.server);
}

export { SRC };

/** Files for a separate database host or the load balancer live under their own top directory in the bundle. */
export const dbPrefix = (ctx) => (ctx.a.db_host === 'separate' ? 'db-host/' : '');
export const LB_PREFIX = 'lb-host/';

/** The app hosts sit behind a load balancer: their proxy takes the client address from its X-Forwarded-For. */
// curl options of the /up checks: a reload returns before the new workers run, so retry, within a deadline
// (--retry-max-time: no new try after it) and each try bounded (--max-time: a hung app fails a try instead of curl's
// unbounded wait). The seconds are capability data (capabilities/edge.mjs TIMEOUT_CHAIN).
export const upCurl = (deadline) => `-fsS --max-time ${TIMEOUT_CHAIN.upTryS} --retry ${deadline} --retry-all-errors --retry-delay 1 --retry-max-time ${deadline}`;
export const UP_CHECK = upCurl(TIMEOUT_CHAIN.upDeadlineS);
export const behindBalancer = (ctx) => ctx.a.app_hosts > 1 && ctx.a.lb !== 'none';

/** Where the FreeBSD rc.d script reads the app's secrets (the rc-freebsd unit and the operations file name it). */
export const FREEBSD_SECRETS = '/usr/local/etc/rails-app/secrets.env';
