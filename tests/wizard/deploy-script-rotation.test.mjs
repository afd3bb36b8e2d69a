// lb-host/lb-rotation.sh against a real HAProxy (Debian's, on 127.0.0.1, the stats socket in a temporary directory):
// a drain HAProxy did, a drain it refused, and a socket nobody answers on. The SRE check (issue 23) found that socat's
// errors went unnoticed: `echo … | socat` printed HAProxy's "No such server." and the script went on as if the host
// were out of rotation, and a missing socket made the in-flight wait loop for a minute. Now every refusal and every
// undelivered command stops the script with exit 1 and HAProxy's (or socat's) words. The rolling deploy through the
// script is proven in the lab (faults-rolling.test.mjs); this file runs in a second or two.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
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
  // The state file drain and ready write (and a reload reads back), in the test's directory too.
  const stateFile = join(dir, 'server-state');
  const cfg = r.files.find((f) => f.path === 'lb-host/etc/haproxy/haproxy.cfg').content;
  const stateLines = cfg.split('\n').filter((l) => /^\s*(server-state-file|load-server-state-from-file)\b/.test(l));
  assert.deepEqual(stateLines.map((l) => l.trim()), ['server-state-file /var/lib/haproxy/server-state', 'load-server-state-from-file global']);
  writeFileSync(join(dir, 'lb-rotation.sh'), original.replaceAll('/run/haproxy/admin.sock', sock).replaceAll('/var/lib/haproxy/server-state', stateFile));
  // The backend and server names of the generated haproxy.cfg; app2 left out, so HAProxy refuses to drain it, and a
  // third server (spare) the script does not name, so that draining app1 leaves a host up. app1 and spare have TCP
  // health checks against a listener of this test on 127.0.0.1, so HAProxy sees them UP.
  const port = await freePort();
  const backendPort = await freePort();
  const listener = createServer((c) => c.destroy()).listen(backendPort, '127.0.0.1');
  writeFileSync(join(dir, 'haproxy.cfg'), [
    'global', `    stats socket ${sock} mode 600 level admin`, `    server-state-file ${stateFile}`,
    'defaults', '    mode http', '    load-server-state-from-file global', '    timeout connect 1s', '    timeout client 5s', '    timeout server 5s', '    timeout check 2s',
    'frontend www', `    bind 127.0.0.1:${port}`, '    default_backend rails_hosts',
    'backend rails_hosts', '    default-server check inter 200ms fall 2 rise 1',
    `    server app1 127.0.0.1:${backendPort}`, `    server spare 127.0.0.1:${backendPort}`, '',
  ].join('\n'));
  // Master-worker mode, as Debian's unit runs it (-Ws): SIGUSR2 to the master is `systemctl reload haproxy`.
  const proc = spawn(haproxy, ['-W', '-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'ignore', 'pipe'] });
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
    // A reload (a certificate renewal's deploy hook) keeps the drain: the new worker reads the state file drain
    // wrote (SRE check 4, D13: it put the host back into rotation).
    const pidNow = () => (/^Pid: (\d+)$/m.exec(spawnSync('sh', ['-c', `echo "show info" | socat stdio ${sock}`], { encoding: 'utf8', timeout: 10000 }).stdout) || [])[1];
    const reload = async () => {
      const before = pidNow();
      process.kill(proc.pid, 'SIGUSR2');
      const end = Date.now() + 20000;
      while (Date.now() < end) { const p = pidNow(); if (p && p !== before) return; await sleep(100); }
      assert.fail(`HAProxy reloaded within 20 s\n${log.slice(-800)}`);
    };
    assert.match(readFileSync(stateFile, 'utf8'), /^\d+ rails_hosts \d+ app1 127\.0\.0\.1 \d+ 8 /m, 'drain wrote the state file');
    await reload();
    assert.match(state(), /^\d+ rails_hosts \d+ app1 127\.0\.0\.1 \d+ 8 /m, `still drained after the reload\n${log.slice(-800)}`);
    x = script('ready', 'app1');
    assert.equal(x.status, 0, `${x.stdout}${x.stderr}`);
    assert.match(x.stdout, /^lb-rotation\.sh: app1 \(198\.18\.0\.11\) back in rotation and up$/m, 'ready returns once HAProxy sees the host UP');
    assert.equal(status('app1'), 'UP');
    assert.match(state(), /^\d+ rails_hosts \d+ app1 127\.0\.0\.1 \d+ 0 /m);
    await reload();
    assert.match(state(), /^\d+ rails_hosts \d+ app1 127\.0\.0\.1 \d+ 0 /m, 'ready is kept across a reload too');
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

// lb-rotation.sh against a real nginx (Debian's, on 127.0.0.1; the upstream's two hosts are this test's HTTP servers
// on two ports): the drain waits for the requests in flight on the host it drains, not for the old workers, which
// also hold other hosts' long requests and WebSockets (SRE check 4, D12: a fixed 60 s wait). The script's addresses,
// port 80, nginx's files and `systemctl reload nginx` are rewritten to the test's; nothing else changes.
test('lb-rotation.sh (nginx): a drain waits for the host\'s own requests only, bounded, and says what it left open', { timeout: 90000 }, async () => {
  const nginx = requireTool('nginx', 'nginx');
  requireTool('ss', 'iproute2');
  const r = generate({ domain: 'app.test', app_hosts: 2, lb: 'nginx', tls: 'upstream', db_host: 'separate', app_addresses: '198.18.0.11,198.18.0.12', db_address: '198.18.0.20', lb_address: '198.18.0.2' }, { date: '2026-11-25' });
  const original = r.files.find((f) => f.path === 'lb-host/lb-rotation.sh').content;
  assert.match(original, /^in_flight\(\) \{ s=\$\(ss -Htn state established dst "\$ADDR:80"\) /m);
  assert.match(original, /^WAIT=120$/m, 'the bound: the timeout chain\'s worker_shutdown_timeout');
  assert.match(r.files.find((f) => f.path === 'lb-host/etc/nginx/nginx.conf').content, /^worker_shutdown_timeout 120s;/m);
  const dir = mkdtempSync(join(tmpdir(), 'lb-rotation-nginx-'));
  const seen = { 1: [], 2: [] };
  const backend = (n) => createHttpServer((req, res) => {
    seen[n].push(req.url);
    if (req.url === '/hold') { res.writeHead(200); res.write('held'); return; } // a long-lived answer, as a WebSocket is
    setTimeout(() => res.end(`app${n}`), req.url === '/slow' ? 1500 : 0);
  });
  const servers = [backend(1), backend(2)];
  const ports = await Promise.all(servers.map((s) => new Promise((res) => s.listen(0, '127.0.0.1', () => res(s.address().port)))));
  const lbPort = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, [
    `worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log; worker_shutdown_timeout 120s;`,
    'events { worker_connections 64; }',
    `http { access_log off; client_body_temp_path ${dir}; proxy_temp_path ${dir};`,
    '  upstream rails_hosts {', ...ports.map((p) => `    server 127.0.0.1:${p} max_fails=2 fail_timeout=10s;`), '    keepalive 32;', '  }',
    `  server { listen 127.0.0.1:${lbPort}; location / { proxy_pass http://rails_hosts; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_buffering off; } }`,
    '}', '',
  ].join('\n'));
  const script = (wait) => original.replaceAll('/etc/nginx/nginx.conf', conf).replaceAll('/run/nginx.pid', join(dir, 'nginx.pid')).replaceAll('nginx -t -q', `nginx -t -q -c ${conf}`)
    .replaceAll('systemctl reload nginx', `nginx -c ${conf} -s reload`).replace('[^ ]+:80 ', '[^ ]+:[0-9]+ ').replaceAll(':80', ':$PORT')
    .replace('ADDR=198.18.0.11 ;;', `ADDR=127.0.0.1 PORT=${ports[0]} ;;`).replace('ADDR=198.18.0.12 ;;', `ADDR=127.0.0.1 PORT=${ports[1]} ;;`)
    .replace(/^WAIT=\d+$/m, `WAIT=${wait}`);
  const proc = spawn(nginx, ['-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const open = [];
  const ask = (path) => new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port: lbPort, path, agent: false }, (res) => { let b = ''; res.on('data', (d) => { b += d; if (path === '/hold') resolve(b); }); res.on('end', () => resolve(`${res.statusCode} ${b}`)); });
    req.on('error', (e) => resolve(`error ${e.code}`));
    open.push(req);
    req.end();
  });
  const run = (wait, ...args) => new Promise((resolve) => {
    writeFileSync(join(dir, 'lb-rotation.sh'), script(wait));
    const t0 = Date.now();
    const p = spawn('sh', [join(dir, 'lb-rotation.sh'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { out += d; });
    p.on('close', (status) => resolve({ status, out, s: (Date.now() - t0) / 1000 }));
  });
  const diag = () => { try { return readFileSync(join(dir, 'error.log'), 'utf8').slice(-800); } catch { return '(no error.log)'; } };
  // Requests until one is answered by app N (round robin: the next goes to the other host), bounded.
  const lastTo = async (n) => {
    const end = Date.now() + 10000;
    for (let a = await ask('/'); a !== `200 app${n}`; a = await ask('/')) {
      assert.ok(Date.now() < end && a.startsWith('200'), `nginx answers from both hosts: ${a}\n${diag()}`);
    }
  };
  try {
    const deadline = Date.now() + 20000;
    let first = '';
    while (!(first = await ask('/')).startsWith('200') && Date.now() < deadline) await sleep(100);
    assert.ok(first.startsWith('200'), `nginx answered within 20 s: ${first}\n${diag()}`);
    // Round robin, one worker: a long answer on app2 (what used to hold the drain), then a slow request on app1.
    for (const n of [1, 2]) seen[n].length = 0;
    await lastTo(1); // the next request goes to app2
    await ask('/hold');
    assert.deepEqual(seen[2].slice(-1), ['/hold'], JSON.stringify(seen).slice(-300));
    const slow = ask('/slow');
    await sleep(300);
    assert.deepEqual(seen[1].slice(-1), ['/slow'], JSON.stringify(seen).slice(-300));
    let x = await run(20, 'drain', 'app1');
    assert.equal(x.status, 0, x.out);
    assert.match(x.out, /app1 \(127\.0\.0\.1\) out of rotation/);
    assert.equal(await slow, '200 app1', 'the request in flight on app1 finished');
    assert.ok(x.s >= 1 && x.s < 8, `the drain waited for app1's request (1.5 s), not for app2's open answer: ${x.s} s\n${x.out}`);
    assert.match(readFileSync(conf, 'utf8'), new RegExp(`server 127\\.0\\.0\\.1:${ports[0]} down max_fails`));
    for (let i = 0; i < 4; i += 1) assert.equal(await ask('/'), '200 app2', 'app1 gets nothing while drained');
    x = await run(20, 'ready', 'app1');
    assert.equal(x.status, 0, x.out);
    // The bound: a long answer on app1 itself keeps a connection open; the drain goes on after WAIT and says why.
    for (const n of [1, 2]) seen[n].length = 0;
    await lastTo(2);
    await ask('/hold');
    assert.deepEqual(seen[1].slice(-1), ['/hold'], JSON.stringify(seen).slice(-300));
    x = await run(2, 'drain', 'app1');
    assert.equal(x.status, 0, x.out);
    assert.ok(x.s >= 2 && x.s < 8, `bounded by WAIT (2 s here): ${x.s} s`);
    assert.match(x.out, /1 connection\(s\) to app1 still open after 2 s: WebSockets \(nginx's worker_shutdown_timeout closes them now; Action Cable's clients reconnect to a host in rotation\) or a request past every timeout; going on/);
    console.log(`nginx drain: ${x.s.toFixed(1)} s with an open answer on the host (bound 2 s here, 120 s generated)`);
  } finally {
    for (const req of open) req.destroy();
    proc.kill('SIGTERM');
    for (const s of servers) { s.closeAllConnections(); s.close(); }
    await sleep(200);
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
