# Helpers for lab/bench/driver.sh and the experiment scripts in lab/bench/exp/.
# RB_* variables come from params.env (written by scripts/lib/rebench/runner.mjs).

REPO=$(cd "$BENCH/../.." && pwd)
WRK_LUA="$REPO/scripts/lib/importers/wrk-report.lua"
if [ -d /opt/lab ]; then RB_PLACE="lab-${LAB_RUBY:-$(ruby -e 'print RUBY_VERSION[0, 3]' 2>/dev/null || echo unknown)}"; else RB_PLACE=host; fi
RB_PIDS=()
# shellcheck source=protocol.sh
source "$BENCH/protocol.sh"

rb_log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >> "$RAW/driver.log"; }
rb_load() { cut -d' ' -f1-3 /proc/loadavg; }

# Exact versions as installed, "name<TAB>version" per line.
rb_versions() {
  local v
  if [ "$RB_PLACE" = host ]; then
    printf 'Ruby 3.1\t%s\n' "$(ruby3.1 -v 2>/dev/null)"
    printf 'Ruby 3.1 YJIT enabled with --yjit\t%s\n' "$(ruby3.1 --yjit -e 'print RubyVM::YJIT.enabled?' 2>&1)"
    printf 'hyperfine\t%s\n' "$(hyperfine --version 2>/dev/null | awk '{print $2}')"
    return
  fi
  printf 'Lab distribution\t%s\n' "$(. /etc/os-release; echo "$PRETTY_NAME")"
  for r in 3.3 3.4; do
    command -v "ruby$r" >/dev/null || continue
    printf 'Ruby %s\t%s\n' "$r" "$("ruby$r" -v)"
    printf 'Ruby %s YJIT built in\t%s\n' "$r" "$("ruby$r" --yjit -e 'print defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? "yes" : "no (built without YJIT)"' 2>/dev/null)"
  done
  # The YJIT layer (scripts/lib/lab/build-ruby-yjit.sh): Ruby 3.4 built from Debian's ruby3.4 source package.
  if [ -x /opt/ruby-3.4-yjit/bin/ruby ]; then
    printf 'Ruby 3.4 + YJIT (built from Debian source ruby3.4 %s)\t%s\n' "$(cat /opt/ruby-3.4-yjit/DEBIAN-SOURCE-VERSION 2>/dev/null)" "$(/opt/ruby-3.4-yjit/bin/ruby --yjit -v)"
    printf 'rustc that built YJIT (Debian 13)\t%s\n' "$(cat /opt/ruby-3.4-yjit/RUSTC-VERSION 2>/dev/null || echo unknown)"
  fi
  [ -x /opt/host-node/bin/node ] && printf 'Node.js (the host binary, for the open-loop generator)\t%s\n' "$(/opt/host-node/bin/node --version 2>&1)"
  for p in nginx apache2 caddy haproxy postgresql-17 pgbouncer mariadb-server sqlite3 libjemalloc2 wrk apache2-utils hyperfine libc6; do
    v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null) && printf '%s (Debian package)\t%s\n' "$p" "$v"
  done
  if [ -f "${RB_APP_SRC:-$REPO/lab/app}/Gemfile.lock" ]; then
    for g in rails puma pg mysql2 sqlite3 solid_cache solid_queue unicorn pitchfork falcon webrick rackup thruster; do
      # A gem locked for several platforms: the entry for this machine's CPU, else the plain one.
      v=$(awk -v g="$g" -v arch="$(uname -m)" '$1 == g && $2 ~ /^\(/ { gsub(/[()]/, "", $2); if (index($2, arch "-linux-gnu")) { print $2; found = 1; exit } if ($2 !~ /-/ && plain == "") plain = $2 } END { if (!found && plain != "") print plain }' "${RB_GEMFILE_LOCK:-$REPO/lab/app/Gemfile.lock}")
      [ -n "$v" ] && printf '%s (gem)\t%s\n' "$g" "$v"
    done
  fi
  return 0
}

# Start CMD in DIR in its own process group (setsid), output to RAW/server-NAME.log. Sets RB_LAST_PID (= the
# process group id) and remembers it, so rb_stop_all stops it on every exit path.
# RB_SERVER_STDOUT=FILE sends the server's standard output there instead (appended; the logging experiment: Rails'
# production logger writes to STDOUT), its standard error still to RAW/server-NAME.log.
rb_start() { # NAME DIR CMD…
  local name=$1 dir=$2; shift 2
  if [ -n "${RB_SERVER_STDOUT:-}" ]; then
    ( cd "$dir" && exec setsid "$@" ) >> "$RB_SERVER_STDOUT" 2>> "$RAW/server-$name.log" < /dev/null &
  else
    ( cd "$dir" && exec setsid "$@" ) >> "$RAW/server-$name.log" 2>&1 < /dev/null &
  fi
  RB_LAST_PID=$!
  RB_PIDS+=("$RB_LAST_PID")
}

