// Generator registry for Node (the command line, the checker, the tests): every generator, in bundle order
// (order.mjs). The page assembles the same list lazily (guide/ui/generators.mjs).
import { ORDER } from './order.mjs';
import * as sysctl from './sysctl.mjs';
import * as systemd from './systemd.mjs';
import * as rcFreebsd from './rc-freebsd.mjs';
import * as rhelSteps from './rhel-steps.mjs';
import * as kamalProxy from './kamal-proxy.mjs';
import * as limits from './limits.mjs';
import * as redis from './redis.mjs';
import * as rubyEnv from './ruby-env.mjs';
import * as puma from './puma.mjs';
import * as unicorn from './unicorn.mjs';
import * as pitchfork from './pitchfork.mjs';
import * as passenger from './passenger.mjs';
import * as thin from './thin.mjs';
import * as mongrel from './mongrel.mjs';
import * as falcon from './falcon.mjs';
import * as nginx from './nginx.mjs';
import * as nginxForwarded from './nginx-forwarded.mjs';
import * as apache from './apache.mjs';
import * as caddy from './caddy.mjs';
import * as databaseYml from './database-yml.mjs';
import * as railsHosts from './rails-hosts.mjs';
import * as postgresql from './postgresql.mjs';
import * as mysql from './mysql.mjs';
import * as pgbouncer from './pgbouncer.mjs';
import * as loadBalancer from './load-balancer.mjs';
import * as adviceRails from './advice-rails.mjs';
import * as adviceProd from './advice-prod.mjs';
import * as operations from './operations.mjs';
import * as deployScript from './deploy-script.mjs';
import * as readme from './readme.mjs';
import * as readmeHosts from './readme-hosts.mjs';
import * as checklist from './checklist.mjs';

const ALL = [puma, unicorn, pitchfork, passenger, thin, mongrel, falcon, rubyEnv, databaseYml, railsHosts, nginx, nginxForwarded, apache, caddy,
  postgresql, mysql, pgbouncer, loadBalancer, sysctl, systemd, limits, redis, kamalProxy, rcFreebsd, rhelSteps, operations, adviceRails, adviceProd, deployScript, readmeHosts, readme, checklist];
const byId = new Map(ALL.map((g) => [g.id, g]));

export const GENERATORS = ORDER.map((id) => {
  const g = byId.get(id);
  if (!g) throw new Error(`generators/order.mjs names "${id}", which no generator module declares`);
  return g;
});
