// The commands README and deploy.sh run inside the app, each from capabilities/rails-commands.mjs for the answered
// Rails version (rake tasks, runner, create-or-migrate, assets) and Ruby language level (Bundler's settings). Before
// the page's catalog has loaded the tables are empty: the current Rails' names stand in, so nothing throws.
import { RAILS_COMMANDS, BUNDLER_SETTINGS } from '../caps.mjs';
import { firstSince, has } from '../pick.mjs';

const row = (key, ctx) => firstSince(RAILS_COMMANDS[key], ctx.a.rails) || {};
/** A Rails task as this Rails runs it: `bin/rails db:migrate` (5.0+) or `rake db:migrate`. */
export const railsTask = (ctx, task) => `${row('task', ctx).cmd || 'bin/rails'} ${task}`;
/** `bin/rails runner`, `script/rails runner` (3.x) or `script/runner` (2.3). */
export const railsRunner = (ctx) => row('runner', ctx).cmd || 'bin/rails runner';
/** db:prepare (6.0+) or db:migrate: what README step 4 runs once the databases exist. */
export const prepareTask = (ctx) => row('prepare', ctx).task || 'db:prepare';
/** Whether this Rails has the asset pipeline's assets:precompile (3.1+). */
export const precompiles = (ctx) => !RAILS_COMMANDS.precompile || has(RAILS_COMMANDS.precompile, ctx.a.rails);
/** The app's Rack endpoint for an in-process request. */
export const rackApp = (ctx) => row('rackApp', ctx).expr || 'Rails.application';
/** Bundler's argument lists for README ('readme') or deploy.sh ('deploy', gems into `path`). */
export const bundlerArgs = (ctx, which, path = '') => (firstSince(BUNDLER_SETTINGS, ctx.lang)?.[which] || []).map((l) => l.replace('{path}', path));