rb_stop() { # PID: TERM the group, wait up to 10 s, then KILL
  local pid=$1 i
  kill -TERM -- "-$pid" 2>/dev/null || return 0
  for i in $(seq 1 100); do kill -0 -- "-$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  sleep 0.2
}
rb_stop_all() { local p; for p in "${RB_PIDS[@]}"; do rb_stop "$p"; done; RB_PIDS=(); }

rb_wait_http() { # URL TIMEOUT_S [PID]: until any HTTP answer below 500, or the process PID has exited
  local url=$1 limit=${2:-60} pid=${3:-} code deadline=$((SECONDS + ${2:-60}))
  while [ "$SECONDS" -lt "$deadline" ]; do
    code=$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$url" 2>/dev/null)
    case "$code" in 2*|3*|4*) return 0 ;; esac
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then rb_log "$url: the server exited before answering"; return 1; fi
    sleep 0.2
  done
  rb_log "no answer from $url after ${limit}s"
  return 1
}

# Warm-up, not measured (its output is kept with the raw files as *.warmup): until throughput is stable
# (protocol.sh) in a full run, a fixed RB_WARMUP_S seconds otherwise, none when RB_WARMUP_S is 0.
rb_warmup() { # URL OUT [CONNECTIONS: the measured run's; 2 when not given]
  [ "${RB_WARMUP_S:-0}" -gt 0 ] || return 0
  if [ "${RB_QUICK:-0}" = 0 ] && [ -n "${RB_WARMUP_WINDOW_S:-}" ]; then rb_warmup_stable "$1" "$2" "${3:-2}"; return 0; fi
  "${RB_LOAD_PIN[@]}" wrk -t1 -c2 -d"${RB_WARMUP_S}s" "$1" > "$2.warmup" 2>&1 || true
}

rb_wrk() { # OUT URL CONNECTIONS DURATION_S
  rb_measured "$1" rb_wrk_run "$2" "$3" "$4"
}
# The measured wrk command alone (its report on standard output), for experiments that wrap it (exp/logging.sh).
rb_wrk_run() { # URL CONNECTIONS DURATION_S
  local url=$1 c=$2 d=$3 t=2
  [ "$c" -lt 2 ] && t=1
  # WRK_WINDOW_S: wrk-report.lua also counts the responses completed in each window (protocol version 5).
  WRK_WINDOW_S="${RB_WRK_WINDOW_S:-}" "${RB_LOAD_PIN[@]}" wrk -t"$t" -c"$c" -d"${d}s" --timeout 10s --latency -s "$WRK_LUA" "$url"
}

# The open-loop phase: after a page's closed-loop run (OUT.txt from rb_wrk), a fixed arrival rate at each of
# RB_OPEN_FRACTIONS of a basis rate, with scripts/lib/measure/openloop-cli.mjs pinned to the load CPU like wrk.
# The basis is the requests per second wrk just measured (RB_OPEN_BASIS unset or "own"), or, with
# RB_OPEN_BASIS=calibrated, the rate rb_calibrate measured for PAGE once before the rounds (RAW/open-basis-PAGE.txt):
# then every configuration is offered the same absolute rates, so latencies at the same load can be compared.
# The lab's Debian 13 has no node: scripts/lib/lab/enter.sh mounts the host's read-only.
# Each fraction is its own protocol run (gate, monitor, repeat when disturbed): OUT-openNN.txt, .protocol.
RB_NODE=/opt/host-node/bin/node
rb_openloop() { # OUT URL [PAGE]
  local out=$1 url=$2 page=${3:-} rps f pct rate node=$RB_NODE basis missing
  [ -x "$node" ] || node=$(command -v node || true)
  if [ "${RB_OPEN_BASIS:-own}" = calibrated ]; then
    rps=$(cat "$RAW/open-basis-$page.txt" 2>/dev/null || true)
    basis="the calibrated rate of page $page"
    missing="no calibrated throughput for page ${page:-(none named)} to take a share of (the calibration before the rounds failed: see calibrate-$page.txt and driver.log)"
  else
    rps=$(sed -n 's/^Requests\/sec: *//p' "$out.txt" 2>/dev/null | tail -1 || true)
    basis="this run's closed-loop rate"
    missing="no closed-loop throughput to take a share of (the wrk run failed)"
  fi
  for f in ${RB_OPEN_FRACTIONS:-}; do
    pct=$(awk -v f="$f" 'BEGIN { printf "%d", f * 100 + 0.5 }')
    if [ -z "$node" ] || ! "$node" --version > /dev/null 2>&1; then
      echo "no Node.js runs here for the open-loop generator (the host's node is not a standalone binary?)" > "$out-open$pct.failed"; continue
    fi
    if [ -z "$rps" ] || ! rb_above "$rps" 0; then
      echo "$missing" > "$out-open$pct.failed"; continue
    fi
    rate=$(awk -v r="$rps" -v f="$f" 'BEGIN { printf "%.3f", r * f }')
    rb_log "open loop: $url at $rate req/s ($pct % of $rps, $basis)"
    rb_measured "$out-open$pct" "${RB_LOAD_PIN[@]}" "$node" "$REPO/scripts/lib/measure/openloop-cli.mjs" --url "$url" \
      --rate "$rate" --duration "${RB_OPEN_DURATION_S:-$RB_DURATION_S}" --arrival "${RB_OPEN_ARRIVAL:-constant}" \
      --seed "${RB_SEED:-1}" --max-in-flight "${RB_OPEN_MAX_IN_FLIGHT:-256}" --timeout-ms "${RB_OPEN_TIMEOUT_MS:-10000}"
  done
}

