# Experiment 4b, allocators and memory over time: clustered Puma on the lab's Ruby 3.3 with glibc malloc,
# glibc with MALLOC_ARENA_MAX=2, and jemalloc (LD_PRELOAD); pages under wrk while the PSS of the whole server
# tree is sampled every 0.5 s.
source "$BENCH/app.sh"
declare -A PAGES=([heavy]=/heavy)
APP=/srv/app
JEMALLOC=$(ls /usr/lib/*/libjemalloc.so.2 2>/dev/null | head -1)

exp_setup() { rb_app_prepare "${RB_DB:-postgresql}" "$APP" && rb_app_env "$APP"; }

exp_cell() { # ALLOCATOR RUN MEASUREMENTS OUTPREFIX
  case $1 in
    glibc) rb_puma_env_cell "$1" "$4" "$3" ;;
    arena2) rb_puma_env_cell "$1" "$4" "$3" MALLOC_ARENA_MAX=2 ;;
    jemalloc)
      [ -n "$JEMALLOC" ] || { rb_skip "$4" "libjemalloc2 is not installed"; return 0; }
      rb_puma_env_cell "$1" "$4" "$3" LD_PRELOAD="$JEMALLOC" ;;
  esac
}

exp_teardown() { rb_stop_all; }
