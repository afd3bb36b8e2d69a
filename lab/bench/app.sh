# Reference-app helpers for the experiments that boot Rails (sourced by exp/*.sh).
# lab-app (the lab's own command) prepares the app; the servers are started here with explicit flags so that
# each experiment states exactly how its server ran (no config file: puma -C -).
APP_PORT=3000

rb_app_prepare() { # DB DIR
  local db=$1 dir=$2
  case $db in postgresql|mariadb) lab-db start "$db" >> "$RAW/driver.log" 2>&1 || return 1 ;; esac
  lab-app prepare --db "$db" --dir "$dir" >> "$RAW/driver.log" 2>&1
}

rb_app_env() { # DB
  export RAILS_ENV=production RACK_ENV=production RAILS_LOG_LEVEL=${RAILS_LOG_LEVEL:-warn} LAB_DB=$1
  export SECRET_KEY_BASE=${SECRET_KEY_BASE:-rebench-$(printf '%064d' 0)}
  export RAILS_SERVE_STATIC_FILES=1
}

# The extra application servers (Unicorn, Pitchfork, Falcon, WEBrick, Thruster) come from lab/bench/Gemfile,
# installed once by lab/bench/prepare-gems.sh into tmp/rebench-gems beside the lab's own gems.
rb_use_bench_gems() {
  local dir="$REPO/tmp/rebench-gems/$(ruby -e 'print RbConfig::CONFIG["ruby_version"]')"
  [ -f "$dir/.complete" ] || return 1
  export BUNDLE_GEMFILE="$BENCH/Gemfile" GEM_HOME="$dir" GEM_PATH="$dir:${BUNDLE_PATH:-/opt/lab/bundle}/ruby/$(ruby -e 'print RbConfig::CONFIG["ruby_version"]')"
  unset BUNDLE_PATH
  export BUNDLE_FROZEN=true
}

# Start a server for DIR with CMD… and wait until URL answers. Sets RB_SERVER_PID (its process group).
rb_boot() { # NAME DIR URL CMD…
  local name=$1 dir=$2 url=$3; shift 3
  rb_log "boot $name: $*"
  rb_start "$name" "$dir" "$@"
  RB_SERVER_PID=$RB_LAST_PID
  if ! rb_wait_http "$url" "${RB_BOOT_TIMEOUT_S:-90}"; then rb_stop "$RB_SERVER_PID"; return 1; fi
}

# Measure each page named in MEASUREMENTS (a space-separated list, in the plan's random order) with wrk,
# sampling the PSS of the server tree while the load runs. PAGES maps a measurement name to a path.
rb_measure_pages() { # BASEURL MEASUREMENTS OUTPREFIX CONNECTIONS [ROOT_PID for PSS]
  local base=$1 ms=$2 out=$3 c=$4 root=${5:-} m
  for m in $ms; do
    rb_warmup "$base${PAGES[$m]}" "$out-$m"
    [ -n "$root" ] && rb_pss_start "$root" "$out-$m"
    rb_wrk "$out-$m" "$base${PAGES[$m]}" "$c" "$RB_DURATION_S"
    [ -n "$root" ] && rb_pss_stop
  done
}

# Boot clustered Puma with extra environment variables, measure the plan's pages with PSS sampling, stop it.
rb_puma_env_cell() { # NAME OUTPREFIX MEASUREMENTS ENV…
  local name=$1 out=$2 ms=$3; shift 3
  if ! rb_boot "puma-$name" "$APP" "http://127.0.0.1:$APP_PORT/up" env "$@" bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -w "$RB_WORKERS" -t "$RB_THREADS:$RB_THREADS" --preload; then
    echo "Puma did not answer on /up (see server-puma-$name.log)" > "$out.failed"
    return 1
  fi
  # What the running server really got: its environment and whether jemalloc is mapped.
  tr '\0' '\n' < "/proc/$RB_SERVER_PID/environ" 2>/dev/null | grep -E '^(RUBY_GC_|MALLOC_|LD_PRELOAD)' > "$out.env" || true
  grep -c jemalloc "/proc/$RB_SERVER_PID/maps" > "$out.jemalloc-maps" 2>/dev/null || true
  rb_measure_pages "http://127.0.0.1:$APP_PORT" "$ms" "$out" "$RB_CONNECTIONS" "$RB_SERVER_PID"
  rb_stop "$RB_SERVER_PID"
}
