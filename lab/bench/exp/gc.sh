# Experiment 5, GC settings (thesis Table 5.14): clustered Puma on Ruby 3.3 with today's RUBY_GC_HEAP_* and
# RUBY_GC_MALLOC_LIMIT variables against the defaults; throughput and PSS on the heavy and API pages.
# (3.3 removed RUBY_GC_HEAP_INIT_SLOTS; the per-heap RUBY_GC_HEAP_%d_INIT_SLOTS replace it.)
source "$BENCH/app.sh"
declare -A PAGES=([heavy]=/heavy [api]=/api)
APP=/srv/app

exp_setup() { rb_app_prepare "${RB_DB:-postgresql}" "$APP" && rb_app_env "$APP"; }

exp_cell() { # SETTING RUN MEASUREMENTS OUTPREFIX
  case $1 in
    default) rb_puma_env_cell "$1" "$4" "$3" ;;
    init-slots) rb_puma_env_cell "$1" "$4" "$3" RUBY_GC_HEAP_0_INIT_SLOTS=400000 RUBY_GC_HEAP_1_INIT_SLOTS=100000 RUBY_GC_HEAP_2_INIT_SLOTS=50000 ;;
    growth-1.1) rb_puma_env_cell "$1" "$4" "$3" RUBY_GC_HEAP_GROWTH_FACTOR=1.1 ;;
    malloc-64m) rb_puma_env_cell "$1" "$4" "$3" RUBY_GC_MALLOC_LIMIT=67108864 RUBY_GC_OLDMALLOC_LIMIT=67108864 ;;
  esac
}

exp_teardown() { rb_stop_all; }
