// Unicorn's `systemctl reload` under load loads new application code with zero failed requests. The server runs
// the generated config/unicorn.rb (preload_app true, the before_fork handover) from the unit's own ExecStart (with
// -D: Type=forking), in a temporary app root on a Unix socket; systemd is not PID 1 here, so the test does what the
// unit tells systemd to do: read PIDFile for the main PID, run ExecReload with $MAINPID, and, when the main process
// exits, read PIDFile again (systemd.service: a forking service may move to a new PID if it updates the file
// before the old one exits). The app, like a Rails app, requires its code from config.ru and answers the version
// it read at boot. Control: HUP (the old ExecReload) re-runs config.ru in the master, but `require` does not load
// the code again, so the old version keeps answering: why the unit no longer sends it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync, chmodSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../../guide/engine/index.mjs';
import { REPO } from './validators.mjs';
import { serviceSection } from './unit-file.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

function get(sock) {
  return new Promise((resolve) => {
    const req = request({ socketPath: sock, path: '/', timeout: 10000, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve(res.statusCode === 200 ? body : `HTTP ${res.statusCode}`));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve(`error ${e.code || e.message}`));
    req.end();
  });
}

/** Four clients in a loop until stop() is called; resolves to every answer in order. */
function load(sock) {
  let running = true;
  const answers = [];
  const clients = Array.from({ length: 4 }, async () => { while (running) answers.push(await get(sock)); });
  return { answers, stop: async () => { running = false; await Promise.all(clients); return answers; } };
}

