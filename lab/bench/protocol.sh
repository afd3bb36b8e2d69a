# The measurement protocol on the lab side (sourced by lib.sh). Thresholds arrive as RB_* parameters from
# _data/measurement_protocol.json through scripts/lib/rebench/protocol.mjs; none is typed here.
#   rb_isolate            pin this driver (and so every server and database it starts) to RB_CPU_SERVER;
#                         load generators run on RB_CPU_LOAD through RB_LOAD_PIN
#   rb_gate OUT           wait until the machine is quiet (foreign CPU and steal below the gate), record it
#   rb_speed_calibrate    once per batch, on a machine the idle gate found quiet: the host-speed probe's reference
#                         (lab/bench/speed-probe.rb, protocol version 5), RAW/speed-calibration-PLACE.txt
#   rb_measured OUT CMD…  gate, run CMD with the monitor (and the host-speed probe) sampling, repeat when disturbed
#                         (or, for in-process CPU runs that print plateau=X, when X is above RB_PLATEAU_MAX; for
#                         load runs under version 5, when the probe found the host slow in more than
#                         RB_SPEED_MAX_SLOW_PCT % of its windows; from version 6, when steadiness.rb finds more than
#                         RB_STEADY_MAX_OFF_PCT % of wrk's windows off the run's median), record OUT.protocol
RB_LOAD_PIN=()
RB_MONITOR_ROOT=$$
[ -d /opt/lab ] && RB_MONITOR_ROOT=1   # inside the lab's PID namespace every process belongs to the experiment

rb_isolate() {
  local file="$RAW/isolation-$RB_PLACE.txt" cpus
  cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
  if [ -z "${RB_CPU_SERVER:-}" ] || [ -z "${RB_CPU_LOAD:-}" ]; then
    echo "none no CPU assignment in the parameters" > "$file"
  elif ! command -v taskset >/dev/null; then
    echo "none taskset is not installed (util-linux); server and load generator share the CPUs" > "$file"
  elif [ "$cpus" -le "$RB_CPU_LOAD" ] || [ "$cpus" -le "$RB_CPU_SERVER" ]; then
    echo "none this machine has $cpus online CPU(s); the protocol needs CPUs $RB_CPU_SERVER and $RB_CPU_LOAD" > "$file"
  elif ! taskset -pc "$RB_CPU_SERVER" $$ >/dev/null 2>&1 || ! taskset -c "$RB_CPU_LOAD" true 2>/dev/null; then
    echo "none taskset could not set the CPU affinity here (cpuset or permissions)" > "$file"
  else
    RB_LOAD_PIN=(taskset -c "$RB_CPU_LOAD")
    echo "pinned server=$RB_CPU_SERVER load=$RB_CPU_LOAD (taskset: the driver, every server and database it starts on CPU $RB_CPU_SERVER; wrk, ab, hyperfine's load and the open-loop generator on CPU $RB_CPU_LOAD)" > "$file"
  fi
  rb_log "isolation: $(cat "$file")"
}

# The host-speed probe's calibration: after the idle gate (a busy machine would calibrate the probe to its own
# slowness), every CPU spins for RB_SPEED_CALIBRATE_S seconds. Sets RB_SPEED_CAL, the file every run's probe reads.
# An experiment that sets RB_PROBE=0 (in-process CPU runs: their plateau check reads the host's speed from the
# workload itself) has no probe, nor does a run without RB_SPEED_CALIBRATE_S (--quick).
RB_SPEED_CAL=
rb_speed_calibrate() {
  local out="$RAW/speed-calibration-$RB_PLACE"
  [ -n "${RB_SPEED_CALIBRATE_S:-}" ] && [ "${RB_PROBE:-1}" = 1 ] || return 0
  rb_gate "$out"
  if ! ruby "$BENCH/speed-probe.rb" calibrate seconds="$RB_SPEED_CALIBRATE_S" spin_ms="$RB_SPEED_SPIN_MS" \
      period_ms="$RB_SPEED_PERIOD_MS" window_s="$RB_SPEED_WINDOW_S" slow_ratio="$RB_SPEED_SLOW_RATIO" \
      min_spins="$RB_SPEED_MIN_SPINS" quantile="$RB_SPEED_QUANTILE" > "$out.txt" 2>> "$RAW/driver.log"; then
    rb_log "host-speed probe: calibration failed (see above); runs have no probe figures and grade smoke"
    return 0
  fi
  [ -f "$out.gate" ] && grep -E '^gate_(ok|waited_s)=' "$out.gate" >> "$out.txt" && rm -f "$out.gate"
  RB_SPEED_CAL="$out.txt"
  rb_log "host-speed probe: calibrated ($(grep -E '^cpu[0-9]+_(ns|spread)=' "$out.txt" | tr '\n' ' '))"
}

