# The wizard's question: the reference app under the same load with (a) Rails 8.1's generated production defaults
# (the app's own config/puma.rb: 3 threads, one process because WEB_CONCURRENCY is unset) and (b) the wizard's
# default bundle for this machine (WORK/bundle, written by scripts/lib/rebench/experiments/bundle.mjs with
# guide/cli.mjs: its config/puma.rb and config/ruby.env, with the bind address and paths pointed at the lab).
# Both run on the lab's Ruby 3.4 YJIT build with LAB_YJIT=on: every response names the Ruby and YJIT state of the
# process that served it, and a server that does not report RB_SERVER_RUBY is a failed run (app.sh rb_server_ruby).
source "$BENCH/app.sh"
declare -A PAGES=([api]=/api [regular]=/regular [heavy]=/heavy)
APP=/srv/app
BUNDLE_DIR="$WORK/bundle"

exp_setup() {
  rb_app_prepare "${RB_DB:-postgresql}" "$APP" && rb_app_env "$APP" || return 1
  # The wizard's puma.rb names the deploy paths and a Unix socket: the lab serves the app from $APP on TCP (app.sh).
  rb_wizard_bundle "$BUNDLE_DIR" || return 1
  cp "$APP/config/puma.rb" "$RAW/defaults-puma.rb.txt"
  # Common open-loop rates (RB_OPEN_BASIS=calibrated): the defaults' closed-loop throughput per page, measured once
  # before the rounds, so both configurations are offered the same absolute rates. An earlier batch of this run
  # may have measured it already.
  if [ "${RB_OPEN_BASIS:-own}" = calibrated ] && ! ls "$RAW"/open-basis-*.txt > /dev/null 2>&1; then
    rb_log "calibration: the defaults' closed-loop throughput per page, the open-loop basis of both configurations"
    if bvd_boot defaults "$RAW/calibrate"; then
      rb_calibrate "http://127.0.0.1:$APP_PORT" "${!PAGES[@]}"
      rb_stop "$RB_SERVER_PID"
    fi
  fi
  return 0
}

# Boot Puma in one of the two configurations and check what ran; on failure OUT.failed says why.
bvd_boot() { # defaults|wizard OUT
  local env=(env -u WEB_CONCURRENCY -u RAILS_MAX_THREADS PORT="$APP_PORT" LAB_YJIT=on) conf="$APP/config/puma.rb"
  if [ "$1" = wizard ]; then
    mapfile -t extra < "$RAW/wizard-ruby.env"
    env+=("${extra[@]}")
    conf="$RAW/wizard-puma.rb.txt"
  fi
  if ! rb_boot "puma-$1" "$APP" "http://127.0.0.1:$APP_PORT/up" "${env[@]}" bundle exec puma -C "$conf" -e production; then
    echo "Puma ($1) did not answer on /up (see server-puma-$1.log)" > "$2.failed"
    return 1
  fi
  rb_server_ruby "$2" "${RB_SERVER_RUBY:-}" || { rb_stop "$RB_SERVER_PID"; return 1; }
}

exp_cell() { # defaults|wizard RUN MEASUREMENTS OUTPREFIX
  bvd_boot "$1" "$4" || return 1
  ps -o pid=,args= --ppid "$RB_SERVER_PID" > "$4.processes" 2>/dev/null || true
  rb_measure_pages "http://127.0.0.1:$APP_PORT" "$3" "$4" "$RB_CONNECTIONS" "$RB_SERVER_PID"
  rb_stop "$RB_SERVER_PID"
}

exp_teardown() { rb_stop_all; }
