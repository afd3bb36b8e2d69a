# Scaling the database beyond one primary: a PostgreSQL 17 streaming replica of the reference app's database on
# the same machine, and the reference app reading from it through Rails' automatic role switching.
# Setup: lab-app prepare starts the primary (lab-db, port 5432) and seeds it; pg_basebackup copies it into a second
# data directory with -R (standby.signal and primary_conninfo), and the replica starts on RP_PORT. Both run on the
# server CPU: the driver is pinned there (rb_isolate) before either starts. The replica is stopped by its
# postmaster's PID and its data directory removed on every exit path.
# Cells (one Puma, RB_THREADS threads, in each): primary-only (no reading role: every query on the primary),
# selector-2s and selector-0s (connects_to with a reading role on the replica, database_selector delay 2 s and 0 s).
# Measurement "pairs": lab/bench/replica-client.rb on the load CPU, a write then an immediate read of it, paced,
# while it polls both servers for the rows (replication lag).
source "$BENCH/app.sh"
APP=/srv/app
RP_PORT=5433
RP_BIN=/usr/lib/postgresql/17/bin
RP_DATA=/var/tmp/lab-db/postgresql-replica
RP_LOG=/var/tmp/lab-db/postgresql-replica.log
RP_PID=""

rp_sql() { # PORT SQL: one value, as user lab
  psql -h 127.0.0.1 -p "$1" -U lab -d lab_production -XAtc "$2" 2>> "$RAW/driver.log"
}

rp_stop() {
  [ -n "$RP_PID" ] || return 0
  local i
  kill -INT "$RP_PID" 2>/dev/null   # fast shutdown
  for i in $(seq 1 300); do kill -0 "$RP_PID" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$RP_PID" 2>/dev/null && { rb_log "replica $RP_PID ignored fast shutdown for 30 s: immediate"; kill -QUIT "$RP_PID" 2>/dev/null; sleep 1; }
  kill -0 "$RP_PID" 2>/dev/null && kill -KILL "$RP_PID" 2>/dev/null
  [ -f "$RP_LOG" ] && cp "$RP_LOG" "$RAW/server-replica-postgresql.log"
  rm -rf "$RP_DATA"
  RP_PID=""
}

exp_setup() {
  trap 'rp_stop; rb_stop_all' EXIT
  rb_app_prepare postgresql "$APP" && rb_app_env "$APP" || return 1
  rm -rf "$RP_DATA"; : > "$RP_LOG"
  install -d -o postgres -g postgres -m 700 "$RP_DATA" && chown postgres:postgres "$RP_LOG" || return 1
  rb_log "replica: pg_basebackup from 127.0.0.1:5432 into $RP_DATA"
  if ! runuser -u postgres -- "$RP_BIN/pg_basebackup" -h 127.0.0.1 -p 5432 -U postgres -D "$RP_DATA" -X stream -R --checkpoint=fast >> "$RAW/driver.log" 2>&1; then
    rb_log "replica: pg_basebackup failed"; return 1
  fi
  if ! runuser -u postgres -- "$RP_BIN/pg_ctl" -D "$RP_DATA" -l "$RP_LOG" -w -t 120 start \
      -o "-c listen_addresses=127.0.0.1 -p $RP_PORT -c unix_socket_directories=/run/postgresql -c hot_standby=on" >> "$RAW/driver.log" 2>&1; then
    rb_log "replica: did not start; $(tail -5 "$RP_LOG" | tr '\n' ' ')"; return 1
  fi
  RP_PID=$(head -1 "$RP_DATA/postmaster.pid")
  rb_log "replica: postmaster $RP_PID on 127.0.0.1:$RP_PORT, CPU affinity $(taskset -pc "$RP_PID" 2>/dev/null | sed 's/.*: //')"
  # Proof that it is a streaming standby of this primary, before anything is measured.
  local i state=""
  for i in $(seq 1 300); do
    state=$(rp_sql 5432 "SELECT state FROM pg_stat_replication LIMIT 1")
    [ "$state" = streaming ] && break; sleep 0.1
  done
  {
    printf 'replica: pg_is_in_recovery() on port %s\t%s\n' "$RP_PORT" "$(rp_sql "$RP_PORT" 'SELECT pg_is_in_recovery()')"
    printf 'replica: state in pg_stat_replication on the primary\t%s\n' "${state:-none}"
    printf 'replica: sync_state\t%s\n' "$(rp_sql 5432 'SELECT sync_state FROM pg_stat_replication LIMIT 1')"
    printf 'replica: primary_conninfo (pg_basebackup -R)\t%s\n' "$(rp_sql "$RP_PORT" 'SHOW primary_conninfo' | sed 's/password=[^ ]*/password=…/')"
    printf 'primary: wal_level, synchronous_commit\t%s, %s\n' "$(rp_sql 5432 'SHOW wal_level')" "$(rp_sql 5432 'SHOW synchronous_commit')"
    printf 'replica: CPU affinity of the postmaster\t%s\n' "$(taskset -pc "$RP_PID" 2>/dev/null | sed 's/.*: //')"
  } >> "$RAW/versions-$RB_PLACE.txt"
  [ "$state" = streaming ] || { rb_log "replica: not streaming after 30 s; $(tail -5 "$RP_LOG" | tr '\n' ' ')"; return 1; }
}

rp_env() {
  case $1 in
    selector-2s) echo "LAB_REPLICA_PORT=$RP_PORT LAB_REPLICA_DELAY_S=2" ;;
    selector-0s) echo "LAB_REPLICA_PORT=$RP_PORT LAB_REPLICA_DELAY_S=0" ;;
  esac
  return 0
}

rp_client() { # RUN N
  "${RB_LOAD_PIN[@]}" env BUNDLE_GEMFILE="$APP/Gemfile" bundle exec ruby "$BENCH/replica-client.rb" --url "http://127.0.0.1:$APP_PORT" \
    --run "$1" --n "$2" --rate "$RB_RATE" --primary-port 5432 --replica-port "$RP_PORT" --poll-ms "$RB_POLL_MS" --timeout "$RB_LAG_TIMEOUT_S"
}

exp_cell() { # CELL RUN MEASUREMENTS OUTPREFIX
  local cell=$1 out=$4 tag
  tag="$(printf '%s' "$(basename "$out")" | tr -c 'a-z0-9-' '-' | cut -c1-40)"
  kill -0 "${RP_PID:-0}" 2>/dev/null || { echo "the replica is not running (see server-replica-postgresql.log)" > "$out.failed"; return 1; }
  # shellcheck disable=SC2046
  if ! rb_boot "puma-$cell" "$APP" "http://127.0.0.1:$APP_PORT/up" env $(rp_env "$cell") bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -t "$RB_THREADS:$RB_THREADS"; then
    echo "Puma did not answer on /up (see server-puma-$cell.log)" > "$out.failed"; return 1
  fi
  [ "${RB_WARM_PAIRS:-0}" -gt 0 ] && rp_client "$tag-warm" "$RB_WARM_PAIRS" > "$out-pairs.warmup" 2>&1
  rb_measured "$out-pairs" rp_client "$tag" "$RB_PAIRS"
  rb_stop "$RB_SERVER_PID"
}

exp_teardown() { rp_stop; rb_stop_all; }
