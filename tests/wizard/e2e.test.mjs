// End-to-end: a generated Puma + nginx + PostgreSQL bundle (TLS at the proxy) applied to a freshly generated Rails
// app: HTTPS with HTTP/2 through nginx with a certificate from a CA this test creates, HTTP → HTTPS redirect, one
// HSTS header, X-Forwarded-Proto https reaching Rails (force_ssl on, no redirect loop), /up not logged, the
// WebSocket handshake headers passed to the app, and a graceful reload under a bounded wrk load with zero failed
// or non-2xx requests. Puma is started, reloaded and stopped the way the generated systemd unit says (ExecStart,
// ExecReload with $MAINPID, KillSignal; systemd itself is not PID 1 here). The answers describe this machine (its
// Ruby, nginx and PostgreSQL versions); the harness only adapts ports, certificate and log/pid paths. Everything
// listens on 127.0.0.1 or a Unix socket and is stopped in `finally`. Gems: tests/wizard/e2e/setup (scripts/setup).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, chmodSync, chownSync, existsSync, rmSync, appendFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { generate, DEFAULTS } from '../../guide/engine/index.mjs';
import { REPO, which } from './validators.mjs';
import { serviceSection } from './unit-file.mjs';

const GEMFILE = join(REPO, 'tests', 'wizard', 'e2e', 'Gemfile');
const BUNDLE_ENV = {
  BUNDLE_GEMFILE: GEMFILE,
  BUNDLE_PATH: join(REPO, 'vendor', 'bundle', 'wizard-e2e'),
  BUNDLE_APP_CONFIG: join(REPO, 'vendor', 'bundle', 'wizard-e2e', '.bundle'),
};

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check, what, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 120000, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function pgBin(name) {
  const out = spawnSync('sh', ['-c', `ls -d /usr/lib/postgresql/*/bin/${name} 2>/dev/null | sort -V | tail -1`], { encoding: 'utf8' }).stdout.trim();
  if (!out) throw new Error(`PostgreSQL ${name} is missing: install Debian package postgresql (scripts/setup)`);
  return out;
}

/** Parse a generated env file the way systemd's EnvironmentFile= would (our files use KEY=value lines). */
function parseEnvFile(text) {
  const env = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(?:"((?:[^"\\]|\\.)*)"|(\S*))$/.exec(line);
    if (m) env[m[1]] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
  }
  return env;
}

/** A test CA and a server certificate for `name`, made with openssl. */
function makeCertificates(dir, name) {
  const ossl = (args) => run('openssl', args, { cwd: dir });
  ossl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=wizard e2e test CA', '-keyout', 'ca.key', '-out', 'ca.pem']);
  ossl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', `/CN=${name}`, '-keyout', 'privkey.pem', '-out', 'server.csr']);
  writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=DNS:${name}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
  ossl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', 'ext.cnf', '-out', 'fullchain.pem']);
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'fullchain.pem'), key: join(dir, 'privkey.pem') };
}

function curl(args) {
  const r = spawnSync('curl', ['-sS', '--max-time', '20', ...args], { encoding: 'utf8' });
  if (r.error) throw new Error(`curl: ${r.error.message}`);
  return r;
}

const DOMAIN = 'app.test';

