# Reference-app helpers for the experiments that boot Rails (sourced by exp/*.sh).
# lab-app (the lab's own command) prepares the app; the servers are started here with explicit flags so that
# each experiment states exactly how its server ran (no config file: puma -C -).
APP_PORT=3000

# lab-app prepare copies the app to DIR, starts the database server, migrates and seeds (sizes in lab/app/db/seeds.rb).
rb_app_prepare() { # DB DIR
  rb_log "prepare the app on $1 in $2"
  lab-app prepare --db "$1" --dir "$2" >> "$RAW/driver.log" 2>&1
}

# The environment lab-app runs the app with (RAILS_ENV, SECRET_KEY_BASE, LAB_DB, BUNDLE_*), with request logging
# at warn so that logging every request does not become part of the measurement.
rb_app_env() { # DIR
  local env
  env=$(RAILS_LOG_LEVEL=warn lab-app env --dir "$1") || return 1
  eval "$env"
  export RACK_ENV=production
}

# WEBrick is not in the reference app's bundle: lab/bench/Gemfile adds it, and lab/bench/prepare-gems.sh installs
# it once into tmp/rebench-gems beside the lab's own gems. Sets RB_BENCH_ENV (env arguments) or fails.
rb_bench_gems_env() {
  local abi dir
  abi=$(ruby -e 'print RbConfig::CONFIG["ruby_version"]')
  dir="$REPO/tmp/rebench-gems/$abi"
  [ -f "$dir/.complete" ] || return 1
  RB_BENCH_ENV=(-u BUNDLE_PATH BUNDLE_GEMFILE="$BENCH/Gemfile" GEM_HOME="$dir" GEM_PATH="$dir:${BUNDLE_PATH:-/opt/lab/bundle}/ruby/$abi")
}

# Is GEM in the bundle of the app in the current directory?
rb_has_gem() { (cd "$APP" && bundle exec ruby -e "Gem::Specification.find_by_name('$1')" >/dev/null 2>&1); }

# Start a server for DIR with CMD… and wait until URL answers. Sets RB_SERVER_PID (its process group).
rb_boot() { # NAME DIR URL CMD…
  local name=$1 dir=$2 url=$3 t0=$SECONDS; shift 3
  rb_log "boot $name: $*"
  rb_start "$name" "$dir" "$@"
  RB_SERVER_PID=$RB_LAST_PID
  if ! rb_wait_http "$url" "${RB_BOOT_TIMEOUT_S:-120}" "$RB_SERVER_PID"; then rb_stop "$RB_SERVER_PID"; return 1; fi
  rb_log "boot $name: answered after $((SECONDS - t0)) s"
}

# Measure each page named in MEASUREMENTS (a space-separated list, in the plan's random order) with wrk,
# sampling the PSS of the server tree while the load runs. PAGES maps a measurement name to a path.
rb_measure_pages() { # BASEURL MEASUREMENTS OUTPREFIX CONNECTIONS [ROOT_PID for PSS]
  local base=$1 ms=$2 out=$3 c=$4 root=${5:-} m
  for m in $ms; do
    # The page must answer 2xx; anything else (a redirect, an error) is recorded and the page is not measured.
    curl -s -o /dev/null -m 30 -w '%{http_code}' "$base${PAGES[$m]}" > "$out-$m.status" 2>/dev/null
    case $(cat "$out-$m.status") in 2*) ;; *) rb_log "page $m answered HTTP $(cat "$out-$m.status")"; continue ;; esac
    rb_warmup "$base${PAGES[$m]}" "$out-$m" "$c"
    [ -n "$root" ] && rb_pss_start "$root" "$out-$m"
    rb_wrk "$out-$m" "$base${PAGES[$m]}" "$c" "$RB_DURATION_S"
    [ -n "$root" ] && rb_pss_stop
    # Experiments whose measurements ask for it (openLoop in scripts/lib/rebench/experiments) set the fractions.
    [ -n "${RB_OPEN_FRACTIONS:-}" ] && rb_openloop "$out-$m" "$base${PAGES[$m]}" "$m"
  done
}

# What ran, asked of the running server: with LAB_YJIT set, every response of the reference app names the Ruby and
# the YJIT state of the process that served it (lab/app config/environments/production.rb; Rails turns YJIT on in
# its last initializer, so only a response shows what a worker runs). Writes OUT.ruby; with EXPECTED (for example
# "/opt/ruby-3.4-yjit/bin/ruby; YJIT on") a server in any other state is a failed run (OUT.failed), never measured.
rb_server_ruby() { # OUT [EXPECTED]
  local out=$1 want=${2:-} ran
  ran=$(curl -s -m 10 -D - -o /dev/null "http://127.0.0.1:$APP_PORT/up" 2>/dev/null | tr -d '\r' | sed -n 's/^x-lab-ruby: //Ip' | head -1)
  printf '%s\n' "$ran" > "$out.ruby"
  if [ -z "$want" ] || [ "$ran" = "$want" ]; then return 0; fi
  echo "the server did not run $want: ${ran:-no x-lab-ruby header}" > "$out.failed"
  rb_log "$(basename "$out"): the server did not run $want: ${ran:-no x-lab-ruby header}"
  return 1
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

# The wizard's bundle (written into DIR by scripts/lib/rebench/experiments/bundle.mjs with guide/cli.mjs) as the lab
# runs it: its config/puma.rb with the deploy paths and the Unix socket pointed at the lab's app on TCP
# (RAW/wizard-puma.rb.txt), and its config/ruby.env without the app's own RAILS_ENV and secrets (RAW/wizard-ruby.env).
rb_wizard_bundle() { # DIR
  [ -f "$1/config/puma.rb" ] || { rb_log "no wizard bundle in $1"; return 1; }
  sed -e "s|^directory .*|directory \"$APP\"|" -e "s|^bind .*|bind \"tcp://127.0.0.1:$APP_PORT\"|" \
      -e '/^pidfile /d' -e '/^state_path /d' "$1/config/puma.rb" > "$RAW/wizard-puma.rb.txt"
  # KEY=VALUE lines only; the app's own RAILS_ENV and secrets stay as lab-app sets them.
  grep -E '^[A-Z_][A-Z0-9_]*=' "$1/config/ruby.env" | grep -vE '^(RAILS_ENV|SECRET_KEY_BASE)=' > "$RAW/wizard-ruby.env"
  return 0
}
