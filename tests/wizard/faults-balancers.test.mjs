// Fault injection through both balancers (issue 23, scenarios 1, 2, 6 and 7), in the lab: the reference Rails 8.1
// app on two app hosts (nginx + Puma, set up by README steps 1–6 of the HAProxy bundle), PostgreSQL + PgBouncer on a
// database host (step 0), HAProxy on one balancer host (step 11 of the HAProxy bundle) and nginx on another (step 11
// of the nginx-balancer bundle, with its own /etc/nginx), each a network namespace on 198.18.0.0/24. Through each
// balancer, with bounded load, clients see:
//  1. a URL that always answers 500, hit 30 times: both app hosts stay in rotation, other pages answer 200;
//  2. 100 open WebSockets on /cable plus a wrk load: HTTP p99 under P99_BOUND_MS, no timeout, every socket open;
//  6. a client's X-Forwarded-Host never appears in a URL Rails builds; an unknown Host is refused (balancer and app host);
//  7. a 10 MB upload is accepted; a 26 MB one gets 413 from the balancer (no app host sees it);
//  5. a migration that runs longer than the app role's 30 s statement_timeout, started on both app hosts at once with
//     README's migrate command (through PgBouncer): it succeeds once; the other run stops with ConcurrentMigrationError.
//  8. PostgreSQL restarts while a client asks for a database-backed page every 0.2 s through HAProxy, then stops for
//     OUTAGE_S seconds and starts while the client asks through the nginx balancer: the app recovers without a
//     restart; failed requests fall within the outage plus RECOVERY_S seconds.
//  The timeout chain: two requests slower than the app host's proxy waits, through each balancer at once (while
//     scenarios 8 and 5 run): each gets that proxy's 504 (not the balancer's), reaches one app host only, and right
//     after them pages through each balancer still reach both hosts (no host was counted failed for a timeout).
//  Forwarded headers: a client's X-Forwarded-Proto/-Port/-Ssl/-Scheme never reach Rails, through a balancer or sent
//     straight to an app host from an address that is not the balancer's.
// Each scenario prints what it measured. Scenario 5 never passes a balancer (migrate runs on the app hosts against
// PgBouncer), so for the nginx-balancer bundle the second test proves it by identity: everything the app and database
// hosts install, and every README step but the balancer's (11), is byte-identical to the HAProxy bundle's run here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { hostsScript, appImageScript } from '../helpers/lab-hosts.mjs';
import { generate } from '../../guide/engine/index.mjs';
import { readmeSteps, stepScript } from '../helpers/readme.mjs';
import { wsLoadScript, parseWsLoad, dbRestartScript, parseDbRestart, migrateScript, slowMigrationScript, parseSlowMigration } from '../helpers/fault-load.mjs';

const DOMAIN = 'app.test';
const NET = '198.18.0';
const HOSTS = { lb: 2, lb2: 3, app1: 11, app2: 12, db: 20 };
const P99_BOUND_MS = 3000; // on the shared 2-core test machine; the output also shows p99 without WebSockets
const RECOVERY_S = 5;
const OUTAGE_S = 8; // PostgreSQL stays stopped this long in the nginx balancer's run of scenario 8
const root = '/var/www/app';
// A number directive of a generated file (the first match): the timeouts the chain scenario expects.
const seconds = (content, re) => Number((re.exec(content) || [null, NaN])[1]);

const answers = (lb, lbOctet) => ({ domain: DOMAIN, app_hosts: 2, lb, db_host: 'separate', pooler: 'pgbouncer', cores: 2, ram_gb: 4, db_cores: 2, db_ram_gb: 2, websockets: true,
  app_addresses: `${NET}.${HOSTS.app1},${NET}.${HOSTS.app2}`, db_address: `${NET}.${HOSTS.db}`, lb_address: `${NET}.${lbOctet}` });

