// RAILS_ENV handed to the app's container from the shell that runs Compose, with no default (seventh blind trial,
// tracks: `RAILS_ENV: $RAILS_ENV` on the service that builds the production stage). Compose substitutes an empty
// string for a variable that is not set (with a warning), the container's environment then holds RAILS_ENV= (it
// replaces the image's ENV), and Rails takes a blank RAILS_ENV as unset: Rails.env is RAILS_ENV.presence ||
// RACK_ENV.presence || "development". A note: the shell or the .env file beside the Compose file may set it.
import { DEV_STAGE } from './deploy.mjs';

const COMPOSE_INTERPOLATION = { label: 'Docker docs: Compose interpolation (an unset variable is replaced by an empty string; ${VAR:-default})', url: 'https://docs.docker.com/compose/how-tos/environment-variables/variable-interpolation/' };
const RAILS_ENV_CODE = { label: 'Rails railties/lib/rails.rb: Rails.env is ENV["RAILS_ENV"].presence || ENV["RACK_ENV"].presence || "development"', url: 'https://github.com/rails/rails/blob/main/railties/lib/rails.rb' };

export function composeRailsEnvFindings(files) {
  const out = [];
  for (const f of files.filter((x) => x.kind === 'compose' && !x.problem)) {
    for (const svc of f.services || []) {
      const e = svc.env.get('RAILS_ENV');
      // The app's own image (build:), not a development stage, and no RACK_ENV literal that Rails would fall back to.
      if (!svc.build || !e?.shell || DEV_STAGE.test(String(svc.target?.value || '').toLowerCase())) continue;
      const rack = svc.env.get('RACK_ENV');
      if (rack && !rack.shell && rack.value) continue;
      out.push({
        rule: 'rails-env-unset', severity: 'note', file: f.path, line: e.line, setting: 'RAILS_ENV', found: `$${e.shell}`, expected: `\${${e.shell}:-production}`,
        message: `the service \`${svc.name}\` builds the app${svc.target ? ` (stage \`${svc.target.value}\`)` : ''} and takes RAILS_ENV from the shell that runs Compose (${f.path}:${e.line}, no default): where neither that shell nor the .env file beside ${f.path} sets ${e.shell}, Compose puts an empty RAILS_ENV in the container, over any ENV RAILS_ENV of the image, and Rails runs in development (a blank RAILS_ENV counts as unset): code reloading, no eager loading, debug logs, full error pages to every visitor. Give it a default: RAILS_ENV: \${${e.shell}:-production}`,
        evidence: [COMPOSE_INTERPOLATION, RAILS_ENV_CODE],
      });
    }
  }
  return out;
}