rb_monitor_window() { ruby "$BENCH/monitor.rb" window "$RB_MONITOR_ROOT" "$1"; }
rb_kv() { sed -n "s/^$1=//p" "$2" | head -1; }
# Steal on the worst single CPU (monitor.rb's steal_pct_cpu_max), or the machine's where that is missing.
rb_steal() { local v; v=$(rb_kv steal_pct_cpu_max "$1"); [ -n "$v" ] || v=$(rb_kv steal_pct "$1"); echo "$v"; }
# Is value A above limit B? (decimals; awk, as bash only compares integers)
rb_above() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }

# The idle gate: one window of RB_GATE_WINDOW_S seconds; while foreign CPU or steal is above its threshold,
# poll again every RB_GATE_POLL_S up to RB_GATE_MAX_WAIT_S. Writes OUT.gate (the last window's figures).
rb_gate() { # OUT
  local out=$1 waited=0 f s
  [ -n "${RB_GATE_WINDOW_S:-}" ] || return 0
  while :; do
    rb_monitor_window "$RB_GATE_WINDOW_S" > "$out.gate" 2>> "$RAW/driver.log" || return 0
    f=$(rb_kv foreign_pct "$out.gate"); s=$(rb_steal "$out.gate")
    if ! rb_above "$f" "$RB_GATE_MAX_FOREIGN" && ! rb_above "$s" "$RB_GATE_MAX_STEAL"; then echo "gate_ok=1" >> "$out.gate"; break; fi
    if [ "$waited" -ge "${RB_GATE_MAX_WAIT_S:-0}" ]; then
      echo "gate_ok=0" >> "$out.gate"
      rb_log "idle gate: still busy after ${waited}s (foreign CPU $f %, steal $s %); measuring anyway, the run is graded smoke"
      break
    fi
    sleep "$RB_GATE_POLL_S"; waited=$((waited + RB_GATE_POLL_S + RB_GATE_WINDOW_S))
  done
  echo "gate_waited_s=$waited" >> "$out.gate"
}