// The scenarios against one balancer (NAME, its address); output lines start with NAME.
const scenarios = String.raw`
scen() {
  local b=$1 addr=$2 R="--resolve ${DOMAIN}:443:$2 --resolve ${DOMAIN}:80:$2" H="-sS --max-time 20"
  # 1. A URL that always fails.
  local st=""; for i in $(seq 1 30); do st="$st $(curl $H $R -o /dev/null -w '%{http_code}' https://${DOMAIN}/faults/fail)"; done
  echo "$b fail-statuses=$(echo $st | tr ' ' '\n' | sort | uniq -c | awk '{printf "%s:%s ", $2, $1}')"
  sleep 3 # past a health-check interval: a host marked down by the failures would be out now
  local ok=0; for i in $(seq 1 40); do [ "$(curl $H $R -o /dev/null -w '%{http_code}' "https://${DOMAIN}/regular?b=$b")" = 200 ] && ok=$((ok+1)); done
  echo "$b regular-after-fails=$ok/40 app1=$(grep -c "GET /regular?b=$b " /hosts/app1/log/nginx/access.log || true) app2=$(grep -c "GET /regular?b=$b " /hosts/app2/log/nginx/access.log || true)"
  # 6. Forged X-Forwarded-Host, unknown Host.
  echo "$b url-with-forged-xfh=$(curl $H $R -H 'X-Forwarded-Host: evil.example' https://${DOMAIN}/faults/url)"
  echo "$b unknown-host-https=$(curl -s --max-time 10 $R -o /dev/null -w '%{http_code}' -H 'Host: evil.example' https://${DOMAIN}/faults/url || true)"
  echo "$b unknown-host-http=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' -H 'Host: evil.example' http://$addr/faults/url || true)"
  # Forged scheme headers: what Rails receives (before AssumeSSL) is the balancer's, and no X-Forwarded-Ssl/-Scheme.
  echo "$b forwarded=$(curl $H $R -H 'X-Forwarded-Proto: http' -H 'X-Forwarded-Port: 8443' -H 'X-Forwarded-Ssl: on' -H 'X-Forwarded-Scheme: https' https://${DOMAIN}/faults/forwarded)"
  # 7. Uploads: 10 MB accepted; 26 MB refused at the first hop.
  echo "$b upload-10m=$(curl $H $R -H 'Content-Type: application/octet-stream' --data-binary @/tmp/10m -w ' %{http_code}' https://${DOMAIN}/faults/upload | tr -d '\n')"
  echo "$b upload-26m=$(curl -s --max-time 20 $R -H 'Content-Type: application/octet-stream' --data-binary @/tmp/26m -o /dev/null -w '%{http_code}' https://${DOMAIN}/faults/upload || true)"
  # 2. 100 open WebSockets while wrk sends plain requests (wrk connects by address and sends the domain as Host).
${wsLoadScript({ tag: '$b', url: 'https://$addr/regular', addr: '$addr', domain: DOMAIN, root })}
}
`;

