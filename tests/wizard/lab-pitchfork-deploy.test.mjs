// Pitchfork under the generated bundle's deploy step, in the lab (Debian 13, Ruby 3.3, pitchfork 0.18.2 from the
// reference app's Gemfile.lock). Pitchfork has no reload that loads new code: its docs repurpose USR2 for
// reforking ("Remove ExecReload from your Systemd unit file… Reloading is not a supported feature of Pitchfork",
// docs/MIGRATING_FROM_UNICORN.md) and leave daemon features to systemd or containers (docs/PHILOSOPHY.md). Its only
// same-host way to run two instances side by side, `listen …, reuseport: true`, works for TCP ports only and its
// docs warn that connections can be dropped when one instance stops. So the bundle has no ExecReload and README
// step 7 says `systemctl restart`, with connections refused while the server boots. This test proves both halves
// with the generated config/pitchfork.rb and the unit's own ExecStart and KillSignal, under load (4 clients on
// the Unix socket): USR2 (what an ExecReload would send) keeps the old code answering; the restart (KillSignal,
// wait for the exit, ExecStart again) answers the new code. The failed requests during the restart are counted
// and printed (they are the downtime README step 7 warns about), not asserted to be zero.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { generate } from '../../guide/engine/index.mjs';
import { serviceSection } from './unit-file.mjs';

const ROOT = '/tmp/pf-app';

test('lab: Pitchfork USR2 keeps the old code; the bundle\'s `systemctl restart` loads the new code (downtime counted)', { timeout: 300000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const bundle = generate({ server: 'pitchfork', server_version: '0.18', jobs: 'none', cores: 2, tls: 'none' }, { appRoot: ROOT, date: '2026-11-25' });
  const unit = serviceSection(bundle.files.find((f) => f.path === 'etc/systemd/system/rails-app.service').content);
  assert.equal(unit.ExecReload, undefined, 'no ExecReload: Pitchfork\'s USR2 does not load new code');
  assert.deepEqual(unit.KillSignal, ['SIGQUIT']);
  // README step 7 deploys with deploy.sh (release directories), which restarts Pitchfork rather than reloading it.
  const deploy = bundle.files.find((f) => f.path === 'deploy.sh').content;
  assert.match(deploy, /^restart_app\(\) \{ systemctl restart rails-app; \}$/m, 'deploy.sh restarts Pitchfork');
  assert.match(bundle.files.find((f) => f.path === 'README.md').content, /^sh deploy\.sh deploy /m, 'README step 7 runs deploy.sh');
  const start = unit.ExecStart[0].replace(/^\/usr\/bin\/bundle /, 'bundle ');
  assert.match(start, /^bundle exec pitchfork -c config\/pitchfork\.rb$/);
  const { dir, inLab: B } = writeBundle(bundle, '.wizard-pitchfork-');
  try {
    const script = String.raw`
export BUNDLE_GEMFILE=/repo/lab/app/Gemfile RACK_ENV=production
mkdir -p ${ROOT}/config ${ROOT}/tmp/sockets ${ROOT}/log && cp ${B}/config/pitchfork.rb ${ROOT}/config/
cd ${ROOT}
echo v1 > VERSION
# Like a Rails app: config.ru requires the application, which reads its code once at boot.
echo 'APP_VERSION = File.read(File.expand_path("../VERSION", __dir__)).strip' > config/environment.rb
printf '%s\n' 'require_relative "config/environment"' 'run lambda { |env| sleep 0.02; [200, { "content-type" => "text/plain" }, [APP_VERSION]] }' > config.ru
S=${ROOT}/tmp/sockets/pitchfork.sock
get() { curl -s --max-time 10 --unix-socket $S -w ' %{http_code}\n' http://app/ 2>/dev/null || echo "error $?"; }
serve() { (exec ${start}) >>log/pitchfork.log 2>&1 & PF=$!; }
ready() { for i in $(seq 1 300); do case "$(get)" in "$1 200") return 0;; esac; sleep 0.1; done; tail -20 log/pitchfork.log; return 1; }
serve; ready v1
echo v2 > VERSION
# What an ExecReload=kill -USR2 would do: a refork from a warm worker, the same code.
N=$(grep -c 'mold.* ready' log/pitchfork.log || true)
kill -USR2 $PF
for i in $(seq 1 100); do [ "$(grep -c 'mold.* ready' log/pitchfork.log || true)" -gt "$N" ] && break; sleep 0.1; done
echo "reforked=$(( $(grep -c 'mold.* ready' log/pitchfork.log || true) - N ))"; sleep 1
for i in $(seq 1 8); do get; done | sort -u | sed 's/^/after-usr2=/'
# The deploy under load: 4 clients until a stop file appears.
rm -f /tmp/stop; for c in 1 2 3 4; do (while [ ! -e /tmp/stop ]; do get; done > /tmp/load.$c) & done
sleep 1
T0=$(date +%s%N)
kill -QUIT $PF; wait $PF || true
serve; ready v2
echo "restart-ms=$(( ($(date +%s%N) - T0) / 1000000 ))"
sleep 1; touch /tmp/stop; wait $(jobs -p | grep -v "^$PF$") 2>/dev/null || true
cat /tmp/load.* > /tmp/all
echo "v1=$(grep -c '^v1 200$' /tmp/all || true) v2=$(grep -c '^v2 200$' /tmp/all || true) failed=$(grep -vc '^v[12] 200$' /tmp/all || true)"
kill -QUIT $PF; wait $PF || true
`;
    const r = await labScript(script, { timeout: 240 });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.code, 0, out);
    assert.match(r.stdout, /^reforked=[1-9]/m, `USR2 promoted a new mold: ${out}`);
    assert.match(r.stdout, /^after-usr2=v1 200$/m, `USR2 left the old code answering: ${out}`);
    assert.doesNotMatch(r.stdout, /^after-usr2=v2/m, out);
    const m = /^v1=(\d+) v2=(\d+) failed=(\d+)$/m.exec(r.stdout);
    assert.ok(m, out);
    const [v1, v2, failed] = m.slice(1).map(Number);
    assert.ok(v1 > 0 && v2 > 0, `the version changed from v1 to v2 under load: ${m[0]}`);
    console.log(`pitchfork restart under 4 clients: ${v1} v1, ${v2} v2, ${failed} failed; ${/restart-ms=\d+/.exec(r.stdout)?.[0]}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
