// Proof in the lab (issue 11) that a multi-host bundle works across machines: a load balancer (HAProxy), two app
// hosts running the reference Rails 8.1 app behind nginx and Puma, and a database host with PostgreSQL 17 and
// PgBouncer, each in its own network namespace on 198.18.0.0/24 (created here, inside the lab's own namespace),
// with an outsider address that the generated pg_hba.conf does not list. Every host is set up by the bundle
// README's own shell blocks (step 0 on the database host, 1–6 on each app host, 11 on the balancer), with the
// stand-ins of tests/wizard/lab/readme-shims (systemctl, certbot, editor, sysctl), as in lab-default-bundle.
// A host here is a network namespace plus a mount namespace with its own /run, /tmp, /var/log and app tmp/log over
// the shared image, so two app hosts can run the same paths side by side.
// Checked: the balancer answers over HTTPS/2 and both app hosts served requests; a job runs; the database refuses
// the outsider (PgBouncer by its HBA file, PostgreSQL by listening on loopback only); and an app host drained on the
// balancer (README step 11) and stopped in the middle of a bounded wrk load costs no request.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { generate } from '../../guide/engine/index.mjs';
import { readmeSteps, stepScript } from '../helpers/readme.mjs';

const DOMAIN = 'app.test';
const NET = '198.18.0';
const HOSTS = { lb: 2, app1: 11, app2: 12, db: 20, outsider: 99 };