# Run CMD… (its output to OUT.txt) under the protocol: gate, monitor, repeat while disturbed (RB_TRIES).
# OUT.protocol records gate_ok, foreign_pct, steal_pct, load1, tries, disturbed, unsteady, slow_host, warmup_stable,
# and how many tries were repeated for each reason (repeats_disturbed, repeats_unsteady, repeats_slow_host); from
# version 6 also the steadiness figures (steady_*), unsteady_throughput and repeats_unsteady_throughput.
rb_measured() { # OUT CMD…
  local out=$1 try=1 f s fw sw mon sp slow thr rep_busy=0 rep_slow=0 rep_unsteady=0 rep_thr=0 probe=(); shift
  [ -n "${RB_SPEED_CAL:-}" ] && [ "${RB_PROBE:-1}" = 1 ] && probe=("$RB_SPEED_CAL" "$out.speed.csv")
  while :; do
    rb_gate "$out"
    printf "%s" "$(rb_load)" > "$out.load"
    if [ -n "${RB_MONITOR_S:-}" ]; then
      rm -f "$out.monitor.sum"
      ruby "$BENCH/monitor.rb" sample "$RB_MONITOR_ROOT" "$RB_MONITOR_S" "$out.monitor.sum" "${probe[@]}" > "$out.monitor.csv" 2>> "$RAW/driver.log" &
      mon=$!
      # A full run starts once the monitor has taken its first sample (Ruby's start-up, seconds on a busy machine,
      # is not part of the window); a --quick run does not wait, and a run shorter than that start-up has no figure.
      if [ "${RB_QUICK:-0}" = 0 ]; then
        for _ in $(seq 1 200); do [ "$(wc -l < "$out.monitor.csv")" -ge 2 ] && break; sleep 0.05; done
      fi
    fi
    "$@" > "$out.txt" 2>&1
    echo "exit=$?" > "$out.protocol"
    [ -n "${mon:-}" ] && { kill -TERM "$mon" 2>/dev/null; wait "$mon" 2>/dev/null; mon=; }
    echo " -> $(rb_load)" >> "$out.load"
    [ -f "$out.monitor.sum" ] && cat "$out.monitor.sum" >> "$out.protocol" && rm -f "$out.monitor.sum"
    [ -f "$out.gate" ] && grep -E '^gate_(ok|waited_s)=' "$out.gate" >> "$out.protocol"
    f=$(rb_kv foreign_pct "$out.protocol"); s=$(rb_steal "$out.protocol")
    fw=$(rb_kv foreign_cpu_pct_worst_interval "$out.protocol"); sw=$(rb_kv steal_pct_worst_interval "$out.protocol")
    # Disturbed: over the whole run above the limits, or one monitor interval above the burst cap, in % of one CPU
    # (a second of a whole CPU taken away changes a 10 s run by up to 10 %, and the averages would hide it).
    busy=0 unsteady=0
    if { [ -n "$f" ] && rb_above "$f" "$RB_DISTURB_MAX_FOREIGN"; } || { [ -n "$s" ] && rb_above "$s" "$RB_DISTURB_MAX_STEAL"; } \
      || { [ -n "${RB_DISTURB_MAX_INTERVAL:-}" ] && { { [ -n "$fw" ] && rb_above "$fw" "$RB_DISTURB_MAX_INTERVAL"; } || { [ -n "$sw" ] && rb_above "$sw" "$RB_DISTURB_MAX_INTERVAL"; }; }; }; then
      busy=1
    fi
    # The host's own slowdowns, which the monitor cannot see: an in-process run whose fastest tenth of blocks
    # disagree never held the machine's fast speed (protocol version 3); it is repeated like a disturbed run.
    pl=$(sed -n 's/^plateau=//p' "$out.txt" 2>/dev/null | tail -1)
    if [ -n "${RB_PLATEAU_MAX:-}" ] && [ -n "$pl" ] && rb_above "$pl" "$RB_PLATEAU_MAX"; then unsteady=1; fi
    # The same for any other run (protocol version 5): the host-speed probe's share of slow windows.
    sp=$(rb_kv speed_slow_pct "$out.protocol"); slow=0
    if [ -n "${RB_SPEED_MAX_SLOW_PCT:-}" ] && [ -n "$sp" ] && rb_above "$sp" "$RB_SPEED_MAX_SLOW_PCT"; then slow=1; fi
    # Version 6: the run judged against itself, its responses per window (steadiness.rb; runs without WRK_WINDOWS
    # are recorded as not judged). The probe above still records its figures, but decides nothing from version 6.
    thr=0
    if [ -n "${RB_STEADY_MAX_OFF_PCT:-}" ]; then
      ruby "$BENCH/steadiness.rb" "$out.txt" min_expected="$RB_STEADY_MIN_EXPECTED" min_windows="$RB_STEADY_MIN_WINDOWS" \
        slow_ratio="$RB_STEADY_SLOW_RATIO" sigmas="$RB_STEADY_SIGMAS" max_off_pct="$RB_STEADY_MAX_OFF_PCT" \
        ${RB_STEADY_MIN_BLOCK_EXPECTED:+min_block_expected="$RB_STEADY_MIN_BLOCK_EXPECTED"} \
        ${RB_STEADY_TREND_MIN_PCT:+trend_min_pct="$RB_STEADY_TREND_MIN_PCT" trend_sigmas="$RB_STEADY_TREND_SIGMAS"} \
        ${RB_STEADY_DISPERSION:+dispersion="$RB_STEADY_DISPERSION"} ${RB_STEADY_WINDOW_CV:+window_cv="$RB_STEADY_WINDOW_CV"} >> "$out.protocol" 2>> "$RAW/driver.log"
      [ "$(rb_kv steady_unsteady "$out.protocol")" = 1 ] && thr=1
    fi
    if [ "$busy" = 1 ] || [ "$unsteady" = 1 ] || [ "$slow" = 1 ] || [ "$thr" = 1 ]; then
      if [ "$try" -lt "${RB_TRIES:-1}" ]; then
        # Why the try is repeated: logged, recorded in the try's kept protocol and counted by reason, one reason per
        # try (the first that applies), so that the counts add up to the tries less one. Every try's output is kept
        # (the readback's first-try check reads try 1): text, protocol, the JSON an in-process run writes beside
        # them and the probe's windows.
        if [ "$busy" = 1 ]; then
          rb_log "$(basename "$out"): disturbed (foreign CPU $f %, steal $s % on the worst CPU; worst interval: foreign ${fw:-?} %, steal ${sw:-?} %), try $try of $RB_TRIES; repeating"
          echo "repeated_because=disturbed" >> "$out.protocol"; rep_busy=$((rep_busy + 1))
        elif [ "$unsteady" = 1 ]; then
          rb_log "$(basename "$out"): the machine did not hold its fast speed (plateau $pl above $RB_PLATEAU_MAX), try $try of $RB_TRIES; repeating"
          echo "repeated_because=unsteady" >> "$out.protocol"; rep_unsteady=$((rep_unsteady + 1))
        elif [ "$slow" = 1 ]; then
          rb_log "$(basename "$out"): the host ran slow in $sp % of the probe's windows (above $RB_SPEED_MAX_SLOW_PCT %), try $try of $RB_TRIES; repeating"
          echo "repeated_because=slow_host" >> "$out.protocol"; rep_slow=$((rep_slow + 1))
        else
          # Blocks off say more than the trend (a dip in one half also makes the halves differ): the trend is named
          # only when it alone made the run unsteady.
          if [ "$(rb_kv steady_trending "$out.protocol")" = 1 ] && ! rb_above "$(rb_kv steady_off_pct "$out.protocol")" "$RB_STEADY_MAX_OFF_PCT"; then
            rb_log "$(basename "$out"): throughput trended by $(rb_kv steady_trend_pct "$out.protocol") % from the first half to the second (z $(rb_kv steady_trend_z "$out.protocol")), a level shift (still warming, or the host's speed), try $try of $RB_TRIES; repeating"
          else
            rb_log "$(basename "$out"): unsteady throughput ($(rb_kv steady_off_pct "$out.protocol") % of $(rb_kv steady_windows "$out.protocol") blocks off the run's median, above $RB_STEADY_MAX_OFF_PCT %), try $try of $RB_TRIES; repeating"
          fi
          echo "repeated_because=unsteady_throughput" >> "$out.protocol"; rep_thr=$((rep_thr + 1))
        fi
        [ -f "$out.speed.csv" ] && mv "$out.speed.csv" "$out.disturbed-$try.speed.csv"
        mv "$out.txt" "$out.disturbed-$try.txt"; mv "$out.protocol" "$out.disturbed-$try.protocol"
        [ -f "$out.json" ] && mv "$out.json" "$out.disturbed-$try.json"
        try=$((try + 1)); continue
      fi
    fi
    echo "disturbed=$busy" >> "$out.protocol"
    echo "unsteady=$unsteady" >> "$out.protocol"
    echo "slow_host=$slow" >> "$out.protocol"
    [ -n "${RB_STEADY_MAX_OFF_PCT:-}" ] && printf "unsteady_throughput=%s\nrepeats_unsteady_throughput=%s\n" "$thr" "$rep_thr" >> "$out.protocol"
    echo "tries=$try" >> "$out.protocol"
    printf "repeats_disturbed=%s\nrepeats_unsteady=%s\nrepeats_slow_host=%s\n" "$rep_busy" "$rep_unsteady" "$rep_slow" >> "$out.protocol"
    [ -f "$out.warmup" ] && grep -E '^warmup_(stable|s|requests|connections)=' "$out.warmup" >> "$out.protocol"
    return 0
  done
}

