// The open-files limit where the bundle ships no unit of its own: Passenger inside Apache (a drop-in for Apache's
// unit, or a PAM limits file) and init systems other than systemd (a PAM limits file). A chunk of its own on the
// page (guide/ui/generators.mjs): most bundles run their own units (systemd.mjs sets LimitNOFILE there).
import { SRC, DS } from '../evidence.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';
import { fam } from './family-steps.mjs';
import { SECRETS_FILE, ceiling } from './systemd.mjs';

export const id = 'limits';

export function generate(ctx) {
  if (!APPLIES.limits(ctx)) return {};
  if (ctx.passengerIntegrated && ctx.a.init === 'systemd') {
    // Passenger lives inside Apache; Apache's own unit applies: raise its file limit. The app's Ruby settings and
    // secrets reach the app through the PassengerRuby wrapper (passenger.mjs; booted in the lab:
    // tests/wizard/lab-passenger-bundle.test.mjs), not Apache's environment. Passenger before 4.0 has no per-app
    // PassengerRuby: there the app processes inherit Apache's environment, so the unit gets the files.
    const svc = fam(ctx, 'services.apache') || 'apache2';
    return { files: [{ path: `etc/systemd/system/${svc}.service.d/rails-app.conf`, format: 'systemd', body: [{ section: 'Service', entries: [
      { key: 'LimitNOFILE', value: 65536, why: t('systemd.1'), evidence: [SRC.fdLimits, DS.sysctl] },
      // The memory ceiling the app's own units get (SRE check 6, D4), on Apache's unit, where Passenger's processes run.
      { comment: t('ceiling.apache') },
      ...ceiling(ctx, 'apache', 1, 'Passenger', 'core'),
      ...(ctx.passengerEnvWrapper ? [] : [
        { key: 'EnvironmentFile', value: `${ctx.appDir}/config/ruby.env`, why: t('systemd.apache.env'), evidence: [SRC.systemdExec, SRC.passenger] },
        { key: 'EnvironmentFile', value: SECRETS_FILE }]),
    ] }] }] };
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
