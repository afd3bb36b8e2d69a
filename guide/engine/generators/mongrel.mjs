// config/mongrel_cluster.yml for the legacy mongrel_cluster gem.
import { SRC } from '../evidence.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';

export const id = 'mongrel';

export function generate(ctx) {
  if (!APPLIES.mongrel(ctx)) return {};
  const u = ctx.upstreams[0];
  const body = [
    { key: 'cwd', value: ctx.appDir },
    { key: 'environment', value: 'production' },
    { key: 'address', value: u.host },
    { key: 'port', value: String(u.port), why: t('thin.port', { first: u.port, last: u.port + ctx.processes - 1 }), evidence: [SRC.nginxUpstream] },
    { key: 'servers', value: ctx.processes, why: t('mongrel.servers'), evidence: [SRC.pumaDeploy] },
    { key: 'pid_file', value: 'tmp/pids/mongrel.pid' },
    { key: 'log_file', value: 'log/mongrel.log' },
  ];
  return { files: [{ path: 'config/mongrel_cluster.yml', format: 'yaml', body }] };
}