# The calibration for RB_OPEN_BASIS=calibrated, against a server the experiment has booted in its baseline
# configuration: per page (PAGES maps a name to a path), the protocol's warm-up, then RB_CALIBRATE_S seconds of wrk
# under the protocol (RAW/calibrate-PAGE.txt); its requests per second become RAW/open-basis-PAGE.txt. A run with
# no request, or HTTP errors or timeouts above the failure limit, gives no basis: that page's open-loop runs then
# fail with a reason (rb_openloop), never fall back to a configuration's own rate.
rb_calibrate() { # BASEURL PAGE…
  local base=$1 m rps code; shift
  for m in "$@"; do
    code=$(curl -s -o /dev/null -m 30 -w '%{http_code}' "$base${PAGES[$m]}" 2>/dev/null)
    case $code in 2*) ;; *) rb_log "calibration: page $m answered HTTP ${code:-nothing}; no basis"; continue ;; esac
    rb_warmup "$base${PAGES[$m]}" "$RAW/calibrate-$m"
    rb_wrk "$RAW/calibrate-$m" "$base${PAGES[$m]}" "$RB_CONNECTIONS" "${RB_CALIBRATE_S:-5}"
    rps=$(rb_wrk_good_rps "$RAW/calibrate-$m.txt")
    if [ -n "$rps" ]; then
      printf '%s\n' "$rps" > "$RAW/open-basis-$m.txt"
      rb_log "calibration: page $m served $rps req/s: the open-loop basis of every configuration"
    else
      rb_log "calibration: page $m gave no good wrk reading (see calibrate-$m.txt); its open-loop runs will fail"
    fi
  done
}

# Requests per second of a wrk report that passes the failure rule (some requests; non-2xx/3xx responses and
# timeouts within RB_MAX_ERROR_PCT, default 1 %); nothing otherwise.
rb_wrk_good_rps() { # FILE
  awk -v lim="${RB_MAX_ERROR_PCT:-1}" '
    / requests in / { n = $1 + 0 }
    /^Requests\/sec:/ { rps = $2 }
    /Non-2xx or 3xx responses:/ { bad += $NF }
    /Socket errors:/ { for (i = 1; i <= NF; i++) if ($i == "timeout") bad += $(i + 1) + 0 }
    END { if (n > 0 && rps + 0 > 0 && bad * 100 <= lim * n) print rps }' "$1" 2>/dev/null
}

rb_ab() { # OUT URL REQUESTS CONCURRENCY
  rb_measured "$1" "${RB_LOAD_PIN[@]}" ab -r -s 30 -n "$3" -c "$4" "$2"
}

# PSS sampler for a process tree: starts in the background, writes OUT.pss.csv until rb_pss_stop.
rb_pss_start() { # ROOT_PID OUT
  ruby "$BENCH/pss.rb" "$1" 0.5 > "$2.pss.csv" 2>> "$RAW/driver.log" &
  RB_PSS=$!
}
rb_pss_stop() { kill "$RB_PSS" 2>/dev/null; wait "$RB_PSS" 2>/dev/null; RB_PSS=; }

rb_skip() { # OUT REASON: this cell cannot run here; the dataset marks it NOT-INSTALLED
  echo "$2" > "$1.skip"
  rb_log "skip: $2"
}