test('lab: a two-app-host bundle behind HAProxy with PgBouncer on a database host, across network namespaces', { timeout: 1500000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const answers = { domain: DOMAIN, app_hosts: 2, lb: 'haproxy', db_host: 'separate', pooler: 'pgbouncer', cores: 2, ram_gb: 4, db_cores: 2, db_ram_gb: 2,
    app_addresses: `${NET}.${HOSTS.app1},${NET}.${HOSTS.app2}`, db_address: `${NET}.${HOSTS.db}`, lb_address: `${NET}.${HOSTS.lb}` };
  const bundle = generate(answers, { date: '2026-11-25' });
  const readme = bundle.files.find((f) => f.path === 'README.md').content;
  const steps = readmeSteps(readme);
  for (const n of [0, 1, 2, 3, 4, 6, 11]) assert.ok(steps.has(n), `README has a shell block for step ${n}`);
  const block = (ns) => ns.map((n) => stepScript(steps, n)).join('\n');
  const root = '/var/www/app';

  const { dir, inLab: B } = writeBundle(bundle, '.wizard-multi-');
  try {
    writeFileSync(join(dir, 'db.sh'), block([0]));
    writeFileSync(join(dir, 'app.sh'), block([1, 2, 3, 4, 6]));
    writeFileSync(join(dir, 'lb.sh'), block([11]));
    const script = String.raw`
# The README's precondition on the app hosts (one image, shared): the app with its gems and assets, Bundler at
# /usr/bin/bundle; DNS pointing the domain at the balancer; a CA every host trusts.
mkdir -p ${root} && cp -a /repo/lab/app/. ${root}/ && rm -rf ${root}/log/* ${root}/tmp/*
mkdir -p ${root}/.bundle && printf -- '---\nBUNDLE_PATH: "%s"\nBUNDLE_FROZEN: "true"\n' "$BUNDLE_PATH" > ${root}/.bundle/config
(cd ${root} && env -u BUNDLE_GEMFILE RAILS_ENV=production SECRET_KEY_BASE_DUMMY=1 bundle exec rails assets:precompile >/tmp/assets.log 2>&1) || { tail -20 /tmp/assets.log; exit 1; }
unset BUNDLE_GEMFILE
[ -x /usr/bin/bundle ] || ln -s bundle3.3 /usr/bin/bundle
echo "${NET}.${HOSTS.lb} ${DOMAIN}" >> /etc/hosts
install -d /etc/readme-ca && (cd /etc/readme-ca && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=readme test CA" -keyout ca.key -out ca.pem 2>/dev/null)
cp /etc/readme-ca/ca.pem /usr/local/share/ca-certificates/readme-test-ca.crt && update-ca-certificates >/dev/null 2>&1
export PATH=/repo/tests/wizard/lab/readme-shims:$PATH README_DOMAIN=${DOMAIN} README_SECRET_KEY_BASE=$(openssl rand -hex 64)

# The network: a bridge in the lab's namespace (the client side, ${NET}.1) and one namespace per host.
ip link set lo up
ip link add br0 type bridge && ip addr add ${NET}.1/24 dev br0 && ip link set br0 up
${Object.entries(HOSTS).map(([n, a]) => `ip netns add ${n} && ip link add v-${n} type veth peer name eth0 netns ${n} && ip link set v-${n} master br0 up
ip -n ${n} link set lo up && ip -n ${n} addr add ${NET}.${a}/24 dev eth0 && ip -n ${n} link set eth0 up`).join('\n')}

# A host: its network namespace, and a mount namespace with private /run, /tmp, /var/log and app tmp/log. A
# keeper process holds the namespaces; "on HOST CMD" runs a command inside them (with the keeper's root: the lab is
# a chroot, and entering a mount namespace alone would land in the machine's own root).
mkdir -p /hosts
for n in ${Object.keys(HOSTS).join(' ')}; do
  mkdir -p /hosts/$n/log /hosts/$n/apptmp /hosts/$n/applog && cp -a /var/log/. /hosts/$n/log/
  mkdir -p ${root}/tmp ${root}/log
  ip netns exec $n unshare --mount --propagation private bash -c "mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /tmp && chmod 1777 /tmp \
    && mount --bind /hosts/$n/log /var/log && mount --bind /hosts/$n/apptmp ${root}/tmp && mount --bind /hosts/$n/applog ${root}/log \
    && install -d -o postgres -g postgres -m 2775 /run/postgresql && touch /hosts/$n/ready && exec sleep 3600" &
  echo $! > /hosts/$n/keeper.pid
done
for n in ${Object.keys(HOSTS).join(' ')}; do for i in $(seq 1 50); do [ -f /hosts/$n/ready ] && break; sleep 0.1; done; [ -f /hosts/$n/ready ] || { echo "host $n did not come up"; exit 1; }; done
on() { local n=$1; shift; nsenter -t "$(cat /hosts/$n/keeper.pid)" -m -n -r --wd="$PWD" -- "$@"; }
stop_all() {
  for n in lb app1 app2 db; do on $n bash -c 'for p in /run/readme-shims/*.pid; do [ -f "$p" ] && kill -TERM -- "-$(cat "$p")" 2>/dev/null; done
    [ -f /run/haproxy.pid ] && kill $(cat /run/haproxy.pid); nginx -s quit; pg_ctlcluster 17 main stop' >/dev/null 2>&1 || true; done
  for n in ${Object.keys(HOSTS).join(' ')}; do kill "$(cat /hosts/$n/keeper.pid)" 2>/dev/null || true; ip netns del $n 2>/dev/null || true; done
}
trap stop_all EXIT

cd ${B}
echo "=== db"; on db bash -euo pipefail db.sh
# Each app host as after apt-get install nginx: nginx running (the README reloads it once its files are in).
echo "=== app1"; on app1 nginx; on app1 bash -euo pipefail app.sh
echo "=== app2"; on app2 nginx; on app2 bash -euo pipefail app.sh
echo "=== lb"; on lb bash -euo pipefail lb.sh

H="-sS --max-time 20"
echo "up=$(curl $H -o /dev/null -w '%{http_code} http%{http_version}' https://${DOMAIN}/up)"
echo "redirect=$(curl $H -o /dev/null -w '%{http_code} %{redirect_url}' http://${DOMAIN}/regular)"
for i in $(seq 1 20); do curl $H -o /dev/null -f https://${DOMAIN}/regular; done
echo "served app1=$(grep -c 'GET /regular' /hosts/app1/log/nginx/access.log || true) app2=$(grep -c 'GET /regular' /hosts/app2/log/nginx/access.log || true)"
TOKEN=$(curl $H -X POST https://${DOMAIN}/jobs | ruby -rjson -e 'print JSON.parse(STDIN.read)["token"]')
for i in $(seq 1 120); do R=$(curl $H https://${DOMAIN}/jobs/$TOKEN); case "$R" in *executed_by\":\"*) break;; esac; sleep 0.5; done
echo "job=$R"

# The database host lets in the app hosts only (the password is right; only the address differs).
PW=readme-pw
probe() { on $1 env PGPASSWORD=$PW PGCONNECT_TIMEOUT=5 psql "host=${NET}.${HOSTS.db} port=$2 user=app dbname=app_production sslmode=require" -Atc 'select 1' 2>&1 | tr -s '\n\t' '  ' | sed 's/ *$//'; }
echo "pgbouncer-from-app2=$(probe app2 6432)"
echo "pgbouncer-from-outsider=$(probe outsider 6432)"
echo "postgres-from-app1=$(probe app1 5432)"

# An app host stopped under load: its services stop (app server first, the worst order) while wrk runs; the
# balancer must answer every request from the other host.
wrk -t2 -c8 -d10s --timeout 10s -H "Host: ${DOMAIN}" https://${NET}.${HOSTS.lb}/regular > /tmp/wrk.txt 2>&1 &
W=$!; sleep 3
# README step 11: drain the host on the balancer first (its stats socket), then stop it.
on lb bash -c 'echo "set server rails_hosts/app2 state drain" | socat stdio /run/haproxy/admin.sock'; sleep 2
on app2 systemctl stop rails-app.service rails-jobs.service
on app2 systemctl stop nginx
wait $W; cat /tmp/wrk.txt
# What each app host answered (app2's 502s while its app server stopped were retried on app1 by the balancer).
for n in app1 app2; do echo "statuses $n: $(awk '{print $9}' /hosts/$n/log/nginx/access.log | sort | uniq -c | tr -s ' \n' ' ')"; done
echo "after-stop=$(curl $H -o /dev/null -w '%{http_code}' https://${DOMAIN}/regular)"
echo "--- shim calls"; cat /hosts/*/log/readme-shims.log
`;
    const r = await labScript(script, { timeout: 1200 });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.code, 0, out);
    for (const n of [0, 1, 2, 3, 4, 6, 11]) assert.match(r.stdout, new RegExp(`^step${n}=ok$`, 'm'), out);
    assert.match(r.stdout, /^up=200 http2$/m, out);
    assert.match(r.stdout, new RegExp(`^redirect=301 https://${DOMAIN}/regular$`, 'm'), out);
    const served = /^served app1=(\d+) app2=(\d+)$/m.exec(r.stdout);
    assert.ok(served && Number(served[1]) > 0 && Number(served[2]) > 0, `both app hosts answered through the balancer:\n${out}`);
    assert.match(r.stdout, /^job=.*"executed_by":"[^"]+"/m, out);
    assert.match(r.stdout, /^pgbouncer-from-app2=1$/m, out);
    assert.match(r.stdout, /^pgbouncer-from-outsider=.*(pg_hba|rejected|no authentication method|not allowed)/m, out);
    assert.match(r.stdout, /^postgres-from-app1=.*Connection refused/m, out);
    const requests = /(\d+) requests in/.exec(r.stdout);
    assert.ok(requests && Number(requests[1]) > 50, `wrk ran:\n${out}`);
    assert.doesNotMatch(r.stdout, /Non-2xx or 3xx responses|Socket errors/, `no request lost while app2 stopped:\n${out}`);
    assert.match(r.stdout, /^after-stop=200$/m, out);
    console.log(r.stdout.split('\n').filter((l) => /^(step\d+|up|redirect|served|job|pgbouncer-from|postgres-from|after-stop)=|^served |^statuses |requests in|Requests\/sec/.test(l)).join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
