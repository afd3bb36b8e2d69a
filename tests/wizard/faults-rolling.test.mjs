// Rolling deploys across two app hosts behind both balancers (issue 23, scenarios 3 and 4 on the multi-host
// bundles), in the lab: the reference Rails 8.1 app on two app hosts (README steps 1–6 of the HAProxy bundle, each
// host with its own app root: its own releases/ and current), PostgreSQL + PgBouncer on a database host (step 0),
// HAProxy on one balancer (step 11) and nginx on another (step 11 of the nginx-balancer bundle), each a network
// namespace on 198.18.0.0/24. Four clients ask /faults/release (the REVISION the answering process booted with)
// without pause, two through each balancer, while the test runs README step 7's (deploy) and step 8's (rollback)
// commands as written, in their order: each "On the balancer" line on both balancers (each bundle's
// lb-host/lb-rotation.sh), each "On appN" line on that app host:
//   rolling  v1 → v2: exit 0 everywhere; no failed request; while app1 is out of rotation every answer is v1 and app1
//            serves nothing, while app2 is out every answer is v2; both hosts end on v2;
//   broken   a release that fails to boot: deploy.sh exits 1 on app1 (README: stop there, put app1 back); nothing
//            switched on either host; every answer v2; no failed request;
//   rollback v2 → v1 host by host: no failed request; both hosts end on v1.
// Each phase prints what it measured per balancer (requests, failed, p99, seconds).
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { hostsScript, appImageScript } from '../helpers/lab-hosts.mjs';
import { generate } from '../../guide/engine/index.mjs';
import { readmeSteps, stepScript } from '../helpers/readme.mjs';

const DOMAIN = 'app.test';
const NET = '198.18.0';
const HOSTS = { lb: 2, lb2: 3, app1: 11, app2: 12, db: 20 };
const BALANCERS = { haproxy: 'lb', nginx: 'lb2' };
const root = '/var/www/app';
const CLIENTS = 2; // per balancer
const MAX_PHASE_S = 1800; // every client loop stops by then even if a deploy hangs (a phase took 567 s on the busy machine)
const MAX_REQUESTS = 4000; // per client and phase
// As in faults-deploys: a client waits as long as the balancer waits for an app host (60 s).
const CLIENT_TIMEOUT_S = 60;
const PAUSE_S = 3; // between hosts, as an operator watches the first host before the next

const answers = (lb, lbOctet) => ({ domain: DOMAIN, app_hosts: 2, lb, db_host: 'separate', pooler: 'pgbouncer', cores: 2, ram_gb: 4, db_cores: 2, db_ram_gb: 2, websockets: true,
  app_addresses: `${NET}.${HOSTS.app1},${NET}.${HOSTS.app2}`, db_address: `${NET}.${HOSTS.db}`, lb_address: `${NET}.${lbOctet}` });

// README step N's block as [{where: 'balancer' | 'app1' | …, cmd}], from its "# On …" comment lines.
function located(steps, n) {
  const out = [];
  let where = null;
  for (const line of steps.get(n).join('\n').split('\n')) {
    const on = /^# On (the balancer|app\d+)\b/.exec(line);
    if (on) { where = on[1] === 'the balancer' ? 'balancer' : on[1]; continue; }
    if (line.trim() && !line.startsWith('#')) out.push({ where, cmd: line });
  }
  return out;
}

