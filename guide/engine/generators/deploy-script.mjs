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
// `sh -n` and shellcheck, the lab proves it (tests/wizard/faults-deploys.test.mjs). Words: catalog-deploy.mjs.
import { SECRETS_FILE, pidFilePath } from './systemd.mjs';
import { jobUnitNames } from './readme-ops.mjs';
import { DEPLOY_SCRIPT, SHARED_DIRS, SHARED_BUNDLE, KEEP_RELEASES, upCheck, upDeadline, switchMode, precompileEnv, healthPath, handoverReload } from './releases.mjs';
import { TIMEOUT_CHAIN } from '../capabilities/edge.mjs';
import { MIGRATE_ENV } from './database-yml.mjs';
import { t } from '../text.mjs';
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
  return t(mode.reloads ? 'deploy.sh.restart.reload' : 'deploy.sh.restart.restart', { signal: mode.signal });
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

// The variables the secrets file sets, removed from the environment of the steps that must not see them even when
// the operator's shell exported them (README step 4 sources the file).
const UNSET_SECRETS = 'for v in $(sed -n \'s/^\\([A-Za-z_][A-Za-z0-9_]*\\)=.*/\\1/p\' "$SECRETS"); do unset "$v"; done';

export function deployScript(ctx, files) {
  const config = files.map((f) => f.path).filter((p) => p.startsWith('config/')).map((p) => p.slice('config/'.length));
  const mode = switchMode(ctx);
  const jobs = jobUnitNames(ctx); // README's own list (none when the jobs run inside Puma)
  const migrate = ctx.a.database === 'postgresql' ? `${MIGRATE_ENV}=1 ` : '';
  // The preflight request: the app's full middleware stack (host authorization, SSL redirect) for its own domain.
  // /up answers 200; before Rails 7.1 the root page may redirect (to a login): any status below 400, as curl -f accepts.
  const ok = healthPath(ctx) === '/up' ? 'status == 200' : 'status < 400';
  const preflight = `status, = ${rackApp(ctx)}.call(Rack::MockRequest.env_for("https://${ctx.domain}${healthPath(ctx)}", "HTTP_HOST" => "${ctx.domain}")); exit(${ok})`;
  const c = (key, vars) => `# ${t(`deploy.sh.${key}`, vars)}`;
  const h = handoverReload(ctx);
  const handoverLines = h ? [
    `PIDFILE=${pidFilePath(ctx)}`,
    c('handover', { wait: h.handoverWait }),
    `wait_handover() { i=0; while [ "$i" -lt ${h.handoverWait} ]; do i=$((i + 1)); sleep 1; [ ! -e "$PIDFILE.oldbin" ] || continue; p=$(cat "$PIDFILE" 2>/dev/null) || continue; if [ "$p" != "$1" ] && kill -0 "$p" 2>/dev/null; then return 0; fi; [ -z "$(find "$PIDFILE" -cnewer "$PIDFILE.deploy")" ] || return 1; done; return 1; }`,
  ] : [];
  return [
    c('usage'),
    'set -eu',
    '',
    c('vars'),
    `ROOT=${ctx.root}`,
    `APP_USER=${ctx.user}`,
    c('home'),
    'APP_HOME=$(getent passwd "$APP_USER" | cut -d: -f6)',
    'if [ -z "$APP_HOME" ]; then echo "deploy.sh: no user $APP_USER" >&2; exit 1; fi',
    `BUNDLE=${ctx.rubyBin}/bundle`,
    `SECRETS=${SECRETS_FILE}`,
    `KEEP=${KEEP_RELEASES}`,
    c('config'),
    `CONFIG_FILES="${config.join(' ')}"`,
    '',
    c('fail'),
    'fail() { echo "deploy.sh: $*" >&2; exit 1; }',
    c('as-user'),
    'as_user() { (cd / && runuser -u "$APP_USER" -- "$@"); }',
    c('ruby-env'),
    '# shellcheck disable=SC2016',
    'WITH_RUBY_ENV=\'set -a && . ./config/ruby.env && set +a && exec env "$@"\'',
    c('as-app'),
    // SC2013: the loop reads names (one word a line), which is what it splits into.
    '# shellcheck source=/dev/null disable=SC2013',
    `as_app() { (cd "$1" && shift && ${UNSET_SECRETS} && exec runuser -u "$APP_USER" --preserve-environment -- env HOME="$APP_HOME" RAILS_ENV=production sh -c "$WITH_RUBY_ENV" as_app "$@") 9>&-; }`,
    c('plain-secrets'),
    `plain_secrets() { n=$(grep -n -v -E '^(#.*|[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_./:@%+=,~-]*)?$' "$SECRETS" | head -n 1 | cut -d: -f1); [ -z "$n" ] || fail "$SECRETS line $n: only letters, digits and _ . / : @ % + = , ~ - in values"; }`,
    c('as-app-secrets'),
    '# shellcheck source=/dev/null',
    'as_app_secrets() { plain_secrets && (cd "$1" && shift && set -a && . "$SECRETS" && set +a && exec runuser -u "$APP_USER" --preserve-environment -- env HOME="$APP_HOME" RAILS_ENV=production sh -c "$WITH_RUBY_ENV" as_app "$@") 9>&-; }',
    c('switch'),
    'switch_to() { ln -sfn "releases/$1" "$ROOT/current.new" && mv -T "$ROOT/current.new" "$ROOT/current"; }',
    ...handoverLines,
    c('restart', { why: `${restartWhy(ctx, mode)}${reloadsUnit(ctx, mode) ? ` ${t('deploy.sh.restart.inactive')}` : ''}` }),
    `restart_app() { ${[restartCommand(ctx, mode), ...(jobs.length ? [`systemctl restart ${jobs.join(' ')}`] : [])].join(' && ')}; }`,
    c('up'),
    `check_up() { ${upCheck(ctx)} >/dev/null || ${t('cmd.deploy.check-up', { path: healthPath(ctx), s: upDeadline(ctx), try: TIMEOUT_CHAIN.upTryS })}; }`,
    c('went-live'),
    'went_live() { why=""; restart_app "$1" 9>&- || { why="the restart failed (exit $?)"; return 1; }; check_up || { why="/up failed"; return 1; }; }',
    c('switch-back'),
    'switch_back() {',
    '  why="pointing current at $1 failed"',
    '  if switch_to "$1" && went_live "$2"; then',
    '    case "${4:-}" in remove) rm -rf "${ROOT:?}/releases/$2" ;; mark) mark_failed "$2" "$3" ;; unmark) as_user rm -f "$ROOT/releases/$1/.deploy-failed" ;; esac',
    '    fail "$3; switched back to $1, which answers /up"',
    '  fi',
    '  keep=yes',
    c('double-failure'),
    ...t('cmd.deploy.double-failure').split('\n'),
    '}',
    c('releases'),
    'releases() { find "$ROOT/releases" -mindepth 1 -maxdepth 1 -type d -printf \'%f\\n\'; }',
    c('current'),
    'current_release() { basename "$(readlink "$ROOT/current")"; }',
    c('usable'),
    'usable() { [ -n "$1" ] && [ -e "$ROOT/releases/$1/.built" ] && [ ! -e "$ROOT/releases/$1/.deploy-failed" ]; }',
    c('since-live'),
    'since_live() { [ -n "$(find "$ROOT/releases/$1/.built" -newer "$ROOT/current")" ]; }',
    c('mark-failed'),
    'mark_failed() { printf \'%s %s\\n\' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$2" | as_user tee "$ROOT/releases/$1/.deploy-failed" >/dev/null; }',
    c('named'),
    'named() { if [ -z "$1" ] || ! releases | grep -qxF -- "$1"; then fail "no release $1 in $ROOT/releases"; fi; }',
    '',
    c('init'),
    'init() {',
    '  [ ! -e "$ROOT/current" ] || fail "$ROOT/current exists: already a release layout"',
    '  [ -f "$ROOT/Gemfile" ] || fail "no app in $ROOT to move into a release"',
    '  r=$(date -u +%Y%m%d%H%M%S)',
    '  install -d -o "$APP_USER" -g "$APP_USER" "$ROOT/releases/$r"',
    `  find "$ROOT" -mindepth 1 -maxdepth 1 ${['releases', ...SHARED_DIRS, SHARED_BUNDLE.split('/')[0]].map((n) => `! -name ${n}`).join(' ')} -exec mv -t "$ROOT/releases/$r" {} +`,
    ...SHARED_DIRS.map((d) => `  ln -sfn "$ROOT/${d}" "$ROOT/releases/$r/${d}"`),
    '  chown -R -h "$APP_USER:$APP_USER" "$ROOT/releases/$r"',
    '  runuser -u "$APP_USER" -- touch "$ROOT/releases/$r/.built"',
    '  switch_to "$r"',
    '  echo "deploy.sh: $ROOT/current -> releases/$r"',
    '}',
    '',
    c('build-release'),
    'build_release() {',
    '  src=$1 migrate=$2',
    '  [ -f "$src/Gemfile" ] || fail "$src has no Gemfile: give the directory of the app\'s code"',
    '  r=$(date -u +%Y%m%d%H%M%S) && new="$ROOT/releases/$r" && old=$(current_release)',
    '  [ ! -e "$new" ] || fail "$new exists already"',
    c('cleanup'),
    '  keep="" && trap \'[ -n "$keep" ] || rm -rf "$new"\' EXIT && trap \'exit 1\' INT TERM HUP',
    c('copy'),
    '  as_user mkdir "$new" || fail "creating $new failed"',
    // Both ends of the pipe checked (SRE check 4, D16): POSIX sh has no pipefail, and a tar that cannot read a file
    // still writes a valid archive without it, so the creating side's status goes through a file of root's.
    ...t('cmd.deploy.copy', { exclude: ['.git', ...SHARED_DIRS].map((n) => `--exclude=./${n}`).join(' ') }).split('\n'),
    ...SHARED_DIRS.map((d) => `  as_user ln -sfn "$ROOT/${d}" "$new/${d}"`),
    '  for f in $CONFIG_FILES; do as_user install -D -m 0640 "$ROOT/current/config/$f" "$new/config/$f" || fail "copying config/$f from the current release failed; current stays at $old"; done',
    c(precompiles(ctx) ? 'build' : 'build-no-assets'),
    // Bundler's syntax for this Ruby (capabilities/rails-commands.mjs: 2.1+'s config set, or 1.x's install flags).
    ...bundlerArgs(ctx, 'deploy', `"$ROOT/${SHARED_BUNDLE}"`).map((args) => `  as_app "$new" "$BUNDLE" ${args} || fail "bundle ${args.split(' ')[0]} failed; current stays at $old"`),
    // Assets only where this Rails has the asset pipeline (3.1+).
    ...(precompiles(ctx) ? [c('assets-bridge'),
      '  [ ! -d "$ROOT/current/public/assets" ] || { as_user mkdir -p "$new/public/assets" && as_user cp -a "$ROOT/current/public/assets/." "$new/public/assets/"; } || fail "copying the current release\'s assets failed; current stays at $old"',
      `  as_app "$new" ${precompileEnv(ctx)} "$BUNDLE" exec ${railsTask(ctx, 'assets:precompile')} || fail "assets:precompile failed; current stays at $old"`] : []),
    c('preflight'),
    `  as_app_secrets "$new" "$BUNDLE" exec ${railsRunner(ctx)} '${preflight}' || fail "release $r does not boot or /up fails; current stays at $old"`,
    c('migrate'),
    `  [ "$migrate" = no ] || as_app_secrets "$new" ${migrate}"$BUNDLE" exec ${railsTask(ctx, 'db:migrate')} || fail "db:migrate failed; current stays at $old"`,
    c('built'),
    '  runuser -u "$APP_USER" -- touch "$new/.built"',
    '}',
    '',
    c('go-live'),
    'go_live() {',
    c('switch-now'),
    '  switch_to "$r" || fail "pointing current at $r failed; current stays at $old"',
    '  keep=yes',
    '  went_live "$old" || switch_back "$old" "$r" "release $r: $why after the switch" "${onfail:-remove}"',
    c('kept'),
    '  trap - EXIT INT TERM HUP',
    '  echo "$old" | runuser -u "$APP_USER" -- tee "$new/.previous" >/dev/null',
    c('prune'),
    '  releases | sort -r | tail -n +$((KEEP + 1)) | while read -r x; do [ "$x" = "$r" ] || [ "$x" = "$old" ] || rm -rf "${ROOT:?}/releases/$x"; done',
    '}',
    '',
    c('deploy'),
    'deploy() { build_release "$1" "$2"; go_live; echo "deploy.sh: deployed $r (previous: $old)"; }',
    '',
    c('share-assets'),
    'share_assets() {',
    '  [ -d "$new/public/assets" ] && [ -d "$ROOT/current/public/assets" ] || return 0',
    '  # shellcheck disable=SC2016',
    '  as_user sh -c \'cd "$1" && find . -type f ! -name ".*" | while IFS= read -r f; do [ -e "$2/$f" ] || { mkdir -p "$2/$(dirname "$f")" && cp -p "$f" "$2/$f"; } || exit 1; done\' share_assets "$new/public/assets" "$ROOT/current/public/assets"',
    '}',
    c('build-cmd'),
    'build() { build_release "$1" "$2"; share_assets || fail "adding release $r\'s assets to $old failed (the service user must own its public/assets)"; trap - EXIT INT TERM HUP; echo "deploy.sh: built $r beside $old (nothing switched yet): sh deploy.sh switch"; }',
    '',
    c('switch-built'),
    'switch_built() {',
    '  old=$(current_release)',
    '  if [ -n "$1" ]; then',
    '    named "$1" && r=$1',
    '    [ "$r" != "$old" ] || fail "release $r is current already"',
    '    usable "$r" || fail "release $r is not usable: no .built, or marked .deploy-failed (see deploy.sh unmark)"',
    '  else',
    '    r=$(releases | sort | awk -v c="$old" \'$0 > c\' | while read -r x; do usable "$x" && since_live "$x" && echo "$x"; done | tail -n 1)',
    '    [ -n "$r" ] || fail "no release built since $old went live: run deploy.sh build first, or name the release: deploy.sh switch RELEASE"',
    '  fi',
    // A release switch goes to was built by an earlier run (or was live before): a failure marks it, never removes it.
    '  new="$ROOT/releases/$r" && keep=yes && onfail=mark && trap \'exit 1\' INT TERM HUP',
    '  go_live',
    '  echo "deploy.sh: switched to $r (previous: $old)"',
    '}',
    '',
    c('rollback'),
    'rollback() {',
    '  cur=$(current_release)',
    '  prev=$(cat "$ROOT/releases/$cur/.previous" 2>/dev/null || true)',
    '  usable "$prev" || prev=$(releases | sort | awk -v c="$cur" \'$0 < c\' | while read -r x; do usable "$x" && echo "$x"; done | tail -n 1)',
    '  [ -n "$prev" ] || fail "no release before $cur (see deploy.sh adopt)"',
    `  ${c('mark-left')}`,
    '  mark_failed "$cur" "rolled back from $cur to $prev" || fail "marking $cur .deploy-failed failed; current stays at $cur"',
    '  switch_to "$prev" || { as_user rm -f "$ROOT/releases/$cur/.deploy-failed"; fail "pointing current at $prev failed; current stays at $cur"; }',
    '  went_live "$cur" || switch_back "$cur" "$prev" "rollback to $prev: $why" unmark',
    '  echo "deploy.sh: rolled back from $cur to $prev"',
    '}',
    '',
    c('unmark'),
    'unmark() {',
    '  named "$1"',
    '  [ -e "$ROOT/releases/$1/.deploy-failed" ] || fail "release $1 is not marked .deploy-failed"',
    '  echo "deploy.sh: release $1 was marked .deploy-failed: $(as_user head -c 500 "$ROOT/releases/$1/.deploy-failed")"',
    '  as_user rm -f "$ROOT/releases/$1/.deploy-failed"',
    '  echo "deploy.sh: release $1 is usable again"',
    '}',
    '',
    c('adopt'),
    'adopt() {',
    '  cur=$(current_release)',
    '  [ -n "$cur" ] || fail "$ROOT/current points at no release"',
    '  [ -d "$ROOT/releases/$cur" ] || fail "$ROOT/current points at no release"',
    '  [ ! -e "$ROOT/releases/$cur/.built" ] || fail "release $cur has its .built marker already"',
    '  check_up || fail "the live release $cur does not answer /up: not marking it usable"',
    c('adopt-owner'),
    ...t('cmd.deploy.adopt-owner').split('\n'),
    '  echo "adopted $(date -u +%Y-%m-%dT%H:%M:%SZ) by deploy.sh adopt: live and answering /up, built by an earlier deploy.sh" | as_user tee "$ROOT/releases/$cur/.built" >/dev/null',
    '  echo "deploy.sh: marked the live release $cur usable (.built); older releases stay unmarked"',
    '}',
    '',
    c('lock'),
    `lock() { exec 9>"/run/${APP_NAME}-deploy.lock"; flock -n 9 || fail "another deploy.sh deploy, build, switch or rollback is running on this host"; }`,
    '',
    'case "${1:-}" in',
    '  init) init ;;',
    // Anything but nothing or --no-migrate after SOURCE_DIR is refused: a typo must not migrate silently (SRE 23b, D15).
    '  deploy|build) case "$#:${3:-}" in 2:|3:--no-migrate) ;; *) fail "usage: deploy.sh $1 SOURCE_DIR [--no-migrate]" ;; esac; lock; "$1" "$2" "$([ "${3:-}" = --no-migrate ] && echo no || echo yes)" ;;',
    '  switch) lock; switch_built "${2:-}" ;;',
    '  rollback) lock; rollback ;;',
    '  unmark) [ $# -ge 2 ] || fail "usage: deploy.sh unmark RELEASE"; lock; unmark "$2" ;;',
    '  adopt) lock; adopt ;;',
    '  *) fail "usage: deploy.sh init | deploy SOURCE_DIR [--no-migrate] | build SOURCE_DIR [--no-migrate] | switch [RELEASE] | rollback | unmark RELEASE | adopt" ;;',
    'esac',
  ];
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