test('faults through HAProxy and nginx balancers: a failing URL, open WebSockets, forged Host headers, uploads', { timeout: 1500000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const withHaproxy = generate(answers('haproxy', HOSTS.lb), { date: '2026-11-25' });
  const withNginx = generate(answers('nginx', HOSTS.lb2), { date: '2026-11-25' });
  const steps = readmeSteps(withHaproxy.files.find((f) => f.path === 'README.md').content);
  const nginxSteps = readmeSteps(withNginx.files.find((f) => f.path === 'README.md').content);
  const A = writeBundle(withHaproxy, '.wizard-faults-');
  const B = writeBundle(withNginx, '.wizard-faults-nginx-');
  try {
    writeFileSync(join(A.dir, 'db.sh'), stepScript(steps, 0));
    // LAB_FORWARDED_ECHO=1: the lab app answers /faults/forwarded with the forwarded headers it received.
    writeFileSync(join(A.dir, 'app.sh'), ['export README_SECRETS_EXTRA=LAB_FORWARDED_ECHO=1', ...[1, 2, 3, 4, 6].map((n) => stepScript(steps, n))].join('\n'));
    writeFileSync(join(A.dir, 'lb.sh'), stepScript(steps, 11));
    writeFileSync(join(B.dir, 'lb.sh'), stepScript(nginxSteps, 11));
    // The migrate command deploy.sh runs (as the app role, with RAILS_DB_MIGRATE=1), in README step 4's environment: its `cd` line and
    // its db:prepare command with db:migrate (deploy.sh's own needs a new release to build).
    assert.match(withHaproxy.files.find((f) => f.path === 'deploy.sh').content, /RAILS_DB_MIGRATE=1 "\$BUNDLE" exec bin\/rails db:migrate/);
    writeFileSync(join(A.dir, 'migrate.sh'), migrateScript(steps.get(4)));
    // The timeout chain of these bundles: the app host's proxy, then each balancer (the test asserts they grow).
    const site = withHaproxy.files.find((f) => f.path === 'etc/nginx/sites-enabled/rails-app.conf').content;
    const edgeS = seconds(site.slice(site.indexOf('location @rails')), /proxy_read_timeout (\d+)s;/);
    const lbS = {
      haproxy: seconds(withHaproxy.files.find((f) => f.path === 'lb-host/etc/haproxy/haproxy.cfg').content, /^\s*timeout server (\d+)s$/m),
      nginx: seconds(withNginx.files.find((f) => f.path === 'lb-host/etc/nginx/nginx.conf').content, /location \/ \{[^}]*proxy_read_timeout (\d+)s;/),
    };
    assert.ok(edgeS > 0 && lbS.haproxy > edgeS && lbS.nginx > edgeS, `the balancers wait longer than the app host's proxy: ${edgeS} ${JSON.stringify(lbS)}`);
    const slowS = edgeS + 10;
    // Two requests sleeping SLOW_S through balancer B at once; then, at once, 20 pages through it, counted per host.
    const slowScript = String.raw`
slowcheck() {
  local b=$1 R="--resolve ${DOMAIN}:443:$2"
  for i in 1 2; do curl -s --max-time ${Math.max(lbS.haproxy, lbS.nginx) + 30} $R -o /tmp/slow-$b-$i.body -w '%{http_code} %{time_total}\n' "https://${DOMAIN}/faults/slow?s=${slowS}&b=$b&i=$i" > /tmp/slow-$b-$i.txt & done
  wait
  echo "$b slow=$(cat /tmp/slow-$b-1.txt /tmp/slow-$b-2.txt | awk '{printf "%s:%d ", $1, $2}')apphost-page=$(cat /tmp/slow-$b-1.body /tmp/slow-$b-2.body | grep -c '<center>nginx</center>' || true)"
  local ok=0; for i in $(seq 1 20); do [ "$(curl -sS --max-time 20 $R -o /dev/null -w '%{http_code}' "https://${DOMAIN}/faults/release?after-slow=$b")" = 200 ] && ok=$((ok+1)); done
  echo "$b after-slow=$ok/20 app1=$(grep -c "after-slow=$b " /hosts/app1/log/nginx/access.log || true) app2=$(grep -c "after-slow=$b " /hosts/app2/log/nginx/access.log || true)"
}`;
    const script = `${appImageScript({ root, domain: DOMAIN, lbAddress: `${NET}.${HOSTS.lb}` })}
${hostsScript({ net: NET, hosts: HOSTS, root, privateEtc: { lb2: ['/etc/nginx'] } })}
cd ${A.inLab}
echo "=== db"; on db bash -euo pipefail db.sh
echo "=== app1"; on app1 nginx; on app1 bash -euo pipefail app.sh
echo "=== app2"; on app2 nginx; on app2 bash -euo pipefail app.sh
echo "=== lb (HAProxy)"; on lb bash -euo pipefail lb.sh
echo "=== lb2 (nginx)"; (cd ${B.inLab} && on lb2 bash -euo pipefail lb.sh)
head -c 10485760 /dev/zero > /tmp/10m; head -c 27262976 /dev/zero > /tmp/26m
${scenarios}
scen haproxy ${NET}.${HOSTS.lb}
scen nginx ${NET}.${HOSTS.lb2}
# The app server on app1 stops: its nginx closes the connection instead of answering 502 (nginx.app-down), so each
# balancer retries every GET on app2 and no client sees the outage; then it starts again and app1 answers /up.
on app1 systemctl stop rails-app
for b in haproxy:${NET}.${HOSTS.lb} nginx:${NET}.${HOSTS.lb2}; do
  n=\${b%%:*}; a=\${b#*:}; ok=0
  for i in $(seq 1 30); do [ "$(curl -sS --max-time 20 --resolve ${DOMAIN}:443:$a -o /dev/null -w '%{http_code}' "https://${DOMAIN}/regular?down=$n")" = 200 ] && ok=$((ok+1)); done
  echo "appdown $n=$ok/30 app2=$(grep -c "down=$n " /hosts/app2/log/nginx/access.log || true) closed-at-app1=$(grep "down=$n " /hosts/app1/log/nginx/access.log | grep -c '" 444 ' || true)"
done
on app1 systemctl start rails-app
t0=$(date +%s); back=no
while [ $(( $(date +%s) - t0 )) -lt 180 ]; do [ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' -H 'Host: ${DOMAIN}' http://${NET}.${HOSTS.app1}/up)" = 200 ] && { back=yes; break; }; sleep 1; done
echo "appdown app1-back=$back after=$(( $(date +%s) - t0 ))s"
# The app hosts themselves: an unknown Host is closed (444), a forged X-Forwarded-Host is replaced.
echo "apphost unknown-host=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' -H 'Host: evil.example' http://${NET}.${HOSTS.app1}/faults/url || true)"
echo "apphost url-with-forged-xfh=$(curl -sS --max-time 10 -H 'Host: ${DOMAIN}' -H 'X-Forwarded-Host: evil.example' -H 'X-Forwarded-Proto: https' http://${NET}.${HOSTS.app1}/faults/url)"
echo "apphost upload-413s=$(cat /hosts/app1/log/nginx/access.log /hosts/app2/log/nginx/access.log | grep -c 'POST /faults/upload HTTP/1.1\\" 413' || true)"
echo "apphost forwarded-from-client=$(curl -sS --max-time 10 -H 'Host: ${DOMAIN}' -H 'X-Forwarded-Proto: https' -H 'X-Forwarded-Port: 8443' -H 'X-Forwarded-Ssl: on' -H 'X-Forwarded-Scheme: https' http://${NET}.${HOSTS.app1}/faults/forwarded)"
# The timeout chain, in the background while scenarios 8 and 5 run (it lasts SLOW_S seconds): see slowScript.
${slowScript}
( slowcheck haproxy ${NET}.${HOSTS.lb} > /tmp/slow-haproxy.out 2>&1 ) & SLOWH=$!
( slowcheck nginx ${NET}.${HOSTS.lb2} > /tmp/slow-nginx.out 2>&1 ) & SLOWN=$!
# 8. The database restarts under load (through HAProxy and PgBouncer).
${dbRestartScript({ tag: 'dbrestart', url: `https://${DOMAIN}/api`, restart: 'on db systemctl restart postgresql', graceS: RECOVERY_S })}
# ... and through the nginx balancer, with PostgreSQL down for OUTAGE_S more (a restart alone was too short for any
# client to see an error in two runs): the app answers errors through the balancer, whose passive checks must not
# take the app hosts out beyond the outage (they count only failed connections, and timeouts, which the chain keeps away).
${dbRestartScript({ tag: 'dbrestart-nginx', url: `https://${DOMAIN}/api`, curlOpts: `--resolve ${DOMAIN}:443:${NET}.${HOSTS.lb2}`, restart: `on db systemctl stop postgresql && sleep ${OUTAGE_S} && on db systemctl start postgresql`, graceS: RECOVERY_S })}
echo "dbrestart-nginx balancer-log-502s=$(grep -c '" 502 ' /hosts/lb2/log/nginx/access.log || true) no-live-upstreams=$(grep -c 'no live upstreams' /hosts/lb2/log/nginx/error.log || true)"

# 5. A slow migration on both app hosts at once.
${slowMigrationScript({ tag: 'migrate', migrateDir: `${root}/current/db/migrate`, runs: { app1: 'on app1 bash -euo pipefail migrate.sh app1', app2: 'on app2 bash -euo pipefail migrate.sh app2' }, psql: 'on db runuser -u postgres -- psql' })}
echo "apphost uploads-seen=$(cat /hosts/app1/log/nginx/access.log /hosts/app2/log/nginx/access.log | grep -c 'POST /faults/upload' || true)"
wait $SLOWH $SLOWN || true
cat /tmp/slow-haproxy.out /tmp/slow-nginx.out
echo "chain slow-at-apphosts=$(cat /hosts/app1/log/nginx/access.log /hosts/app2/log/nginx/access.log | grep -c 'GET /faults/slow' || true) slow-504-at-apphosts=$(cat /hosts/app1/log/nginx/access.log /hosts/app2/log/nginx/access.log | grep 'GET /faults/slow' | grep -c '" 504 ' || true) nginx-balancer-timeouts=$(grep -c 'upstream timed out' /hosts/lb2/log/nginx/error.log || true)"
`;
    const r = await labScript(script, { timeout: 1200 });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.code, 0, out);
    console.log(r.stdout.split('\n').filter((l) => /^(haproxy|nginx|apphost|appdown|migrate|dbrestart(-nginx)?|chain) /.test(l)).join('\n'));
    for (const b of ['haproxy', 'nginx']) {
      const line = (k) => (new RegExp(`^${b} ${k}=(.*)$`, 'm').exec(r.stdout) || [null, ''])[1];
      // 1: the failing URL's 500s reach the client as 500s; no host is taken out: 40 of 40 pages, both hosts serving.
      assert.equal(line('fail-statuses').trim(), '500:30', `${b}: the failing URL answers 500 every time (no 503: no host was taken out)\n${out}`);
      const after = new RegExp(`^${b} regular-after-fails=(\\d+)/40 app1=(\\d+) app2=(\\d+)$`, 'm').exec(r.stdout);
      assert.ok(after && after[1] === '40' && Number(after[2]) > 0 && Number(after[3]) > 0, `${b}: every app host stays in rotation\n${out}`);
      // 6
      assert.equal(line('url-with-forged-xfh'), `https://${DOMAIN}/`, `${b}\n${out}`);
      // HAProxy answers 421; nginx answers 421 itself when the TLS name (SNI) and Host differ, and closes (444) over HTTP.
      assert.equal(line('unknown-host-https'), '421', `${b}: unknown Host refused\n${out}`);
      assert.equal(line('unknown-host-http'), b === 'haproxy' ? '421' : '000', `${b}\n${out}`);
      // 7
      assert.equal(line('upload-10m'), '10485760 200', `${b}\n${out}`);
      assert.equal(line('upload-26m'), '413', `${b}\n${out}`);
      // Forwarded headers: a client's X-Forwarded-Ssl/-Scheme never reach Rails. Through HAProxy, the app hosts' own
      // balancer, Rails gets its scheme and port (not the client's http and 8443). The nginx balancer sits on another
      // address (198.18.0.3) than the one the app hosts' bundle names, so it is a proxy elsewhere on the private
      // network to them: they take neither its X-Forwarded-Proto nor its -Port, and Rails gets their own http and 80.
      const [proto, port] = b === 'haproxy' ? ['https', '443'] : ['http', '80'];
      assert.equal(line('forwarded'), `x_forwarded_proto=${proto} x_forwarded_port=${port} x_forwarded_ssl= x_forwarded_scheme= x_forwarded_host=${DOMAIN}`, `${b}\n${out}`);
      // The timeout chain: both slow requests got the app host's 504 after its wait (the app host's nginx error page,
      // before the balancer's own wait), and right after them every page answered, from both hosts.
      const slow = new RegExp(`^${b} slow=504:(\\d+) 504:(\\d+) apphost-page=(\\d+)$`, 'm').exec(r.stdout);
      assert.ok(slow, `${b}: both slow requests answered 504\n${out}`);
      for (const s of [slow[1], slow[2]]) assert.ok(Number(s) >= edgeS - 2 && Number(s) < lbS[b], `${b}: 504 after ${s} s: the app host's ${edgeS} s, not the balancer's ${lbS[b]} s`);
      if (b === 'haproxy') assert.equal(slow[3], '2', 'the 504 pages are the app host nginx\'s, passed on by HAProxy');
      const afterSlow = new RegExp(`^${b} after-slow=(\\d+)/20 app1=(\\d+) app2=(\\d+)$`, 'm').exec(r.stdout);
      assert.ok(afterSlow && afterSlow[1] === '20' && Number(afterSlow[2]) > 0 && Number(afterSlow[3]) > 0, `${b}: both app hosts in rotation right after the slow requests\n${out}`);
      // 2
      const ws = parseWsLoad(r.stdout, b);
      assert.equal(ws.upgraded, 100, `${b}: 100 WebSockets upgraded\n${out}`);
      assert.equal(ws.openAtEnd, 100, `${b}: 100 WebSockets open throughout\n${out}`);
      assert.ok(ws.requests > 50, `${b}: wrk ran\n${out}`);
      assert.ok(ws.p99Ms < P99_BOUND_MS, `${b}: HTTP p99 ${ws.p99Ms} ms with 100 open WebSockets (bound ${P99_BOUND_MS} ms)`);
      assert.equal(ws.errors, '', `${b}: no socket error, timeout or non-2xx under wrk\n${out}`);
    }
    // The app server down on one host: every GET through either balancer answered, and the host came back.
    // app2 served all 30; app1's nginx closed (444) at least one attempt, so the outage was real and the close did it.
    for (const b of ['haproxy', 'nginx']) {
      const down = new RegExp(`^appdown ${b}=(\\d+)/30 app2=(\\d+) closed-at-app1=(\\d+)$`, 'm').exec(r.stdout);
      assert.ok(down && down[1] === '30' && down[2] === '30', `${b}: every GET answered, by app2\n${out}`);
      if (b === 'nginx') assert.ok(Number(down[3]) >= 1, `the nginx balancer met app1's closed connection first\n${out}`);
    }
    assert.match(r.stdout, /^appdown app1-back=yes /m, out);
    assert.match(r.stdout, /^apphost unknown-host=000$/m, out);
    assert.match(r.stdout, new RegExp(`^apphost url-with-forged-xfh=https://${DOMAIN}/$`, 'm'), out);
    assert.match(r.stdout, /^apphost upload-413s=0$/m, 'the over-limit uploads never reached an app host');
    // Sent straight to an app host from an address that is not the balancer's: no scheme or port header passes.
    assert.match(r.stdout, new RegExp(`^apphost forwarded-from-client=x_forwarded_proto=http x_forwarded_port=80 x_forwarded_ssl= x_forwarded_scheme= x_forwarded_host=${DOMAIN}$`, 'm'), out);
    // Each slow request reached one app host once (no retry elsewhere) and got its 504 there; nginx never timed out.
    assert.match(r.stdout, /^chain slow-at-apphosts=4 slow-504-at-apphosts=4 nginx-balancer-timeouts=0$/m, out);
    assert.match(r.stdout, /^apphost uploads-seen=2$/m, 'only the two accepted uploads reached the app hosts');
    // 8, through each balancer: the app hosts were never restarted between the two.
    for (const tag of ['dbrestart', 'dbrestart-nginx']) {
      const dbr = parseDbRestart(r.stdout, tag);
      assert.ok(dbr && dbr.requests >= 50, `${tag}: the client ran\n${out}`);
      assert.ok(dbr.startedBefore > 0 && dbr.startedAfter > 0, `${tag}: the client asked before and after the restart\n${out}`);
      assert.equal(dbr.outsideWindow, 0, `${tag}: failures only during the restart and ${RECOVERY_S} s after it: ${(r.stdout.match(new RegExp(`^${tag} failures.*$`, 'm')) || [''])[0]}\n${out}`);
      assert.equal(dbr.after, '200', `${tag}: the app recovered without a restart`);
    }
    assert.ok(parseDbRestart(r.stdout, 'dbrestart-nginx').failed > 0, `the ${OUTAGE_S} s outage reached clients through the nginx balancer\n${out}`);
    // 5: one run succeeded after the sleep (no statement timeout), the other was stopped by the lock; it ran once.
    const mig = parseSlowMigration(r.stdout, 'migrate');
    assert.ok(mig, out);
    assert.equal(mig.rcs, '0,1,', `one migrate run succeeds, the other stops\n${out}`);
    assert.ok(mig.seconds >= 32, `the migration ran past the 30 s statement timeout (${mig.seconds} s)`);
    assert.equal(mig.lockErrors, 1, `the second run stopped on the migration lock\n${out}`);
    assert.deepEqual([mig.runs, mig.versionRows, mig.appRole], ['1', '1', 'statement_timeout=30s'], out);
  } finally {
    rmSync(A.dir, { recursive: true, force: true });
    rmSync(B.dir, { recursive: true, force: true });
  }
});

