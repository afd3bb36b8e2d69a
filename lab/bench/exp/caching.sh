# Experiment 8, caching: the heavy page (200 posts with their authors) rendered in full and through collection
# caching (?cache=1, the app's Rails.cache), on one clustered Puma per run.
source "$BENCH/app.sh"
declare -A PAGES=([heavy]=/heavy [heavy_cached]="/heavy?cache=1")
APP=/srv/app

exp_setup() {
  rb_app_prepare "${RB_DB:-postgresql}" "$APP" && rb_app_env "$APP" || return 1
  # Which store Rails.cache really is in this app, and on which database (recorded with the versions). The answer
  # is tagged, because Rails prints warnings (Active Storage, deprecations) on the same stream.
  local store
  store=$(cd "$APP" && bin/rails runner 'db = defined?(SolidCache::Record) && Rails.cache.is_a?(SolidCache::Store) ? " on #{SolidCache::Record.connection_db_config.adapter} database #{SolidCache::Record.connection_db_config.database}" : ""; puts "RB_CACHE_STORE=#{Rails.cache.class.name}#{db}"' 2>> "$RAW/driver.log" | sed -n 's/^RB_CACHE_STORE=//p' | tail -1)
  printf 'Rails.cache store\t%s\n' "${store:-unknown (bin/rails runner gave no answer; see driver.log)}" >> "$RAW/versions-$RB_PLACE.txt"
}

exp_cell() { # puma RUN MEASUREMENTS OUTPREFIX
  if ! rb_boot "puma-$1" "$APP" "http://127.0.0.1:$APP_PORT/up" bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -w "$RB_WORKERS" -t "$RB_THREADS:$RB_THREADS" --preload; then
    echo "Puma did not answer on /up (see server-puma-$1.log)" > "$4.failed"
    return 1
  fi
  rb_measure_pages "http://127.0.0.1:$APP_PORT" "$3" "$4" "$RB_CONNECTIONS" "$RB_SERVER_PID"
  rb_stop "$RB_SERVER_PID"
}

exp_teardown() { rb_stop_all; }