# Warm-up until throughput is stable (version 7): wrk windows of RB_WARMUP_WINDOW_S seconds at CONNECTIONS (the
# measured run's), until at least RB_WARMUP_MIN_REQUESTS requests and RB_WARMUP_MIN_WINDOWS windows, and then no trend
# over the last RB_WARMUP_TREND_WINDOWS windows (steadiness.rb's flat_trend?), for at most RB_WARMUP_MAX_S seconds.
# Without RB_WARMUP_MIN_REQUESTS (a version 6 parameter file): two consecutive windows within
# RB_WARMUP_TOLERANCE_PCT %, at 2 connections, as version 6 did. OUT.warmup keeps every window.
rb_warmup_stable() { # URL OUT [CONNECTIONS]
  local url=$1 out=$2 c=${3:-2} t=2 spent=0 prev="" rps n total=0 counts=""
  [ -n "${RB_WARMUP_MIN_REQUESTS:-}" ] || c=2
  [ "$c" -lt 2 ] && t=1
  : > "$out.warmup"
  echo "warmup_connections=$c" >> "$out.warmup"
  while [ "$spent" -lt "$RB_WARMUP_MAX_S" ]; do
    "${RB_LOAD_PIN[@]}" wrk -t"$t" -c"$c" -d"${RB_WARMUP_WINDOW_S}s" "$url" >> "$out.warmup" 2>&1
    spent=$((spent + RB_WARMUP_WINDOW_S))
    rps=$(sed -n 's/^Requests\/sec: *//p' "$out.warmup" | tail -1)
    n=$(sed -n 's/^ *\([0-9][0-9]*\) requests in .*/\1/p' "$out.warmup" | tail -1)
    echo "window_rps=${rps:-0}" >> "$out.warmup"
    if [ -n "${RB_WARMUP_MIN_REQUESTS:-}" ]; then
      total=$((total + ${n:-0})); counts="$counts ${n:-0}"
      echo "window_requests=${n:-0}" >> "$out.warmup"
      if [ "$total" -ge "$RB_WARMUP_MIN_REQUESTS" ] && [ "$((spent / RB_WARMUP_WINDOW_S))" -ge "$RB_WARMUP_MIN_WINDOWS" ] \
        && ruby "$BENCH/steadiness.rb" --flat windows="$RB_WARMUP_TREND_WINDOWS" tolerance_pct="$RB_WARMUP_TOLERANCE_PCT" \
          sigmas="$RB_WARMUP_TREND_SIGMAS" window_cv="${RB_STEADY_WINDOW_CV:-0}" window_s="$RB_WARMUP_WINDOW_S" $counts \
          >> "$out.warmup" 2>> "$RAW/driver.log"; then
        printf "warmup_stable=1\nwarmup_s=%s\nwarmup_requests=%s\n" "$spent" "$total" >> "$out.warmup"; return 0
      fi
      continue
    fi
    if [ -n "$prev" ] && [ -n "$rps" ] && awk -v a="$prev" -v b="$rps" -v tol="$RB_WARMUP_TOLERANCE_PCT" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && 100 * d / a <= tol) }'; then
      printf "warmup_stable=1\nwarmup_s=%s\n" "$spent" >> "$out.warmup"; return 0
    fi
    prev=$rps
  done
  printf "warmup_stable=0\nwarmup_s=%s\n" "$spent" >> "$out.warmup"
  [ -n "${RB_WARMUP_MIN_REQUESTS:-}" ] && echo "warmup_requests=$total" >> "$out.warmup"
  return 0
}
