# Experiment 6, Rails code patterns (thesis Tables 5.21–5.24) on PostgreSQL 17, MariaDB 11.8 and SQLite: the
# reference app's /patterns/<name> routes, each requested over one connection (one request at a time), so the
# figure is the time one request takes. One single-process Puma (1 thread) per database and run.
source "$BENCH/app.sh"
declare -A PAGES
for p in n_plus_one eager preload find_each all_each transaction_single transaction_per_row dynamic_finder where; do PAGES[$p]=/patterns/$p; done

exp_setup() {
  local db
  for db in ${RB_DATABASES//,/ }; do rb_app_prepare "$db" "/srv/app-$db" || return 1; done
}

exp_cell() { # DB RUN MEASUREMENTS OUTPREFIX
  local db=$1
  rb_app_env "/srv/app-$db" || return 1
  if ! rb_boot "puma-$db" "/srv/app-$db" "http://127.0.0.1:$APP_PORT/up" env LAB_DB="$db" bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -t 1:1; then
    echo "Puma on $db did not answer on /up (see server-puma-$db.log)" > "$4.failed"
    return 1
  fi
  rb_measure_pages "http://127.0.0.1:$APP_PORT" "$3" "$4" 1
  rb_stop "$RB_SERVER_PID"
}

exp_teardown() { rb_stop_all; }
