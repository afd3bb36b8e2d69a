// Passenger's restart-app, which the unit's reload and deploy.sh run (releases.mjs switchMode asks for it while the
// context is derived, before any generator runs, so it stays here). The command lines that start Falcon and Passenger
// Standalone live in their generators (falcon.mjs, passenger.mjs), which the units reach through ctx.generator().
import { commandsOf } from './family-steps.mjs';

/** restart-app for the unit's reload: the distribution's passenger-config, else the Gemfile's. */
export function passengerRestart(ctx) {
  const bin = commandsOf(ctx)?.passengerBin?.config;
  return `${bin || `${ctx.rubyBin}/bundle exec passenger-config`} restart-app ${ctx.root} --ignore-app-not-running`;
}
