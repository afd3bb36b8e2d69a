// Proof in the lab (Debian 13, Debian's passenger and libapache2-mod-passenger 6.0.26 from the lab's services layer,
// Rails 8.1 reference app) that the Passenger bundles work when applied by their own README: the shell blocks of
// steps 1–6 run as written, as root, with the shims of tests/wizard/lab/readme-shims (systemctl runs the units and
// drives Debian's nginx and Apache; certbot signs with a test CA). Debian's nginx has no Passenger module, so the
// wizard offers Passenger two ways, and both are booted here:
//   - Passenger Standalone (builtin engine) behind nginx, started by the bundle's unit;
//   - Passenger inside Apache (libapache2-mod-passenger), no unit of its own.
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

// Applies BUNDLE's README steps in the lab, then runs AFTER (shell); resolves the lab's {code, stdout, stderr}.
async function applyReadme(bundle, prefix, after) {
  const readme = bundle.files.find((f) => f.path === 'README.md').content;
  const steps = readmeSteps(readme);
  for (const n of STEPS) assert.ok(steps.has(n), `README has a shell block for step ${n}`);
  const { dir, inLab: B } = writeBundle(bundle, prefix);
  try {
    const script = String.raw`
${appPrecondition({ root, domain: DOMAIN, revision: 'r1' })}
stop_all() { rc=$?; [ $rc = 0 ] || for l in /var/log/rails-app.log /var/log/apache2/error.log; do [ -f $l ] && { echo "--- $l"; tail -25 $l; }; done
  for p in /run/readme-shims/*.pid; do [ -f "$p" ] && kill -TERM -- "-$(cat "$p")" 2>/dev/null; done
  # Whichever server this bundle ran: the others are not running, and errexit must not end the trap early.
  nginx -s quit 2>/dev/null || true; apache2ctl stop 2>/dev/null || true; pg_ctlcluster 17 main stop 2>/dev/null || true; return $rc; }
trap stop_all EXIT
${STEPS.map((n) => stepScript(steps, n, { cd: B })).join('\n')}
${after}
echo "--- shim calls"; cat /var/log/readme-shims.log
`;
    return await labScript(script, { timeout: 420, services: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Short diagnostics for a failure: the step markers and the last lines of the output.
const tail = (r) => `${r.stdout.split('\n').slice(-60).join('\n')}\n--- stderr\n${r.stderr.split('\n').slice(-30).join('\n')}`;

function assertServed(r, { pool, tag }) {
  assert.equal(r.code, 0, tail(r));
  for (const n of STEPS) assert.match(r.stdout, new RegExp(`^step${n}=ok$`, 'm'), tail(r));
  assert.match(r.stdout, /^up=200$/m, tail(r));
  assert.match(r.stdout, /^before=r1$/m, `the app booted with release r1\n${tail(r)}`);
  assert.match(r.stdout, /^after=r2$/m, `the reload loaded the new code\n${tail(r)}`);
  const load = new RegExp(`^${tag} requests=(\\d+) failed=(\\d+) slowest-s=([\\d.]+)$`, 'm').exec(r.stdout);
  assert.ok(load, tail(r));
  assert.ok(Number(load[1]) >= 20, `the load ran (${load[0]})`);
  assert.equal(Number(load[2]), 0, `no failed request while Passenger restarted the app: ${r.stdout.split('\n').filter((l) => l.startsWith(`${tag} `)).join('\n')}`);
  assert.match(r.stdout, new RegExp(`^${tag} seen: \\d+ r1 200$`, 'm'), 'the old code answered under the load');
  assert.match(r.stdout, new RegExp(`^${tag} seen: \\d+ r2 200$`, 'm'), 'the new code answered under the load');
  assert.match(r.stdout, new RegExp(`^max-pool-size=${pool}$`, 'm'), `Passenger runs with the bundle's pool size ${pool}\n${tail(r)}`);
  console.log(r.stdout.split('\n').filter((l) => /^(step\d|up|before|after|max-pool-size|processes|passenger)=|^load /.test(l)).join('\n'));
}

// What every proof checks after the README: /up over HTTPS, the release answering, Passenger's own view of its pool.
const CHECKS = String.raw`
H="-sS --max-time 20"
echo "up=$(curl $H -o /dev/null -w '%{http_code}' https://${DOMAIN}/up)"
echo "before=$(curl $H https://${DOMAIN}/faults/release)"
echo "passenger=$(passenger --version | head -1)"
pool_status() { passenger-status 2>&1 | sed -n 's/^Max pool size *: *//p' | head -1; }
`;

test('lab: Passenger Standalone behind nginx, applied by its README, serves the app over HTTPS and reloads new code without a failed request', { timeout: 600000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const bundle = generate({ domain: DOMAIN, server: 'passenger' }, { date: '2026-11-25' });
  assert.deepEqual(bundle.warnings.filter((w) => w.level === 'error'), [], 'no error for these answers');
  const unit = bundle.files.find((f) => f.path === 'etc/systemd/system/rails-app.service').content;
  const pool = /--max-pool-size (\d+)/.exec(unit)[1];
  assert.match(unit, /^ExecStart=\/usr\/bin\/passenger start \/var\/www\/app\/current --engine builtin /m, 'Debian\'s passenger, the builtin engine, the current link');
  const readme = bundle.files.find((f) => f.path === 'README.md').content;
  assert.match(readme, /^command -v passenger >\/dev\/null \|\| apt-get install -y passenger$/m, 'README step 1 installs Debian\'s passenger');
  // A new release as deploy.sh builds one (a copy of the live one with its own REVISION), switched to the way
  // deploy.sh switches (ln -sfn + mv -T), then the unit's reload: what deploy.sh's restart_app runs.
  const r = await applyReadme(bundle, '.wizard-passenger-sa-', String.raw`
${CHECKS}
echo "max-pool-size=$(pool_status)"
NEW=${root}/releases/r2; cp -a "$(readlink -f ${root}/current)" $NEW && echo r2 > $NEW/REVISION
${loadAround({ tag: 'load', timeoutS: 60, url: `https://${DOMAIN}/faults/release`, cmd: `ln -sfn releases/r2 ${root}/current.new && mv -T ${root}/current.new ${root}/current && systemctl reload rails-app
for i in $(seq 1 120); do [ "$(curl -s --max-time 5 https://${DOMAIN}/faults/release)" = r2 ] && break; sleep 0.5; done` })}
echo "after=$(curl $H https://${DOMAIN}/faults/release)"
echo "processes=$(passenger-status 2>&1 | grep -c '^ *\* PID' || true)"
`);
  assertServed(r, { pool, tag: 'load' });
  assert.match(r.stdout, /^systemctl enable --now rails-app\.service rails-jobs\.service$/m, 'README step 6 started the unit');
  assert.match(r.stdout, /^systemctl reload rails-app$/m);
});

test('lab: Passenger inside Apache, applied by its README, serves the app over HTTPS and restarts into new code without a failed request', { timeout: 600000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  // 8 GB: on the default 4 GB host the wizard reports this stack over its memory budget (Action Cable's process
  // group needs a process of its own beside the app's), an error the README would not let stand.
  const bundle = generate({ domain: DOMAIN, server: 'passenger', proxy: 'apache', ram_gb: 8 }, { date: '2026-11-25' });
  assert.deepEqual(bundle.warnings.filter((w) => w.level === 'error'), [], 'no error for these answers');
  const site = bundle.files.find((f) => f.path === 'etc/apache2/sites-available/rails-app.conf').content;
  const pool = /^PassengerMaxPoolSize (\d+)$/m.exec(site)[1];
  const readme = bundle.files.find((f) => f.path === 'README.md').content;
  assert.match(readme, /^test -e \/usr\/lib\/apache2\/modules\/mod_passenger\.so >\/dev\/null \|\| apt-get install -y libapache2-mod-passenger$/m, 'README step 1 installs Debian\'s module');
  // README step 7's restart line (after its bundle install, assets and migrations, which this code change skips).
  const restart = readmeSteps(readme).get(7).join('\n').split('\n').find((l) => l.startsWith('/usr/bin/passenger-config restart-app'));
  assert.ok(restart, 'README step 7 restarts the app with passenger-config');
  const r = await applyReadme(bundle, '.wizard-passenger-ap-', String.raw`
${CHECKS}
for i in $(seq 1 120); do [ "$(passenger-status 2>/dev/null | grep -c '^ *\* PID' || true)" -ge 1 ] && break; sleep 0.5; done
echo "max-pool-size=$(pool_status)"
echo "app-env=$(tr '\0' '\n' < /proc/$(pgrep -f -o '^Passenger AppPreloader|^Passenger RubyApp')/environ | grep -c '^DATABASE_PASSWORD=readme-' || true)"
echo r2 > ${root}/REVISION
${loadAround({ tag: 'load', timeoutS: 60, url: `https://${DOMAIN}/faults/release`, cmd: `${restart}
for i in $(seq 1 120); do [ "$(curl -s --max-time 5 https://${DOMAIN}/faults/release)" = r2 ] && break; sleep 0.5; done` })}
echo "after=$(curl $H https://${DOMAIN}/faults/release)"
echo "processes=$(passenger-status 2>&1 | grep -c '^ *\* PID' || true)"
`);
  assertServed(r, { pool, tag: 'load' });
  assert.match(r.stdout, /^app-env=1$/m, `the app process has the secrets from Apache's drop-in\n${tail(r)}`);
  assert.match(r.stdout, /^systemctl restart apache2$/m, 'README step 6 restarted Apache');
});
