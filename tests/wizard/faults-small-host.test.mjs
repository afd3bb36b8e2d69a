// Issue 23, scenario 9, in the lab: the 1 GB bundle's processes, measured under bounded load, fit within the
// budget the bundle states. The bundle is the one for a 1 GB host whose Puma process was measured at WORKER_MB
// (worker_mb; the most that lets the plan fit 1 GB): the smaller plan, Solid Queue inside Puma (async mode), one
// Puma process, PostgreSQL on the same host. README steps 1–6 apply it as written (the README shims of
// lab-default-bundle.test.mjs stand in for systemd and certbot); then wrk asks for a database-backed page for
// LOAD_S seconds while JOBS jobs are enqueued, and lab/bench/pss.rb samples the PSS (/proc/PID/smaps_rollup) of
// every process of the app's service, of PostgreSQL and of nginx every 0.5 s. Each tree's peak (the largest sum
// over one sample) must stay within its line of the bundle's memory budget, and the jobs must run in the Puma
// process (their executed_by names its PID), also after README's `systemctl reload` (Puma's hot restart). It prints
// per-process PSS, totals, budget, requests and failures.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { appImageScript } from '../helpers/lab-hosts.mjs';
import { readmeSteps, stepScript } from '../helpers/readme.mjs';
import { generate } from '../../guide/engine/index.mjs';
import { pssPeak } from '../../scripts/lib/pss-csv.mjs';

const DOMAIN = 'app.test';
const root = '/var/www/app';
const WORKER_MB = 192; // 1024 MB − 512 (operating system) − 64 (nginx) − 256 (PostgreSQL): all the plan leaves Puma
const LOAD_S = 15;
const JOBS = 20;