// Scenario 5 for the nginx-balancer bundle. A migration runs on the app hosts (README step 4's command, deploy.sh's
// db:migrate) against the database host: the balancer is not on its path. So the lab run above proves it for the
// nginx-balancer bundle too when every file the app and database hosts install, and every README step but 11 (the
// balancer's), is byte-identical between the two bundles; the only other difference allowed is the header line that
// records the answers (lb=haproxy / lb=nginx). Checked for the lab's answers and three variants.
test('scenario 5 for the nginx-balancer bundle: app- and database-host files and README steps equal the HAProxy bundle\'s', () => {
  const variants = [{}, { pooler: 'none' }, { app_hosts: 3, app_addresses: `${NET}.11,${NET}.12,${NET}.13` }, { websockets: false }];
  for (const v of variants) {
    const [h, n] = ['haproxy', 'nginx'].map((lb) => generate({ ...answers(lb, HOSTS.lb), ...v }, { date: '2026-11-25' }));
    const label = JSON.stringify(v);
    const hostFiles = (b) => b.files.filter((f) => !f.path.startsWith('lb-host/') && !['README.md', 'CHECKLIST.md'].includes(f.path));
    const nFiles = new Map(hostFiles(n).map((f) => [f.path, f.content]));
    assert.deepEqual(hostFiles(h).map((f) => f.path), [...nFiles.keys()], `${label}: the same app- and database-host files`);
    assert.ok(nFiles.has('deploy.sh') && [...nFiles.keys()].some((p) => p.endsWith('postgresql-roles.sql')), label);
    for (const f of hostFiles(h)) {
      const recorded = f.content.replace(/([?&])lb=haproxy(?=[&\s]|$)/g, '$1lb=nginx');
      assert.equal(recorded, nFiles.get(f.path), `${label}: ${f.path} is identical apart from the recorded answer`);
    }
    const [hs, ns] = [h, n].map((b) => readmeSteps(b.files.find((f) => f.path === 'README.md').content));
    assert.deepEqual([...hs.keys()], [...ns.keys()], label);
    for (const step of hs.keys()) {
      if (step === 11) assert.notDeepEqual(hs.get(step), ns.get(step), `${label}: step 11 sets up each balancer`);
      else assert.deepEqual(hs.get(step), ns.get(step), `${label}: README step ${step} is the same`);
    }
    // The command the lab runs on both app hosts at once is in both READMEs' step 4.
    assert.ok(ns.get(4).join('\n').split('\n').some((l) => /RAILS_DB_MIGRATE=1 .*db:prepare\)$/.test(l)), label);
  }
});
