// Proof in the lab that the wizard's WEBrick bundle serves the reference app (Rails 8.1, Ruby 3.3): README steps 1–6
// run as written (helpers/readme-lab.mjs, as lab-falcon-thin.test.mjs does), after what the bundle's warning asks of
// the app first: Ruby 3.0 took WEBrick out of Ruby and Rails' Gemfile does not list it, so the Gemfile gets
// `gem "webrick"`. The lab installs nothing from the network and its gem layer is the reference app's lock file
// (changing lab/app/Gemfile would rebuild it for everyone): the gem is Debian's ruby-webrick, which the lab's base
// already has, added to the copy of the app as a path gem and locked with `bundle lock --local`.
//
// The unit runs `rails server -u webrick` (named: unnamed, Rails would start Puma, which the Gemfile also has).
// WEBrick has no reload: a deploy is `systemctl restart rails-app` (capabilities/process.mjs, deploy: 'restart').
// Under 4 HTTPS clients through nginx the test restarts onto a second release and counts every answer: the new
// release answers afterwards, and the requests that fail while WEBrick is down (nginx answers 502) are counted and
// printed — the downtime the warning states — not asserted to be zero.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, writeBundle } from '../helpers/lab.mjs';
import { generate, DEFAULTS } from '../../guide/engine/index.mjs';
import { readmeScript, runReadmeProof } from '../helpers/readme-lab.mjs';
import { serviceSection } from './unit-file.mjs';

const DOMAIN = 'app.test';
const ROOT = DEFAULTS.app_root;

test('lab: the WEBrick bundle, with the gem its warning asks for, serves the app by README steps 1–6; `systemctl restart` loads a new release (refusals counted)', { timeout: 900_000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const bundle = generate({ domain: DOMAIN, server: 'webrick', server_version: '1.9', jobs: 'none', database: 'sqlite', adapter: 'sqlite3' }, { date: '2026-11-26' });
  assert.deepEqual(bundle.warnings.filter((w) => w.severity === 'error'), [], 'no error for these answers');
  const warning = bundle.warnings.find((w) => w.id === 'webrick-in-production');
  assert.match(warning.message, /add `gem "webrick"` to the Gemfile/);
  const readme = bundle.files.find((f) => f.path === 'README.md').content;
  assert.match(readme, /add `gem "webrick"` to the Gemfile/, 'README says the Gemfile needs the gem');
  assert.match(readme, /the server WEBrick \(tests\/wizard\/lab-webrick-bundle\.test\.mjs\)/, 'README names this proof');
  const unit = serviceSection(bundle.files.find((f) => f.path === 'etc/systemd/system/rails-app.service').content);
  assert.deepEqual(unit.Type, ['exec']);
  assert.equal(unit.ExecReload, undefined, 'WEBrick has no reload');
  assert.match(unit.ExecStart[0], /^\/usr\/bin\/bundle exec bin\/rails server -u webrick -e production -b 127\.0\.0\.1 -p \d+$/);
  const port = /-p (\d+)$/.exec(unit.ExecStart[0])[1];
  assert.match(bundle.files.find((f) => f.path === 'deploy.sh').content, /^restart_app\(\) \{ systemctl restart rails-app; \}$/m);
  const prepare = String.raw`
W=$(ls -d /usr/share/rubygems-integration/all/gems/webrick-* | sort -V | tail -1); V=${'$'}{W##*-}
install -d /opt/webrick && cp -a "$W/." /opt/webrick/ && cp "/usr/share/rubygems-integration/all/specifications/webrick-$V.gemspec" /opt/webrick/webrick.gemspec
printf 'gem "webrick", path: "/opt/webrick"\n' >> ${ROOT}/Gemfile
sed -i '/BUNDLE_FROZEN/d' ${ROOT}/.bundle/config
(cd ${ROOT} && bundle lock --local >/tmp/lock.log 2>&1) || { tail -20 /tmp/lock.log; exit 1; }
printf 'BUNDLE_FROZEN: "true"\n' >> ${ROOT}/.bundle/config
echo "gemfile=$(grep -c '^    webrick ' ${ROOT}/Gemfile.lock) webrick-$V"
`;
  const { dir, inLab: B } = writeBundle(bundle, '.wizard-webrick-');
  try {
    const script = `${readmeScript(bundle, B, { domain: DOMAIN, prepare })}
# The server processes (runuser, which starts the unit's command as its user, left out), the server's PID, and the
# Server header the app's port answers with (WEBrick names itself; nginx's edge hides it).
servers() { echo "webrick=$(ps -eo comm=,args= | grep -v '^runuser' | grep -c '[b]in/rails server -u webrick' || true) puma=$(ps -eo args= | grep -c '^[p]uma ' || true) pid=$(ps -eo pid=,comm=,args= | grep -v ' runuser ' | grep '[b]in/rails server -u webrick' | awk '{ print $1 }' | head -1) server=$(curl -s --max-time 10 -o /dev/null -w '%header{server}' http://127.0.0.1:${port}/up | cut -d' ' -f1)"; }
echo "before $(servers)"
switch_under_load restart 2 systemctl restart rails-app
echo "after-restart $(servers)"
echo "--- shim calls"; cat /var/log/readme-shims.log
`;
    const { r, out, seconds } = await runReadmeProof(script);
    assert.match(r.stdout, /^gemfile=1 webrick-[\d.]+$/m, `the app's lock file has webrick: ${out}`);
    assert.match(r.stdout, /^page=200$/m, out);
    const before = /^before webrick=1 puma=0 pid=(\d+) server=WEBrick\/[\d.]+$/m.exec(r.stdout);
    assert.ok(before, `WEBrick serves, not Puma: ${out}`);
    const m = /^load v1=(\d+) v2=(\d+) failed=(\d+)$/m.exec(r.stdout);
    assert.ok(m, out);
    const [v1, v2, failed] = m.slice(1).map(Number);
    assert.ok(v1 > 0 && v2 > 0, `the version changed from v1 to v2 under load: ${m[0]}\n${out}`);
    assert.match(r.stdout, /^after=200 v2 $/m, `only the new release answers after the restart: ${out}`);
    const after = /^after-restart webrick=1 puma=0 pid=(\d+) server=WEBrick\/[\d.]+$/m.exec(r.stdout);
    assert.ok(after && after[1] !== before[1], `one WEBrick again, a new process: ${out}`);
    assert.match(r.stdout, /^systemctl restart rails-app$/m, out);
    const ms = /^restart-ms=(\d+)$/m.exec(r.stdout)?.[1];
    console.log(r.stdout.split('\n').filter((l) => /^(gemfile|step\d|up|page|before|load |restart-ms|after)/.test(l)).join('\n'));
    console.log(`webrick restart under 4 clients: ${v1} v1, ${v2} v2, ${failed} failed (refused while WEBrick boots), first v2 after ${ms} ms; lab run: ${seconds()} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
