// Proof in the lab that the wizard's Sidekiq bundle works: README steps 1–6 of the bundle for jobs = sidekiq run
// as written (the shell blocks taken out of the generated README.md, as lab-default-bundle.test.mjs does), with
// Redis from Debian 13's redis-server package (the lab's services layer: scripts/lab run --services). Checked:
// the Redis that runs has the bundle's settings (noeviction, append-only file, loopback only, the memory the
// budget counts) through the include line README step 3 adds to Debian's redis.conf; the app and Sidekiq get
// REDIS_URL from the bundle's drop-ins; a job enqueued by a request goes through Redis and is run by the Sidekiq
// process of rails-jobs@1 (its PID recorded by the job); Sidekiq stops on the unit's SIGTERM within its timeout.
//
// Harness (tests/wizard/lab/readme-shims/, as for the default bundle): systemctl runs units' ExecStart with their
// Environment lines and drop-ins (Debian's own redis-server.service for Redis, Type=notify honoured), editor fills
// in secrets, certbot signs with a test CA. The lab app's production.rb reads LAB_JOBS=sidekiq (put in the
// secrets file by the editor shim) for the bundle's advice "production.rb: config.active_job.queue_adapter =
// :sidekiq", since the bundle does not ship production.rb.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { generate, DEFAULTS } from '../../guide/engine/index.mjs';
import { readmeSteps, stepScript } from '../helpers/readme.mjs';

const DOMAIN = 'app.test';

