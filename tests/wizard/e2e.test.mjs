// End-to-end: a generated Puma + nginx + PostgreSQL bundle applied to a freshly generated Rails app must answer
// HTTP 200 through nginx. The answers describe this machine (its Ruby, nginx and PostgreSQL versions); the
// harness only adapts ports and log/pid paths to a temporary directory. Everything listens on 127.0.0.1 or a
// Unix socket and is stopped in `finally`. Gems: tests/wizard/e2e/setup (run by scripts/setup).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, chmodSync, chownSync, existsSync, rmSync, appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { generate, DEFAULTS } from '../../guide/engine/index.mjs';
import { REPO, which } from './validators.mjs';

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

test('generated Puma + nginx + PostgreSQL bundle serves a fresh Rails app with HTTP 200 through nginx', { timeout: 300000 }, async () => {
  const nginx = which('nginx');
  assert.ok(nginx, 'nginx is missing: install Debian package nginx (scripts/setup)');
  const check = spawnSync('bundle', ['check'], { env: { ...process.env, ...BUNDLE_ENV }, encoding: 'utf8' });
  assert.equal(check.status, 0, `e2e gems are missing: run tests/wizard/e2e/setup (scripts/setup does)\n${check.stdout}${check.stderr}`);
  const asRoot = process.getuid() === 0;

  const root = mkdtempSync(join(tmpdir(), 'wz-e2e-'));
  chmodSync(root, 0o755);
  const procs = { puma: null };
  const pg = { data: join(root, 'pgdata'), ctl: pgBin('pg_ctl') };
  const ngx = { prefix: join(root, 'nginx') };
  const asPostgres = (cmd, args, opts) => (asRoot ? run('runuser', ['-u', 'postgres', '--', cmd, ...args], opts) : run(cmd, args, opts));
  try {
    // 1. A fresh Rails app (minimal, PostgreSQL).
    const env = { ...process.env, ...BUNDLE_ENV };
    run('bundle', ['exec', 'rails', 'new', 'app', '--minimal', '--skip-bundle', '--skip-git', '--skip-docker', '--database=postgresql', '--skip-test', '--skip-ci', '--skip-kamal', '--skip-rubocop', '--skip-brakeman', '--skip-asset-pipeline'], { cwd: root, env });
    const app = join(root, 'app');
    const rails = JSON.parse(run('bundle', ['exec', 'ruby', '-e', 'require "json"; require "rails/version"; require "puma/const"; print JSON.generate(rails: Rails::VERSION::STRING, ruby: RUBY_VERSION, puma: Puma::Const::PUMA_VERSION)'], { cwd: app, env }));
    // The app answers with a value read from PostgreSQL, so the database path is exercised too.
    writeFileSync(join(app, 'app/controllers/health_controller.rb'), 'class HealthController < ApplicationController\n  def show\n    value = ActiveRecord::Base.connection.select_value("SELECT 40 + 2")\n    render plain: "ok #{value} pool=#{ActiveRecord::Base.connection_pool.size}"\n  end\nend\n');
    writeFileSync(join(app, 'config/routes.rb'), 'Rails.application.routes.draw do\n  root "health#show"\nend\n');
    // Plain HTTP on 127.0.0.1: turn off the template's force_ssl (not part of the bundle).
    const prod = join(app, 'config/environments/production.rb');
    writeFileSync(prod, readFileSync(prod, 'utf8').replace(/^\s*config\.force_ssl = true$/m, '  config.force_ssl = false'));
    for (const d of ['tmp/sockets', 'tmp/pids', 'log']) mkdirSync(join(app, d), { recursive: true });

    // 2. The bundle for this machine.
    const nginxVersion = /nginx\/(\d+\.\d+\.\d+)/.exec(spawnSync(nginx, ['-v'], { encoding: 'utf8' }).stderr)[1];
    const pgVersion = /(\d+)(\.\d+)?/.exec(run(pgBin('postgres'), ['--version']))[0];
    const answers = { ...DEFAULTS, ruby_version: rails.ruby.split('.').slice(0, 2).join('.'), rails: rails.rails, server: 'puma', server_version: rails.puma, proxy: 'nginx', proxy_version: nginxVersion, database: 'postgresql', database_version: pgVersion, adapter: 'pg', cores: 2, ram_gb: 4 };
    const bundle = generate(answers, { appRoot: app, date: '2026-01-01' });
    const file = (p) => bundle.files.find((f) => f.path === p || f.path.endsWith(p))?.content;
    for (const p of ['config/puma.rb', 'config/database.yml', 'config/ruby.env']) writeFileSync(join(app, p), file(p));
    assert.equal(bundle.model.mode, 'cluster');

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

    // 4. Puma with the generated puma.rb and ruby.env (socket world-connectable for nginx's worker user).
    const appEnv = {
      ...env, ...parseEnvFile(file('config/ruby.env')),
      SECRET_KEY_BASE: 'e2e'.repeat(40),
      DATABASE_URL: `postgres://app@127.0.0.1:${pgPort}/app_production`,
      RAILS_LOG_TO_STDOUT: '1',
    };
    procs.puma = spawn('sh', ['-c', 'umask 000; exec bundle exec puma -C config/puma.rb'], { cwd: app, env: appEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let pumaLog = '';
    procs.puma.stdout.on('data', (d) => { pumaLog += d; });
    procs.puma.stderr.on('data', (d) => { pumaLog += d; });
    const pumaSock = join(app, 'tmp/sockets/puma.sock');
    await waitFor(() => {
      if (procs.puma.exitCode !== null) throw new Error(`Puma exited (${procs.puma.exitCode}):\n${pumaLog}`);
      return existsSync(pumaSock) && /Worker \d+ \(PID: \d+\) booted|Use Ctrl-C to stop/.test(pumaLog);
    }, 'Puma', 90000).catch((e) => { throw new Error(`${e.message}\n${pumaLog}`); });

    // 5. nginx with the generated nginx.conf + site; only the listen port and pid/log paths are adapted.
    const port = await freePort();
    mkdirSync(join(ngx.prefix, 'sites-enabled'), { recursive: true });
    mkdirSync(join(ngx.prefix, 'logs'));
    const main = file('etc/nginx/nginx.conf')
      .replace(/^pid .*;$/m, `pid ${ngx.prefix}/nginx.pid;`)
      .replace(/^error_log \S+/m, `error_log ${ngx.prefix}/logs/error.log`)
      .replace(/access_log \S+;/, `access_log ${ngx.prefix}/logs/access.log;`)
      .replace(/^user www-data;$/m, asRoot ? 'user www-data;' : '');
    const site = file('sites-enabled/rails-app.conf').replace(/listen 80 /, `listen 127.0.0.1:${port} `);
    assert.notEqual(site, file('sites-enabled/rails-app.conf'));
    writeFileSync(join(ngx.prefix, 'nginx.conf'), main);
    writeFileSync(join(ngx.prefix, 'mime.types'), readFileSync('/etc/nginx/mime.types'));
    writeFileSync(join(ngx.prefix, 'sites-enabled', 'rails-app.conf'), site);
    run(nginx, ['-p', ngx.prefix, '-c', join(ngx.prefix, 'nginx.conf')]);
    ngx.started = true;

    // 6. Requests through nginx: the Rails app (via the Unix socket) and a static file (served by nginx).
    let res;
    await waitFor(async () => {
      try { res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(10000) }); return true; } catch { return false; }
    }, 'nginx', 30000);
    const body = await res.text();
    assert.equal(res.status, 200, `${body}\n${pumaLog}`);
    assert.equal(body, `ok 42 pool=${bundle.model.pool}`);
    const robots = await fetch(`http://127.0.0.1:${port}/robots.txt`);
    assert.equal(robots.status, 200);
    assert.match(pumaLog, new RegExp(`unix://${app}/tmp/sockets/puma.sock`));
  } finally {
    if (ngx.started) spawnSync(nginx, ['-p', ngx.prefix, '-c', join(ngx.prefix, 'nginx.conf'), '-s', 'stop'], { timeout: 20000 });
    if (procs.puma && procs.puma.exitCode === null) {
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
