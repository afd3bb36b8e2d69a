# Experiment 2, application servers (thesis Tables 5.15–5.18): the reference app on PostgreSQL served by Puma
# (single and clustered), Unicorn, Pitchfork, Falcon and WEBrick, each booted fresh for every run; three pages
# measured with wrk while the PSS of the server's process tree is sampled.
source "$BENCH/app.sh"
declare -A PAGES=([api]=/api [regular]=/regular [heavy]=/heavy)
APP=/srv/app
W=${RB_WORKERS:-2} T=${RB_THREADS:-3}

exp_setup() {
  rb_app_prepare "${RB_DB:-postgresql}" "$APP" || return 1
  rb_app_env "$APP"
  RB_BENCH_ENV=()
  rb_bench_gems_env || true
  mkdir -p /tmp/rb
  cat > /tmp/rb/unicorn.rb <<CONF
worker_processes $W
listen "127.0.0.1:$APP_PORT", backlog: 1024
preload_app true
timeout 60
CONF
  cat > /tmp/rb/pitchfork.rb <<CONF
worker_processes $W
listen "127.0.0.1:$APP_PORT", backlog: 1024
timeout 60
CONF
}

exp_cell() { # SERVER RUN MEASUREMENTS OUTPREFIX
  local server=$1 out=$4 cmd
  case $server in
    puma-single) cmd=(bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -t "$T:$T") ;;
    puma-cluster) cmd=(bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -w "$W" -t "$T:$T" --preload) ;;
    # The lab's Ruby 3.4 YJIT build (this batch runs with --ruby 3.4-yjit): Rails 8.1 turns YJIT on at boot;
    # LAB_YJIT=off keeps it off (config.yjit = false), so the pair differs in YJIT alone. LAB_YJIT=on changes
    # nothing in the app's configuration: it only makes responses name the Ruby and YJIT state (checked below).
    puma-34-yjit) cmd=(env LAB_YJIT=on bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -w "$W" -t "$T:$T" --preload) ;;
    puma-34-yjit-off) cmd=(env LAB_YJIT=off bundle exec puma -C - -e production -b "tcp://127.0.0.1:$APP_PORT" -w "$W" -t "$T:$T" --preload) ;;
    unicorn) cmd=(bundle exec unicorn -E production -c /tmp/rb/unicorn.rb config.ru) ;;
    pitchfork) cmd=(bundle exec pitchfork -c /tmp/rb/pitchfork.rb config.ru) ;;
    # Rails' fiber isolation level, as the Rails configuration guide asks for fiber-based servers.
    falcon) cmd=(env LAB_ISOLATION_LEVEL=fiber bundle exec falcon serve --bind "http://127.0.0.1:$APP_PORT" --count "$W" --config config.ru) ;;
    # bin/rails, not a gem launcher: the launchers of the lab's gems are not in the extra gem folder's bin.
    webrick) cmd=(env "${RB_BENCH_ENV[@]}" bin/rails server -u webrick -e production -b 127.0.0.1 -p "$APP_PORT" -P /tmp/rb/webrick.pid) ;;
    passenger) rb_skip "$out" "Phusion Passenger is not packaged for the lab (Debian 13); not measured"; return 0 ;;
  esac
  case $server in
    puma-*) ;;
    webrick) [ ${#RB_BENCH_ENV[@]} -gt 0 ] || { rb_skip "$out" "WEBrick is not in the reference app's bundle and lab/bench/prepare-gems.sh did not install it"; return 0; } ;;
    *) rb_has_gem "$server" || { rb_skip "$out" "$server is not in the reference app's bundle"; return 0; } ;;
  esac
  if ! rb_boot "$server" "$APP" "http://127.0.0.1:$APP_PORT/up" "${cmd[@]}"; then
    echo "$server did not answer on /up (see server-$server.log)" > "$out.failed"
    return 1
  fi
  # What ran: with LAB_YJIT set the app names, in every response, the Ruby and the YJIT state of the process that
  # served it (config/environments/production.rb). A YJIT cell served otherwise is a failed run, not a reading.
  local want=
  case $server in
    puma-34-yjit) want="/opt/ruby-3.4-yjit/bin/ruby; YJIT on" ;;
    puma-34-yjit-off) want="/opt/ruby-3.4-yjit/bin/ruby; YJIT off" ;;
  esac
  rb_server_ruby "$out" "$want" || { rb_stop "$RB_SERVER_PID"; return 1; }
  rb_measure_pages "http://127.0.0.1:$APP_PORT" "$3" "$out" "$RB_CONNECTIONS" "$RB_SERVER_PID"
  rb_stop "$RB_SERVER_PID"
}

exp_teardown() { rb_stop_all; }
