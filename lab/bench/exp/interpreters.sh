# Experiment 4a, interpreters (thesis Tables 5.10–5.13; Rails Ruby Bench): the same stdlib-only workload
# (lab/bench/workload.rb) under the host's Ruby 3.1 with and without its YJIT, the lab's Ruby 3.3 and 3.4 (Debian
# builds them without YJIT), and the lab's Ruby 3.4 built from Debian's source with YJIT (scripts/lab build), with
# YJIT off and on. Measured warm and in-process: RB_WARMUP iterations unmeasured (YJIT compiles lazily during the
# first calls), then at least RB_ITERATIONS iterations and RB_TIMED_S seconds of them, each timed alone; one
# process per plan entry.
exp_setup() { :; }
# No host-speed probe (protocol version 5's, for HTTP runs): these in-process runs read the host's speed from the
# workload's own blocks (the plateau check), and a spinner on the measured CPU would only add noise to them.
RB_PROBE=0

YJIT_RUBY=/opt/ruby-3.4-yjit/bin/ruby

exp_cell() { # RUBY RUN MEASUREMENTS OUTPREFIX
  local cmd
  case $1 in
    ruby31) cmd=(ruby3.1) ;;
    ruby31-yjit) cmd=(ruby3.1 --yjit) ;;
    ruby33) cmd=(ruby3.3) ;;
    ruby34) cmd=(ruby3.4) ;;
    ruby34-src) cmd=("$YJIT_RUBY") ;;
    ruby34-yjit) cmd=("$YJIT_RUBY" --yjit) ;;
    *) echo "unknown cell $1" > "$4.failed"; return 1 ;;
  esac
  command -v "${cmd[0]}" >/dev/null || {
    if [ "${cmd[0]}" = "$YJIT_RUBY" ]; then rb_skip "$4" "the lab has no Ruby 3.4 YJIT layer (scripts/lab build builds it)"
    else rb_skip "$4" "${cmd[0]} is not installed here"; fi
    return 0
  }
  # Under the protocol (protocol.sh): idle gate, foreign-load monitor, repeated when disturbed; the workload's
  # console output goes to -warm.txt, its timings to -warm.json; a non-zero exit makes the run a failed one.
  rb_measured "$4-warm" "${cmd[@]}" "$BENCH/workload.rb" --warm "$RB_WARMUP" "$RB_ITERATIONS" "$4-warm.json" "${RB_TIMED_S:-0}" "${RB_BLOCK_ITERATIONS:-10}" "${RB_READING_QUANTILE:-0.1}"
}

exp_teardown() { :; }
