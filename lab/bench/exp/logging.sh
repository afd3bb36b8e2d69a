# Logging (the Observability article; no research table): what Rails' own request log costs on the reference app,
# served by Puma as the wizard's bundle runs it (WORK/bundle, written by scripts/lib/rebench/experiments/logging.mjs
# with guide/cli.mjs: its config/puma.rb and config/ruby.env, pointed at the lab by rb_wizard_bundle in app.sh), on
# the lab's Ruby 3.4 YJIT build (scripts/lab run --ruby 3.4-yjit), where Rails 8.1 turns YJIT on.
# A cell is LEVEL-DEST:
#   LEVEL  info | debug | warn: RAILS_LOG_LEVEL, which the app's production.rb passes to config.log_level
#          (the generated file's line; Rails' production default is info)
#   DEST   file: Puma's standard output, where the app's config.logger writes (ActiveSupport::TaggedLogging.logger(STDOUT)
#          with the request_id tag, as Rails 8.1 generates it), appended to a file in the app's log/ on the lab's
#          overlay file system; null: /dev/null (the same formatting, no write to keep)
# Each measurement of a file cell also writes OUT.logbytes (bytes and lines the log grew by during the measured wrk
# run) and OUT.logsample (its first lines, to show what a request logged at that level).
source "$BENCH/app.sh"
declare -A PAGES=([regular]=/regular)
APP=/srv/app
BUNDLE_DIR="$WORK/bundle"
LOG_DIR="$APP/log/rebench"

exp_setup() {
  rb_app_prepare "${RB_DB:-postgresql}" "$APP" && rb_app_env "$APP" || return 1
  rb_wizard_bundle "$BUNDLE_DIR" || return 1
  mkdir -p "$LOG_DIR" || return 1
  # What the logger is, as the app configures it, and where a file cell's log lands: part of the dataset's software.
  printf 'Rails logger (config/environments/production.rb)\t%s\n' "$(grep -E '^[[:space:]]*config\.(logger|log_tags|log_level)[[:space:]]' "$APP/config/environments/production.rb" | sed 's/^[[:space:]]*//' | paste -sd ';' -)" >> "$RAW/versions-$RB_PLACE.txt"
  printf 'File system of the log file (stat -f)\t%s\n' "$(stat -f -c %T "$LOG_DIR" 2>/dev/null || echo unknown)" >> "$RAW/versions-$RB_PLACE.txt"
}

lg_size() { stat -c %s "$1" 2>/dev/null || echo 0; }

# The measured command: wrk as rb_wrk runs it; for a file cell the log's size just before and after, so the bytes
# belong to this try's requests (a repeated, disturbed try counts its own). LOGFILE empty: /dev/null, nothing to count.
lg_wrk() { # OUT LOGFILE URL
  local out=$1 log=$2 url=$3 before=0 after rc
  [ -n "$log" ] && before=$(lg_size "$log")
  rb_wrk_run "$url" "$RB_CONNECTIONS" "$RB_DURATION_S"
  rc=$?
  if [ -n "$log" ]; then
    # Requests still in flight when wrk stops finish and log their last line; let them land first.
    sleep 0.5
    after=$(lg_size "$log")
    printf 'bytes=%s\nlines=%s\n' "$((after - before))" "$(tail -c +"$((before + 1))" "$log" | head -c "$((after - before))" | wc -l)" > "$out.logbytes"
    tail -c +"$((before + 1))" "$log" | head -n 12 > "$out.logsample"
  fi
  return "$rc"
}

exp_cell() { # LEVEL-DEST RUN MEASUREMENTS OUTPREFIX
  local cell=$1 out=$4 level=${1%-*} dest=${1##*-} log=/dev/null counted="" m url extra=()
  case $level in info|debug|warn) ;; *) echo "cell $cell: unknown log level $level" > "$out.failed"; return 1 ;; esac
  case $dest in
    file) log="$LOG_DIR/$cell.log"; : > "$log"; counted=$log ;;
    null) ;;
    *) echo "cell $cell: unknown log destination $dest" > "$out.failed"; return 1 ;;
  esac
  mapfile -t extra < "$RAW/wizard-ruby.env"
  rb_log "puma-$cell: standard output (the Rails log) to $log, RAILS_LOG_LEVEL=$level"
  if ! RB_SERVER_STDOUT=$log rb_boot "puma-$cell" "$APP" "http://127.0.0.1:$APP_PORT/up" env -u WEB_CONCURRENCY -u RAILS_MAX_THREADS PORT="$APP_PORT" "${extra[@]}" LAB_YJIT=on RAILS_LOG_LEVEL="$level" bundle exec puma -C "$RAW/wizard-puma.rb.txt" -e production; then
    echo "Puma did not answer on /up (see server-puma-$cell.log)" > "$out.failed"
    return 1
  fi
  # With LAB_YJIT set every response names the Ruby and the YJIT state of the process that served it (the app's
  # production.rb); a run on anything but the YJIT build with YJIT on is a failed run, not a reading.
  if ! rb_server_ruby "$out" "/opt/ruby-3.4-yjit/bin/ruby; YJIT on"; then
    rb_stop "$RB_SERVER_PID"; [ -n "$counted" ] && rm -f "$counted"
    return 1
  fi
  for m in $3; do
    url="http://127.0.0.1:$APP_PORT${PAGES[$m]}"
    # The page must answer 2xx; anything else is recorded and the page is not measured (as rb_measure_pages does).
    curl -s -o /dev/null -m 30 -w '%{http_code}' "$url" > "$out-$m.status" 2>/dev/null
    case $(cat "$out-$m.status") in 2*) ;; *) rb_log "page $m answered HTTP $(cat "$out-$m.status")"; continue ;; esac
    rb_warmup "$url" "$out-$m"
    rb_measured "$out-$m" lg_wrk "$out-$m" "$counted" "$url"
  done
  rb_stop "$RB_SERVER_PID"
  [ -n "$counted" ] && rm -f "$counted"
  return 0
}

exp_teardown() { rb_stop_all; }
