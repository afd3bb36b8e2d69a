echo "--- README step 11"
bash -euo pipefail -c 'command -v nginx >/dev/null || apt-get install -y nginx
install -D -m 0644 lb-host/etc/nginx/nginx.conf /etc/nginx/nginx.conf
command -v certbot >/dev/null || apt-get install -y certbot
install -d /var/www/letsencrypt
if [ ! -e /etc/letsencrypt/renewal/app.test.conf ]; then
  install -d -m 0700 /etc/letsencrypt/live/app.test
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=app.test" -keyout /etc/letsencrypt/live/app.test/privkey.pem -out /etc/letsencrypt/live/app.test/fullchain.pem 2>/dev/null
  nginx -t && systemctl reload-or-restart nginx
  mv /etc/letsencrypt/live/app.test /etc/letsencrypt/live/app.test.selfsigned
  certbot certonly --webroot -w /var/www/letsencrypt -d app.test --deploy-hook "systemctl reload nginx" || { rm -rf /etc/letsencrypt/live/app.test; mv /etc/letsencrypt/live/app.test.selfsigned /etc/letsencrypt/live/app.test; echo "certbot failed: nginx keeps the throw-away certificate (2 days); fix DNS or port 80, then run this step again" >&2; false; }
  rm -r /etc/letsencrypt/live/app.test.selfsigned
fi
nginx -t && systemctl reload-or-restart nginx
curl -fsS --max-time 10 --retry 5 --retry-all-errors --retry-delay 1 https://app.test/up'
printf '\nstep11=ok\n'