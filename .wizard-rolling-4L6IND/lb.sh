echo "--- README step 11"
bash -euo pipefail -c 'command -v haproxy >/dev/null || apt-get install -y haproxy
install -D -m 0644 lb-host/etc/haproxy/haproxy.cfg /etc/haproxy/haproxy.cfg
install -d -o haproxy -g haproxy /run/haproxy
install -d -m 0700 /etc/haproxy/certs
[ -s /etc/haproxy/certs/app.test.pem ] || (cd /etc/haproxy/certs && umask 077 && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=app.test" -keyout tmp.key -out tmp.crt 2>/dev/null && cat tmp.crt tmp.key > /etc/haproxy/certs/app.test.pem && rm tmp.key tmp.crt)
haproxy -c -q -f /etc/haproxy/haproxy.cfg && systemctl reload haproxy
command -v certbot >/dev/null || apt-get install -y certbot
certbot certonly --standalone --http-01-address 127.0.0.1 --http-01-port 8402 -d app.test --keep-until-expiring --deploy-hook '\''cat "$RENEWED_LINEAGE/fullchain.pem" "$RENEWED_LINEAGE/privkey.pem" > /etc/haproxy/certs/app.test.pem && chmod 0600 /etc/haproxy/certs/app.test.pem && systemctl reload haproxy'\''
curl -fsS --max-time 10 --retry 5 --retry-all-errors --retry-delay 1 https://app.test/up'
printf '\nstep11=ok\n'