test('lab: the 1 GB bundle (Solid Queue inside Puma) stays within its memory budget under load (scenario 9)', { timeout: 900000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const bundle = generate({ domain: DOMAIN, ram_gb: 1, worker_mb: WORKER_MB }, { date: '2026-11-25' });
  assert.ok(bundle.model.jobs_in_puma, 'the 1 GB plan runs Solid Queue inside Puma');
  assert.ok(!bundle.warnings.some((w) => w.severity === 'error'), bundle.warnings.map((w) => w.message).join('\n'));
  assert.ok(bundle.model.memory_total_mb <= bundle.model.ram_mb);
  const budget = Object.fromEntries(bundle.model.memory.map((m) => [m.kind, m.mb]));
  const steps = readmeSteps(bundle.files.find((f) => f.path === 'README.md').content);
  const { dir, inLab: B } = writeBundle(bundle, '.wizard-small-host-');
  try {
    const script = `${appImageScript({ root, domain: DOMAIN, lbAddress: '127.0.0.1' })}
stop_all() { for p in /run/readme-shims/*.pid; do [ -f "$p" ] && kill -TERM -- "-$(cat "$p")" 2>/dev/null; done; nginx -s quit 2>/dev/null; pg_ctlcluster 17 main stop 2>/dev/null; true; }
trap stop_all EXIT
${[1, 2, 3, 4, 5, 6].map((n) => stepScript(steps, n, { cd: B })).join('\n')}
H="-sS --max-time 20"
APP=$(cat /run/readme-shims/rails-app.pid); PG=$(head -1 /var/run/postgresql/17-main.pid); NGX=$(cat /run/nginx.pid)
PUMA=$(pgrep -o -s "$APP" -f '^puma ')
echo "puma-pid=$PUMA units=$(ls /run/readme-shims/*.pid | xargs -n1 basename | tr '\\n' ' ')"
for t in app:$APP pg:$PG nginx:$NGX; do ruby /repo/lab/bench/pss.rb \${t#*:} 0.5 > /tmp/pss-\${t%%:*}.csv & echo $! >> /tmp/samplers; done
sleep 2
wrk -t2 -c4 -d${LOAD_S}s --timeout 10s https://${DOMAIN}/regular > /tmp/wrk.txt 2>&1 & W=$!
TOKENS=""; for i in $(seq 1 ${JOBS}); do TOKENS="$TOKENS $(curl $H -X POST https://${DOMAIN}/jobs | ruby -rjson -e 'print JSON.parse(STDIN.read)["token"]')"; sleep 0.3; done
wait $W
sleep 2
kill $(cat /tmp/samplers)
done=0; by=""; for tk in $TOKENS; do for i in $(seq 1 40); do R=$(curl -s --max-time 10 https://${DOMAIN}/jobs/$tk); case "$R" in *executed_by\\":\\"*) done=$((done+1)); by="$by $(echo "$R" | ruby -rjson -e 'print JSON.parse(STDIN.read)["executed_by"].split(":").last')"; break;; esac; sleep 0.5; done; done
echo "jobs-run=$done/${JOBS} executed-by-pids=$(echo $by | tr ' ' '\\n' | sort -u | tr '\\n' ' ')"
# README step 6's restart (systemctl reload: Puma's hot restart) stops Solid Queue with Puma and starts it again.
systemctl reload rails-app; sleep 2
for i in $(seq 1 60); do [ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' https://${DOMAIN}/up)" = 200 ] && break; sleep 0.5; done
TK=$(curl $H -X POST https://${DOMAIN}/jobs | ruby -rjson -e 'print JSON.parse(STDIN.read)["token"]')
for i in $(seq 1 60); do R=$(curl -s --max-time 10 https://${DOMAIN}/jobs/$TK); case "$R" in *executed_by\":\"*) break;; esac; sleep 0.5; done
echo "after-reload=$(echo "$R" | ruby -rjson -e 'print((JSON.parse(STDIN.read)["executed_by"] || "none").split(":").last)') puma-now=$(pgrep -o -s "$APP" -f '^puma ')"
echo "wrk: $(grep -E 'requests in' /tmp/wrk.txt | sed 's/^ *//') errors=$(grep -E 'Socket errors|Non-2xx' /tmp/wrk.txt | tr -s ' \\n' ' ' || true)"
echo "--- shim calls"; cat /var/log/readme-shims.log
for t in app pg nginx; do echo "--- pss $t"; cat /tmp/pss-$t.csv; done
echo "--- end"
`;
    const r = await labScript(script, { timeout: 600 });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.code, 0, out.slice(-6000));
    for (const n of [1, 2, 3, 4, 5, 6]) assert.match(r.stdout, new RegExp(`^step${n}=ok$`, 'm'), out);
    // No rails-jobs service was started: the README enables rails-app only.
    assert.match(r.stdout, /^systemctl enable --now rails-app\.service$/m, out);
    const puma = r.stdout.match(/^puma-pid=(\d+)/m)?.[1];
    assert.ok(puma, out);
    const jobs = r.stdout.match(/^jobs-run=(\d+)\/(\d+) executed-by-pids=(.*)$/m);
    assert.ok(jobs, out);
    assert.equal(Number(jobs[1]), JOBS, 'every job ran');
    assert.deepEqual(jobs[3].trim().split(' '), [puma], 'the jobs ran in the Puma process');
    // After the hot restart (same PID: Puma re-executes itself) a new job runs, in Puma again.
    assert.match(r.stdout, new RegExp(`^after-reload=${puma} puma-now=${puma}$`, 'm'), out);
    const wrk = r.stdout.match(/^wrk: (\d+) requests in .* errors=(.*)$/m);
    assert.ok(wrk && Number(wrk[1]) > 0, out);
    assert.equal(wrk[2].trim(), '', `failed requests: ${wrk[2]}`);
    const csv = (t) => r.stdout.split(`--- pss ${t}\n`)[1].split('\n--- ')[0];
    // runuser is the README shim's way of taking the unit's User= (systemd does that without a process): left out.
    const trees = { app: pssPeak(csv('app'), { except: ['runuser'] }), pg: pssPeak(csv('pg')), nginx: pssPeak(csv('nginx')) };
    const limits = { app: budget.workers + (budget.master || 0) + (budget.jit || 0) + budget.jobs, pg: budget.database, nginx: budget.proxy };
    const mb = (kib) => (kib / 1024).toFixed(1);
    const rows = [];
    for (const [name, tree] of Object.entries(trees)) {
      assert.ok(tree && tree.samples >= LOAD_S, `${name}: ${tree?.samples} samples`);
      for (const p of tree.per_process) rows.push(`  ${name.padEnd(6)} ${String(p.pid).padStart(7)} ${p.comm.padEnd(18)} ${mb(p.peak_kib).padStart(7)} MB`);
      rows.push(`  ${name.padEnd(6)} peak of the tree (largest sum over one sample, ${tree.processes} processes): ${mb(tree.peak_kib)} MB, budget ${limits[name]} MB`);
    }
    const total = Object.values(trees).reduce((s, x) => s + x.peak_kib, 0) / 1024;
    console.log(`scenario 9, 1 GB bundle (worker_mb ${WORKER_MB}): PSS per process (peak over ${trees.app.samples} samples)\n${rows.join('\n')}`);
    console.log(`  total ${total.toFixed(1)} MB of the ${limits.app + limits.pg + limits.nginx} MB these lines budget (+ ${budget.os} MB operating system reserve = ${bundle.model.memory_total_mb} of ${bundle.model.ram_mb} MB)`);
    console.log(`  requests ${wrk[1]} in ${LOAD_S} s, failed 0; jobs ${jobs[1]}/${JOBS} run by PID ${puma} (Puma), and one more after systemctl reload`);
    for (const [name, tree] of Object.entries(trees)) assert.ok(tree.peak_kib / 1024 <= limits[name], `${name}: peak PSS ${mb(tree.peak_kib)} MB > budget ${limits[name]} MB`);
    assert.ok(total + budget.os <= bundle.model.ram_mb);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
