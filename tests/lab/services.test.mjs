// The lab's services layer (scripts/lib/lab/build-services.sh): Debian 13's redis-server and memcached, kept as
// an overlay layer of their own and stacked over the base only by `scripts/lab run --services`. Both servers
// start and answer inside, status names their package versions, a run without --services does not see them, and
// a damaged or missing layer is refused by name while the base lab keeps working.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureLab, labRun, labScript, runLabCommand } from '../helpers/lab.mjs';

const LAB_DIR = process.env.LAB_DIR || join(process.cwd(), '.lab');
let lab;
const scratch = [];
before(async () => { lab = await ensureLab(); });
after(() => {
  for (const dir of scratch) {
    execFileSync('scripts/lab', ['clean'], { env: { ...process.env, LAB_DIR: dir }, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
});
const requireLab = () => assert.ok(lab.ok, `the lab could not be built: ${lab.reason}`);

test('with --services, Debian 13\'s Redis and Memcached start and answer; without it they are absent', { timeout: 180_000 }, async () => {
  requireLab();
  const r = await labScript(String.raw`
    redis-server --port 6390 --bind 127.0.0.1 --save '' --daemonize yes >/dev/null
    memcached -u memcache -l 127.0.0.1 -p 11290 -m 16 -d
    for i in $(seq 1 50); do redis-cli -p 6390 ping >/dev/null 2>&1 && break; sleep 0.1; done
    echo "redis=$(redis-cli -p 6390 SET k v) $(redis-cli -p 6390 GET k) $(redis-cli -p 6390 INFO server | tr -d '\r' | sed -n 's/^redis_version://p')"
    exec 3<>/dev/tcp/127.0.0.1/11290; printf 'version\r\n' >&3; read -r -t 5 line <&3; echo "memcached=$line" | tr -d '\r'
    echo "packages=$(dpkg-query -W -f '${'${Package}'}=${'${Version}'} ' redis-server memcached)"
    echo "unit=$(sed -n 's/^ExecStart=//p' /usr/lib/systemd/system/redis-server.service)"`, { services: true, timeout: 90 });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^redis=OK v 8\.\d+\.\d+$/m, r.stdout);
  assert.match(r.stdout, /^memcached=VERSION 1\.6\.\d+$/m, r.stdout);
  assert.match(r.stdout, /^packages=memcached=1\.6\.\S+ redis-server=5:8\.\S+ $/m, 'dpkg knows both packages (installed by apt, not copied)');
  assert.match(r.stdout, /^unit=\/usr\/bin\/redis-server \/etc\/redis\/redis\.conf/m, 'Debian\'s unit comes with the package');
  const without = await labRun(['sh', '-c', 'command -v redis-server memcached; echo end'], { timeout: 60 });
  assert.equal(without.code, 0, without.stderr);
  assert.equal(without.stdout.trim(), 'end', 'a run without --services sees the base layer only');
  const status = JSON.parse((await runLabCommand(['status', '--json'], { timeout: 120 })).stdout);
  assert.equal(status.services, 'ready');
  assert.deepEqual(status.components.filter((c) => c.kind === 'svc').map((c) => c.name).sort(), ['libapache2-mod-passenger', 'memcached', 'passenger', 'redis-server', 'redis-tools']);
});

test('a damaged or missing services layer is refused by name; runs without --services still work', { timeout: 120_000 }, async () => {
  requireLab();
  const dir = mkdtempSync(join(LAB_DIR, '..', '.lab-test-'));
  scratch.push(dir);
  for (const part of ['rootfs', 'gems', 'services', 'services.complete', 'services.sha256']) {
    if (existsSync(join(LAB_DIR, part))) execFileSync('cp', ['-al', join(LAB_DIR, part), join(dir, part)]);
  }
  const env = { LAB_DIR: dir };
  const memcached = join(dir, 'services/usr/bin/memcached');
  unlinkSync(memcached); // replaced, not edited: the copy shares inodes with the real layer
  writeFileSync(memcached, '#!/bin/sh\necho not memcached\n', { mode: 0o755 });
  const refused = await runLabCommand(['run', '--services', '--', 'memcached', '-V'], { env, timeout: 60 });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /--services is not available \(the services layer is damaged \(usr\/bin\/memcached: FAILED/);
  const base = await runLabCommand(['run', '--', 'ruby', '-e', 'print RUBY_VERSION'], { env, timeout: 60 });
  assert.equal(base.code, 0, base.stderr);
  assert.match(base.stdout, /^3\.3\./);
  const status = JSON.parse((await runLabCommand(['status', '--json'], { env, timeout: 60 })).stdout);
  assert.match(status.state, /^ready/, 'the base lab is usable without the services layer');
  assert.match(status.services, /damaged/);
  rmSync(join(dir, 'services.complete'));
  const missing = await runLabCommand(['run', '--services', '--', 'true'], { env, timeout: 60 });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /--services is not available \(the services layer \(Redis, Memcached, Passenger\) is not built\): run scripts\/lab build first/);
});
