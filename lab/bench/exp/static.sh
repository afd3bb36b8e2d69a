# Experiment 1, static files (thesis Tables 5.4–5.9): nginx, Apache (event MPM) and Caddy serve the same
# directory; ab at the thesis's 10 000 requests / 1 000 concurrent (or RB_AB_* in --quick), wrk with keep-alive.
# Cells: the servers. Measurements: ab, wrk. All three servers run for the whole batch; only one gets load.
DOCROOT=/srv/static
declare -A PORT=([nginx]=8081 [apache]=8082 [caddy]=8083)

exp_setup() {
  mkdir -p "$DOCROOT" /tmp/rb
  if [ -d "$REPO/lab/app/public/static" ]; then cp -r "$REPO/lab/app/public/static/." "$DOCROOT/"; fi
  # The measured file: a fixed 10 KiB HTML page, the size of a small rendered page, written identically each run.
  ruby -e 'print "<!doctype html><title>rebench</title>\n" + ("<p>" + "x" * 60 + "</p>\n") * 150' | head -c 10240 > "$DOCROOT/rebench.html"
  cat > /tmp/rb/nginx.conf <<CONF
worker_processes auto;
pid /tmp/rb/nginx.pid;
error_log /tmp/rb/nginx-error.log;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  keepalive_requests 100000;
  server { listen 127.0.0.1:${PORT[nginx]}; root $DOCROOT; }
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
LoadModule mime_module /usr/lib/apache2/modules/mod_mime.so
User www-data
Group www-data
TypesConfig /etc/mime.types
DocumentRoot $DOCROOT
<Directory $DOCROOT>
  Require all granted
</Directory>
KeepAlive On
MaxKeepAliveRequests 100000
ServerLimit 16
ThreadsPerChild 64
MaxRequestWorkers 1024
EnableSendfile On
CONF
  cat > /tmp/rb/Caddyfile <<CONF
{
  admin off
  auto_https off
}
http://127.0.0.1:${PORT[caddy]} {
  root * $DOCROOT
  file_server
}
CONF
  ulimit -n 65536 2>/dev/null || true
  rb_start nginx /tmp/rb nginx -c /tmp/rb/nginx.conf -g 'daemon off;'
  rb_start apache /tmp/rb apache2 -f /tmp/rb/apache.conf -DFOREGROUND
  HOME=/tmp/rb XDG_DATA_HOME=/tmp/rb XDG_CONFIG_HOME=/tmp/rb rb_start caddy /tmp/rb caddy run --config /tmp/rb/Caddyfile --adapter caddyfile
  local s ok=0
  for s in nginx apache caddy; do rb_wait_http "http://127.0.0.1:${PORT[$s]}/rebench.html" 30 || ok=1; done
  return $ok
}

exp_cell() { # SERVER RUN MEASUREMENTS OUTPREFIX
  local server=$1 m url="http://127.0.0.1:${PORT[$1]}/rebench.html"
  rb_warmup "$url" "$4"
  for m in $3; do
    case $m in
      ab) rb_ab "$4-ab" "$url" "$RB_AB_REQUESTS" "$RB_AB_CONCURRENCY" ;;
      wrk) rb_wrk "$4-wrk" "$url" "$RB_WRK_CONNECTIONS" "$RB_DURATION_S" ;;
    esac
  done
}

exp_teardown() { rb_stop_all; }
