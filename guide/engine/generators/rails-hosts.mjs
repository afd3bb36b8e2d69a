// config/initializers/allowed_hosts.rb: Rails answers only the site's domain (host authorization, Rails 6.0+). The
// proxies already refuse other Host values and overwrite X-Forwarded-Host (issue 23); this is the same rule inside
// the app, for requests that reach it some other way (a port opened by mistake, a proxy configured by hand).
// Rails prefers X-Forwarded-Host to Host when building URLs, and HostAuthorization checks that same value.
import { SRC } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { t } from '../text.mjs';

export const id = 'rails-hosts';
export const PATH = 'config/initializers/allowed_hosts.rb';

export function generate(ctx) {
  if (!gte(ctx.a.rails, '6.0') || !ctx.domain || ctx.domain === 'localhost') return {};
  const body = [
    { code: ['Rails.application.config.hosts << ' + JSON.stringify(ctx.domain)], why: t('rails.hosts', { domain: ctx.domain }), evidence: [SRC.railsHosts, SRC.railsForwardedHost] },
  ];
  return { files: [{ path: PATH, format: 'ruby', body }] };
}
