# The wizard's question: the reference app under the same load with (a) Rails 8.1's generated production defaults
# (the app's own config/puma.rb: 3 threads, one process because WEB_CONCURRENCY is unset) and (b) the wizard's
# default bundle for this machine (WORK/bundle, written by scripts/lib/rebench/experiments/bundle.mjs with
# guide/cli.mjs: its config/puma.rb and config/ruby.env, with the bind address and paths pointed at the lab).
source "$BENCH/app.sh"
declare -A PAGES=([api]=/api [regular]=/regular [heavy]=/heavy)
APP=/srv/app
BUNDLE_DIR="$WORK/bundle"

exp_setup() {
  rb_app_prepare "${RB_DB:-postgresql}" "$APP" && rb_app_env "$APP" || return 1
  # The wizard's puma.rb names the deploy paths and a Unix socket: the lab serves the app from $APP on TCP (app.sh).
  rb_wizard_bundle "$BUNDLE_DIR" || return 1
  cp "$APP/config/puma.rb" "$RAW/defaults-puma.rb.txt"
}

exp_cell() { # defaults|wizard RUN MEASUREMENTS OUTPREFIX
  local env=(env -u WEB_CONCURRENCY -u RAILS_MAX_THREADS PORT="$APP_PORT") conf="$APP/config/puma.rb"
  if [ "$1" = wizard ]; then
    mapfile -t extra < "$RAW/wizard-ruby.env"
    env+=("${extra[@]}")
    conf="$RAW/wizard-puma.rb.txt"
  fi
  if ! rb_boot "puma-$1" "$APP" "http://127.0.0.1:$APP_PORT/up" "${env[@]}" bundle exec puma -C "$conf" -e production; then
    echo "Puma ($1) did not answer on /up (see server-puma-$1.log)" > "$4.failed"
    return 1
  fi
  ps -o pid=,args= --ppid "$RB_SERVER_PID" > "$4.processes" 2>/dev/null || true
  rb_measure_pages "http://127.0.0.1:$APP_PORT" "$3" "$4" "$RB_CONNECTIONS" "$RB_SERVER_PID"
  rb_stop "$RB_SERVER_PID"
}

exp_teardown() { rb_stop_all; }
