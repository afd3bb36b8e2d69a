// Proof in the lab (Debian 13, Debian's passenger and libapache2-mod-passenger 6.0.26 from the lab's services layer,
// Rails 8.1 reference app) that the Passenger bundles work when applied by their own README: the shell blocks of
// steps 1–6 run as written, as root, with the shims of tests/wizard/lab/readme-shims (systemctl runs the units and
// drives Debian's nginx and Apache; certbot signs with a test CA). Debian's nginx has no Passenger module, so the
// wizard offers Passenger two ways, and both are booted here:
//   - Passenger Standalone (builtin engine) behind nginx, started by the bundle's unit;
//   - Passenger inside Apache (libapache2-mod-passenger), no unit of its own, the app root through `current` as well.
// Each then serves /up over HTTPS, reloads with new code under a bounded load (4 clients on /faults/release, which
// answers the REVISION the process booted with; zero failed requests), and runs with the pool size the bundle sets,
// as Passenger itself reports it (passenger-status).
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { generate, DEFAULTS } from '../../guide/engine/index.mjs';
import { readmeSteps, stepScript, appPrecondition, loadAround } from '../helpers/readme.mjs';

const DOMAIN = 'app.test';
const STEPS = [1, 2, 3, 4, 5, 6];
const root = DEFAULTS.app_root;

