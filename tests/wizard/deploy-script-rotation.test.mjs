// lb-host/lb-rotation.sh against a real HAProxy (Debian's, on 127.0.0.1, the stats socket in a temporary directory):
// a drain HAProxy did, a drain it refused, and a socket nobody answers on. The SRE check (issue 23) found that socat's
// errors went unnoticed: `echo … | socat` printed HAProxy's "No such server." and the script went on as if the host
// were out of rotation, and a missing socket made the in-flight wait loop for a minute. Now every refusal and every
// undelivered command stops the script with exit 1 and HAProxy's (or socat's) words. The rolling deploy through the
// script is proven in the lab (faults-rolling.test.mjs); this file runs in a second or two.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../../guide/engine/index.mjs';
import { requireTool } from './validators.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () => new Promise((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });

test('lb-rotation.sh (HAProxy): a refused or undelivered runtime command stops it with exit 1 and says why', { timeout: 60000 }, async () => {
  const haproxy = requireTool('haproxy', 'haproxy');
  requireTool('socat', 'socat');
  const r = generate({ domain: 'app.test', app_hosts: 2, lb: 'haproxy', tls: 'upstream', db_host: 'separate', app_addresses: '198.18.0.11,198.18.0.12', db_address: '198.18.0.20', lb_address: '198.18.0.2' }, { date: '2026-11-25' });
  const original = r.files.find((f) => f.path === 'lb-host/lb-rotation.sh').content;
  const dir = mkdtempSync(join(tmpdir(), 'lb-rotation-'));
  const sock = join(dir, 'admin.sock');
  assert.ok(original.includes('/run/haproxy/admin.sock'), 'the script talks to the socket haproxy.cfg opens');
  writeFileSync(join(dir, 'lb-rotation.sh'), original.replaceAll('/run/haproxy/admin.sock', sock));
  // The backend and server names of the generated haproxy.cfg; app2 left out, so HAProxy refuses to drain it, and a
  // third server (spare) the script does not name, so that draining app1 leaves a host up. app1 and spare have TCP
  // health checks against a listener of this test on 127.0.0.1, so HAProxy sees them UP.
  const port = await freePort();
  const backendPort = await freePort();
  const listener = createServer((c) => c.destroy()).listen(backendPort, '127.0.0.1');
  writeFileSync(join(dir, 'haproxy.cfg'), [
    'global', `    stats socket ${sock} mode 600 level admin`,
    'defaults', '    mode http', '    timeout connect 1s', '    timeout client 5s', '    timeout server 5s', '    timeout check 2s',
    'frontend www', `    bind 127.0.0.1:${port}`, '    default_backend rails_hosts',
    'backend rails_hosts', '    default-server check inter 200ms fall 2 rise 1',
    `    server app1 127.0.0.1:${backendPort}`, `    server spare 127.0.0.1:${backendPort}`, '',
  ].join('\n'));
  const proc = spawn(haproxy, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  const script = (...args) => spawnSync('sh', [join(dir, 'lb-rotation.sh'), ...args], { encoding: 'utf8', timeout: 30000 });
  const state = () => spawnSync('sh', ['-c', `echo "show servers state rails_hosts" | socat stdio ${sock}`], { encoding: 'utf8', timeout: 10000 }).stdout;
  try {
    const deadline = Date.now() + 20000;
    while (!existsSync(sock) && Date.now() < deadline && proc.exitCode === null) await sleep(100);
    assert.ok(existsSync(sock), `HAProxy opened its stats socket within 20 s\n${log.slice(-800)}`);
    const status = (srv) => (spawnSync('sh', ['-c', `echo "show stat" | socat stdio ${sock}`], { encoding: 'utf8', timeout: 10000 }).stdout.split('\n').map((l) => l.split(',')).find((f) => f[0] === 'rails_hosts' && f[1] === srv) || [])[17];
    while (!(status('app1') === 'UP' && status('spare') === 'UP') && Date.now() < deadline) await sleep(100);
    assert.equal(status('spare'), 'UP', 'the health checks see the listener');
    // Drained and back: exit 0, and HAProxy's own state says so (srv_admin_state 8 = drain, set at runtime).
    let x = script('drain', 'app1');
    assert.equal(x.status, 0, `${x.stdout}${x.stderr}`);
    assert.match(x.stdout, /^lb-rotation\.sh: app1 \(198\.18\.0\.11\) out of rotation$/m);
    assert.match(state(), /^\d+ rails_hosts \d+ app1 127\.0\.0\.1 \d+ 8 /m);
    x = script('ready', 'app1');
    assert.equal(x.status, 0, `${x.stdout}${x.stderr}`);
    assert.match(x.stdout, /^lb-rotation\.sh: app1 \(198\.18\.0\.11\) back in rotation and up$/m, 'ready returns once HAProxy sees the host UP');
    assert.equal(status('app1'), 'UP');
    assert.match(state(), /^\d+ rails_hosts \d+ app1 127\.0\.0\.1 \d+ 0 /m);
    // The last host up is never drained (SRE check 23b, D2: draining the only UP server gave 503 at once).
    spawnSync('sh', ['-c', `echo "set server rails_hosts/spare state maint" | socat stdio ${sock}`], { timeout: 10000 });
    x = script('drain', 'app1');
    assert.equal(x.status, 1, `${x.stdout}${x.stderr}`);
    assert.match(x.stderr, /no other app host is up and in rotation: draining app1 would leave none/);
    assert.equal(status('app1'), 'UP', 'app1 stays in rotation');
    spawnSync('sh', ['-c', `echo "set server rails_hosts/spare state ready" | socat stdio ${sock}`], { timeout: 10000 });
    while (status('spare') !== 'UP' && Date.now() < deadline + 10000) await sleep(100);
    // A server HAProxy does not know: its refusal, exit 1, never "out of rotation".
    x = script('drain', 'app2');
    assert.equal(x.status, 1, `${x.stdout}${x.stderr}`);
    assert.match(x.stderr, /^lb-rotation\.sh: HAProxy refused "set server rails_hosts\/app2 state drain": No such server\.$/m);
    assert.doesNotMatch(x.stdout, /out of rotation/);
    // HAProxy gone: socat cannot deliver (the drain's first question, whether another host is up), exit 1 at once
    // (not a minute of waiting for a count).
    proc.kill('SIGTERM');
    const stopped = Date.now() + 10000;
    while (proc.exitCode === null && proc.signalCode === null && Date.now() < stopped) await sleep(100);
    const t0 = Date.now();
    x = script('drain', 'app1');
    assert.equal(x.status, 1, `${x.stdout}${x.stderr}`);
    assert.match(x.stderr, new RegExp(`^lb-rotation\\.sh: no answer from HAProxy's stats socket ${sock.replace(/[.]/g, '\\.')} to "show stat" \\(socat exit [1-9]\\d*\\)$`, 'm'));
    assert.ok(Date.now() - t0 < 10000, 'it stops at once');
    x = script('ready', 'app1');
    assert.equal(x.status, 1, `${x.stdout}${x.stderr}`);
    assert.doesNotMatch(x.stdout, /back in rotation/);
  } finally {
    listener.close();
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
