# Background jobs: Solid Queue (Rails 8's default; the app's config/queue.yml as the generator writes it) in a
# separate `bin/jobs` process with 1 and 2 worker processes of 3 threads, Solid Queue inside Puma
# (SOLID_QUEUE_IN_PUMA, the Puma plugin), and Sidekiq with concurrency 3 on Redis (Debian 13's redis-server from
# the lab's services layer, `scripts/lab run --services`). Every cell run boots the app's Puma (config/puma.rb,
# one process, 3 threads: it enqueues the jobs) and the job runner fresh, proves the runner works with a probe job,
# warms up, and then measures each job kind with lab/bench/jobs-client.rb on the load CPU (under rb_measured).
source "$BENCH/app.sh"
APP=/srv/app

exp_setup() {
  rb_app_prepare "${RB_DB:-postgresql}" "$APP" && rb_app_env "$APP" || return 1
  printf 'solid_queue worker polling_interval (config/queue.yml)\t%s\n' "$(sed -n '/workers:/,$ s/^ *polling_interval: *//p' "$APP/config/queue.yml" | head -1)" >> "$RAW/versions-$RB_PLACE.txt"
  if command -v redis-server >/dev/null; then
    # A job Redis as Sidekiq's documentation wants it: no eviction (noeviction), on 6379.
    install -d -o redis -g redis /run/redis-jobs
    rb_start redis-jobs / runuser -u redis -- redis-server --port 6379 --bind 127.0.0.1 --maxmemory-policy noeviction \
      --save '' --appendonly no --dir /run/redis-jobs
    local i; for i in $(seq 1 50); do redis-cli -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
    printf 'redis-server\t%s\n' "$(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p')" >> "$RAW/versions-$RB_PLACE.txt"
    printf 'sidekiq (gem)\t%s\n' "$(awk '$1 == "sidekiq" && $2 ~ /^\(/ { gsub(/[()]/, "", $2); print $2; exit }' "$APP/Gemfile.lock")" >> "$RAW/versions-$RB_PLACE.txt"
  else
    rb_log "redis-server missing: not run with scripts/lab run --services; the Sidekiq cell fails"
  fi
}

# The cell's environment and job runner: sq-1x3, sq-2x3 (bin/jobs, JOB_CONCURRENCY processes), sq-puma, sidekiq-c3.
jobs_env() {
  case $1 in
    sidekiq-*) echo "LAB_JOBS=sidekiq REDIS_URL=redis://127.0.0.1:6379/0" ;;
    sq-puma) echo "SOLID_QUEUE_IN_PUMA=1 JOB_CONCURRENCY=1" ;;
    sq-2x3) echo "JOB_CONCURRENCY=2" ;;
    *) echo "JOB_CONCURRENCY=1" ;;
  esac
}

jobs_client() { # OUT RUN KIND N MODE [RATE]
  rb_measured "$1" "${RB_LOAD_PIN[@]}" ruby "$BENCH/jobs-client.rb" --url "http://127.0.0.1:$APP_PORT" --app "$APP" \
    --run "$2" --kind "$3" --n "$4" --mode "$5" --rate "${6:-5}" --timeout "$RB_JOBS_TIMEOUT_S"
}

exp_cell() { # CELL RUN MEASUREMENTS OUTPREFIX
  local cell=$1 out=$4 env runner="" m run tag
  # shellcheck disable=SC2206
  env=($(jobs_env "$cell"))
  case $cell in sidekiq-*) redis-cli -p 6379 flushall >/dev/null 2>&1 || true ;; esac
  # Jobs open up to RAILS_MAX_THREADS connections per database per process: the Rails default pool of 5 covers
  # Solid Queue's 3 worker threads plus its own polling and heartbeat (its README asks for threads + 2).
  if ! rb_boot "puma-$cell" "$APP" "http://127.0.0.1:$APP_PORT/up" env "${env[@]}" RAILS_MAX_THREADS=5 PORT="$APP_PORT" bundle exec puma -C config/puma.rb -e production -t 3:3; then
    echo "Puma did not answer on /up (see server-puma-$cell.log)" > "$out.failed"; return 1
  fi
  case $cell in
    sq-1x3|sq-2x3) rb_start "jobs-$cell" "$APP" env "${env[@]}" RAILS_MAX_THREADS=5 bundle exec bin/jobs; runner=$RB_LAST_PID ;;
    sidekiq-*) rb_start "jobs-$cell" "$APP" env "${env[@]}" RAILS_MAX_THREADS=5 bundle exec sidekiq -e production -c 3 -q default; runner=$RB_LAST_PID ;;
  esac
  tag="$(printf '%s' "$(basename "$out")" | tr -c 'a-z0-9-' '-' | cut -c1-40)"
  # The runner is up when a probe job has run (boot, connect, first poll); then a warm-up of both kinds, not measured.
  if ! ruby "$BENCH/jobs-client.rb" --url "http://127.0.0.1:$APP_PORT" --app "$APP" --run "$tag-probe" --kind probe --n 1 --timeout "${RB_BOOT_TIMEOUT_S:-120}" > "$out-probe.txt" 2>&1 \
     || ! grep -q '^missing=0$' "$out-probe.txt"; then
    echo "the job runner did not run a probe job within ${RB_BOOT_TIMEOUT_S:-120} s (see server-jobs-$cell.log, server-puma-$cell.log and $(basename "$out")-probe.txt)" > "$out.failed"
    [ -n "$runner" ] && rb_stop "$runner"; rb_stop "$RB_SERVER_PID"; return 1
  fi
  if [ "${RB_JOBS_WARMUP:-0}" -gt 0 ]; then
    for m in trivial write; do
      "${RB_LOAD_PIN[@]}" ruby "$BENCH/jobs-client.rb" --url "http://127.0.0.1:$APP_PORT" --app "$APP" --run "$tag-warm" --kind "$m" --n "$RB_JOBS_WARMUP" --timeout "$RB_JOBS_TIMEOUT_S" >> "$RAW/driver.log" 2>&1 || true
    done
  fi
  for m in $3; do
    run="$tag-$m"
    case $m in
      trivial) jobs_client "$out-$m" "$run" trivial "$RB_JOBS_N" burst ;;
      write) jobs_client "$out-$m" "$run" write "$RB_JOBS_WRITE_N" burst ;;
      paced) jobs_client "$out-$m" "$run" trivial "$RB_JOBS_PACED_N" paced "$RB_JOBS_PACED_RATE" ;;
    esac
  done
  [ -n "$runner" ] && rb_stop "$runner"
  rb_stop "$RB_SERVER_PID"
}

exp_teardown() { rb_stop_all; }