// One lab boot for both bundles (the app's gems and assets are prepared once): each bundle's README steps on a host
// reset to what README step 1 expects (the app in place, no databases, no site of the other bundle), then AFTER.
// Resolves the lab's {code, stdout, stderr}; each bundle's output follows a line "=== NAME".
async function applyReadmes(runs) {
  const dirs = [];
  try {
    const parts = runs.map(({ name, bundle, after }) => {
      const steps = readmeSteps(bundle.files.find((f) => f.path === 'README.md').content);
      for (const n of STEPS) assert.ok(steps.has(n), `${name}: README has a shell block for step ${n}`);
      const { dir, inLab: B } = writeBundle(bundle, `.wizard-passenger-${name}-`);
      dirs.push(dir);
      return String.raw`
echo "=== ${name}"
rm -rf ${root} && cp -a /tmp/app-prepared ${root}
T=$SECONDS
${STEPS.map((n) => stepScript(steps, n, { cd: B })).join('\n')}
echo "seconds-steps=$((SECONDS - T))"; T=$SECONDS
${typeof after === 'function' ? after(B) : after}
echo "seconds-checks=$((SECONDS - T))"
echo "--- shim calls"; cat /var/log/readme-shims.log; : > /var/log/readme-shims.log
# Back to a fresh host for the next bundle: its servers stopped, the databases and the role gone, no site enabled.
stop_servers
runuser -u postgres -- psql -q -c 'DROP DATABASE IF EXISTS app_production WITH (FORCE)' -c 'DROP DATABASE IF EXISTS app_production_cache WITH (FORCE)' \
  -c 'DROP DATABASE IF EXISTS app_production_queue WITH (FORCE)' -c 'DROP DATABASE IF EXISTS app_production_cable WITH (FORCE)' -c 'DROP ROLE IF EXISTS app'
rm -f /etc/nginx/sites-enabled/rails-app.conf /run/readme-shims/*.pid
`;
    });
    const script = String.raw`
${appPrecondition({ root, domain: DOMAIN, revision: 'r1' })}
cp -a ${root} /tmp/app-prepared
echo "seconds-precondition=$SECONDS"
# Whichever servers a bundle ran: the others are not running, and errexit must not end this early.
stop_servers() {
  for p in /run/readme-shims/*.pid; do [ -f "$p" ] && kill -TERM -- "-$(cat "$p")" 2>/dev/null; done
  nginx -s quit 2>/dev/null || true; apache2ctl stop 2>/dev/null || true
  # Passenger Standalone's agents leave the shim's process group (systemd's KillMode=control-group would reach them):
  # stop them by the PID file the unit names, and wait (bounded) until no Passenger instance is registered.
  [ -f ${root}/tmp/pids/passenger.pid ] && kill -TERM "$(cat ${root}/tmp/pids/passenger.pid)" 2>/dev/null || true
  for _ in $(seq 1 300); do ls -d /run/passenger-instreg/passenger.* /tmp/passenger.* >/dev/null 2>&1 || break; sleep 0.2; done
  for _ in $(seq 1 100); do pgrep -x 'apache2|nginx' >/dev/null || break; sleep 0.2; done; true; }
stop_all() { rc=$?; [ $rc = 0 ] || for l in /var/log/rails-app.log /var/log/apache2/error.log; do [ -f $l ] && { echo "--- $l"; tail -25 $l; }; done
  stop_servers; pg_ctlcluster 17 main stop 2>/dev/null || true; return $rc; }
trap stop_all EXIT
${parts.join('\n')}
`;
    return await labScript(script, { timeout: 600, services: true });
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

// Short diagnostics for a failure: the last lines of the output.
const tail = (text) => text.split('\n').slice(-60).join('\n');

// The output of bundle NAME (after its "=== NAME" line, up to the next one).
const section = (stdout, name) => (stdout.split(/^=== /m).find((p) => p.startsWith(`${name}\n`)) || '');

function assertServed(out, { name, pool }) {
  for (const n of STEPS) assert.match(out, new RegExp(`^step${n}=ok$`, 'm'), `${name}: README step ${n}\n${tail(out)}`);
  assert.match(out, /^up=200$/m, `${name}\n${tail(out)}`);
  assert.match(out, /^before=r1$/m, `${name}: the app booted with release r1\n${tail(out)}`);
  assert.match(out, /^after=r2$/m, `${name}: the restart loaded the new code\n${tail(out)}`);
  const load = /^load requests=(\d+) failed=(\d+) slowest-s=([\d.]+)$/m.exec(out);
  assert.ok(load, `${name}\n${tail(out)}`);
  assert.ok(Number(load[1]) >= 20, `${name}: the load ran (${load[0]})`);
  assert.equal(Number(load[2]), 0, `${name}: no failed request while Passenger restarted the app: ${out.split('\n').filter((l) => l.startsWith('load ')).join('\n')}`);
  assert.match(out, /^load seen: \d+ r1 200$/m, `${name}: the old code answered under the load`);
  assert.match(out, /^load seen: \d+ r2 200$/m, `${name}: the new code answered under the load`);
  assert.match(out, new RegExp(`^max-pool-size=${pool}$`, 'm'), `${name}: Passenger runs with the bundle's pool size ${pool}\n${tail(out)}`);
  console.log(`${name}:\n${out.split('\n').filter((l) => /^(up|before|after|max-pool-size|processes|passenger|app-env|seconds-[a-z]+)=|^load /.test(l)).join('\n')}`);
}

// What every proof checks after the README: /up over HTTPS, the release answering, Passenger's own view of its pool.
const CHECKS = String.raw`
H="-sS --max-time 20"
echo "up=$(curl $H -o /dev/null -w '%{http_code}' https://${DOMAIN}/up)"
echo "before=$(curl $H https://${DOMAIN}/faults/release)"
echo "passenger=$(passenger --version | head -1)"
pool_status() { passenger-status 2>&1 | sed -n 's/^Max pool size *: *//p' | head -1; }
`;
// Reload under load: CMD restarts the app into r2; the loop waits (bounded) until r2 answers.
const reloadUnderLoad = (cmd) => loadAround({ tag: 'load', timeoutS: 60, url: `https://${DOMAIN}/faults/release`, cmd: `${cmd}
for i in $(seq 1 120); do [ "$(curl -s --max-time 5 https://${DOMAIN}/faults/release)" = r2 ] && break; sleep 0.5; done` });
const AFTER = String.raw`
echo "after=$(curl $H https://${DOMAIN}/faults/release)"
echo "processes=$(passenger-status 2>&1 | grep -c '^ *\* PID' || true)"
`;

test('lab: Passenger Standalone behind nginx and Passenger inside Apache, applied by their READMEs, serve the app over HTTPS and restart into new code without a failed request', { timeout: 900000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  // Standalone behind nginx (the wizard's default edge).
  const standalone = generate({ domain: DOMAIN, server: 'passenger' }, { date: '2026-11-25' });
  assert.deepEqual(standalone.warnings.filter((w) => w.severity === 'error'), [], 'no error for the Standalone answers');
  const unit = standalone.files.find((f) => f.path === 'etc/systemd/system/rails-app.service').content;
  const saPool = /--max-pool-size (\d+)/.exec(unit)[1];
  assert.match(unit, /^ExecStart=\/usr\/bin\/passenger start \/var\/www\/app\/current --engine builtin /m, 'Debian\'s passenger, the builtin engine, the current link');
  assert.match(standalone.files.find((f) => f.path === 'README.md').content, /^command -v passenger >\/dev\/null \|\| apt-get install -y passenger$/m, 'README step 1 installs Debian\'s passenger');
  // Inside Apache, on 8 GB: on the default 4 GB host the wizard reports this stack over its memory budget (Action
  // Cable's process group needs a process of its own beside the app's), an error the README would not let stand.
  const apache = generate({ domain: DOMAIN, server: 'passenger', proxy: 'apache', ram_gb: 8 }, { date: '2026-11-25' });
  assert.deepEqual(apache.warnings.filter((w) => w.severity === 'error'), [], 'no error for the Apache answers');
  const apPool = /^PassengerMaxPoolSize (\d+)$/m.exec(apache.files.find((f) => f.path === 'etc/apache2/sites-available/rails-app.conf').content)[1];
  const apReadme = apache.files.find((f) => f.path === 'README.md').content;
  assert.match(apReadme, /^test -e \/usr\/lib\/apache2\/modules\/mod_passenger\.so >\/dev\/null \|\| apt-get install -y libapache2-mod-passenger$/m, 'README step 1 installs Debian\'s module');
  // Releases as for every other server (SRE check 5, D8): Apache serves current/public and Passenger runs current;
  // deploy.sh's restart_app restarts it with passenger-config (the job unit's restart after it is left out here).
  assert.match(apache.files.find((f) => f.path === 'etc/apache2/sites-available/rails-app.conf').content, /^\s*PassengerAppRoot \/var\/www\/app\/current$/m);
  const restart = /^restart_app\(\) \{ (\/usr\/bin\/passenger-config restart-app \S+ --ignore-app-not-running) /m.exec(apache.files.find((f) => f.path === 'deploy.sh').content)?.[1];
  assert.ok(restart, 'deploy.sh restarts the app with passenger-config');

  const r = await applyReadmes([
    // A new release as deploy.sh builds one (a copy of the live one with its own REVISION), switched to the way
    // deploy.sh switches (ln -sfn + mv -T), then the unit's reload: what deploy.sh's restart_app runs.
    { name: 'standalone', bundle: standalone, after: String.raw`${CHECKS}
echo "max-pool-size=$(pool_status)"
NEW=${root}/releases/r2; cp -a "$(readlink -f ${root}/current)" $NEW && echo r2 > $NEW/REVISION
${reloadUnderLoad(`ln -sfn releases/r2 ${root}/current.new && mv -T ${root}/current.new ${root}/current && systemctl reload rails-app`)}
${AFTER}` },
    // The app's processes get the secrets through the PassengerRuby wrapper, Apache's own processes never do (their
    // environments are read from /proc).
    // Then deploy.sh's own rollback, under the same load: back to the first release, restarted with passenger-config.
    { name: 'apache', bundle: apache, after: (B) => String.raw`${CHECKS}
for i in $(seq 1 120); do [ "$(passenger-status 2>/dev/null | grep -c '^ *\* PID' || true)" -ge 1 ] && break; sleep 0.5; done
echo "max-pool-size=$(pool_status)"
echo "app-env=$(tr '\0' '\n' < /proc/$(pgrep -f -o '^Passenger (AppPreloader|RubyApp)')/environ | grep -c '^DATABASE_PASSWORD=readme-' || true)"
echo "apache-env=$(tr '\0' '\n' < /proc/$(pgrep -o -x apache2)/environ | grep -c '^DATABASE_PASSWORD=' || true)"
NEW=${root}/releases/r2; cp -a "$(readlink -f ${root}/current)" $NEW && echo r2 > $NEW/REVISION
${reloadUnderLoad(`ln -sfn releases/r2 ${root}/current.new && mv -T ${root}/current.new ${root}/current && ${restart}`)}
echo "app-root=$(readlink -f /proc/$(pgrep -f -n '^Passenger (AppPreloader|RubyApp)')/cwd)"
${AFTER}
${loadAround({ tag: 'rollback', timeoutS: 60, url: `https://${DOMAIN}/faults/release`, cmd: `sh ${B}/deploy.sh rollback
for i in $(seq 1 120); do [ "$(curl -s --max-time 5 https://${DOMAIN}/faults/release)" = r1 ] && break; sleep 0.5; done` })}
echo "rolled-back=$(curl $H https://${DOMAIN}/faults/release) current=$(readlink ${root}/current)"` },
  ]);
  assert.equal(r.code, 0, `${tail(r.stdout)}\n--- stderr\n${tail(r.stderr)}`);
  console.log(/^seconds-precondition=\d+$/m.exec(r.stdout)?.[0]);
  const sa = section(r.stdout, 'standalone');
  assertServed(sa, { name: 'standalone', pool: saPool });
  assert.match(sa, /^systemctl enable --now rails-app\.service rails-jobs\.service$/m, 'README step 6 started the unit');
  assert.match(sa, /^systemctl reload rails-app$/m);
  const ap = section(r.stdout, 'apache');
  assertServed(ap, { name: 'apache', pool: apPool });
  assert.match(ap, /^app-env=1$/m, `the app process has the secrets from the PassengerRuby wrapper\n${tail(ap)}`);
  assert.match(ap, /^apache-env=0$/m, `Apache's own environment has no secrets\n${tail(ap)}`);
  assert.match(ap, /^systemctl restart apache2$/m, 'README step 6 restarted Apache');
  assert.match(ap, /^app-root=\/var\/www\/app\/releases\/r2$/m, `after the switch Passenger's processes run in the new release\n${tail(ap)}`);
  // deploy.sh rollback: current back at the first release (init's), r1 answering, no failed request meanwhile.
  assert.match(ap, /^deploy\.sh: rolled back from r2 to \d{14}$/m, `deploy.sh rollback ran\n${tail(ap)}`);
  assert.match(ap, /^rolled-back=r1 current=releases\/\d{14}$/m, tail(ap));
  const back = /^rollback requests=(\d+) failed=(\d+) slowest-s=([\d.]+)$/m.exec(ap);
  assert.ok(back && Number(back[1]) >= 20, `the load ran during the rollback\n${tail(ap)}`);
  assert.equal(Number(back[2]), 0, `no failed request during deploy.sh rollback: ${back[0]}`);
  console.log(ap.split('\n').filter((l) => /^(rollback |rolled-back|deploy\.sh: )/.test(l)).join('\n'));
});