// Shell for one README sequence: balancer lines run on both balancers (from each bundle's directory), app lines on
// their host; marks with timestamps around each; the first failing app line puts its host back and stops (README).
function sequence(seq, dirs, src) {
  const lines = [];
  for (let i = 0; i < seq.length; i++) {
    const { where, cmd } = seq[i];
    const host = /(app\d+)$/.exec(cmd)?.[1];
    if (where === 'balancer') {
      const verb = /lb-rotation\.sh (drain|ready)/.exec(cmd)[1];
      if (verb === 'ready') lines.push(`mark readybegin-${host}`);
      lines.push(...Object.entries(BALANCERS).map(([b, ns]) => `(cd ${dirs[b]} && on ${ns} ${cmd}) >> /tmp/$PHASE.out 2>&1 || { mark lb-failed-${b}; return 2; }`));
      lines.push(`mark ${verb === 'drain' ? 'drained' : 'ready'}-${host}`, ...(verb === 'ready' ? [`sleep ${PAUSE_S}`] : []));
    } else {
      // A switch (or rollback) out of rotation puts its host back when it fails (README); a build has nothing to undo.
      const ready = seq[i + 1]?.where === 'balancer' && /lb-rotation\.sh ready/.test(seq[i + 1].cmd) ? seq[i + 1] : null;
      const back = ready ? Object.entries(BALANCERS).map(([b, ns]) => `(cd ${dirs[b]} && on ${ns} ${ready.cmd}) >> /tmp/$PHASE.out 2>&1`).join('; ') : ':';
      lines.push(`if ! (cd ${dirs.haproxy} && on ${where} ${cmd.replace('/path/to/checkout', src)}) >> /tmp/$PHASE.out 2>&1; then mark failed-${where}; ${back}; return 1; fi`);
      // After the last build, before any switch: the new release's stylesheet asked of every app host.
      if (/deploy\.sh build /.test(cmd) && !/deploy\.sh build /.test(seq[i + 1]?.cmd || '')) lines.push('mark built; probe_assets');
    }
  }
  return `run_seq() {\n${lines.join('\n')}\n}`;
}

const clients = String.raw`
mark() { echo "$1 $(date +%s.%N) $(served app1) $(served app2)" >> /tmp/marks-$PHASE.txt; }
client() { # TAG ADDRESS: asks /faults/release through the balancer at ADDRESS until /tmp/stop (bounded)
  local end=$(( $(date +%s) + ${MAX_PHASE_S} )) n=0 s r v
  while [ ! -f /tmp/stop ] && [ "$(date +%s)" -lt "$end" ] && [ $n -lt ${MAX_REQUESTS} ]; do
    n=$((n + 1)); s=$(date +%s.%N)
    r=$(curl -s --max-time ${CLIENT_TIMEOUT_S} --resolve ${DOMAIN}:443:$2 -o /tmp/body-$1 -w '%{http_code} %{time_total}' https://${DOMAIN}/faults/release || true)
    v=$(head -c 20 /tmp/body-$1 2>/dev/null | tr -d ' \n'); rm -f /tmp/body-$1
    echo "$s $(date +%s.%N) ${'$'}{v:-none} $r"
  done > /tmp/load-$PHASE-$1.txt
}
served() { grep -c 'GET /faults/release' /hosts/$1/log/nginx/access.log || true; }
# The stylesheet only v2 compiles (its marker), asked of each app host through its nginx, from the balancer's
# namespace, after every host built v2 and before any switched: 200 from both (deploy.sh build shares the assets).
probe_assets() {
  local rel f
  rel=$(ls /hosts/app1/root/releases | sort | tail -n 1)
  f=$(grep -l faults-rolling-v2 /hosts/app1/root/releases/$rel/public/assets/application-*.css | head -n 1 | xargs -r basename)
  echo "$PHASE asset file=${'$'}{f:-none} current1=$(readlink /hosts/app1/root/current | sed 's|releases/||') $(for h in app1 app2; do printf '%s:%s,' $h "$(on lb curl -s -o /dev/null -w '%{http_code}' --max-time 20 -H 'Host: ${DOMAIN}' -H 'X-Forwarded-Proto: https' http://${NET}.${'$'}([ $h = app1 ] && echo ${HOSTS.app1} || echo ${HOSTS.app2})/assets/${'$'}{f:-none})"; done)" >> /tmp/assets.txt
}
phase() { # NAME: load on, run_seq, load off; prints what it measured
  PHASE=$1; rm -f /tmp/stop /tmp/marks-$PHASE.txt
  local pids=""
  ${Object.entries(BALANCERS).map(([b, ns]) => Array.from({ length: CLIENTS }, (_, c) => `client ${b}-${c} ${NET}.${HOSTS[ns]} & pids="$pids $!"`).join('; ')).join('; ')}
  sleep 2
  local t0=$(date +%s.%N) rc=0
  run_seq || rc=$?
  local t1=$(date +%s.%N)
  sleep 2; touch /tmp/stop
  for p in $pids; do wait $p; done # the clients only (the hosts' keepers run on)
  echo "$PHASE rc=$rc seconds=$(awk -v a=$t0 -v b=$t1 'BEGIN {printf "%.1f", b - a}')"
  for b in ${Object.keys(BALANCERS).join(' ')}; do
    local p99; p99=$(cat /tmp/load-$PHASE-$b-*.txt | awk '{print $NF * 1000}' | sort -n | awk '{t[NR] = $1} END {i = int(NR * 0.99); if (i < 1) i = 1; printf "%.0f", t[i]}')
    cat /tmp/load-$PHASE-$b-*.txt | sort -n | awk -v n="$PHASE $b" -v p99=$p99 '
      { r++; if ($4 != 200) f++; if (!($3 in seen)) { seen[$3] = 1; order = order $3 "," } }
      END { printf "%s requests=%d failed=%d p99-ms=%s versions=%s\n", n, r, f + 0, p99, order }'
    echo "$PHASE $b last=$(for f in /tmp/load-$PHASE-$b-*.txt; do tail -n 1 $f | awk '{print $3}'; done | sort -u | tr '\n' ',')"
  done
  # Answers that started after a host was drained and ended before it came back (both balancers), by version.
  for h in app1 app2; do
    local d r; d=$(awk -v k=drained-$h '$1 == k {print $2}' /tmp/marks-$PHASE.txt); r=$(awk -v k=readybegin-$h '$1 == k {print $2}' /tmp/marks-$PHASE.txt)
    if [ -n "$d" ] && [ -n "$r" ]; then echo "$PHASE while-$h-out=$(cat /tmp/load-$PHASE-*.txt | awk -v d=$d -v r=$r '$1 > d && $2 < r {c[$3]++} END {for (v in c) printf "%s:%d,", v, c[v]}')"; fi
  done
  echo "$PHASE marks=$(awk '{printf "%s,", $1}' /tmp/marks-$PHASE.txt)"
  echo "$PHASE timeline=$(awk -v t0=$t0 '{printf "%s@%.0fs ", $1, $2 - t0}' /tmp/marks-$PHASE.txt)"
  echo "$PHASE current app1=$(readlink /hosts/app1/root/current | sed 's|releases/||') app2=$(readlink /hosts/app2/root/current | sed 's|releases/||')"
  # Requests each app host's nginx logged between its drain and its return (its access log, both balancers).
  echo "$PHASE served-while-out=$(awk '$1 == "drained-app1" {a = $3} $1 == "readybegin-app1" {printf "app1:%d,", $3 - a} $1 == "drained-app2" {b = $4} $1 == "readybegin-app2" {printf "app2:%d,", $4 - b}' /tmp/marks-$PHASE.txt)"
  echo "$PHASE message=$(grep '^deploy.sh:' /tmp/$PHASE.out | tail -1)"
}
`;

