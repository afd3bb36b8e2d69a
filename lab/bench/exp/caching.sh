# Experiment 8, caching: the heavy page (200 posts with their authors) rendered in full and through collection
# caching (?cache=1, the app's Rails.cache), on one clustered Puma per run; one cell per cache store: Solid Cache
# (Rails 8's default, on the run's database), Redis and Memcached (Debian 13's packages from the lab's services
# layer, run with `scripts/lab run --services`), each started here on loopback and pinned with the driver.
source "$BENCH/app.sh"
declare -A PAGES=([heavy]=/heavy [heavy_cached]="/heavy?cache=1")
APP=/srv/app
# The cell id is the store: the app's LAB_CACHE_STORE (config/environments/production.rb).
STORES=(solid_cache redis memcached)

exp_setup() {
  rb_app_prepare "${RB_DB:-postgresql}" "$APP" && rb_app_env "$APP" || return 1
  # A cache Redis, not a job Redis: bounded memory, least-recently-used keys evicted when full, no persistence
  # (Rails' caching guide); on 6380, so it never meets a Sidekiq Redis on 6379. Memcached as Debian's unit runs it.
  if command -v redis-server >/dev/null && command -v memcached >/dev/null; then
    install -d -o redis -g redis /run/redis-cache
    rb_start redis-cache / runuser -u redis -- redis-server --port 6380 --bind 127.0.0.1 --maxmemory 256mb \
      --maxmemory-policy allkeys-lru --save '' --appendonly no --dir /run/redis-cache
    rb_start memcached / memcached -u memcache -l 127.0.0.1 -p 11211 -m 256
    local i; for i in $(seq 1 50); do redis-cli -p 6380 ping >/dev/null 2>&1 && break; sleep 0.1; done
    printf 'redis-server\t%s\n' "$(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p')" >> "$RAW/versions-$RB_PLACE.txt"
    printf 'memcached\t%s\n' "$(memcached -V | awk '{print $2}')" >> "$RAW/versions-$RB_PLACE.txt"
  else
    rb_log "redis-server or memcached missing: not run with scripts/lab run --services; those stores' cells fail"
  fi
  # Which store Rails.cache really is for each cell, and where (recorded with the versions). The answer is tagged,
  # because Rails prints warnings (Active Storage, deprecations) on the same stream.
  local s store
  for s in "${STORES[@]}"; do
    store=$(cd "$APP" && LAB_CACHE_STORE=$s bin/rails runner '
      c = Rails.cache
      where = if defined?(SolidCache::Store) && c.is_a?(SolidCache::Store)
        " on #{SolidCache::Record.connection_db_config.adapter} database #{SolidCache::Record.connection_db_config.database}"
      elsif c.respond_to?(:redis) then " at #{c.redis.with { |r| "#{r.connection[:host]}:#{r.connection[:port]}, Redis #{r.info["redis_version"]}" }}"
      elsif c.respond_to?(:stats) then " at #{c.stats.map { |server, st| "#{server}, Memcached #{st && st["version"]}" }.join("; ")}"
      else "" end
      c.write("rb-probe", 1); raise "the store did not keep a value" unless c.read("rb-probe") == 1
      puts "RB_CACHE_STORE=#{c.class.name}#{where}"' 2>> "$RAW/driver.log" | sed -n 's/^RB_CACHE_STORE=//p' | tail -1)
    printf 'Rails.cache store (%s)\t%s\n' "$s" "${store:-unknown (bin/rails runner gave no answer; see driver.log)}" >> "$RAW/versions-$RB_PLACE.txt"
  done
}

exp_cell() { # STORE RUN MEASUREMENTS OUTPREFIX
  if ! rb_boot "puma-$1" "$APP" "http://127.0.0.1:$APP_PORT/up" env "LAB_CACHE_STORE=$1" bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -w "$RB_WORKERS" -t "$RB_THREADS:$RB_THREADS" --preload; then
    echo "Puma did not answer on /up with the $1 store (see server-puma-$1.log)" > "$4.failed"
    return 1
  fi
  rb_measure_pages "http://127.0.0.1:$APP_PORT" "$3" "$4" "$RB_CONNECTIONS" "$RB_SERVER_PID"
  rb_stop "$RB_SERVER_PID"
}

exp_teardown() { rb_stop_all; }