async function until(what, fn, ms = 60000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

test('unicorn: systemctl reload (the unit\'s ExecReload) loads new code under load, zero failed requests; HUP does not', { timeout: 120000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'wz-reload-unicorn-'));
  chmodSync(root, 0o755);
  symlinkSync('.', join(root, 'current')); // the release layout's link (deploy.sh), here to the one release: the root
  for (const d of ['tmp/sockets', 'tmp/pids', 'log', 'config']) mkdirSync(join(root, d), { recursive: true });
  const bundle = generate({ server: 'unicorn', server_version: '6.1', jobs: 'none', cores: 2, tls: 'none' }, { appRoot: root, date: '2026-01-01' });
  const file = (p) => bundle.files.find((f) => f.path === p).content;
  writeFileSync(join(root, 'config/unicorn.rb'), file('config/unicorn.rb'));
  writeFileSync(join(root, 'VERSION'), 'v1\n');
  // Like a Rails app: config.ru requires the application (config/environment.rb), which reads its code at boot.
  writeFileSync(join(root, 'config/environment.rb'), 'APP_VERSION = File.read(File.expand_path("../VERSION", __dir__)).strip\n');
  writeFileSync(join(root, 'config.ru'), 'require_relative "config/environment"\nrun lambda { |env| sleep 0.05; [200, { "content-type" => "text/plain" }, [APP_VERSION]] }\n');
  const unit = serviceSection(file('etc/systemd/system/rails-app.service'));
  assert.deepEqual(unit.Type, ['forking']);
  assert.deepEqual(unit.PIDFile, [join(root, 'tmp/pids/unicorn.pid')]);
  assert.deepEqual(unit.ExecReload, ['/bin/kill -USR2 $MAINPID']);
  const env = { ...process.env, BUNDLE_GEMFILE: join(REPO, 'Gemfile'), BUNDLE_PATH: join(REPO, 'vendor', 'bundle'), RACK_ENV: 'production' };
  const argv = unit.ExecStart[0].split(' ');
  const sock = join(root, 'tmp/sockets/unicorn.sock');
  const pidOf = () => { try { return Number(readFileSync(unit.PIDFile[0], 'utf8').trim()) || 0; } catch { return 0; } };
  const pids = new Set();
  try {
    // Type=forking: ExecStart returns once the daemon runs; then the PID file names the main process.
    const start = spawnSync(argv[0], argv.slice(1), { cwd: unit.WorkingDirectory[0], env, encoding: 'utf8', timeout: 60000 });
    assert.equal(start.status, 0, `ExecStart failed: ${start.stderr}`);
    let main = pidOf();
    pids.add(main);
    assert.ok(alive(main), 'PIDFile names a live master');
    assert.equal(await get(sock), 'v1');
    writeFileSync(join(root, 'VERSION'), 'v2\n');

    // Control: HUP reloads unicorn.rb only; the preloaded application keeps answering v1.
    process.kill(main, 'SIGHUP');
    await sleep(3000);
    const afterHup = await Promise.all(Array.from({ length: 8 }, () => get(sock)));
    assert.deepEqual([...new Set(afterHup)], ['v1'], 'HUP left the old code running');

    // The unit's reload, under load.
    const l = load(sock);
    await sleep(500);
    const reload = unit.ExecReload[0].replace('$MAINPID', String(main)).split(' ');
    assert.equal(spawnSync(reload[0], reload.slice(1)).status, 0);
    await until('the old master to exit', () => !alive(main));
    // What systemd does when the main process exits: read PIDFile again.
    const next = pidOf();
    pids.add(next);
    assert.notEqual(next, main, 'unicorn.pid names the new master');
    assert.ok(alive(next), 'the new master runs');
    main = next;
    await until('answers from the new code', () => l.answers.slice(-8).length === 8 && l.answers.slice(-8).every((a) => a === 'v2'));
    await sleep(500);
    const answers = await l.stop();
    const failed = answers.filter((a) => a !== 'v1' && a !== 'v2');
    assert.deepEqual(failed, [], `failed requests during the reload: ${failed.slice(0, 5)}`);
    assert.ok(answers.includes('v1') && answers.at(-1) === 'v2', 'the version changed from v1 to v2 during the run');
    console.log(`unicorn reload: ${answers.length} requests under 4 clients, ${answers.filter((a) => a === 'v1').length} v1 then v2, 0 failed; main PID moved ${[...pids].join(' → ')}`);

    // deploy.sh's restart_app for Unicorn (reload, then wait_handover): returns 0 once a new master replaced the old
    // one, and 1 when the new code cannot boot (the old master takes its PID file back and keeps serving), instead
    // of trusting an /up check the old master would answer.
    const deploy = file('deploy.sh');
    const fn = ['PIDFILE=', 'wait_handover() '].map((k) => deploy.split('\n').find((line) => line.startsWith(k))).join('\n');
    assert.match(deploy, /^restart_app\(\) \{ if systemctl is-active --quiet rails-app; then o=\$\(cat "\$PIDFILE"\) && as_user touch "\$PIDFILE\.deploy" && systemctl reload rails-app && wait_handover "\$o"; else systemctl restart rails-app; fi; \}$/m);
    // restart_app as generated, with the USR2 that `systemctl reload` (ExecReload) would send, and systemd's
    // is-active answered the way systemd does for a forking service: is the main PID (from PIDFile) alive?
    const restart = deploy.split('\n').find((line) => line.startsWith('restart_app() {')).replace('systemctl reload rails-app', 'kill -USR2 "$o"').replace('systemctl is-active --quiet rails-app', 'kill -0 "$(cat "$PIDFILE")"');
    // as_user drops to the service user in deploy.sh (proven with a real other user in deploy-script-markers); here
    // this test's own user runs the app, so it runs the command as is.
    const handover = () => spawnSync('sh', ['-c', `${fn}\nas_user() { "$@"; }\n${restart}\nrestart_app`], { encoding: 'utf8', timeout: 150000 });
    writeFileSync(join(root, 'VERSION'), 'v3\n');
    const good = handover();
    assert.equal(good.status, 0, `good code: ${good.stderr}`);
    // .oldbin goes when the old master exits; give the process itself a moment to be reaped.
    await until('the old master to be gone after wait_handover returned 0', () => !alive(main), 10000);
    main = pidOf();
    pids.add(main);
    assert.equal(await get(sock), 'v3');
    writeFileSync(join(root, 'config/environment.rb'), 'raise "this release does not boot"\n');
    const t0 = Date.now();
    const broken = handover();
    const pidsDir = spawnSync('sh', ['-c', `ls -la --full-time ${join(root, 'tmp/pids')}; cat ${join(root, 'tmp/pids')}/*; tail -5 ${join(root, 'log')}/*.log`], { encoding: 'utf8' }).stdout;
    assert.equal(broken.status, 1, `code that cannot boot is a failed restart\n${pidsDir}`);
    assert.ok(Date.now() - t0 < 30000, `detected in ${Date.now() - t0} ms, not at the 120 s bound\n${pidsDir}`);
    assert.equal(pidOf(), main, 'the old master took its PID file back');
    assert.ok(alive(main) && !existsSync(`${unit.PIDFile[0]}.oldbin`));
    assert.equal(await get(sock), 'v3', 'the old code keeps answering');
    console.log(`unicorn deploy.sh handover: good code replaced the master; broken code detected in ${((Date.now() - t0) / 1000).toFixed(1)} s, old master (PID ${main}) still serving v3`);

    // Graceful stop through the unit's KillSignal to the (new) main PID.
    process.kill(main, unit.KillSignal[0]);
    await until('the master to stop', () => !alive(main), Number(unit.TimeoutStopSec[0]) * 1000);
    assert.ok(!existsSync(unit.PIDFile[0]), 'Unicorn removed its PID file on a graceful stop');
  } finally {
    for (const pid of [...pids, pidOf()]) if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
});
