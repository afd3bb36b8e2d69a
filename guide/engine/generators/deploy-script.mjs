// deploy.sh: deploys and rollbacks with release directories. Each deploy copies the app's code into
// releases/TIMESTAMP, links the shared tmp/, log/ and storage/ of the app root into it, installs gems into the shared
// shared/bundle, precompiles assets, boots the release once (`bin/rails runner` answering /up in-process), runs the
// migrations (one host), then switches the `current` symlink atomically (ln -sfn + mv -T: rename(2) replaces the
// link in one step) and restarts the server the way capabilities/process.mjs says it loads new code. A release that
// fails to build or boot is never switched to; after the switch, a restart that fails or an /up check that fails
// switches back (restarting and checking the old release again; the message names both failures when that fails too),
// and the script exits 1. `rollback` switches to the release before `current` and goes back the same way when the
// restart or /up fails. Only the preflight boot and the migrations get the secrets file: Bundler, the gems' build
// scripts and assets:precompile run without it (Rails 7.1+: SECRET_KEY_BASE_DUMMY, capabilities/rails.mjs). POSIX sh with `set -eu`; the sweep checks it with
// `sh -n` and shellcheck, the lab proves it (tests/wizard/faults-deploys.test.mjs). Words: catalog-deploy.mjs; the
// script's text: catalog-shell.mjs.
import { SECRETS_FILE, pidFilePath } from './systemd.mjs';
import { jobUnitNames } from './readme-ops.mjs';
import { DEPLOY_SCRIPT, SHARED_DIRS, SHARED_BUNDLE, KEEP_RELEASES, upCheck, upDeadline, switchMode, precompileEnv, healthPath, handoverReload } from './releases.mjs';
import { TIMEOUT_CHAIN } from '../capabilities/edge.mjs';
import { MIGRATE_ENV, migrateEnvApplies } from './database-yml.mjs';
import { t, lines } from '../text.mjs';
import { SERVER_PROCESS } from '../caps.mjs';
import { SERVER_LABEL } from './util.mjs';
import { APP_NAME } from '../derive.mjs';
import { railsTask, railsRunner, precompiles, rackApp, bundlerArgs } from './rails-commands.mjs';

export const id = 'deploy-script';
// Why the restart is what it is, per server: Puma in this bundle always preloads (cluster mode) or runs one process,
// and a phased restart (USR1) needs workers without preload_app!, so it gets the hot restart.
function restartWhy(ctx, mode) {
  if (ctx.server === 'puma') return t(ctx.mode === 'cluster' ? 'deploy.sh.restart.puma-preload' : 'deploy.sh.restart.puma-single', { signal: mode.signal });
  if (mode.reloads && keepsGems(ctx)) return t('deploy.sh.restart.reload-gems', { signal: mode.signal, server: SERVER_LABEL[ctx.server] });
  return t(ctx.passengerIntegrated ? 'deploy.sh.restart.passenger-apache' : mode.reloads ? 'deploy.sh.restart.reload' : 'deploy.sh.restart.restart', { signal: mode.signal });
}

// A reload that does not re-execute the main process (Falcon's HUP) keeps the gems it loaded at start: restart_app
// gets the release being left and restarts instead when its Gemfile.lock differs from the one under current.
const keepsGems = (ctx) => Boolean((SERVER_PROCESS[ctx.server] || {}).reload?.keepsGems);
// A reload that hands over to a new master (Unicorn's USR2) returns at once while the old master keeps answering
// /up: restart_app waits until the PID file names a new, living master and the .oldbin file is gone, and fails when
// the old master takes its file back (the new code did not boot: Unicorn SIGNALS) or the wait runs out.
// A reload signals the running main process: on a unit that is not active (the server died, say when the release
// being left crashed it) `systemctl reload` fails, and a switch-back would fail with it; a start is what loads the
// code then. Passenger inside Apache has no unit of ours; a restart needs no running unit.
const reloadsUnit = (ctx, mode) => mode.reloads && !ctx.passengerIntegrated;
function restartCommand(ctx, mode) {
  const reload = handoverReload(ctx) ? `o=$(cat "$PIDFILE") && as_user touch "$PIDFILE.deploy" && ${mode.command} && wait_handover "$o"`
    : mode.reloads && keepsGems(ctx) ? `if cmp -s "$ROOT/releases/\${1:-none}/Gemfile.lock" "$ROOT/current/Gemfile.lock"; then ${mode.command}; else systemctl restart rails-app; fi`
      : mode.command;
  if (!reloadsUnit(ctx, mode)) return reload;
  return `if systemctl is-active --quiet rails-app; then ${reload}; else systemctl restart rails-app; fi`;
}

// deploy.sh's text is catalog words (catalog-shell.mjs: JSON on the page, not first-load JavaScript), filled by
// text.mjs lines(); a line "#:key" there is the comment deploy.sh.<key>, filled from the same vars, at its indent.
function expand(key, vars) {
  return lines(`cmd.deploy.${key}`, vars).map((line) => {
    const note = /^(\s*)#:([\w-]+)$/.exec(line);
    return note ? `${note[1]}# ${t(`deploy.sh.${note[2]}`, vars)}` : line;
  });
}

