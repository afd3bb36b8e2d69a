# Experiment 4a, interpreters (thesis Tables 5.10–5.13; Rails Ruby Bench): the same stdlib-only workload
# (lab/bench/workload.rb) under the host's Ruby 3.1 with and without its YJIT, and the lab's Ruby 3.3 and 3.4
# (Debian builds them without YJIT). hyperfine runs it once unmeasured, then once measured, per plan entry.
exp_setup() { command -v hyperfine >/dev/null; }

exp_cell() { # RUBY RUN MEASUREMENTS OUTPREFIX
  local cmd
  case $1 in
    ruby31) cmd="ruby3.1 $BENCH/workload.rb $RB_ITERATIONS" ;;
    ruby31-yjit) cmd="ruby3.1 --yjit $BENCH/workload.rb $RB_ITERATIONS" ;;
    ruby33) cmd="ruby3.3 $BENCH/workload.rb $RB_ITERATIONS" ;;
    ruby34) cmd="ruby3.4 $BENCH/workload.rb $RB_ITERATIONS" ;;
  esac
  command -v "${cmd%% *}" >/dev/null || { rb_skip "$4" "${cmd%% *} is not installed here"; return 0; }
  printf "%s" "$(rb_load)" > "$4-workload.load"
  hyperfine -N --warmup 1 --runs 1 --export-json "$4-workload.json" --show-output "$cmd" > "$4-workload.log" 2>&1
  echo " -> $(rb_load)" >> "$4-workload.load"
}

exp_teardown() { :; }