test('generated nginx (then Caddy) + Puma + PostgreSQL bundle: HTTPS with HTTP/2, redirect, HSTS, X-Forwarded-Proto, /up, WebSocket headers, graceful reload under load', { timeout: 420000 }, async () => {
  const nginx = which('nginx');
  assert.ok(nginx, 'nginx is missing: install Debian package nginx (scripts/setup)');
  for (const tool of ['curl', 'openssl', 'wrk']) assert.ok(which(tool), `${tool} is missing (scripts/setup installs it)`);
  const check = spawnSync('bundle', ['check'], { env: { ...process.env, ...BUNDLE_ENV }, encoding: 'utf8' });
  assert.equal(check.status, 0, `e2e gems are missing: run tests/wizard/e2e/setup (scripts/setup does)\n${check.stdout}${check.stderr}`);
  const asRoot = process.getuid() === 0;

  const root = mkdtempSync(join(tmpdir(), 'wz-e2e-'));
  chmodSync(root, 0o755);
  const procs = { puma: null, caddy: null };
  const pg = { data: join(root, 'pgdata'), ctl: pgBin('pg_ctl') };
  const ngx = { prefix: join(root, 'nginx') };
  const asPostgres = (cmd, args, opts) => (asRoot ? run('runuser', ['-u', 'postgres', '--', cmd, ...args], opts) : run(cmd, args, opts));
  try {
    // 1. A fresh Rails app (minimal, PostgreSQL) with the template's force_ssl left on.
    const env = { ...process.env, ...BUNDLE_ENV };
    run('bundle', ['exec', 'rails', 'new', 'app', '--minimal', '--skip-bundle', '--skip-git', '--skip-docker', '--database=postgresql', '--skip-test', '--skip-ci', '--skip-kamal', '--skip-rubocop', '--skip-brakeman', '--skip-asset-pipeline'], { cwd: root, env });
    const app = join(root, 'app');
    const rails = JSON.parse(run('bundle', ['exec', 'ruby', '-e', 'require "json"; require "rails/version"; require "puma/const"; print JSON.generate(rails: Rails::VERSION::STRING, ruby: RUBY_VERSION, puma: Puma::Const::PUMA_VERSION)'], { cwd: app, env }));
    // The app answers with a value read from PostgreSQL and with what it saw of the request (scheme, upgrade headers).
    writeFileSync(join(app, 'app/controllers/health_controller.rb'), [
      'class HealthController < ApplicationController',
      '  def show',
      '    value = ActiveRecord::Base.connection.select_value("SELECT 40 + 2")',
      '    render plain: "ok #{value} pool=#{ActiveRecord::Base.connection_pool.size} ssl=#{request.ssl?}"',
      '  end',
      '',
      '  # Stands in for Action Cable: shows the handshake headers that reached the app through the proxy.',
      '  def cable',
      '    render plain: "upgrade=#{request.headers["Upgrade"]} connection=#{request.headers["Connection"]}"',
      '  end',
      'end', ''].join('\n'));
    writeFileSync(join(app, 'config/routes.rb'), 'Rails.application.routes.draw do\n  root "health#show"\n  get "up" => "rails/health#show"\n  get "cable" => "health#cable"\nend\n');
    const prodRb = readFileSync(join(app, 'config/environments/production.rb'), 'utf8');
    assert.match(prodRb, /^\s*config\.force_ssl = true$/m, 'the Rails template turns on force_ssl');
    for (const d of ['tmp/sockets', 'tmp/pids', 'log']) mkdirSync(join(app, d), { recursive: true });

    // 2. The bundle for this machine: TLS at nginx for app.test, no job runner (the minimal app has none).
    const nginxVersion = /nginx\/(\d+\.\d+\.\d+)/.exec(spawnSync(nginx, ['-v'], { encoding: 'utf8' }).stderr)[1];
    const pgVersion = /(\d+)(\.\d+)?/.exec(run(pgBin('postgres'), ['--version']))[0];
    const answers = { ...DEFAULTS, ruby_version: rails.ruby.split('.').slice(0, 2).join('.'), rails: rails.rails, server: 'puma', server_version: rails.puma, proxy: 'nginx', proxy_version: nginxVersion, database: 'postgresql', database_version: pgVersion, adapter: 'pg', cores: 2, ram_gb: 4, tls: 'proxy', domain: DOMAIN, jobs: 'none', websockets: true };
    const bundle = generate(answers, { appRoot: app, date: '2026-01-01' });
    const file = (p) => bundle.files.find((f) => f.path === p || f.path.endsWith(p))?.content;
    for (const p of ['config/puma.rb', 'config/database.yml', 'config/ruby.env']) writeFileSync(join(app, p), file(p));
    assert.equal(bundle.model.mode, 'cluster');
    const unit = serviceSection(file('etc/systemd/system/rails-app.service'));
    // The units read the app through the release layout's current link (deploy.sh); here one release, the app itself.
    assert.equal(unit.WorkingDirectory[0], join(app, 'current'));
    symlinkSync('.', join(app, 'current'));
    assert.deepEqual(unit.Type, ['notify']);

    // 3. PostgreSQL with the generated settings, in a temporary cluster on 127.0.0.1.
    const pgPort = await freePort();
    mkdirSync(pg.data, { mode: 0o700 });
    const sock = join(root, 'pgsock');
    mkdirSync(sock);
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
      chownSync(pg.data, uid, -1);
      chownSync(sock, uid, -1);
    }
    asPostgres(pgBin('initdb'), ['-D', pg.data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const pgConf = join(root, 'rails-pg.conf');
    writeFileSync(pgConf, file('conf.d/60-rails.conf'));
    chmodSync(pgConf, 0o644);
    appendFileSync(join(pg.data, 'postgresql.conf'), `\nlisten_addresses = '127.0.0.1'\nport = ${pgPort}\nunix_socket_directories = '${sock}'\ninclude '${pgConf}'\n`);
    asPostgres(pg.ctl, ['-D', pg.data, '-l', join(sock, 'pg.log'), '-w', '-t', '60', 'start']);
    pg.started = true;
    const psql = (sql) => asPostgres(pgBin('psql'), ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-Atc', sql]);
    assert.equal(psql('SHOW max_connections').trim(), String(bundle.model.db_server_max_connections));
    psql('CREATE ROLE app LOGIN');
    psql('CREATE DATABASE app_production OWNER app');

    // 4. Puma as the unit starts it: ExecStart's argv in WorkingDirectory with Environment= and EnvironmentFile=
    //    (ruby.env; the secrets file is replaced by test values). The e2e Gemfile stands in for the app's bundle.
    const appEnv = { ...env, RAILS_LOG_TO_STDOUT: '1' };
    for (const e of unit.Environment) { const i = e.indexOf('='); appEnv[e.slice(0, i)] = e.slice(i + 1); }
    // The unit's BUNDLE_GEMFILE names the app's Gemfile through current; this app's gems are the test's own Gemfile's.
    assert.equal(appEnv.BUNDLE_GEMFILE, join(app, 'current', 'Gemfile'));
    appEnv.BUNDLE_GEMFILE = GEMFILE;
    appEnv.PATH = `${appEnv.PATH}:${process.env.PATH}`;
    Object.assign(appEnv, parseEnvFile(file('config/ruby.env')));
    Object.assign(appEnv, { SECRET_KEY_BASE: 'e2e'.repeat(40), DATABASE_URL: `postgres://app@127.0.0.1:${pgPort}/app_production` });
    const argv = unit.ExecStart[0].split(' ');
    assert.ok(argv[0].startsWith('/'), 'ExecStart names an absolute program');
    procs.puma = spawn('sh', ['-c', 'umask 000; exec "$@"', 'sh', ...argv], { cwd: unit.WorkingDirectory[0], env: appEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let pumaLog = '';
    procs.puma.stdout.on('data', (d) => { pumaLog += d; });
    procs.puma.stderr.on('data', (d) => { pumaLog += d; });
    const pumaSock = join(app, 'tmp/sockets/puma.sock');
    await waitFor(() => {
      if (procs.puma.exitCode !== null) throw new Error(`Puma exited (${procs.puma.exitCode}):\n${pumaLog}`);
      return existsSync(pumaSock) && /Worker \d+ \(PID: \d+\) booted|Use Ctrl-C to stop/.test(pumaLog);
    }, 'Puma', 90000).catch((e) => { throw new Error(`${e.message}\n${pumaLog}`); });

    // 5. nginx with the generated nginx.conf + site: ports, certificate and pid/log paths adapted, nothing else.
    const certs = makeCertificates(root, DOMAIN);
    const httpPort = await freePort();
    const httpsPort = await freePort();
    mkdirSync(join(ngx.prefix, 'sites-enabled'), { recursive: true });
    mkdirSync(join(ngx.prefix, 'logs'));
    const main = file('etc/nginx/nginx.conf')
      .replace(/^pid .*;$/m, `pid ${ngx.prefix}/nginx.pid;`)
      .replace(/^error_log \S+/m, `error_log ${ngx.prefix}/logs/error.log`)
      .replace(/access_log \S+;/, `access_log ${ngx.prefix}/logs/access.log;`)
      .replace(/^user www-data;$/m, asRoot ? 'user www-data;' : '');
    const original = file('sites-enabled/rails-app.conf');
    const site = original
      // The IPv6 sockets stay unbound here: the test binds free loopback ports only.
      .replace(/^(\s*)(listen \[::\]:\S+[^;]*;)$/gm, '$1# $2')
      .replace(/listen 80( default_server)?;/g, `listen 127.0.0.1:${httpPort}$1;`)
      .replace(/listen 443 ssl/g, `listen 127.0.0.1:${httpsPort} ssl`)
      .replaceAll(`/etc/letsencrypt/live/${DOMAIN}/fullchain.pem`, certs.cert)
      .replaceAll(`/etc/letsencrypt/live/${DOMAIN}/privkey.pem`, certs.key);
    assert.equal(site.split('\n').length, original.split('\n').length);
    writeFileSync(join(ngx.prefix, 'nginx.conf'), main);
    writeFileSync(join(ngx.prefix, 'mime.types'), readFileSync('/etc/nginx/mime.types'));
    writeFileSync(join(ngx.prefix, 'sites-enabled', 'rails-app.conf'), site);
    run(nginx, ['-p', ngx.prefix, '-c', join(ngx.prefix, 'nginx.conf')]);
    ngx.started = true;

    // 6. Requests. HTTPS goes to app.test resolved to 127.0.0.1 and is verified against the test CA.
    const https = (path, extra = []) => curl(['--cacert', certs.ca, '--resolve', `${DOMAIN}:${httpsPort}:127.0.0.1`, ...extra, `https://${DOMAIN}:${httpsPort}${path}`]);
    await waitFor(() => https('/up', ['-o', '/dev/null']).status === 0, 'nginx over HTTPS', 30000);
    const root200 = https('/', ['--http2', '-D', '-', '-w', '\\nHTTP_VERSION=%{http_version}']);
    assert.equal(root200.status, 0, root200.stderr);
    assert.match(root200.stdout, /^HTTP\/2 200/m, root200.stdout);
    assert.match(root200.stdout, /HTTP_VERSION=2$/);
    assert.match(root200.stdout, new RegExp(`ok 42 pool=${bundle.model.pool} ssl=true`), 'X-Forwarded-Proto https reached Rails; force_ssl did not redirect');
    assert.equal((root200.stdout.match(/^strict-transport-security:/gim) || []).length, 1, 'exactly one HSTS header');
    // A client's own Forwarded header (RFC 7239), which Rack reads before X-Forwarded-Proto, is dropped by nginx:
    // with it, proto=http would make Rails see plain HTTP and force_ssl answer with a redirect (issue 24 parity).
    const forged = https('/', ['-H', 'Forwarded: for=203.0.113.9;proto=http']);
    assert.match(forged.stdout, /^ok 42 .*ssl=true$/m, `a client's Forwarded: proto=http did not reach Rails: ${forged.stdout}`);
    const plain = curl(['-o', '/dev/null', '-w', '%{http_code} %{redirect_url}', '-H', `Host: ${DOMAIN}`, `http://127.0.0.1:${httpPort}/some/path?q=1`]);
    assert.equal(plain.stdout, `301 https://${DOMAIN}/some/path?q=1`);
    // Another name (or none) is closed without an answer by the default server (444), over HTTP and HTTPS.
    assert.equal(curl(['-o', '/dev/null', '-w', '%{http_code}', '-H', 'Host: evil.example', `http://127.0.0.1:${httpPort}/`]).stdout, '000');
    assert.equal(https('/', ['-o', '/dev/null', '-w', '%{http_code}', '-H', 'Host: evil.example']).stdout, '000');
    const acme = curl(['-o', '/dev/null', '-w', '%{http_code}', '-H', `Host: ${DOMAIN}`, `http://127.0.0.1:${httpPort}/.well-known/acme-challenge/missing`]);
    assert.equal(acme.stdout, '404', 'ACME challenges are served from the webroot, not redirected');
    const up = https('/up', ['-o', '/dev/null', '-w', '%{http_code}']);
    assert.equal(up.stdout, '200');
    const cable = https('/cable', ['--http1.1', '-H', 'Upgrade: websocket', '-H', 'Connection: Upgrade']);
    assert.equal(cable.stdout, 'upgrade=websocket connection=upgrade', 'the WebSocket handshake headers reach the app');
    const robots = https('/robots.txt', ['-o', '/dev/null', '-w', '%{http_code}']);
    assert.equal(robots.stdout, '200');
    const access = readFileSync(join(ngx.prefix, 'logs/access.log'), 'utf8');
    assert.match(access, /GET \/robots\.txt/);
    assert.doesNotMatch(access, /GET \/up /, '/up is not logged');
    assert.match(pumaLog, new RegExp(`unix://${app}/tmp/sockets/puma.sock`));

    // 7. Graceful reload under load: the unit's ExecReload (with $MAINPID) during a bounded wrk run over HTTPS.
    const reload = unit.ExecReload[0].replace('$MAINPID', String(procs.puma.pid)).split(' ');
    // wrk has no --resolve: it connects to 127.0.0.1 and sends Host: app.test (the only HTTPS server answers).
    const wrk = spawn('wrk', ['-t2', '-c8', '-d8s', '--timeout', '10s', '-H', `Host: ${DOMAIN}`, `https://127.0.0.1:${httpsPort}/`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let wrkOut = '';
    wrk.stdout.on('data', (d) => { wrkOut += d; });
    wrk.stderr.on('data', (d) => { wrkOut += d; });
    await sleep(2500);
    run(reload[0], reload.slice(1));
    const code = await new Promise((r) => wrk.once('exit', r));
    assert.equal(code, 0, wrkOut);
    const requests = Number((/(\d+) requests in/.exec(wrkOut) || [])[1]);
    assert.ok(requests > 50, wrkOut);
    assert.doesNotMatch(wrkOut, /Non-2xx or 3xx responses/, wrkOut);
    assert.doesNotMatch(wrkOut, /Socket errors/, wrkOut);
    assert.match(pumaLog, /Restarting|phased|hot restart|Re-exec/i, 'Puma restarted during the run');
    console.log(`graceful reload (${unit.ExecReload[0]}): ${requests} requests under wrk -c8 over HTTPS, 0 errors`);

    // 8. The same app behind the generated Caddyfile for "localhost": Caddy's internal CA, HTTP/2, redirect, HSTS.
    //    Harness-only global options: ports, no admin endpoint, no change to the system trust store.
    const caddy = which('caddy');
    assert.ok(caddy, 'caddy is missing: install Debian package caddy (scripts/setup)');
    const caddyBundle = generate({ ...answers, proxy: 'caddy', proxy_version: '2.6', domain: 'localhost' }, { appRoot: app, date: '2026-01-01' });
    const caddyfile = caddyBundle.files.find((f) => f.path === 'etc/caddy/Caddyfile').content;
    assert.match(caddyfile, /^localhost \{/m);
    const c80 = await freePort();
    const c443 = await freePort();
    const caddyHome = join(root, 'caddy');
    mkdirSync(caddyHome);
    writeFileSync(join(caddyHome, 'Caddyfile'), `{\n\tadmin off\n\thttp_port ${c80}\n\thttps_port ${c443}\n\tskip_install_trust\n}\n\n${caddyfile}`);
    const caddyEnv = { ...process.env, HOME: caddyHome, XDG_DATA_HOME: caddyHome, XDG_CONFIG_HOME: caddyHome };
    procs.caddy = spawn(caddy, ['run', '--config', join(caddyHome, 'Caddyfile'), '--adapter', 'caddyfile'], { env: caddyEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let caddyLog = '';
    procs.caddy.stdout.on('data', (d) => { caddyLog += d; });
    procs.caddy.stderr.on('data', (d) => { caddyLog += d; });
    const caddyRoot = join(caddyHome, 'caddy/pki/authorities/local/root.crt');
    const viaCaddy = (path, extra = []) => curl(['--cacert', caddyRoot, '--resolve', `localhost:${c443}:127.0.0.1`, ...extra, `https://localhost:${c443}${path}`]);
    await waitFor(() => existsSync(caddyRoot) && viaCaddy('/up', ['-o', '/dev/null']).status === 0, 'Caddy with its internal CA', 60000).catch((e) => { throw new Error(`${e.message}\n${caddyLog}`); });
    const cRes = viaCaddy('/', ['--http2', '-D', '-']);
    assert.match(cRes.stdout, /^HTTP\/2 200/m, `${cRes.stdout}${cRes.stderr}`);
    assert.match(cRes.stdout, /ssl=true/, 'Caddy sends X-Forwarded-Proto https');
    assert.match(viaCaddy('/', ['-H', 'Forwarded: for=203.0.113.9;proto=http']).stdout, /^ok 42 .*ssl=true$/m, "Caddy drops a client's Forwarded header");
    assert.equal((cRes.stdout.match(/^strict-transport-security:/gim) || []).length, 1, 'exactly one HSTS header');
    const cPlain = curl(['-o', '/dev/null', '-w', '%{http_code} %{redirect_url}', '-H', 'Host: localhost', `http://127.0.0.1:${c80}/x`]);
    // Caddy's automatic redirect (the port depends on the harness's port remapping, not on the bundle).
    assert.match(cPlain.stdout, /^30[18] https:\/\/localhost(:\d+)?\/x$/, cPlain.stdout);
    const cCable = viaCaddy('/cable', ['--http1.1', '-H', 'Upgrade: websocket', '-H', 'Connection: Upgrade']);
    assert.match(cCable.stdout, /^upgrade=websocket connection=upgrade$/i, 'Caddy passes the WebSocket handshake headers');
  } finally {
    if (procs.caddy && procs.caddy.exitCode === null) {
      procs.caddy.kill('SIGTERM');
      await new Promise((r) => { const tm = setTimeout(r, 10000); procs.caddy.once('exit', () => { clearTimeout(tm); r(); }); });
    }
    if (ngx.started) spawnSync(nginx, ['-p', ngx.prefix, '-c', join(ngx.prefix, 'nginx.conf'), '-s', 'stop'], { timeout: 20000 });
    if (procs.puma && procs.puma.exitCode === null) {
      // KillSignal of the unit (SIGTERM for Puma: graceful), then SIGKILL after the unit's TimeoutStopSec at most.
      try { process.kill(-procs.puma.pid, 'SIGTERM'); } catch { /* already gone */ }
      let timer;
      await Promise.race([new Promise((r) => procs.puma.once('exit', r)), new Promise((r) => { timer = setTimeout(r, 15000); })]);
      clearTimeout(timer);
      try { process.kill(-procs.puma.pid, 'SIGKILL'); } catch { /* gone */ }
    }
    if (pg.started) {
      const args = ['-D', pg.data, '-m', 'fast', '-w', '-t', '30', 'stop'];
      if (asRoot) spawnSync('runuser', ['-u', 'postgres', '--', pg.ctl, ...args], { timeout: 40000 });
      else spawnSync(pg.ctl, args, { timeout: 40000 });
    }
    rmSync(root, { recursive: true, force: true });
  }
});
