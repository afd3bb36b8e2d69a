// Unicorn and Pitchfork under the generated unit's stop semantics: with KillSignal (SIGQUIT) requests already in
// flight finish with 200 and the master exits within TimeoutStopSec. Control runs with each server's immediate stop
// drop them: SIGTERM for Unicorn (systemd's default signal, which is why the unit names SIGQUIT) and SIGINT for
// Pitchfork (which treats TERM as graceful too). The servers run the generated unicorn.rb /
// pitchfork.rb on a Unix socket in a temporary app root, started with the unit's ExecStart (systemd is not PID 1
// here); a tiny Rack app answers after one second so that requests are in flight when the signal arrives.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync, chmodSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../../guide/engine/index.mjs';
import { REPO, which, E2E_BUNDLE_ENV } from './validators.mjs';
import { serviceSection } from './unit-file.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Requests that take one second each, in flight together; resolves to their HTTP codes ('000' = failed). */
function inFlight(sock, n) {
  return Promise.all(Array.from({ length: n }, () => new Promise((resolve) => {
    const c = spawn('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '--max-time', '20', '--unix-socket', sock, 'http://localhost/slow'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    c.stdout.on('data', (d) => { out += d; });
    c.on('exit', () => resolve(out || '000'));
  })));
}

async function runServer(server, signal) {
  const root = mkdtempSync(join(tmpdir(), `wz-stop-${server}-`));
  chmodSync(root, 0o755);
  symlinkSync('.', join(root, 'current')); // the release layout's link (deploy.sh), here to the one release: the root
  for (const d of ['tmp/sockets', 'tmp/pids', 'log', 'config']) mkdirSync(join(root, d), { recursive: true });
  // 16 GB: room for more than one worker beside the handover's second copy (Unicorn's plan counts it).
  const answers = { server, server_version: server === 'unicorn' ? '6.1' : '0.18', jobs: 'none', cores: 2, tls: 'none', ram_gb: 16 };
  const bundle = generate(answers, { appRoot: root, date: '2026-01-01' });
  const file = (p) => bundle.files.find((f) => f.path === p).content;
  writeFileSync(join(root, `config/${server}.rb`), file(`config/${server}.rb`));
  // /slow notes its start in tmp/started before its second of work, so the signal goes once every request is in a
  // worker (a fixed pause let a request still wait in the listen backlog on a busy machine: not in flight, dropped).
  const started = join(root, 'tmp/started');
  writeFileSync(join(root, 'config.ru'), `run lambda { |env| if env["PATH_INFO"] == "/slow"; File.open(${JSON.stringify(started)}, "a") { |f| f.puts Process.pid }; sleep 1; end; [200, { "content-type" => "text/plain" }, ["ok"]] }\n`);
  const unit = serviceSection(file('etc/systemd/system/rails-app.service'));
  const argv = unit.ExecStart[0].split(' ');
  // The unit's program is <ruby_path>/bundle; the gems come from the project's bundles (unicorn: Gemfile, pitchfork: e2e).
  const env = { ...process.env, ...(server === 'pitchfork' ? E2E_BUNDLE_ENV : { BUNDLE_GEMFILE: join(REPO, 'Gemfile') }), RACK_ENV: 'production' };
  if (server === 'unicorn') env.BUNDLE_PATH = join(REPO, 'vendor', 'bundle');
  const proc = spawn(argv[0], argv.slice(1), { cwd: unit.WorkingDirectory[0], env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stdout.on('data', (d) => { log += d; });
  proc.stderr.on('data', (d) => { log += d; });
  const sock = join(root, `tmp/sockets/${server}.sock`);
  // Type=forking (Unicorn -D): ExecStart exits once the daemon runs, and PIDFile names the main process, as systemd reads it.
  const forking = unit.Type[0] === 'forking';
  const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
  let mainPid = 0;
  try {
    const end = Date.now() + 60000;
    while (!(existsSync(sock) && spawnSync('curl', ['-s', '--max-time', '5', '--unix-socket', sock, 'http://localhost/'], { encoding: 'utf8' }).stdout === 'ok')) {
      if ((proc.exitCode !== null && !forking) || Date.now() > end) throw new Error(`${server} did not start:\n${log}${existsSync(join(root, 'log')) ? '' : ''}`);
      await sleep(250);
    }
    // As many requests as the config has workers, each in a worker when the signal arrives: a graceful stop finishes
    // those; connections still waiting in the listen backlog are not in flight (the master closes the listener).
    const workers = Number(/^worker_processes (\d+)/m.exec(file(`config/${server}.rb`))[1]);
    const requests = inFlight(sock, workers);
    const until = Date.now() + 15000;
    const count = () => (existsSync(started) ? readFileSync(started, 'utf8').split('\n').filter(Boolean).length : 0);
    while (count() < workers && Date.now() < until) await sleep(20);
    assert.equal(count(), workers, `${server}: every request reached a worker before the signal`);
    const sig = signal === 'unit' ? unit.KillSignal[0] : signal;
    const t0 = Date.now();
    if (forking) {
      mainPid = Number(readFileSync(unit.PIDFile[0], 'utf8').trim());
      process.kill(mainPid, sig);
    } else proc.kill(sig);
    const codes = await requests;
    if (forking) while (alive(mainPid)) await sleep(50);
    else await new Promise((r) => { if (proc.exitCode !== null) r(); else proc.once('exit', r); });
    return { codes, workers, stopMs: Date.now() - t0, signal: sig, timeout: Number(unit.TimeoutStopSec[0]) };
  } finally {
    if (proc.exitCode === null) proc.kill('SIGKILL');
    if (forking && !mainPid && existsSync(unit.PIDFile[0])) mainPid = Number(readFileSync(unit.PIDFile[0], 'utf8').trim());
    if (mainPid && alive(mainPid)) process.kill(mainPid, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
}

for (const server of ['unicorn', 'pitchfork']) {
  const immediate = server === 'unicorn' ? 'SIGTERM' : 'SIGINT';
  test(`${server}: the unit's KillSignal lets requests in flight finish; ${immediate} would drop them`, { timeout: 180000 }, async () => {
    assert.ok(which('curl'), 'curl is missing (scripts/setup)');
    const graceful = await runServer(server, 'unit');
    assert.equal(graceful.signal, 'SIGQUIT');
    assert.ok(graceful.workers >= 2, `${server}: ${graceful.workers} workers, so that several requests are in flight`);
    assert.deepEqual(graceful.codes, Array(graceful.workers).fill('200'), `${server} with ${graceful.signal}`);
    assert.ok(graceful.stopMs < graceful.timeout * 1000, `stopped in ${graceful.stopMs} ms, within TimeoutStopSec`);
    const control = await runServer(server, immediate);
    assert.ok(control.codes.some((c) => c !== '200'), `${server} with ${immediate} kept every request: ${control.codes}`);
    console.log(`${server}: SIGQUIT ${graceful.codes.join(',')} (stopped in ${graceful.stopMs} ms); ${immediate} ${control.codes.join(',')}`);
  });
}