test('lab: the Sidekiq bundle, applied by its README steps 1–6, runs a job through Redis with the bundle\'s Redis settings', { timeout: 900_000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const bundle = generate({ domain: DOMAIN, jobs: 'sidekiq', database: 'sqlite', adapter: 'sqlite3' }, { date: '2026-11-25' });
  const file = (p) => bundle.files.find((f) => f.path === p)?.content ?? '';
  const steps = readmeSteps(file('README.md'));
  for (const n of [1, 2, 3, 4, 5, 6]) assert.ok(steps.has(n), `README has a shell block for step ${n}`);
  const redisMb = Number(/^maxmemory (\d+)mb$/m.exec(file('etc/redis/rails.conf'))?.[1]);
  assert.ok(redisMb >= 128, 'etc/redis/rails.conf sets maxmemory');
  const root = DEFAULTS.app_root;

  const { dir, inLab: B } = writeBundle(bundle, '.wizard-sidekiq-');
  try {
    const run = [1, 2, 3, 4, 5, 6].map((n) => stepScript(steps, n, { cd: B })).join('\n');
    const script = String.raw`
mkdir -p ${root} && cp -a /repo/lab/app/. ${root}/ && rm -rf ${root}/log/* ${root}/tmp/*
mkdir -p ${root}/.bundle && printf -- '---\nBUNDLE_PATH: "%s"\nBUNDLE_FROZEN: "true"\n' "$BUNDLE_PATH" > ${root}/.bundle/config
(cd ${root} && env -u BUNDLE_GEMFILE RAILS_ENV=production SECRET_KEY_BASE_DUMMY=1 bundle exec rails assets:precompile >/tmp/assets.log 2>&1) || { tail -20 /tmp/assets.log; exit 1; }
unset BUNDLE_GEMFILE
[ -x /usr/bin/bundle ] || ln -s bundle3.3 /usr/bin/bundle
echo "127.0.0.1 ${DOMAIN}" >> /etc/hosts
install -d /etc/readme-ca && cd /etc/readme-ca
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=readme test CA" -keyout ca.key -out ca.pem 2>/dev/null
cp ca.pem /usr/local/share/ca-certificates/readme-test-ca.crt && update-ca-certificates >/dev/null 2>&1
export PATH=/repo/tests/wizard/lab/readme-shims:$PATH README_DOMAIN=${DOMAIN} README_SECRETS_EXTRA=LAB_JOBS=sidekiq
stop_all() { for p in /run/readme-shims/*.pid; do [ -f "$p" ] && kill -TERM -- "-$(cat "$p")" 2>/dev/null || true; done; nginx -s quit 2>/dev/null || true; }
trap 'rc=$?; [ $rc = 0 ] || { tail -n 20 /var/log/redis-server.log /var/log/redis/redis-server.log /var/log/rails-*.log 2>&1; tail -5 /var/log/readme-shims.log; }; stop_all; exit $rc' EXIT
echo "redis-package=$(dpkg-query -W -f '${'${Version}'}' redis-server)"
${run}
H="-sS --max-time 20"
echo "up=$(curl $H -o /dev/null -w '%{http_code}' https://${DOMAIN}/up)"
# The Redis that runs, as Sidekiq sees it.
cfg() { redis-cli CONFIG GET "$1" | sed -n 2p; }
echo "redis=policy:$(cfg maxmemory-policy) aof:$(cfg appendonly) fsync:$(cfg appendfsync) maxmemory:$(cfg maxmemory) bind:$(cfg bind | tr ' ' ,)"
echo "redis-user=$(ps -o user= -C redis-server | sort -u | tr -d ' ')"
TOKEN=$(curl $H -X POST https://${DOMAIN}/jobs | ruby -rjson -e 'print JSON.parse(STDIN.read)["token"]')
for i in $(seq 1 120); do R=$(curl $H https://${DOMAIN}/jobs/$TOKEN); case "$R" in *executed_by\":\"*) break;; esac; sleep 0.5; done
echo "job=$R"
SK=$(pgrep -f '^sidekiq ' | head -1)
echo "sidekiq-pid=$SK user=$(ps -o user= -p $SK | tr -d ' ')"
echo "sidekiq-env=$(tr '\0' '\n' < /proc/$SK/environ | grep -E '^(REDIS_URL|LAB_JOBS)=' | sort | tr '\n' ' ')"
# The service's environment as the unit started it: Puma's process title (with the release's directory name since
# release directories) is long enough to overwrite the memory /proc/PID/environ reads, so read its launcher's.
APP=$(pgrep -o -f '^/usr/sbin/runuser -u deploy -- [^ ]*bundle exec puma')
echo "app-env=$(tr '\0' '\n' < /proc/$APP/environ | grep -E '^REDIS_URL=' | tr '\n' ' ')"
echo "processes=$(redis-cli -n 0 SCARD processes)"
echo "aof-files=$(ls /var/lib/redis/appendonlydir | wc -l)"
# The unit's stop: SIGTERM to Sidekiq, which must be gone well within TimeoutStopSec.
t0=$(date +%s%N); kill -TERM $SK; while kill -0 $SK 2>/dev/null; do sleep 0.1; done
echo "sidekiq-stop-ms=$(( ($(date +%s%N) - t0) / 1000000 ))"
echo "--- shim calls"; cat /var/log/readme-shims.log
`;
    const started = Date.now();
    const r = await labScript(script, { timeout: 600, services: true });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.code, 0, out);
    for (const n of [1, 2, 3, 4, 5, 6]) assert.match(r.stdout, new RegExp(`^step${n}=ok$`, 'm'), out);
    assert.match(r.stdout, /^up=200$/m, out);
    assert.match(r.stdout, new RegExp(`^redis=policy:noeviction aof:yes fsync:everysec maxmemory:${redisMb * 1024 * 1024} bind:127\\.0\\.0\\.1,-::1$`, 'm'), out);
    assert.match(r.stdout, /^redis-user=redis$/m, 'Redis runs as Debian\'s unit says, not as root');
    const pid = /^sidekiq-pid=(\d+) user=deploy$/m.exec(r.stdout)?.[1];
    assert.ok(pid, `Sidekiq runs as the service user: ${out}`);
    assert.match(r.stdout, new RegExp(`^job=.*"executed_by":"[^"]+:${pid}"`, 'm'), `the job ran in the Sidekiq process: ${out}`);
    assert.match(r.stdout, /^sidekiq-env=LAB_JOBS=sidekiq REDIS_URL=redis:\/\/127\.0\.0\.1:6379\/0 $/m, out);
    assert.match(r.stdout, /^app-env=REDIS_URL=redis:\/\/127\.0\.0\.1:6379\/0 $/m, 'the app (which enqueues) has REDIS_URL from its drop-in');
    assert.ok(Number(/^processes=(\d+)$/m.exec(r.stdout)?.[1]) >= 1, `Sidekiq registered its process in Redis database 0: ${out}`);
    assert.ok(Number(/^aof-files=(\d+)$/m.exec(r.stdout)?.[1]) >= 1, 'the append-only file exists');
    assert.ok(Number(/^sidekiq-stop-ms=(\d+)$/m.exec(r.stdout)?.[1]) < 25_000, 'Sidekiq stopped within its 25 s timeout');
    assert.match(r.stdout, /^systemctl restart redis-server$/m, out);
    assert.match(r.stdout, /^systemctl enable --now rails-app\.service rails-jobs@1\.service$/m, out);
    console.log(r.stdout.split('\n').filter((l) => /^(step\d|up|redis|job|sidekiq|app-env|processes|aof)/.test(l)).join('\n'));
    console.log(`lab run: ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
