# Experiment 7, concurrency: Puma workers × threads on an I/O-bound route (/io, waits on the database: pg_sleep on
# PostgreSQL) and a CPU-bound one (/cpu, computes), with more connections than the largest setting can serve at
# once, to find the knee. Setup proves in process that each route is what it is named for (route-proof.tsv).
source "$BENCH/app.sh"
declare -A PAGES=([io]="/io?ms=${RB_IO_MS:-50}" [cpu]="/cpu?n=${RB_CPU_N:-20000}")
APP=/srv/app

exp_setup() {
  rb_app_prepare "${RB_DB:-postgresql}" "$APP" && rb_app_env "$APP" || return 1
  (cd "$APP" && bin/rails runner "$BENCH/route-proof.rb" 5 "${RB_CPU_N:-200000}" "${RB_IO_MS:-50}" 2>> "$RAW/driver.log") > "$RAW/route-proof-$RB_PLACE.tsv" || true
}

exp_cell() { # wW-tT RUN MEASUREMENTS OUTPREFIX
  local w=${1#w} t
  w=${w%%-*}; t=${1##*-t}
  if ! rb_boot "puma-$1" "$APP" "http://127.0.0.1:$APP_PORT/up" bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -w "$w" -t "$t:$t" --preload; then
    echo "Puma $1 did not answer on /up (see server-puma-$1.log)" > "$4.failed"
    return 1
  fi
  rb_measure_pages "http://127.0.0.1:$APP_PORT" "$3" "$4" "$RB_CONNECTIONS"
  rb_stop "$RB_SERVER_PID"
}

exp_teardown() { rb_stop_all; }
