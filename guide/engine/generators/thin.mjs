// config/thin.yml for `thin start -C config/thin.yml` (Thin cluster).
import { SRC, DS } from '../evidence.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';

export const id = 'thin';

export function generate(ctx) {
  if (!APPLIES.thin(ctx)) return {};
  const u = ctx.upstreams[0];
  const n = ctx.processes;
  const body = [{ key: 'chdir', value: ctx.appDir }, { key: 'environment', value: 'production' }];
  if (u.type === 'unix') body.push({ key: 'socket', value: `${ctx.root}/tmp/sockets/thin.sock`, why: t('thin.socket', { last: n - 1 }), evidence: [SRC.thin] });
  else body.push({ key: 'address', value: u.host }, { key: 'port', value: u.port, why: t('thin.port', { first: u.port, last: u.port + n - 1 }), evidence: [SRC.thin, SRC.nginxUpstream] });
  body.push(
    { key: 'servers', value: n, why: t('thin.servers', { n }), evidence: [DS.thinUnicorn] },
    { key: 'threaded', value: false, why: t('thin.threaded'), evidence: [DS.thinThreaded] },
    { key: 'timeout', value: 30, why: t('thin.timeout'), evidence: [SRC.thin] },
    { key: 'max_conns', value: 1024 },
    { key: 'max_persistent_conns', value: 512 },
    { key: 'wait', value: 30 },
    { key: 'pid', value: `${ctx.root}/tmp/pids/thin.pid` },
    { key: 'log', value: `${ctx.root}/log/thin.log` },
    // A config file makes `thin start` a cluster, which daemonizes its servers whatever this says (process.mjs).
    { key: 'daemonize', value: true, why: t('thin.daemonize'), evidence: [SRC.thin, SRC.systemdService] },
  );
  return { files: [{ path: 'config/thin.yml', format: 'yaml', body }] };
}
