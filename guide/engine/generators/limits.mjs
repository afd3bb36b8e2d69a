// The open-files limit where the bundle ships no unit of its own: Passenger inside Apache (a drop-in for Apache's
// unit, or a PAM limits file) and init systems other than systemd (a PAM limits file). A chunk of its own on the
// page (guide/ui/generators.mjs): most bundles run their own units (systemd.mjs sets LimitNOFILE there).
import { SRC, DS } from '../evidence.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';

export const id = 'limits';

export function generate(ctx) {
  if (!APPLIES.limits(ctx)) return {};
  if (ctx.passengerIntegrated && ctx.a.init === 'systemd') {
    // Passenger lives inside Apache; Apache's own unit applies. Still raise its file limit.
    return { files: [{ path: 'etc/systemd/system/apache2.service.d/limits.conf', format: 'systemd', body: [{ section: 'Service', entries: [{ key: 'LimitNOFILE', value: 65536, why: t('systemd.1'), evidence: [SRC.fdLimits, DS.sysctl] }] }] }] };
  }
  return { files: [limitsFile(ctx.passengerIntegrated ? ctx.family.apacheUser || 'www-data' : ctx.user)] };
}

function limitsFile(user) {
  return {
    path: 'etc/security/limits.d/90-rails.conf', format: 'lines',
    body: [
      `# ${t('systemd.limits', { user })}`,
      `# see: ${DS.sysctl.url}`,
      `${user} soft nofile 65536`,
      `${user} hard nofile 65536`,
    ],
  };
}
