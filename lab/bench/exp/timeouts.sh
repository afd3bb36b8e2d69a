# Timeouts and overload: a slow-query storm on the reference app, with and without PostgreSQL's statement_timeout
# set through database.yml `variables:` (the Timeouts article; the app reads LAB_STATEMENT_TIMEOUT). Clustered Puma
# (RB_WORKERS × RB_THREADS) on PostgreSQL; a fast route (/api, one small query) offered at a constant rate by the
# open-loop generator (scripts/lib/measure/openloop-cli.mjs, on the load CPU), in three phases in this fixed order:
#   calm   the fast route alone
#   storm  while a second generator sends /slow?ms=RB_SLOW_MS (one RB_SLOW_MS-long statement) at RB_STORM_RATE,
#          started RB_STORM_LEAD_S before the measurement so that the slow requests have piled up
#   after  right after the storm stops sending: how fast the fast route recovers while slow requests drain
# The phases are a sequence, so their order is fixed inside a cell (the cells run in the seeded random order); the
# storm and after phases cannot wait for an idle machine (only calm and storm are gated, before the storm starts).
source "$BENCH/app.sh"
APP=/srv/app
CELLS=(none statement-timeout)

tm_env() { [ "$1" = statement-timeout ] && echo "LAB_STATEMENT_TIMEOUT=$RB_STATEMENT_TIMEOUT"; return 0; }

tm_node() {
  local node=$RB_NODE
  [ -x "$node" ] || node=$(command -v node || true)
  echo "$node"
}

exp_setup() {
  rb_app_prepare postgresql "$APP" && rb_app_env "$APP" || return 1
  # The setting each cell's connections really got, from a connection opened as the app opens them.
  local c v
  for c in "${CELLS[@]}"; do
    # shellcheck disable=SC2046
    v=$(cd "$APP" && env $(tm_env "$c") bin/rails runner 'puts "RB_ST=#{ActiveRecord::Base.connection.select_value("SHOW statement_timeout")}"' 2>> "$RAW/driver.log" | sed -n 's/^RB_ST=//p' | tail -1)
    printf 'statement_timeout as the app connection reports it (%s)\t%s\n' "$c" "${v:-unknown (bin/rails runner gave no answer; see driver.log)}" >> "$RAW/versions-$RB_PLACE.txt"
  done
}

tm_fast() { # DURATION_S: the fast route at RB_FAST_RATE, open loop
  "${RB_LOAD_PIN[@]}" "$(tm_node)" "$REPO/scripts/lib/measure/openloop-cli.mjs" --url "http://127.0.0.1:$APP_PORT/api" \
    --rate "$RB_FAST_RATE" --duration "$1" --seed "${RB_SEED:-1}" --max-in-flight 256 --timeout-ms "$RB_FAST_TIMEOUT_MS"
}

exp_cell() { # CELL RUN MEASUREMENTS OUTPREFIX
  local cell=$1 out=$4 storm node
  node=$(tm_node)
  if [ -z "$node" ] || ! "$node" --version > /dev/null 2>&1; then
    echo "no Node.js runs here for the open-loop generator" > "$out.failed"; return 1
  fi
  # shellcheck disable=SC2046
  if ! rb_boot "puma-$cell" "$APP" "http://127.0.0.1:$APP_PORT/up" env $(tm_env "$cell") bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -w "$RB_WORKERS" -t "$RB_THREADS:$RB_THREADS" --preload; then
    echo "Puma did not answer on /up (see server-puma-$cell.log)" > "$out.failed"; return 1
  fi
  rb_warmup "http://127.0.0.1:$APP_PORT/api" "$out-calm"
  rb_measured "$out-calm" tm_fast "$RB_DURATION_S"
  # The storm: its own raw output (OUT-storm.slow.txt), for the share of slow requests the timeout cancelled.
  rb_gate "$out-storm"
  rb_log "storm: /slow?ms=$RB_SLOW_MS at $RB_STORM_RATE/s for $((RB_STORM_LEAD_S + RB_DURATION_S)) s"
  "${RB_LOAD_PIN[@]}" "$node" "$REPO/scripts/lib/measure/openloop-cli.mjs" --url "http://127.0.0.1:$APP_PORT/slow?ms=$RB_SLOW_MS" \
    --rate "$RB_STORM_RATE" --duration "$((RB_STORM_LEAD_S + RB_DURATION_S))" --seed "${RB_SEED:-1}" --max-in-flight 256 \
    --timeout-ms "$((RB_SLOW_MS * 2 + 10000))" > "$out-storm.slow.txt" 2>&1 &
  storm=$!
  sleep "$RB_STORM_LEAD_S"
  RB_GATE_WINDOW_S='' rb_measured "$out-storm" tm_fast "$RB_DURATION_S"
  RB_GATE_WINDOW_S='' rb_measured "$out-after" tm_fast "$RB_AFTER_S"
  wait "$storm" 2>/dev/null || true
  rb_stop "$RB_SERVER_PID"
}

exp_teardown() { rb_stop_all; }
