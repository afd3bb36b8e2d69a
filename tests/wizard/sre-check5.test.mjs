// The fifth SRE check of the bundles (issue 23; /work/notes/sre5-review.md): defects found by reading the generated
// files, each proven on the generated output (file contents, and deploy.sh's own functions run by dash with the
// commands they call replaced by recorders).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../../guide/engine/index.mjs';

const DATE = '2026-11-26';
const gen = (a) => generate(a, { date: DATE });
const file = (r, p) => r.files.find((f) => f.path === p)?.content;

// One function of a generated deploy.sh, as text (a one-line function or a block up to its closing brace).
function fnOf(sh, name) {
  const lines = sh.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`${name}() {`));
  assert.ok(at >= 0, `deploy.sh defines ${name}`);
  return lines[at].endsWith('}') ? lines[at] : lines.slice(at, lines.indexOf('}', at) + 1).join('\n');
}

// build_assets of the default bundle, run by dash in a scratch app root. as_app records each command it is given
// (one line each in $LOG) and answers `rake -P` with $TASKS, or fails it when $TASKS is "FAIL"; as_user runs its
// command as the calling user. Returns dash's result and the recorded commands.
function runBuildAssets(sh, tasks, { currentAssets = [], cleanFails = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sre5-assets-'));
  try {
    const root = join(dir, 'app');
    const r = '20261126000000';
    mkdirSync(join(root, 'releases', r), { recursive: true });
    mkdirSync(join(root, 'current', 'public', 'assets'), { recursive: true });
    for (const a of currentAssets) writeFileSync(join(root, 'current', 'public', 'assets', a), a);
    const log = join(dir, 'log');
    writeFileSync(log, '');
    const fakes = [
      'as_user() { "$@"; }',
      'as_app() { shift; echo "$*" >> "$LOG"; case "$*" in *" rake -P") [ "$TASKS" != FAIL ] || return 1; printf "%s\\n" "$TASKS" ;; *" assets:clean") [ -z "$CLEAN_FAILS" ] ;; esac; }',
    ];
    const script = ['set -eu', `ROOT=${root} LOG=${log} BUNDLE=/usr/bin/bundle r=${r} new=${join(root, 'releases', r)} old=20261125000000`, `TASKS='${tasks}' CLEAN_FAILS=${cleanFails ? 1 : "''"}`,
      fnOf(sh, 'fail'), ...fakes, fnOf(sh, 'build_assets'), 'build_assets', 'echo "built assets"'].join('\n');
    const res = spawnSync('dash', ['-c', script], { encoding: 'utf8', timeout: 20000 });
    const newAssets = join(root, 'releases', r, 'public', 'assets');
    return { res, calls: readFileSync(log, 'utf8').split('\n').filter(Boolean), copied: existsSync(newAssets) ? readdirSync(newAssets).sort() : null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const RAKE_P = (...names) => names.map((n) => `rake ${n}\n    environment`).join('\n');

// D1: deploy.sh ran assets:precompile in every release whatever the app, so an API-only app (no Sprockets or
// Propshaft, hence no such task) could never be deployed: "Don't know how to build task 'assets:precompile'".
// build_assets now asks the release's Rakefile (rake -P) first.
test('deploy.sh: a release without an assets:precompile task (API-only app) builds without assets; one with it precompiles', () => {
  const sh = file(gen({ domain: 'app.test' }), 'deploy.sh');
  assert.match(sh, /^build_release\(\) \{[\s\S]*?\n {2}build_assets\n[\s\S]*?\n\}/m, 'build_release calls build_assets');
  // An API-only app: rake -P lists no asset tasks. Nothing is precompiled or copied, the build goes on.
  let { res, calls, copied } = runBuildAssets(sh, RAKE_P('about', 'db:migrate', 'db:prepare'), { currentAssets: ['app-1.css'] });
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /^deploy\.sh: release 20261126000000 has no assets:precompile task \(no asset pipeline, as in an API-only app\): no assets to build$/m);
  assert.match(res.stdout, /^built assets$/m);
  assert.equal(calls.length, 1, calls.join('\n'));
  assert.match(calls[0], /^SECRET_KEY_BASE_DUMMY=1 \S+\/bundle exec rake -P$/, 'only rake -P ran');
  assert.equal(copied, null, 'no assets copied into a release that compiles none');
  // An app with an asset pipeline: the current release's assets are carried over, then assets:precompile runs.
  ({ res, calls, copied } = runBuildAssets(sh, RAKE_P('about', 'assets:precompile', 'assets:clobber'), { currentAssets: ['app-1.css'] }));
  assert.equal(res.status, 0, res.stderr);
  assert.ok(calls.some((c) => / exec bin\/rails assets:precompile$/.test(c)), calls.join('\n'));
  assert.deepEqual(copied, ['app-1.css']);
  // A Rakefile that cannot be read (a gem missing, a syntax error) stops the build loudly instead of skipping assets.
  ({ res, calls } = runBuildAssets(sh, 'FAIL'));
  assert.equal(res.status, 1);
  assert.match(res.stderr, /^deploy\.sh: listing the rake tasks of release 20261126000000 \(rake -P\) failed; current stays at 20261125000000$/m);
  assert.doesNotMatch(res.stdout, /built assets/);
  assert.ok(!calls.some((c) => /assets:precompile/.test(c)));
  // Rails before the asset pipeline (3.0) has no build_assets at all.
  assert.doesNotMatch(file(gen({ rails: '3.0', ruby_version: '1.9.3', server: 'unicorn', server_version: '4.0', jobs: 'none', domain: 'app.test' }), 'deploy.sh') || '', /build_assets/);
});

// D2: each build copies the current release's compiled assets and precompiles on top, and nothing removed a digest, so
// release N held every asset of releases 1…N (five such releases kept): a disk that fills deploy by deploy. After the
// precompile, assets:clean (Propshaft and Sprockets: the current and two older versions of each asset stay) runs; a
// clean that fails warns and the deploy goes on.
test('deploy.sh: assets:clean runs after assets:precompile where the release has it, and its failure only warns', () => {
  const sh = file(gen({ domain: 'app.test' }), 'deploy.sh');
  let { res, calls } = runBuildAssets(sh, RAKE_P('assets:clean', 'assets:clobber', 'assets:precompile'), { currentAssets: ['app-1.js'] });
  assert.equal(res.status, 0, res.stderr);
  const at = (re) => calls.findIndex((c) => re.test(c));
  assert.deepEqual([at(/ rake -P$/), at(/ assets:precompile$/), at(/ assets:clean$/)], [0, 1, 2], calls.join('\n'));
  assert.match(calls[2], /^SECRET_KEY_BASE_DUMMY=1 \S+\/bundle exec bin\/rails assets:clean$/, 'without the secrets, like the precompile');
  ({ res, calls } = runBuildAssets(sh, RAKE_P('assets:clean', 'assets:precompile'), { cleanFails: true }));
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stderr, /^deploy\.sh: assets:clean failed: older asset versions stay in release 20261126000000 \(the deploy goes on\)$/m);
  assert.match(res.stdout, /^built assets$/m);
  // A pipeline without a clean task (a gem that defines only assets:precompile): nothing else runs.
  ({ res, calls } = runBuildAssets(sh, RAKE_P('assets:precompile')));
  assert.equal(res.status, 0, res.stderr);
  assert.equal(at(/ assets:clean$/), -1, calls.join('\n'));
  // The deploy's memory note names the extra boot (one after the other: the peak is still one more copy of the app).
  const small = gen({ distro: 'ubuntu-24.04', ram_gb: 2, jobs: 'sidekiq', db_host: 'separate', ruby_version: '3.2', domain: 'app.test' });
  const note = small.warnings.find((w) => /^deploy-memory/.test(w.id));
  assert.match(note?.message || '', /once for assets:precompile \(then for assets:clean\), one after the other/, JSON.stringify(small.warnings.map((w) => w.id)));
});

// D5: nginx and both balancers refuse bodies over 25 MB (EDGE_LIMITS), but Caddy had no limit (it streams any upload to
// Puma, which spools it to a temp file on the root file system, where PostgreSQL writes too) and Apache kept its own
// 1 GiB default. Every edge now refuses at the same size as nginx's client_max_body_size.
test('Caddy and Apache refuse request bodies at the same size as nginx and the balancers', () => {
  const nginxMb = (r) => Number(file(r, 'etc/nginx/sites-enabled/rails-app.conf').match(/client_max_body_size (\d+)m;/)[1]);
  const limit = nginxMb(gen({})) * 1024 * 1024;
  const lbHaproxy = file(gen({ app_hosts: 2, lb: 'haproxy', db_host: 'separate' }), 'lb-host/etc/haproxy/haproxy.cfg');
  assert.match(lbHaproxy, new RegExp(`deny_status 413 if \\{ req\\.hdr_val\\(content-length\\) gt ${limit} \\}`), 'the balancer refuses at the same size');
  for (const tls of ['proxy', 'upstream', 'none']) {
    const a = { proxy: 'caddy', proxy_version: '2.8', tls, domain: 'shop.example.com', ...(tls === 'upstream' ? { app_hosts: 2, lb: 'cloud', db_host: 'separate' } : {}) };
    const caddy = file(gen(a), 'etc/caddy/Caddyfile');
    // Inside the site block, before any handler: request_body { max_size BYTES } (bytes: old Caddy 2 parses an integer only).
    assert.match(caddy, new RegExp(`\\n\\trequest_body \\{\\n\\t\\tmax_size ${limit}\\n\\t\\}\\n`), `${tls}: ${caddy}`);
    assert.ok(caddy.indexOf('request_body') < caddy.indexOf('reverse_proxy'), tls);
  }
  for (const a of [{ proxy: 'apache', proxy_version: '2.4.58', server: 'passenger', server_version: '6.0' }, { proxy: 'apache', proxy_version: '2.4.58' }, { proxy: 'apache', proxy_version: '2.4.58', tls: 'none' }]) {
    const r = gen({ domain: 'shop.example.com', ...a });
    const conf = r.files.find((f) => /apache2?\/.*rails-app\.conf$|httpd\/.*rails-app\.conf$/.test(f.path)).content;
    const vhosts = conf.split('<VirtualHost').slice(1);
    const served = vhosts.filter((v) => /DocumentRoot/.test(v));
    assert.equal(served.length, 1, JSON.stringify(a));
    assert.match(served[0], new RegExp(`\\n\\s+LimitRequestBody ${limit}\\n`), JSON.stringify(a));
  }
});

// database.yml as Rails reads it (ERB, then YAML with the Rails 8 layout's aliases), with the given environment.
function renderYaml(text, env) {
  const r = spawnSync('ruby', ['-rerb', '-ryaml', '-rjson', '-e', 'puts JSON.generate(YAML.safe_load(ERB.new(STDIN.read).result, aliases: true))'], { input: text, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// D6: the PostgreSQL bundles give migrations a 5 s lock_timeout; the MySQL and MariaDB bundles gave them nothing, so an
// ALTER TABLE waited up to lock_wait_timeout (a year) for a metadata lock while every later query on the table queued
// behind it. Migrations (RAILS_DB_MIGRATE=1 in README and deploy.sh) now wait 5 s at most; the app sets nothing.
test('MySQL and MariaDB: migrations get lock_wait_timeout 5 (RAILS_DB_MIGRATE), the app processes get no session variable', () => {
  for (const a of [{ database: 'mysql', database_version: '8.4' }, { database: 'mariadb', database_version: '11.4' }, { database: 'mysql', database_version: '8.0', adapter: 'trilogy' }, { database: 'mysql', database_version: '8.0', rails: '6.1', ruby_version: '3.0', jobs: 'sidekiq', server_version: '6.4' }]) {
    const what = JSON.stringify(a);
    const r = gen({ domain: 'app.test', ...a });
    const yml = file(r, 'config/database.yml');
    const primary = (db) => db.production.primary || db.production;
    const migrating = primary(renderYaml(yml, { RAILS_DB_MIGRATE: '1' }));
    const serving = primary(renderYaml(yml, {}));
    assert.deepEqual(migrating.variables, { lock_wait_timeout: 5 }, what);
    assert.deepEqual(serving.variables, { lock_wait_timeout: null }, `${what}: nil, which Rails skips (no SET for the app)`);
    // Every other database of the Rails 8 layout inherits the primary's settings.
    for (const [role, cfg] of Object.entries(renderYaml(yml, { RAILS_DB_MIGRATE: '1' }).production)) if (role !== 'primary' && cfg && typeof cfg === 'object' && 'adapter' in cfg) assert.deepEqual(cfg.variables, { lock_wait_timeout: 5 }, `${what} ${role}`);
    assert.match(file(r, 'deploy.sh'), /as_app_secrets "\$new" RAILS_DB_MIGRATE=1 "\$BUNDLE" exec bin\/rails db:migrate/, what);
    assert.match(file(r, 'README.md'), /RAILS_DB_MIGRATE=1 \/usr\/bin\/bundle exec bin\/rails db:prepare/, what);
  }
  // Before Rails 4.0 the MySQL adapters read no `variables:`: nothing is written, and README sets no variable.
  const old = gen({ database: 'mysql', database_version: '5.5', rails: '3.2', ruby_version: '1.9.3', server: 'unicorn', server_version: '4.0', jobs: 'none', domain: 'app.test' });
  assert.doesNotMatch(file(old, 'config/database.yml'), /lock_wait_timeout/);
  assert.doesNotMatch(file(old, 'README.md'), /RAILS_DB_MIGRATE/);
});

// D3: the database host's PostgreSQL (ssl = on) and PgBouncer (client_tls_sslmode = require) named Debian's snakeoil
// pair on every family; Rocky/RHEL have no such files, and neither server starts without them. Each family's pair now
// comes from capability data (distros.mjs dbTls): Debian keeps the snakeoil pair its ssl-cert package makes, the others
// name a pair of their own, and README's file table gives the command that makes it (run here into a scratch
// directory: the pair it writes is a certificate and its key), and that PostgreSQL must restart for listen_addresses.
test('RHEL family database host: PostgreSQL and PgBouncer name a certificate pair README says how to make; Debian keeps snakeoil', () => {
  const readmeRow = (r, path) => file(r, 'README.md').split('\n').find((l) => l.startsWith(`| ${path} |`)) || '';
  const makeCmd = (row) => (row.match(/`(if \[ ! -e .*?; fi)`/) || [])[1];
  const cases = [
    [{ distro: 'rocky-9', app_hosts: 2, db_host: 'separate', lb: 'nginx', domain: 'app.test' }, 'db-host/etc/postgresql/17/main/conf.d/60-rails.conf', /^ssl_cert_file = '(\S+)'$/m, /^ssl_key_file = '(\S+)'$/m, '/var/lib/pgsql/17/data', 'postgres'],
    [{ distro: 'rocky-9', app_hosts: 2, db_host: 'separate', lb: 'haproxy', pooler: 'pgbouncer', domain: 'app.test' }, 'db-host/etc/pgbouncer/pgbouncer.ini', /^client_tls_cert_file = (\S+)$/m, /^client_tls_key_file = (\S+)$/m, '/etc/pgbouncer', 'pgbouncer'],
  ];
  const dir = mkdtempSync(join(tmpdir(), 'sre5-tls-'));
  try {
    for (const [a, path, certRe, keyRe, where, owner] of cases) {
      const r = gen(a);
      for (const f of r.files.filter((x) => x.path.startsWith('db-host/'))) assert.doesNotMatch(f.content, /snakeoil/, f.path);
      const conf = file(r, path);
      const [cert, key] = [conf.match(certRe)[1], conf.match(keyRe)[1]];
      assert.equal(cert, `${where}/server.crt`);
      assert.equal(key, `${where}/server.key`);
      const row = readmeRow(r, path);
      const cmd = makeCmd(row);
      assert.ok(cmd, row);
      assert.ok(cmd.includes(`-keyout ${key} -out ${cert}`) && cmd.includes(`chown ${owner}: ${key} ${cert}`), cmd);
      assert.doesNotMatch(cmd, /\|/, 'no pipe: the row is a Markdown table cell, where | is escaped');
      // listen_addresses is read at start only: README step 0 (RHEL's since rhel-steps2) restarts when PostgreSQL lists it.
      if (path.includes('postgresql')) assert.match(file(r, 'README.md'), /pg_file_settings WHERE error IS NOT NULL" \| grep \.; then systemctl restart postgresql-17; fi$/m);
      // The command, pointed at a scratch directory and owned by root, makes a pair whose key matches the certificate.
      const here = join(dir, owner);
      mkdirSync(here);
      const local = cmd.replaceAll(where, here).replace(`chown ${owner}:`, 'chown root:');
      for (let i = 0; i < 2; i++) assert.equal(spawnSync('sh', ['-c', local], { encoding: 'utf8' }).status, 0, local);
      const pub = (args) => spawnSync('openssl', args, { encoding: 'utf8' }).stdout;
      assert.equal(pub(['x509', '-in', join(here, 'server.crt'), '-noout', '-pubkey']), pub(['pkey', '-in', join(here, 'server.key'), '-pubout']));
      assert.equal((spawnSync('stat', ['-c', '%a', join(here, 'server.key')], { encoding: 'utf8' }).stdout || '').trim(), '600', 'PostgreSQL refuses a key others may read');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Debian: the snakeoil pair of the ssl-cert package, and no extra note (README step 0 restarts PostgreSQL when needed).
  const deb = gen({ distro: 'debian-13', app_hosts: 2, db_host: 'separate', lb: 'haproxy', domain: 'app.test' });
  assert.match(file(deb, 'db-host/etc/postgresql/17/main/conf.d/60-rails.conf'), /^ssl_cert_file = '\/etc\/ssl\/certs\/ssl-cert-snakeoil\.pem'$/m);
  assert.doesNotMatch(readmeRow(deb, 'db-host/etc/postgresql/17/main/conf.d/60-rails.conf'), /certificate pair|listen_addresses/);
});

// D4 (the part fixed here): the balancer's row in README's file table said "reload (step 11)" on every family, but
// steps 0 and 11 are written for the Debian family only; a Rocky README had no step 11 to follow. The row now says
// step 11 does it where there is one, and what to do by hand where there is none.
test("README's balancer row points at step 11 only where README has it", () => {
  const row = (r) => file(r, 'README.md').split('\n').find((l) => /^\| lb-host\/etc\//.test(l));
  const headings = (r) => file(r, 'README.md').match(/^### .*/gm).join('\n');
  for (const lb of ['nginx', 'haproxy']) {
    const deb = gen({ distro: 'debian-13', app_hosts: 2, db_host: 'separate', lb, domain: 'app.test' });
    assert.match(headings(deb), /^### 11\. Load balancer/m);
    assert.match(row(deb), /README step 11 does it, with the certificate\./);
    // RHEL has its own step 11 since rhel-steps2 (its commands: tests/wizard/rhel-steps2.test.mjs).
    const rocky = gen({ distro: 'rocky-9', app_hosts: 2, db_host: 'separate', lb, domain: 'app.test' });
    assert.match(headings(rocky), /^### 11\. Load balancer/m);
    assert.match(row(rocky), /README step 11 does it, with the certificate\./);
  }
});

// D7: with Sidekiq on several app hosts each host installs its own Redis and its units point REDIS_URL at 127.0.0.1,
// so jobs die with the host that enqueued them and periodic jobs run once per host. Nothing said so; a warning now
// does, with the way out, and one app host (where a local Redis is the whole queue) gets none.
test('Sidekiq on several app hosts: a warning that each host has its own Redis, none for one host or Solid Queue', () => {
  const multi = gen({ app_hosts: 2, lb: 'haproxy', db_host: 'separate', jobs: 'sidekiq', distro: 'debian-13', domain: 'app.test' });
  for (const unit of ['etc/systemd/system/rails-app.service.d/redis.conf', 'etc/systemd/system/rails-jobs@.service.d/redis.conf']) assert.match(file(multi, unit), /^Environment=REDIS_URL=redis:\/\/127\.0\.0\.1:6379\/0$/m, 'the premise: every host its own Redis');
  const w = multi.warnings.find((x) => x.id === 'sidekiq-redis-per-host');
  assert.equal(w?.severity, 'warning', JSON.stringify(multi.warnings.map((x) => x.id)));
  assert.match(w.message, /Each of the 2 app hosts runs its own Redis .*a host that dies or is rebuilt takes its queued, scheduled and retrying jobs with it/);
  assert.match(w.suggestion, /one Redis for all app hosts .*or choose Solid Queue/);
  assert.ok(w.evidence.some((e) => /sidekiq\/wiki\/Using-Redis/.test(e.url)), JSON.stringify(w.evidence));
  assert.match(file(multi, 'README.md'), /^- WARNING: Each of the 2 app hosts runs its own Redis/m);
  for (const a of [{ jobs: 'sidekiq', distro: 'debian-13' }, { app_hosts: 2, lb: 'haproxy', db_host: 'separate', jobs: 'solid_queue' }]) {
    assert.ok(!gen({ domain: 'app.test', ...a }).warnings.some((x) => x.id === 'sidekiq-redis-per-host'), JSON.stringify(a));
  }
});

// D5 in a real Caddy (the one validators.mjs uses): the generated Caddyfile (TLS elsewhere, so plain HTTP) in front of a
// stand-in app server on a Unix socket that reports the bytes it received. A 1 MB upload reaches it; 30 MB, with a
// Content-Length or chunked, gets 413 from Caddy and never reaches it. Only the address, paths and admin API differ.
test('Caddy answers 413 for a body over the limit and passes a smaller one (live, on 127.0.0.1)', { timeout: 30000 }, async () => {
  const caddyfile = file(gen({ proxy: 'caddy', proxy_version: '2.8', tls: 'none', domain: 'shop.example.com' }), 'etc/caddy/Caddyfile');
  const dir = mkdtempSync(join(tmpdir(), 'sre5-caddy-'));
  const port = await new Promise((resolve) => { const s = createNetServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); });
  const sock = join(dir, 'app.sock');
  mkdirSync(join(dir, 'public'));
  let received = 0;
  const app = createServer((req, res) => { let n = 0; req.on('data', (c) => { n += c.length; }); req.on('end', () => { received += n; res.end(`got ${n}`); }); });
  await new Promise((resolve) => app.listen(sock, resolve));
  const conf = `{\n\tadmin off\n}\n${caddyfile.replace(/^:80 \{$/m, `http://127.0.0.1:${port} {`).replaceAll('/var/www/app/current/public', join(dir, 'public')).replaceAll('/var/www/app/tmp/sockets/puma.sock', sock)}`;
  writeFileSync(join(dir, 'Caddyfile'), conf);
  const caddy = spawn('caddy', ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], { stdio: 'ignore' });
  const post = (bytes, chunked) => new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/upload', method: 'POST', headers: chunked ? {} : { 'content-length': bytes } }, (res) => { let body = ''; res.on('data', (c) => { body += c; }); res.on('end', () => resolve({ status: res.statusCode, body })); });
    req.on('error', reject);
    const chunk = Buffer.alloc(1024 * 1024);
    let left = bytes;
    const write = () => { while (left > 0) { const n = Math.min(left, chunk.length); left -= n; if (!req.write(chunk.subarray(0, n))) return req.once('drain', write); } req.end(); };
    write();
  });
  try {
    let small;
    for (let i = 0; i < 100 && !small; i++) small = await post(1024 * 1024).catch(() => new Promise((r) => setTimeout(() => r(null), 100)));
    assert.equal(small?.status, 200, 'Caddy did not come up');
    assert.equal(small.body, `got ${1024 * 1024}`);
    const before = received;
    for (const chunked of [false, true]) {
      const big = await post(30 * 1024 * 1024, chunked).catch((e) => ({ status: `reset (${e.code})` }));
      assert.equal(big.status, 413, `30 MB ${chunked ? 'chunked' : 'with Content-Length'}`);
    }
    assert.ok(received - before < 26214400, `the app server got ${received - before} bytes of the refused uploads`);
  } finally {
    caddy.kill();
    app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
