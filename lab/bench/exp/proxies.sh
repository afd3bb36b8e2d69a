# Experiment 3, a proxy in front (thesis Tables 5.15, 5.16, 5.19): one clustered Puma serves the reference app;
# the same three pages are requested directly, through nginx, Apache (event MPM + mod_proxy_http), Caddy, and
# Thruster (which runs its own Puma with the same settings as a child process).
source "$BENCH/app.sh"
declare -A PAGES=([api]=/api [regular]=/regular [heavy]=/heavy)
declare -A PORT=([none]=3000 [nginx]=8081 [apache]=8082 [caddy]=8083 [thruster]=8084)
APP=/srv/app
W=${RB_WORKERS:-2} T=${RB_THREADS:-3}

exp_setup() {
  rb_app_prepare "${RB_DB:-postgresql}" "$APP" || return 1
  rb_app_env "$APP"
  THRUSTER=0
  if [ "${RB_THRUSTER:-0}" = 1 ] && rb_has_gem thruster; then THRUSTER=1; fi
  mkdir -p /tmp/rb
  cat > /tmp/rb/nginx.conf <<CONF
worker_processes auto;
pid /tmp/rb/nginx.pid;
error_log /tmp/rb/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  upstream app { server 127.0.0.1:3000; keepalive 32; }
  server {
    listen 127.0.0.1:${PORT[nginx]};
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
    }
  }
}
CONF
  cat > /tmp/rb/apache.conf <<CONF
ServerRoot /etc/apache2
ServerName 127.0.0.1
Listen 127.0.0.1:${PORT[apache]}
PidFile /tmp/rb/apache.pid
ErrorLog /tmp/rb/apache-error.log
Mutex file:/tmp/rb default
LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so
LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
LoadModule proxy_module /usr/lib/apache2/modules/mod_proxy.so
LoadModule proxy_http_module /usr/lib/apache2/modules/mod_proxy_http.so
User www-data
Group www-data
KeepAlive On
ProxyPreserveHost On
ProxyPass / http://127.0.0.1:3000/
ProxyPassReverse / http://127.0.0.1:3000/
CONF
  cat > /tmp/rb/Caddyfile <<CONF
{
  admin off
  auto_https off
}
http://127.0.0.1:${PORT[caddy]} {
  reverse_proxy 127.0.0.1:3000
}
CONF
  rb_boot puma "$APP" "http://127.0.0.1:3000/up" bundle exec puma -C - -e production -b tcp://127.0.0.1:3000 -w "$W" -t "$T:$T" --preload || return 1
  rb_start nginx /tmp/rb nginx -c /tmp/rb/nginx.conf -g 'daemon off;'
  rb_start apache /tmp/rb apache2 -f /tmp/rb/apache.conf -DFOREGROUND
  HOME=/tmp/rb XDG_DATA_HOME=/tmp/rb XDG_CONFIG_HOME=/tmp/rb rb_start caddy /tmp/rb caddy run --config /tmp/rb/Caddyfile --adapter caddyfile
  if [ "$THRUSTER" = 1 ]; then
    HTTP_PORT=${PORT[thruster]} TARGET_PORT=3001 rb_start thruster "$APP" bundle exec thrust bundle exec puma -C - -e production -b tcp://127.0.0.1:3001 -w "$W" -t "$T:$T" --preload
  fi
  local s
  for s in nginx apache caddy; do rb_wait_http "http://127.0.0.1:${PORT[$s]}/up" 30 || return 1; done
  [ "$THRUSTER" = 1 ] && { rb_wait_http "http://127.0.0.1:${PORT[thruster]}/up" 90 || THRUSTER=0; }
  return 0
}

exp_cell() { # PROXY RUN MEASUREMENTS OUTPREFIX
  if [ "$1" = thruster ] && [ "$THRUSTER" != 1 ]; then rb_skip "$4" "Thruster is not in the reference app's bundle"; return 0; fi
  rb_measure_pages "http://127.0.0.1:${PORT[$1]}" "$3" "$4" "$RB_CONNECTIONS"
}

exp_teardown() { rb_stop_all; }
