// config/thin.yml for `thin start -C config/thin.yml` (Thin cluster).
import { SRC, DS } from '../evidence.mjs';

export const id = 'thin';

export function generate(ctx) {
  if (ctx.server !== 'thin') return {};
  const u = ctx.upstreams[0];
  const body = [
    { key: 'chdir', value: ctx.root },
    { key: 'environment', value: 'production' },
  ];
  if (u.type === 'unix') {
    body.push({ key: 'socket', value: `${ctx.root}/tmp/sockets/thin.sock`, why: `Thin appends the server number: thin.0.sock … thin.${ctx.processes - 1}.sock, the paths listed in the proxy upstream.`, evidence: [SRC.thin] });
  } else {
    body.push({ key: 'address', value: u.host }, { key: 'port', value: u.port, why: `Ports ${u.port}…${u.port + ctx.processes - 1}, one per server, as in the proxy upstream.` });
  }
  body.push(
    { key: 'servers', value: ctx.processes, why: `${ctx.processes} single-threaded Thin processes (one event loop each).`, evidence: [DS.thinUnicorn] },
    { key: 'threaded', value: false, why: 'The thesis measured Thin\u2019s threaded mode slower on most cells.', evidence: [DS.thinThreaded] },
    { key: 'timeout', value: 30 },
    { key: 'max_conns', value: 1024 },
    { key: 'max_persistent_conns', value: 512 },
    { key: 'wait', value: 30 },
    { key: 'pid', value: `${ctx.root}/tmp/pids/thin.pid` },
    { key: 'log', value: `${ctx.root}/log/thin.log` },
    { key: 'daemonize', value: false, why: 'The init system supervises the processes.' },
  );
  return { files: [{ path: 'config/thin.yml', format: 'yaml', body }] };
}