export function deployScript(ctx, files) {
  const mode = switchMode(ctx);
  const jobs = jobUnitNames(ctx); // README's own list (none when the jobs run inside Puma)
  // The preflight request: the app's full middleware stack (host authorization, SSL redirect) for its own domain.
  // /up answers 200; before Rails 7.1 the root page may redirect (to a login): any status below 400, as curl -f accepts.
  const ok = healthPath(ctx) === '/up' ? 'status == 200' : 'status < 400';
  const h = handoverReload(ctx);
  const vars = {
    root: ctx.root,
    user: ctx.user,
    rubyBin: ctx.rubyBin,
    secrets: SECRETS_FILE,
    keep: KEEP_RELEASES,
    configFiles: files.map((f) => f.path).filter((p) => p.startsWith('config/')).map((p) => p.slice('config/'.length)).join(' '),
    why: `${restartWhy(ctx, mode)}${reloadsUnit(ctx, mode) ? ` ${t('deploy.sh.restart.inactive')}` : ''}`,
    restartApp: [restartCommand(ctx, mode), ...(jobs.length ? [`systemctl restart ${jobs.join(' ')}`] : [])].join(' && '),
    upCheck: upCheck(ctx),
    // Where the app's output goes: Passenger inside Apache writes it to Apache's error log (no unit of ours).
    appLog: t(ctx.passengerIntegrated ? 'deploy.sh.log.apache' : 'deploy.sh.log'),
    path: healthPath(ctx),
    upS: upDeadline(ctx),
    upTry: TIMEOUT_CHAIN.upTryS,
    keepNames: ['releases', ...SHARED_DIRS, SHARED_BUNDLE.split('/')[0]].map((n) => `! -name ${n}`).join(' '),
    initLinks: SHARED_DIRS.map((d) => `  ln -sfn "$ROOT/${d}" "$ROOT/releases/$r/${d}"`),
    exclude: ['.git', ...SHARED_DIRS].map((n) => `--exclude=./${n}`).join(' '),
    buildLinks: SHARED_DIRS.map((d) => `  as_user ln -sfn "$ROOT/${d}" "$new/${d}"`),
    buildWords: precompiles(ctx) ? 'build' : 'build-no-assets',
    // Bundler's syntax for this Ruby (capabilities/rails-commands.mjs: 2.1+'s config set, or 1.x's install flags).
    bundleLines: bundlerArgs(ctx, 'deploy', `"$ROOT/${SHARED_BUNDLE}"`).map((args) => `  as_app "$new" "$BUNDLE" ${args} || fail "bundle ${args.split(' ')[0]} failed; current stays at $old"`),
    runner: railsRunner(ctx),
    preflight: `status, = ${rackApp(ctx)}.call(Rack::MockRequest.env_for("https://${ctx.domain}${healthPath(ctx)}", "HTTP_HOST" => "${ctx.domain}")); exit(${ok})`,
    migrateEnv: migrateEnvApplies(ctx) ? `${MIGRATE_ENV}=1 ` : '',
    migrateTask: railsTask(ctx, 'db:migrate'),
    appName: APP_NAME,
  };
  vars.handover = h ? expand('handover', { ...vars, pidFile: pidFilePath(ctx), wait: h.handoverWait }) : [];
  // build_assets (catalog-shell.mjs cmd.deploy.assets), defined before build_release and called by it, only where this
  // Rails has the asset pipeline (3.1+). `rake -P` lists every task the release's Rakefile defines (what Heroku's Ruby
  // buildpack asks before it precompiles): an API-only app (`rails new --api`, no Sprockets or Propshaft) has no
  // assets:precompile, and running it would stop every deploy with "Don't know how to build task" (SRE check 5, D1).
  // A Rakefile that cannot be read stops the build instead. Each build copies the current release's assets before
  // precompiling (the old digests stay reachable during the switch), so without assets:clean release N would hold every
  // digest of releases 1…N (D2). Sprockets' and Propshaft's clean keep the current and the two newest older versions of
  // each asset, plus any younger than an hour (propshaft lib/propshaft/output_path.rb; sprockets-rails
  // assets:clean[keep=2]): the pages an old process still renders during the switch ask for the previous digests,
  // which stay. A clean that fails only warns: a deploy should not stop for housekeeping.
  const assets = precompiles(ctx);
  vars.assets = assets ? expand('assets', { ...vars, precompileEnv: precompileEnv(ctx), precompileTask: railsTask(ctx, 'assets:precompile'), cleanTask: railsTask(ctx, 'assets:clean') }) : [];
  vars.buildAssets = assets ? ['  build_assets'] : [];
  return expand('script', vars);
}

export function generate() {
  return {};
}

/** Runs after the other generators (it lists the config files they wrote): the summary's files get deploy.sh. */
export function finish(summary) {
  const { ctx, files } = summary;
  if (!ctx.releases) return [];
  return [{ path: DEPLOY_SCRIPT, format: 'sh', body: deployScript(ctx, files) }];
}