test('lab: rolling deploy, a release that fails to boot and a rollback across two app hosts behind HAProxy and nginx: zero failed requests', { timeout: 3100000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const withHaproxy = generate(answers('haproxy', HOSTS.lb), { date: '2026-11-25' });
  const withNginx = generate(answers('nginx', HOSTS.lb2), { date: '2026-11-25' });
  const steps = readmeSteps(withHaproxy.files.find((f) => f.path === 'README.md').content);
  const nginxSteps = readmeSteps(withNginx.files.find((f) => f.path === 'README.md').content);
  const deploySeq = located(steps, 7);
  const rollbackSeq = located(steps, 8);
  // Both bundles document the same host-by-host order; only their lb-rotation.sh differs.
  assert.deepEqual(located(nginxSteps, 7), deploySeq);
  assert.deepEqual(located(nginxSteps, 8), rollbackSeq);
  // Build on both hosts (nothing switches), then switch host by host out of rotation.
  assert.deepEqual(deploySeq.map((s) => s.where), ['app1', 'app2', 'balancer', 'app1', 'balancer', 'balancer', 'app2', 'balancer']);
  const A = writeBundle(withHaproxy, '.wizard-rolling-');
  const B = writeBundle(withNginx, '.wizard-rolling-nginx-');
  const dirs = { haproxy: A.inLab, nginx: B.inLab };
  try {
    writeFileSync(join(A.dir, 'db.sh'), stepScript(steps, 0));
    writeFileSync(join(A.dir, 'app.sh'), [1, 2, 3, 4, 6].map((n) => stepScript(steps, n)).join('\n'));
    writeFileSync(join(A.dir, 'lb.sh'), stepScript(steps, 11));
    writeFileSync(join(B.dir, 'lb.sh'), stepScript(nginxSteps, 11));
    const script = String.raw`
${appImageScript({ root, domain: DOMAIN, lbAddress: `${NET}.${HOSTS.lb}` })}
# Two checkouts of the app, from the image (its assets built): v2, and v3 whose initializer raises.
for v in v2 v3; do mkdir -p /srv/src-$v && cp -a ${root}/. /srv/src-$v/ && echo $v > /srv/src-$v/REVISION; done
# v2's stylesheet changes (a new digest), so its pages ask for an asset v1's release never had.
echo '/* faults-rolling-v2 */ body { margin: 0; }' >> /srv/src-v2/app/assets/stylesheets/application.css
echo 'raise "this release fails to boot (faults-rolling test)"' > /srv/src-v3/config/initializers/zz_fails_to_boot.rb
echo v1 > ${root}/REVISION
# The shared gems: Bundler's path for every release, here the lab's installed gems (no network in the lab).
mkdir -p ${root}/shared && ln -s "$BUNDLE_PATH" ${root}/shared/bundle
# Each app host gets its own copy of the app root, mounted over ${root} in its mount namespace (the lab's hosts
# share one file system otherwise): its own releases/, current, tmp/ and log/, as on two machines.
${hostsScript({ net: NET, hosts: HOSTS, root, privateEtc: { lb2: ['/etc/nginx'], app1: [root], app2: [root] } })}
ln -s /hosts/app1/etc${root.replace(/\//g, '_')} /hosts/app1/root; ln -s /hosts/app2/etc${root.replace(/\//g, '_')} /hosts/app2/root
cd ${A.inLab}
T0=$(date +%s)
echo "=== db"; on db bash -euo pipefail db.sh
echo "=== app1"; on app1 nginx; on app1 bash -euo pipefail app.sh
echo "=== app2"; on app2 nginx; on app2 bash -euo pipefail app.sh
echo "=== lb (HAProxy)"; on lb bash -euo pipefail lb.sh
echo "=== lb2 (nginx)"; (cd ${B.inLab} && on lb2 bash -euo pipefail lb.sh)
echo "setup seconds=$(( $(date +%s) - T0 )) app1=$(readlink /hosts/app1/root/current) app2=$(readlink /hosts/app2/root/current)"
${clients}
${sequence(deploySeq, dirs, '/srv/src-v2')}
phase rolling
${sequence(deploySeq, dirs, '/srv/src-v3')}
phase broken
${sequence(rollbackSeq, dirs, '')}
phase rollback
for n in rolling broken rollback; do tail -8 /tmp/$n.out | sed "s/^/$n-out: /"; done
cat /tmp/assets.txt 2>/dev/null
`;
    const r = await labScript(script, { timeout: 3000 }); // 9.5–18 min here; CI ran faults-deploys 5 times slower than an idle machine
    const out = `${r.stdout}\n${r.stderr}`;
    const tail = out.split('\n').slice(-60).join('\n');
    assert.equal(r.code, 0, tail);
    console.log(r.stdout.split('\n').filter((l) => /^(setup|rolling|broken|rollback) /.test(l) && !/ last=| message=/.test(l)).join('\n'));
    const get = (name, k) => (new RegExp(`^${name} ${k}=(.*)$`, 'm').exec(r.stdout) || [null, null])[1];
    const phase = (name) => {
      const head = new RegExp(`^${name} rc=(\\d+) seconds=([\\d.]+)$`, 'm').exec(r.stdout);
      assert.ok(head, `${name}: measured\n${tail}`);
      const per = Object.fromEntries(Object.keys(BALANCERS).map((b) => {
        const x = new RegExp(`^${name} ${b} requests=(\\d+) failed=(\\d+) p99-ms=(\\d+) versions=(\\S*)$`, 'm').exec(r.stdout);
        assert.ok(x, `${name} ${b}: measured\n${tail}`);
        return [b, { requests: Number(x[1]), failed: Number(x[2]), versions: x[4], last: get(name, `${b} last`) }];
      }));
      const cur = new RegExp(`^${name} current app1=(\\d{14}) app2=(\\d{14})$`, 'm').exec(r.stdout);
      assert.ok(cur, `${name}: both hosts have a current release\n${tail}`);
      return { rc: Number(head[1]), per, app1: cur[1], app2: cur[2], marks: get(name, 'marks'), message: get(name, 'message'), servedOut: get(name, 'served-while-out'), out1: get(name, 'while-app1-out'), out2: get(name, 'while-app2-out') };
    };
    const rolling = phase('rolling');
    const broken = phase('broken');
    const back = phase('rollback');
    // Answers while one host was out: only the other host's release, and some of them (the load kept running).
    const only = (w, v) => { assert.match(w || '', new RegExp(`^${v}:\\d+,$`), `answers while a host was out: ${w}\n${tail}`); };
    // 4. Rolling deploy: host by host, no failed request, both hosts on v2.
    assert.equal(rolling.rc, 0, tail);
    assert.equal(rolling.marks, 'built,drained-app1,readybegin-app1,ready-app1,drained-app2,readybegin-app2,ready-app2,', tail);
    // Both hosts built v2 and none switched yet: v2's new stylesheet answered 200 by both (the 404 window is gone).
    const asset = /^rolling asset file=(\S+) current1=(\d{14}) (app1:\d+,app2:\d+,)$/m.exec(r.stdout);
    assert.ok(asset, `the asset probe ran\n${tail}`);
    assert.match(asset[1], /^application-\w+\.css$/, `v2 compiled a stylesheet of its own\n${tail}`);
    assert.equal(asset[3], 'app1:200,app2:200,', `v2's stylesheet from both hosts before any switch\n${tail}`);
    console.log(`rolling: v2's ${asset[1]} answered ${asset[3]} before any host switched`);
    only(rolling.out1, 'v1');
    only(rolling.out2, 'v2');
    assert.equal(rolling.servedOut, 'app1:0,app2:0,', `a host out of rotation served no request\n${tail}`);
    for (const [b, m] of Object.entries(rolling.per)) {
      assert.equal(m.failed, 0, `rolling ${b}: failed requests\n${tail}`);
      assert.ok(m.requests >= 20, `rolling ${b}: the load ran\n${tail}`);
      assert.equal(m.versions, 'v1,v2,', `rolling ${b}\n${tail}`);
      assert.equal(m.last, 'v2,', `rolling ${b}\n${tail}`);
    }
    assert.match(rolling.message, /^deploy.sh: switched to \d{14} \(previous: \d{14}\)$/, tail);
    // 3. A release that fails to boot: deploy.sh exits 1 on app1, nothing switched anywhere, app2 never touched.
    assert.equal(broken.rc, 1, tail);
    // The build on app1 fails: nothing was drained, nothing switched, app2 never built.
    assert.equal(broken.marks, 'failed-app1,', tail);
    assert.match(broken.message, /^deploy.sh: (assets:precompile failed|release \d{14} does not boot or \/up fails); current stays at \d{14}$/, tail);
    assert.deepEqual([broken.app1, broken.app2], [rolling.app1, rolling.app2], tail);
    for (const [b, m] of Object.entries(broken.per)) {
      assert.equal(m.failed, 0, `broken ${b}: failed requests\n${tail}`);
      assert.equal(m.versions, 'v2,', `broken ${b}\n${tail}`);
    }
    // 3. Rollback, host by host: back to v1 everywhere.
    assert.equal(back.rc, 0, tail);
    only(back.out1, 'v2');
    only(back.out2, 'v1');
    assert.equal(back.servedOut, 'app1:0,app2:0,', `a host out of rotation served no request\n${tail}`);
    for (const [b, m] of Object.entries(back.per)) {
      assert.equal(m.failed, 0, `rollback ${b}: failed requests\n${tail}`);
      assert.equal(m.versions, 'v2,v1,', `rollback ${b}\n${tail}`);
      assert.equal(m.last, 'v1,', `rollback ${b}\n${tail}`);
    }
    assert.match(back.message, /^deploy.sh: rolled back from \d{14} to \d{14}$/, tail);
  } finally {
    rmSync(A.dir, { recursive: true, force: true });
    rmSync(B.dir, { recursive: true, force: true });
  }
});
