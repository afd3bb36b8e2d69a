// etc/systemd/system/kamal-proxy.service (proxy = kamal-proxy on a systemd host). A chunk of its own on the page
// (guide/ui/generators.mjs): most answer sets do not need it, and the first-load script has a size budget.
import { SRC } from '../evidence.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';
import { fam } from './family-steps.mjs';

export const id = 'kamal-proxy';

// An explained entry without its own source cites systemd.exec (as in systemd.mjs).
const E = (key, value, why, evidence = []) => ({ key, value, why, evidence: why && evidence.length === 0 ? [SRC.systemdExec] : evidence });

export function kamalProxyUnit(ctx) {
  return [
    { section: 'Unit', entries: [E('Description', 'kamal-proxy (HTTP/HTTPS in front of the Rails app)'), E('After', 'network-online.target'), E('Wants', 'network-online.target')] },
    {
      section: 'Service', entries: [
        E('Type', 'exec'),
        E('User', 'kamal-proxy', t('systemd.kamal.user'), [SRC.systemdExec]),
        E('Group', 'kamal-proxy'),
        E('StateDirectory', 'kamal-proxy', t('systemd.kamal.state'), [SRC.kamalProxy]),
        E('Environment', 'HOME=/var/lib/kamal-proxy'),
        E('ExecStart', `/usr/local/bin/kamal-proxy run --http-port 80${ctx.tls === 'proxy' ? ' --https-port 443' : ''}`, t('systemd.kamal.exec'), [SRC.kamalProxy]),
        E('Restart', 'always'),
        E('AmbientCapabilities', 'CAP_NET_BIND_SERVICE', t('systemd.caps.bind'), [SRC.systemdExec]),
        E('CapabilityBoundingSet', 'CAP_NET_BIND_SERVICE'),
        E('NoNewPrivileges', 'yes'),
        E('ProtectSystem', 'strict'),
        E('ProtectHome', 'yes'),
        E('PrivateDevices', 'yes'),
        E('ProtectKernelTunables', 'yes'),
        E('ProtectKernelModules', 'yes'),
        E('ProtectControlGroups', 'yes'),
        E('RestrictAddressFamilies', 'AF_UNIX AF_INET AF_INET6'),
        E('SystemCallArchitectures', 'native'),
        E('SystemCallFilter', '@system-service'),
      ],
    },
    { section: 'Install', entries: [E('WantedBy', 'multi-user.target')] },
  ];
}

/** README step 6's lines for kamal-proxy: its user, its service, then (last) the deploy that routes to the app. */
export function finish(summary) {
  const { ctx } = summary;
  if (!APPLIES['kamal-proxy'](ctx)) return [];
  const u = ctx.upstreams[0];
  summary.hostBlocks = { ...summary.hostBlocks, kamal: [
    `id kamal-proxy >/dev/null 2>&1 || ${fam(ctx, 'systemUser', { user: 'kamal-proxy', home: '/var/lib/kamal-proxy' })}`, 'systemctl enable --now kamal-proxy.service',
    `runuser -u kamal-proxy -- env HOME=/var/lib/kamal-proxy kamal-proxy deploy rails-app --target ${u.host}:${u.port} --host ${ctx.domain}${ctx.tls === 'proxy' ? ' --tls' : ''}`,
  ] };
  return [];
}

export function generate(ctx) {
  if (!APPLIES['kamal-proxy'](ctx)) return {};
  return { files: [{ path: 'etc/systemd/system/kamal-proxy.service', format: 'systemd', body: kamalProxyUnit(ctx), meta: { role: 'proxy' } }] };
}
