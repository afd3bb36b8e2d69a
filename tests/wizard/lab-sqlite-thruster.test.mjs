// Proof in the lab, single host: the generated SQLite + Thruster + Puma 8 + Solid Queue bundle (TLS ended by a
// load balancer in front: tls=upstream) applied as its README says to the lab's Rails 8.1 app, inside
// `scripts/lab run`. Harness adaptations: the services run from their units' ExecStart/ExecReload with the units'
// Environment= lines (systemd is not PID 1 in the lab), and the "load balancer" is curl/wrk sending
// X-Forwarded-Proto: https. Checked: the SQLite files under storage/, /up and pages through Thruster, a job
// enqueued by a request run by the rails-jobs service on SQLite, an Action Cable WebSocket through Thruster with
// a broadcast arriving, a send_file download handed to Thruster (X-Sendfile), and the unit's reload under a
// bounded wrk load with no failed or non-2xx request.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { generate } from '../../guide/engine/index.mjs';

const DOMAIN = 'app.test';

test('lab: the SQLite + Thruster bundle serves the Rails 8.1 app with jobs, WebSockets, X-Sendfile and a graceful reload', { timeout: 1200000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const answers = { rails: '8.1', ruby_version: '3.3', server: 'puma', server_version: '8.0', proxy: 'thruster',
    database: 'sqlite', adapter: 'sqlite3', tls: 'upstream', domain: DOMAIN, jobs: 'solid_queue', websockets: true,
    app_root: '/srv/app', ruby_path: '/opt/lab/ruby-3.3/bin', cores: 2, ram_gb: 8 };
  const bundle = generate(answers, { date: '2026-11-23' });
  assert.ok(!bundle.warnings.some((w) => w.severity === 'error'), `no error-level warning: ${JSON.stringify(bundle.warnings)}`);
  const paths = bundle.files.map((f) => f.path);
  for (const p of ['config/database.yml', 'config/puma.rb', 'etc/systemd/system/rails-app.service', 'etc/systemd/system/rails-jobs.service']) {
    assert.ok(paths.includes(p), `${p} in the bundle`);
  }
  const { dir, inLab: B } = writeBundle(bundle, '.wizard-lab-');
  try {
    const script = String.raw`
cd ${B}
lab-app prepare --db sqlite >/dev/null
# The units read the app through the release layout's current link (deploy.sh); here one release, the app root itself.
ln -sfn . /srv/app/current
eval "$(lab-app env)"
unit() { sed -n "s/^$2=//p" "/etc/systemd/system/$1"; }
# README 1-3: directories, secrets (0600), system files
install -d /srv/app/tmp/sockets /srv/app/tmp/pids /srv/app/log /srv/app/storage
install -d -m 0700 /etc/rails-app && install -m 0600 etc/rails-app/secrets.env /etc/rails-app/secrets.env
for f in $(find etc -type f ! -path etc/rails-app/secrets.env ! -path 'etc/sysctl.d/*'); do install -D -m 0644 "$f" "/$f"; done
# README 4: app configuration and databases (SQLite files under storage/, which survives a redeploy)
install -m 0640 $(find config -maxdepth 1 -type f) /srv/app/config/
install -D -m 0644 config/initializers/allowed_hosts.rb /srv/app/config/initializers/allowed_hosts.rb
cd /srv/app
set -a; . /etc/rails-app/secrets.env; . config/ruby.env; set +a
bin/rails db:prepare >/srv/app/log/wizard-prepare.log 2>&1 || { tail -20 /srv/app/log/wizard-prepare.log; exit 1; }
echo "sqlite=$(ls storage/*.sqlite3 | sort | tr '\n' ' ')"
# README 6: start both units (ExecStart with their Environment= lines, in their WorkingDirectory)
cd "$(unit rails-app.service WorkingDirectory)"
export RAILS_FORCE_SSL=true RAILS_ASSUME_SSL=true RAILS_X_SENDFILE_HEADER=X-Sendfile LAB_CABLE_ORIGINS=https://${DOMAIN}
(set -a; . config/ruby.env; eval "export $(unit rails-app.service Environment | grep -v '^PATH=' | tr '\n' ' ')"; exec $(unit rails-app.service ExecStart)) >>log/thruster.log 2>&1 &
APP=$!
(set -a; . config/ruby.env; . config/jobs.env; exec $(unit rails-jobs.service ExecStart)) >>log/jobs.log 2>&1 &
JOBS=$!
H="-sS --max-time 20 -H Host:${DOMAIN} -H X-Forwarded-Proto:https"
for i in $(seq 1 240); do curl $H -o /dev/null -f http://127.0.0.1/up 2>/dev/null && break; kill -0 $APP 2>/dev/null || break; sleep 0.5; done
curl $H -o /dev/null -f http://127.0.0.1/up || { echo "--- thruster.log"; tail -40 log/thruster.log; exit 1; }
echo "up=$(curl $H -o /dev/null -w '%{http_code}' http://127.0.0.1/up)"
echo "api=$(curl $H -o /dev/null -w '%{http_code}' http://127.0.0.1/api)"
echo "heavy=$(curl $H -o /dev/null -w '%{http_code}' http://127.0.0.1/heavy)"
echo "thruster=$(grep -c -i 'thruster\|"msg":' log/thruster.log)"
echo "download=$(curl $H -o /tmp/d.bin -w '%{http_code} %{size_download}' http://127.0.0.1/download)"
echo "sendfile=$(grep -c 'X-Sendfile\|x-sendfile' log/thruster.log || true)"
TOKEN=$(curl $H -X POST http://127.0.0.1/jobs | ruby -rjson -e 'print JSON.parse(STDIN.read)["token"]')
for i in $(seq 1 120); do R=$(curl $H http://127.0.0.1/jobs/$TOKEN); case "$R" in *executed_by\":\"*) break;; esac; sleep 0.5; done
echo "job=$R"
bundle exec ruby /repo/tests/wizard/lab/ws-client.rb - ${DOMAIN} hello-thruster "curl $H -o /dev/null -X POST 'http://127.0.0.1/broadcasts?message=hello-thruster'"
# README 7: reload under load (the unit's ExecReload), bounded
wrk -t2 -c8 -d6s --timeout 10s -H "Host: ${DOMAIN}" -H "X-Forwarded-Proto: https" http://127.0.0.1/api > /tmp/wrk.txt 2>&1 &
W=$!; sleep 2
RELOAD=$(unit rails-app.service ExecReload); eval "$RELOAD"
wait $W; cat /tmp/wrk.txt
sleep 1; grep -q "Restarting" log/thruster.log && echo "reloaded=yes"
kill -TERM $JOBS $APP; wait $APP $JOBS 2>/dev/null || true
`;
    const r = await labScript(script, { timeout: 900 });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.code, 0, out);
    assert.match(r.stdout, /^sqlite=storage\/production\.sqlite3 storage\/production_cable\.sqlite3 storage\/production_cache\.sqlite3 storage\/production_queue\.sqlite3 $/m, out);
    for (const page of ['up', 'api', 'heavy']) assert.match(r.stdout, new RegExp(`^${page}=200$`, 'm'), out);
    assert.match(r.stdout, /^download=200 1048576$/m, out);
    assert.match(r.stdout, /^job=.*"executed_by":"[^"]+"/m, out);
    assert.match(r.stdout, /^received=hello-thruster$/m, out);
    assert.match(r.stdout, /^reloaded=yes$/m, out);
    assert.match(r.stdout, /\d+ requests in/, out);
    assert.doesNotMatch(r.stdout, /Non-2xx or 3xx responses|Socket errors/, out);
    console.log(r.stdout.split('\n').filter((l) => /^(sqlite|up|api|heavy|download|sendfile|job|received|reloaded)=|requests in|Requests\/sec/.test(l)).join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
