// README.md for the bundle: what each file is, where it goes, the sizing numbers and the warnings.
import { SERVER_LABEL } from './util.mjs';

export const id = 'readme';

const INSTALL = [
  [/^etc\/nginx\/nginx\.conf$/, 'Replace /etc/nginx/nginx.conf (or merge its worker_* and events settings), then `nginx -t && systemctl reload nginx`.'],
  [/^etc\/nginx\/sites-enabled\//, 'Copy to /etc/nginx/sites-enabled/, then `nginx -t && systemctl reload nginx`.'],
  [/^etc\/apache2\//, 'Copy to /etc/apache2/sites-available/, `a2ensite rails-app`, enable the modules named in the advice, `apache2ctl configtest`.'],
  [/^etc\/caddy\//, 'Copy to /etc/caddy/Caddyfile, `caddy validate --config /etc/caddy/Caddyfile`, reload.'],
  [/^etc\/sysctl\.d\//, 'Copy to /etc/sysctl.d/ and run `sysctl --system`.'],
  [/^etc\/udev\//, 'Copy to /etc/udev/rules.d/ and run `udevadm trigger --subsystem-match=block`.'],
  [/^etc\/systemd\//, 'Copy to /etc/systemd/system/, `systemctl daemon-reload`, `systemctl enable --now` the unit.'],
  [/^etc\/security\//, 'Copy to /etc/security/limits.d/ (applies to new login sessions).'],
  [/^etc\/postgresql\//, 'Copy into the cluster\u2019s conf.d directory (include_dir = \'conf.d\' in postgresql.conf), restart PostgreSQL.'],
  [/^etc\/mysql\//, 'Copy into the server\u2019s include directory and restart the server.'],
  [/^etc\/pgbouncer\//, 'Copy to /etc/pgbouncer/, create userlist.txt, restart PgBouncer.'],
  [/^config\//, 'Copy into the Rails application\u2019s config/ directory.'],
  [/^migrate-to\//, 'Not for the current stack: the configuration to move to (see the warnings).'],
];

export function finish({ files, warnings, ctx }) {
  const { a } = ctx;
  const rows = files.map((f) => [f.path, (INSTALL.find(([re]) => re.test(f.path)) || [null, 'See the comments in the file.'])[1]]);
  rows.push(['CHECKLIST.md', 'Coding and operations advice as a checklist.']);
  const blocks = [
    { h: 1, text: 'Rails configuration bundle' },
    { p: `Stack: ${ctx.impl.label} ${a.ruby_version}, Rails ${a.rails}, ${SERVER_LABEL[ctx.server]} ${ctx.serverVersion}, ${a.proxy} ${a.proxy_version}, ${a.database} ${a.database_version} (${ctx.adapter}${ctx.pooler !== 'none' ? ', PgBouncer' : ''}), ${a.os} ${a.os === 'linux' ? a.kernel : ''} on ${a.cores} cores / ${a.ram_gb} GB, ${a.app_hosts} app host(s).` },
    { p: `Application root assumed: ${ctx.root} (user deploy). Change paths consistently in every file if yours differs — the proxy upstream and the server bind must stay identical.` },
    { h: 2, text: 'Sizing' },
    {
      table: {
        head: ['Item', 'Value'],
        rows: [
          ['Processes per host', String(ctx.processes)],
          ['Threads per process', String(ctx.threads)],
          ['Database pool per process', String(ctx.pool)],
          ['Database connections needed', String(ctx.connectionsNeeded)],
          ['Connection limit seen by the app', ctx.appSideLimit === null ? 'n/a (SQLite)' : String(ctx.appSideLimit)],
          ['Estimated memory per host', `${ctx.memoryTotalMb} MB of ${ctx.ramMb} MB`],
        ],
      },
    },
    { h: 2, text: 'Files' },
    { table: { head: ['File', 'Install'], rows } },
  ];
  if (warnings.length) {
    blocks.push({ h: 2, text: 'Warnings' });
    blocks.push({ list: warnings.map((w) => `${w.severity.toUpperCase()}: ${w.message} ${w.suggestion || ''}`.trim()) });
  }
  blocks.push({ p: 'Every setting in these files is preceded by a comment with its reason and source. Numbers such as memory per worker are estimates: measure your own app and adjust.' });
  return [{ path: 'README.md', format: 'markdown', body: blocks }];
}

export function generate() {
  return {};
}
