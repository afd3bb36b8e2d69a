// Proof in the lab (Debian 13, nginx 1.26, Puma 8, PostgreSQL 17, Rails 8.1 reference app): the generated
// nginx + Puma + Solid Queue + PostgreSQL bundle applied as its README says, inside `scripts/lab run` (private
// network namespace). Adaptations, all of the harness: certificates come from a CA the test creates (no ACME),
// the services run from their units' ExecStart/ExecReload with the units' environment (systemd is not PID 1),
// the PostgreSQL superuser is the lab's `lab`. Checked: nginx -t with the real 1.26, HTTPS 200 with HTTP/2, the
// redirect, /up, a job enqueued by a request run by the rails-jobs service, an Action Cable WebSocket through
// nginx (101, subscription, a broadcast arrives), and the unit's reload under a bounded wrk load with no errors.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { generate } from '../../guide/engine/index.mjs';

const DOMAIN = 'app.test';

test('lab: the generated bundle serves the Rails 8.1 app over HTTPS/2 with jobs, WebSockets and a graceful reload', { timeout: 1200000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const answers = { rails: '8.1', ruby_version: '3.3', server: 'puma', server_version: '8.0', proxy: 'nginx', proxy_version: '1.26', database: 'postgresql', database_version: '17', tls: 'proxy', domain: DOMAIN, jobs: 'solid_queue', websockets: true, app_root: '/srv/app', ruby_path: '/opt/lab/ruby-3.3/bin', // the lab's Ruby (Debian's ruby3.3 with bundle3.3)
    cores: 2, ram_gb: 8 };
  const bundle = generate(answers, { date: '2026-11-23' });
  const { dir, inLab: B } = writeBundle(bundle, '.wizard-lab-');
  try {
    const script = String.raw`
cd ${B}
lab-app prepare >/dev/null
# The units read the app through the release layout's current link (deploy.sh); here one release, the app root itself.
ln -sfn . /srv/app/current
eval "$(lab-app env)"
unit() { sed -n "s/^$2=//p" "/etc/systemd/system/$1"; }
# README 1-3: directories, secrets (0600), system files
install -d /srv/app/tmp/sockets /srv/app/tmp/pids /srv/app/log /srv/app/storage
install -d -m 0700 /etc/rails-app && install -m 0600 etc/rails-app/secrets.env /etc/rails-app/secrets.env
sed -i "s/^DATABASE_PASSWORD=$/DATABASE_PASSWORD=labpw/" /etc/rails-app/secrets.env
for f in $(find etc -type f ! -path etc/rails-app/secrets.env ! -path 'etc/sysctl.d/*'); do install -D -m 0644 "$f" "/$f"; done
# README 4: app configuration, role and databases (the lab's superuser instead of postgres), schemas
install -m 0640 $(find config -maxdepth 1 -type f) /srv/app/config/
install -D -m 0644 config/initializers/allowed_hosts.rb /srv/app/config/initializers/allowed_hosts.rb
sed "s/change-me/labpw/" setup/postgresql-roles.sql | psql -q -h 127.0.0.1 -U lab -d postgres -v ON_ERROR_STOP=1 -f - >/dev/null
cd /srv/app
set -a; . /etc/rails-app/secrets.env; . config/ruby.env; set +a
bin/rails db:prepare >/srv/app/log/wizard-prepare.log 2>&1 || { tail -20 /srv/app/log/wizard-prepare.log; exit 1; }
# README 5: certificates (a test CA here instead of certbot)
C=/etc/letsencrypt/live/${DOMAIN}; install -d $C; cd $C
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=lab CA" -keyout ca.key -out ca.pem 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=${DOMAIN}" -keyout privkey.pem -out s.csr 2>/dev/null
printf "subjectAltName=DNS:${DOMAIN}\n" > ext.cnf
openssl x509 -req -in s.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile ext.cnf -out fullchain.pem 2>/dev/null
# README 6: start (units' ExecStart with their environment, in their WorkingDirectory)
mkdir -p /var/www/letsencrypt /var/log/nginx && nginx -t -q && nginx
cd "$(unit rails-app.service WorkingDirectory)"
export RAILS_FORCE_SSL=true RAILS_ASSUME_SSL=true LAB_CABLE_ORIGINS=https://${DOMAIN}
(set -a; . config/ruby.env; exec $(unit rails-app.service ExecStart)) >>log/puma.log 2>&1 &
PUMA=$!
(set -a; . config/ruby.env; . config/jobs.env; exec $(unit rails-jobs.service ExecStart)) >>log/jobs.log 2>&1 &
JOBS=$!
H="--cacert $C/ca.pem --resolve ${DOMAIN}:443:127.0.0.1 --resolve ${DOMAIN}:80:127.0.0.1 -sS --max-time 20"
for i in $(seq 1 240); do curl $H -o /dev/null -f https://${DOMAIN}/up 2>/dev/null && break; kill -0 $PUMA 2>/dev/null || break; sleep 0.5; done
curl $H -o /dev/null -f https://${DOMAIN}/up || { echo "--- puma.log"; tail -40 log/puma.log; exit 1; }
echo "up=$(curl $H -o /dev/null -w '%{http_code} http%{http_version}' https://${DOMAIN}/up)"
echo "redirect=$(curl $H -o /dev/null -w '%{http_code} %{redirect_url}' http://${DOMAIN}/regular)"
echo "hsts=$(curl $H -D - -o /dev/null https://${DOMAIN}/api | grep -ci '^strict-transport-security')"
TOKEN=$(curl $H -X POST https://${DOMAIN}/jobs | ruby -rjson -e 'print JSON.parse(STDIN.read)["token"]')
for i in $(seq 1 120); do R=$(curl $H https://${DOMAIN}/jobs/$TOKEN); case "$R" in *executed_by\":\"*) break;; esac; sleep 0.5; done
echo "job=$R"
bundle exec ruby /repo/tests/wizard/lab/ws-client.rb $C/ca.pem ${DOMAIN} hello-lab "curl $H -o /dev/null -X POST 'https://${DOMAIN}/broadcasts?message=hello-lab'"
# README 7: reload under load (ExecReload with $MAINPID), bounded
wrk -t2 -c8 -d6s --timeout 10s -H "Host: ${DOMAIN}" https://127.0.0.1/api > /tmp/wrk.txt 2>&1 &
W=$!; sleep 2
RELOAD=$(unit rails-app.service ExecReload); eval "\${RELOAD//\\\$MAINPID/$PUMA}"
wait $W; cat /tmp/wrk.txt
grep -q "Restarting" /srv/app/log/puma.log && echo "reloaded=yes"
kill -TERM $JOBS $PUMA; wait $PUMA $JOBS 2>/dev/null || true
nginx -s quit
`;
    const r = await labScript(script, { timeout: 900 });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.code, 0, out);
    assert.match(r.stdout, /^up=200 http2$/m, out);
    assert.match(r.stdout, new RegExp(`^redirect=301 https://${DOMAIN}/regular$`, 'm'), out);
    assert.match(r.stdout, /^hsts=1$/m, out);
    assert.match(r.stdout, /^job=.*"executed_by":"[^"]+"/m, out);
    assert.match(r.stdout, /^received=hello-lab$/m, out);
    assert.match(r.stdout, /^reloaded=yes$/m, out);
    assert.match(r.stdout, /\d+ requests in/, out);
    assert.doesNotMatch(r.stdout, /Non-2xx or 3xx responses|Socket errors/, out);
    console.log(r.stdout.split('\n').filter((l) => /^(up|redirect|hsts|job|received|reloaded)=|requests in|Requests\/sec/.test(l)).join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
