// The page's generator registry. The generators every answer set needs are in the first-load script; the optional
// ones (another app server, proxy or database, PgBouncer, a load balancer, FreeBSD) are chunks fetched when the
// answers first call for them (generators/applies.mjs says when), so the wizard's first-load JavaScript stays
// within its budget. Once loaded, a chunk stays: its generator's own guard keeps it silent for other answers.
import { ORDER } from '../engine/generators/order.mjs';
import { APPLIES } from '../engine/generators/applies.mjs';
import { derive } from '../engine/derive.mjs';
import { parseAnswers } from '../engine/answers.mjs';
import * as puma from '../engine/generators/puma.mjs';
import * as rubyEnv from '../engine/generators/ruby-env.mjs';
import * as databaseYml from '../engine/generators/database-yml.mjs';
import * as railsHosts from '../engine/generators/rails-hosts.mjs';
import * as nginx from '../engine/generators/nginx.mjs';
import * as postgresql from '../engine/generators/postgresql.mjs';
import * as sysctl from '../engine/generators/sysctl.mjs';
import * as systemd from '../engine/generators/systemd.mjs';
import * as operations from '../engine/generators/operations.mjs';
import * as adviceRails from '../engine/generators/advice-rails.mjs';
import * as adviceProd from '../engine/generators/advice-prod.mjs';
import * as deployScript from '../engine/generators/deploy-script.mjs';
import * as readme from '../engine/generators/readme.mjs';
import * as checklist from '../engine/generators/checklist.mjs';

const loaded = new Map([puma, rubyEnv, databaseYml, railsHosts, nginx, postgresql, sysctl, systemd, operations, adviceRails, adviceProd, deployScript, readme, checklist]
  .map((g) => [g.id, g]));

// Literal import() calls: Rollup makes each a chunk (scripts/lib/bundle-page.mjs: guide-<file>-<hash>.js).
export const LOADERS = {
  unicorn: () => import('../engine/generators/unicorn.mjs'),
  pitchfork: () => import('../engine/generators/pitchfork.mjs'),
  passenger: () => import('../engine/generators/passenger.mjs'),
  thin: () => import('../engine/generators/thin.mjs'),
  mongrel: () => import('../engine/generators/mongrel.mjs'),
  falcon: () => import('../engine/generators/falcon.mjs'),
  apache: () => import('../engine/generators/apache.mjs'),
  'nginx-forwarded': () => import('../engine/generators/nginx-forwarded.mjs'),
  caddy: () => import('../engine/generators/caddy.mjs'),
  mysql: () => import('../engine/generators/mysql.mjs'),
  pgbouncer: () => import('../engine/generators/pgbouncer.mjs'),
  'load-balancer': () => import('../engine/generators/load-balancer.mjs'),
  redis: () => import('../engine/generators/redis.mjs'),
  limits: () => import('../engine/generators/limits.mjs'),
  'kamal-proxy': () => import('../engine/generators/kamal-proxy.mjs'),
  'rc-freebsd': () => import('../engine/generators/rc-freebsd.mjs'),
  'readme-hosts': () => import('../engine/generators/readme-hosts.mjs'),
  'rhel-steps': () => import('../engine/generators/rhel-steps.mjs'),
};

/** Ids of the optional generators these answers need whose code is not here yet. */
export function missingFor(rawAnswers) {
  const absent = Object.keys(LOADERS).filter((id) => !loaded.has(id));
  if (absent.length === 0) return absent; // everything fetched: no need to derive the context twice per render
  const ctx = derive(parseAnswers(rawAnswers).answers);
  return absent.filter((id) => APPLIES[id](ctx));
}

/** Fetches the given optional generators (all of them without an argument: the offline cache, the tests). */
export async function load(ids = Object.keys(LOADERS)) {
  const mods = await Promise.all(ids.filter((id) => !loaded.has(id)).map((id) => LOADERS[id]()));
  for (const g of mods) loaded.set(g.id, g);
}

/** The loaded generators in bundle order: what generateWith runs. */
export function current() {
  return ORDER.filter((id) => loaded.has(id)).map((id) => loaded.get(id));
}
