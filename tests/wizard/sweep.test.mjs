// Validation sweep: generate a bundle for every answer set of the matrix (every value of every question),
// then check every DISTINCT generated file (header stripped, content-hashed) with its real validator.
// Missing validators fail the test (scripts/setup installs them). No server is started.
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync, chmodSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { generate, QUESTIONS, GENERATOR_VERSION } from '../../guide/engine/index.mjs';
import { derive } from '../../guide/engine/derive.mjs';
import { gcVarsRead } from '../../guide/engine/generators/ruby-env.mjs';
import { keyExists, schedulerExists } from '../../guide/engine/generators/sysctl.mjs';
import { NEVER_EMIT } from '../../guide/engine/capabilities/kernel.mjs';
import { buildMatrix } from './matrix.mjs';
import { appAddresses } from '../../guide/engine/topology.mjs';
import * as V from './validators.mjs';

const DATE = '2026-01-02';
const APP = V.tmp('wizard-app-');
for (const d of ['tmp/sockets', 'tmp/pids', 'log', 'public', 'private', 'config']) mkdirSync(join(APP, d), { recursive: true });
chmodSync(APP, 0o755); // logrotate stats log/*.log as the unprivileged `su` user
symlinkSync('.', join(APP, 'current')); // the release layout's link (deploy.sh); here one release, the root itself

after(V.cleanup);

const matrix = buildMatrix();
const bundles = matrix.map((answers) => {
  const r = generate(answers, { date: DATE, appRoot: APP });
  return { answers: r.answers, r, byPath: Object.fromEntries(r.files.map((f) => [f.path, f])) };
});

const body = (content) => content.split('\n').slice(3).join('\n');
/** Dotted version comparison (independent of the engine's own). */
const vcmp = (x, y) => {
  const a = String(x).split('.').map(Number);
  const b = String(y).split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) - (b[i] || 0);
  return 0;
};
const hash = (s) => createHash('sha256').update(s).digest('hex');

/** Distinct files matching a path test: [{file, bundle}] (first bundle that produced the content). */
function distinct(pathTest, key = (f) => body(f.content)) {
  const seen = new Map();
  for (const b of bundles) {
    for (const f of b.r.files) {
      if (!pathTest(f.path)) continue;
      const h = hash(`${f.path.replace(/\d[\d.]*\/main/, 'N/main')}\0${key(f, b)}`);
      if (!seen.has(h)) seen.set(h, { file: f, bundle: b });
    }
  }
  return [...seen.values()];
}

function writeTmp(dir, name, content) {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

test('the matrix uses every value of every question', () => {
  for (const q of QUESTIONS) {
    const used = new Set(matrix.map((a) => a[q.key]));
    if (q.type === 'enum') for (const o of q.options) assert.ok(used.has(o.value), `${q.key}=${o.value} missing from the matrix`);
    if (q.type === 'boolean') assert.deepEqual([...used].sort(), [false, true]);
    assert.ok(used.size >= 2, `${q.key} has only one value in the matrix`);
  }
});

test('every generated file opens with version, date and permalink, and has no template accidents', () => {
  for (const b of bundles) {
    for (const f of b.r.files) {
      const head = f.content.split('\n').slice(0, 3).join('\n');
      assert.match(head, new RegExp(`generator ${GENERATOR_VERSION.replace(/\./g, '\\.')}, on ${DATE}`), f.path);
      assert.match(head, /permalink\): \/guide\//, f.path);
      assert.doesNotMatch(f.content, /undefined|NaN|\[object Object\]/, `${f.path} for ${JSON.stringify(b.answers)}`);
    }
  }
});

// ---- cross-file consistency (per bundle, parsed from the generated text) ----

function serverBinds(b) {
  const f = b.byPath;
  if (f['config/puma.rb']) return [...f['config/puma.rb'].content.matchAll(/^bind "(unix:\/\/|tcp:\/\/)([^"]+)"/gm)].map((m) => (m[1] === 'unix://' ? `unix:${m[2]}` : m[2]));
  if (f['config/unicorn.rb']) return [...f['config/unicorn.rb'].content.matchAll(/^listen "([^"]+)"/gm)].map((m) => (m[1].startsWith('/') ? `unix:${m[1]}` : m[1]));
  if (f['config/pitchfork.rb']) return [...f['config/pitchfork.rb'].content.matchAll(/^listen "([^"]+)"/gm)].map((m) => (m[1].startsWith('/') ? `unix:${m[1]}` : m[1]));
  if (f['config/thin.yml']) {
    const t = f['config/thin.yml'].content;
    const n = Number(/^servers: (\d+)/m.exec(t)[1]);
    const sock = /^socket: (\S+)/m.exec(t);
    if (sock) return Array.from({ length: n }, (_, i) => `unix:${sock[1].replace(/\.sock$/, `.${i}.sock`)}`);
    const host = /^address: "?([^"\s]+)"?/m.exec(t)[1];
    const port = Number(/^port: (\d+)/m.exec(t)[1]);
    return Array.from({ length: n }, (_, i) => `${host}:${port + i}`);
  }
  if (f['config/mongrel_cluster.yml']) {
    const t = f['config/mongrel_cluster.yml'].content;
    const n = Number(/^servers: (\d+)/m.exec(t)[1]);
    const host = /^address: "?([^"\s]+)"?/m.exec(t)[1];
    const port = Number(/^port: "?(\d+)/m.exec(t)[1]);
    return Array.from({ length: n }, (_, i) => `${host}:${port + i}`);
  }
  const unit = f['etc/systemd/system/rails-app.service'];
  if (unit) {
    const m = /--bind http:\/\/([\d.]+:\d+)|--address ([\d.]+) --port (\d+)|-b ([\d.]+) -p (\d+)/.exec(unit.content);
    if (m) return [m[1] || (m[2] ? `${m[2]}:${m[3]}` : `${m[4]}:${m[5]}`)];
  }
  return null;
}

function proxyUpstreams(b) {
  const f = b.byPath;
  const site = f['etc/nginx/sites-enabled/rails-app.conf'] || f['migrate-to/etc/nginx/sites-enabled/rails-app.conf'];
  if (site) return [...site.content.matchAll(/^\s+server (\S+) fail_timeout=0;/gm)].map((m) => m[1]);
  const ap = f['etc/apache2/sites-available/rails-app.conf'];
  if (ap) {
    const members = [...ap.content.matchAll(/BalancerMember (\S+)/g)].map((m) => m[1]);
    const pass = [...ap.content.matchAll(/^\s+ProxyPass \/ (\S+)/gm)].map((m) => m[1]).filter((x) => !x.startsWith('balancer:'));
    return [...members, ...pass].map((x) => (x.startsWith('unix:') ? x.replace(/\|.*$/, '') : x.replace(/^http:\/\//, '').replace(/\/$/, '')));
  }
  const caddy = f['etc/caddy/Caddyfile'];
  if (caddy) return /reverse_proxy (.+) \{/.exec(caddy.content)[1].split(' ').map((x) => (x.startsWith('unix/') ? `unix:${x.slice(5)}` : x));
  return null;
}

test('proxy upstreams equal the app server binds (same socket path or port) in every bundle', () => {
  let checked = 0;
  for (const b of bundles) {
    const up = proxyUpstreams(b);
    const binds = serverBinds(b);
    if (!up || (up.length === 0 && b.r.model.server === 'passenger')) continue; // Passenger inside Apache has no upstream
    assert.ok(binds, `no server bind found for ${JSON.stringify(b.answers)}`);
    assert.deepEqual([...up].sort(), [...binds].sort(), `upstream ≠ bind for ${JSON.stringify(b.answers)}`);
    assert.deepEqual([...up].sort(), [...b.r.model.upstreams].sort());
    checked++;
  }
  assert.ok(checked > 500, `only ${checked} bundles had a proxy and a bind`);
});

test('pool ≥ threads, connections fit the database limit, memory warning when over budget', () => {
  for (const b of bundles) {
    const m = b.r.model;
    assert.ok(m.pool >= m.threads, `pool ${m.pool} < threads ${m.threads}`);
    // Every database a web process uses (primary, cache, queue, cable) has its own pool; job processes count too.
    assert.equal(m.connections_needed, b.answers.database === 'sqlite' ? 0 : m.app_hosts * (m.processes * m.web_connections_per_process + m.job_connections));
    assert.ok(m.web_connections_per_process >= m.pool);
    if (m.jobs !== 'none') assert.ok(m.job_connections >= m.job_workers * m.job_threads, JSON.stringify(b.answers));
    if (m.jobs !== 'none') assert.ok(m.memory.some((x) => x.kind === 'jobs'), 'the job runner is in the memory budget');
    if (m.db_max_connections !== null) assert.ok(m.connections_needed <= m.db_max_connections, `needs ${m.connections_needed} > ${m.db_max_connections}`);
    const over = m.memory.reduce((s, x) => s + x.mb, 0) > m.ram_mb;
    assert.equal(b.r.warnings.some((w) => w.id === 'memory-over-budget'), over, JSON.stringify(b.answers));
  }
});

// ---- real validators on distinct files ----

test('nginx -t accepts every distinct nginx.conf + site', () => {
  const pairs = distinct((p) => /sites-enabled\/rails-app\.conf$/.test(p), (f, b) => body(f.content) + body((b.byPath['etc/nginx/nginx.conf'] || b.byPath['migrate-to/etc/nginx/nginx.conf']).content));
  assert.ok(pairs.length > 10);
  for (const { file, bundle } of pairs) {
    const main = bundle.byPath[file.path.replace('sites-enabled/rails-app.conf', 'nginx.conf')];
    V.nginxTest(main.content, file.content);
  }
});

test('the load balancer: haproxy -c / nginx -t accept every distinct lb-host config file, whose servers are the app hosts', () => {
  const seen = { haproxy: 0, nginx: 0 };
  for (const { file, bundle } of distinct((p) => /^lb-host\/etc\//.test(p))) {
    const haproxy = file.path.endsWith('haproxy.cfg');
    if (haproxy) V.haproxyTest(file.content); else V.nginxLbTest(file.content);
    seen[haproxy ? 'haproxy' : 'nginx']++;
    // The WebSocket backend's servers follow the HTTP backend's (track), and nginx's WebSocket upstream caps each host
    // (max_conns): each app host is listed once among the HTTP servers.
    const servers = [...file.content.matchAll(/^\s*server (?:app\d+ )?(\d+\.\d+\.\d+\.\d+):80\b(.*)$/gm)].filter((m) => !/ track |max_conns=/.test(m[2])).map((m) => m[1]);
    assert.deepEqual(servers, appAddresses(bundle.answers), file.path);
    assert.match(file.content, haproxy ? /^\s*option redispatch 1$/m : /^\s*proxy_next_upstream error;$/m);
  }
  assert.ok(seen.haproxy >= 2 && seen.nginx >= 2, JSON.stringify(seen));
  // No balancer file for one app host, or for a cloud balancer.
  for (const b of bundles) if (b.answers.app_hosts < 2 || !['nginx', 'haproxy'].includes(b.answers.lb)) assert.ok(!b.r.files.some((f) => f.path.startsWith('lb-host/')));
});

test('apache2 -t accepts every distinct Apache site (with the modules it names)', () => {
  const files = distinct((p) => p === 'etc/apache2/sites-available/rails-app.conf', (f) => body(f.content) + f.meta.modules.join());
  assert.ok(files.length > 5);
  for (const { file } of files) V.apacheTest(file.content, file.meta.modules);
});

test('caddy validate accepts every distinct Caddyfile', () => {
  const files = distinct((p) => p === 'etc/caddy/Caddyfile');
  assert.ok(files.length > 2);
  for (const { file } of files) V.caddyValidate(file.content);
});

// Settings newer than the PostgreSQL the validator machine has (Debian 12: 15). Files for a newer server are checked
// without exactly these lines, and nothing else may be missing.
const PG_NEWER = { io_workers: '18', io_method: '18' };

test('postgres -C reads every distinct PostgreSQL file, with max_connections as in the model', () => {
  const files = distinct((p) => /^(db-host\/)?etc\/postgresql\/.*\/conf\.d\/.*\.conf$/.test(p), (f, b) => body(f.content) + b.r.model.db_server_max_connections);
  assert.ok(files.length > 5);
  const installed = V.postgresMajor();
  for (const { file, bundle } of files) {
    const strip = Object.entries(PG_NEWER).filter(([, since]) => Number(since) > installed).map(([k]) => k);
    const content = file.content.split('\n').filter((l) => !strip.some((k) => l.startsWith(`${k} = `))).join('\n');
    const v = V.postgresCheck(content, ['shared_buffers', 'max_connections', 'work_mem']);
    assert.equal(Number(v.max_connections), bundle.r.model.db_server_max_connections);
  }
});

test('mariadbd --help --verbose accepts every distinct MySQL/MariaDB file, with max_connections as in the model', () => {
  const files = distinct((p) => /^(db-host\/)?etc\/mysql\//.test(p), (f, b) => body(f.content) + b.r.model.db_server_max_connections);
  assert.ok(files.length > 5);
  for (const { file, bundle } of files) {
    // Debian packages no MySQL server: MySQL-only variables are checked by name against MySQL's list, the rest by mariadbd.
    // mysqlx (MySQL 8.0+: the X Plugin's switch) is MySQL's too.
    const mysqlOnly = bundle.answers.database === 'mysql' ? ['innodb_redo_log_capacity', 'mysqlx'] : [];
    const lines = file.content.split('\n');
    for (const l of lines) if (/^[a-z]/.test(l)) assert.ok(!/^innodb_redo_log_capacity/.test(l) || mysqlOnly.length, l);
    const vars = V.mariadbCheck(lines.filter((l) => !mysqlOnly.some((k) => l.startsWith(`${k} = `))).join('\n'));
    assert.equal(Number(vars['max-connections']), bundle.r.model.db_server_max_connections);
  }
});

test('systemd-analyze verify accepts every distinct unit and drop-in', () => {
  const files = distinct((p) => p.startsWith('etc/systemd/'));
  assert.ok(files.length > 5);
  // verify also checks that each Exec program exists. The programs live on the target host (the answer's
  // ruby_path, /usr/local/bin/kamal-proxy); here they are replaced by executable stubs in a temporary directory.
  const stubs = V.tmp('wizard-bin-');
  for (const name of ['bundle', 'ruby', 'mongrel_rails', 'kamal-proxy']) writeFileSync(join(stubs, name), '#!/bin/sh\n', { mode: 0o755 });
  const localize = (text) => text.replace(/^(Exec\w+=)(\/[^\s']+)\/(bundle|ruby|mongrel_rails|kamal-proxy)\b/gm, `$1${stubs}/$3`);
  for (const { file: f } of files) {
    const file = { ...f, content: localize(f.content) };
    if (file.path.includes('.service.d/')) {
      V.systemdVerify('dropin-test.service', `[Unit]\nDescription=drop-in check\n[Service]\nExecStart=/bin/true\n${file.content}`);
    } else {
      V.systemdVerify(file.path.split('/').pop().replace('@.service', '@1.service'), file.content);
    }
  }
});

test('systemd-analyze security rates every distinct app and job unit "OK" or better (below the documented score)', async () => {
  const { HARDENING } = await import('../../guide/engine/capabilities/process.mjs');
  const units = distinct((p) => /^etc\/systemd\/system\/rails-(app|jobs@?)\.service$/.test(p), (f) => body(f.content).replace(/^(ExecStart|ExecReload|Description)=.*$/gm, ''));
  assert.ok(units.length > 3);
  const scores = [];
  for (const { file } of units) {
    const { score, label } = V.systemdSecurity(file.path.split('/').pop(), file.content);
    assert.ok(score < HARDENING.maxScore, `${file.path}: exposure ${score} ${label}`);
    scores.push(score);
  }
  console.log(`systemd-analyze security: ${units.length} distinct units, exposure ${Math.min(...scores)}–${Math.max(...scores)}`);
});

test('units: Type=notify only where the server speaks sd_notify, graceful stop signals, absolute ExecStart, secrets file', () => {
  const seen = { units: 0, notify: 0, sigquit: 0, webrick: 0 };
  for (const b of bundles) {
    const unit = b.byPath['etc/systemd/system/rails-app.service'];
    if (!unit) continue;
    seen.units++;
    const c = unit.content;
    const m = b.r.model;
    const type = /^Type=(\S+)/m.exec(c)[1];
    if (type === 'notify') {
      seen.notify++;
      assert.doesNotMatch(c, /^WatchdogSec=/m);
      if (m.server === 'falcon') {
        // Falcon (async-container's controller) sends READY=1 and RELOADING=1 but no watchdog pings.
        assert.ok(['cruby', 'ree'].includes(b.answers.ruby), JSON.stringify(b.answers));
        assert.match(c, /^# .*tells systemd when every worker is ready \(READY=1\)/m);
      } else {
        assert.ok(m.server === 'puma' && !/^[0-4]\.|^5\.0/.test(b.answers.server_version) && ['cruby', 'ree'].includes(b.answers.ruby), JSON.stringify(b.answers));
        // Puma's reload is a hot restart that boots the app before its next watchdog ping: no WatchdogSec (puma#3329).
        assert.match(c, /^# No WatchdogSec: /m);
      }
    }
    // Thin's cluster daemonizes its servers: Type=forking with server 0's PID file, which its config names.
    if (m.server === 'thin') {
      assert.match(c, /^Type=forking$/m);
      const pid = /^pid: (\S+)\.pid$/m.exec(b.byPath['config/thin.yml'].content)?.[1];
      assert.match(c, new RegExp(`^PIDFile=${pid}\\.(0|\\d{4,5})\\.pid$`, 'm'));
    }
    // WEBrick through `rails server`, named (Rails would start Puma, also in the Gemfile): -u from Rails 6.0.
    if (m.server === 'webrick') {
      assert.match(c, vcmp(b.answers.rails, '6.0') >= 0 ? /^ExecStart=\S+ exec \S*rails server -u webrick -e production /m : /^ExecStart=\S+ exec \S*(rails )?server webrick -e production /m, JSON.stringify(b.answers));
      seen.webrick++;
    }
    if (['unicorn', 'pitchfork'].includes(m.server)) {
      assert.match(c, /^KillSignal=SIGQUIT$/m, 'graceful stop for Unicorn/Pitchfork');
      seen.sigquit++;
    }
    assert.match(c, /^ExecStart=\//m, 'absolute program path');
    assert.ok(c.includes(`ExecStart=${b.answers.ruby_path}/`) || /ExecStart=\S+\/(bundle|mongrel_rails)/.test(c));
    assert.match(c, /^EnvironmentFile=\/etc\/rails-app\/secrets\.env$/m);
    assert.match(c, new RegExp(`^User=${b.answers.deploy_user}$`, 'm'));
    assert.ok(b.byPath['etc/rails-app/secrets.env'], 'the secrets template ships with the unit');
    // Solid Queue inside Puma (small hosts): the web unit sets SOLID_QUEUE_IN_PUMA and there is no jobs unit.
    if (m.jobs !== 'none') assert.equal(b.r.files.some((f) => /^etc\/systemd\/system\/rails-jobs@?\.service$/.test(f.path)), !m.jobs_in_puma, 'job runner unit');
    assert.equal(/^Environment=SOLID_QUEUE_IN_PUMA=1$/m.test(c), Boolean(m.jobs_in_puma), 'SOLID_QUEUE_IN_PUMA only for the small-host plan');
  }
  // The checks above only mean something if the matrix produced units of each kind.
  assert.ok(seen.units >= bundles.length / 2 && seen.notify > 0 && seen.sigquit > 0 && seen.webrick > 0, JSON.stringify({ ...seen, bundles: bundles.length }));
});

// Over every answer set: a server outside the Rails versions it can run (capabilities/server-rails.mjs: Mongrel from
// Rails 5.0) is an error-level finding, and no other bundle has it.
test('server-cannot-run-rails exactly where the capability table says, at error level', async () => {
  const { SERVER_RAILS } = await import('../../guide/engine/capabilities/server-rails.mjs');
  const seen = { refused: 0, kept: 0 };
  for (const b of bundles) {
    const row = SERVER_RAILS[b.r.model.server];
    const want = Boolean(row) && vcmp(b.answers.rails, row.railsBefore) >= 0;
    const w = b.r.warnings.find((x) => x.id === 'server-cannot-run-rails');
    assert.equal(Boolean(w), want, JSON.stringify(b.answers));
    if (w) { assert.equal(w.severity, 'error'); seen.refused++; } else if (row) seen.kept++;
  }
  assert.ok(seen.refused > 0 && seen.kept > 0, JSON.stringify(seen));
});

test('logrotate -d accepts every distinct logrotate file', () => {
  const files = distinct((p) => p.startsWith('etc/logrotate.d/'));
  assert.ok(files.length >= 2); // the matrix varies the service user (the app root is the test's directory)
  for (const { file } of files) V.logrotateCheck(file.content);
});

test('edge: HTTPS, HTTP/2 by nginx version, redirect, HSTS and X-Forwarded-Proto per TLS mode; /cable and /up', () => {
  let checked = 0;
  for (const b of bundles) {
    const site = b.byPath['etc/nginx/sites-enabled/rails-app.conf'];
    if (!site || b.answers.proxy !== 'nginx') continue;
    const c = site.content.replace(/^\s*#.*$/gm, '');
    const v = b.answers.proxy_version;
    const tls = b.r.model.tls;
    if (tls === 'proxy') {
      assert.match(c, /listen 443 ssl/);
      assert.match(c, /return 301 https:\/\//);
      assert.match(c, /add_header Strict-Transport-Security "?max-age=63072000/);
      const directive = /^\s+http2 on;/m.test(c);
      const param = /listen 443 ssl http2/.test(c);
      assert.equal(directive, vcmp(v, '1.25.1') >= 0, `http2 directive on ${v}`);
      assert.equal(param, vcmp(v, '1.9.5') >= 0 && vcmp(v, '1.25.1') < 0, `listen … http2 on ${v}`);
      assert.doesNotMatch(c, /ssl_stapling/);
      assert.doesNotMatch(c, /TLSv1(\.1)?[ ;]/);
    } else {
      assert.doesNotMatch(c, /listen 443/);
    }
    const protos = [...c.matchAll(/X-Forwarded-Proto (\S+);/g)].map((x) => x[1]);
    assert.ok(protos.length >= 2);
    for (const p of protos) assert.equal(p, tls === 'upstream' ? '$forwarded_proto' : '$scheme');
    assert.match(c, /location = \/up \{\s+access_log off;/);
    if (b.answers.websockets && vcmp(b.answers.rails, '5.0') >= 0 && vcmp(v, '1.3.13') >= 0) {
      assert.match(c, /location \/cable \{\n(?:(?!\n {4}\}).)*proxy_set_header Upgrade \$http_upgrade;(?:(?!\n {4}\}).)*proxy_set_header Connection \$connection_upgrade;/s, JSON.stringify(b.answers));
    }
    checked++;
  }
  assert.ok(checked > 100);
});

test('env files (ruby.env, jobs.env, secrets.env) are shell-sourceable', () => {
  const dir = V.tmp('wizard-envs-');
  for (const { file } of distinct((p) => /(^config\/jobs\.env|^etc\/rails-app\/secrets\.env)$/.test(p))) {
    const p = writeTmp(dir, 'x.env', file.content);
    const r = spawnSync('sh', ['-c', `set -a; . '${p}'; env`], { encoding: 'utf8', env: {} });
    assert.equal(r.status, 0, r.stderr);
    if (file.path === 'config/jobs.env') assert.match(r.stdout, /^RAILS_MAX_THREADS=\d+$/m);
  }
});

test('sysctl files only set keys the chosen kernel has, never harmful ones', () => {
  for (const { file, bundle } of distinct((p) => p.startsWith('etc/sysctl.d/'), (f, b) => f.content + b.answers.kernel)) {
    for (const line of file.content.split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const m = /^([a-z0-9_.-]+) = (\S.*)$/.exec(line);
      assert.ok(m, `bad sysctl line "${line}"`);
      assert.ok(keyExists(m[1], bundle.answers.kernel), `${m[1]} does not exist on Linux ${bundle.answers.kernel}`);
      assert.ok(!NEVER_EMIT.includes(m[1]), `${m[1]} must never be emitted`);
    }
  }
  for (const b of bundles) for (const f of b.r.files) assert.doesNotMatch(f.content.replace(/^#.*$/gm, ''), /tcp_tw_recycle\s*=/, f.path);
});

test('udev scheduler rules name a scheduler the kernel has', () => {
  for (const { file, bundle } of distinct((p) => p.startsWith('etc/udev/'), (f, b) => f.content + b.answers.kernel)) {
    const m = /ATTR\{queue\/scheduler\}="([a-z-]+)"/.exec(file.content);
    assert.ok(m && schedulerExists(m[1], bundle.answers.kernel), `${m && m[1]} on ${bundle.answers.kernel}`);
  }
});

test('limits files are valid PAM limits lines', () => {
  for (const { file } of distinct((p) => p.startsWith('etc/security/'))) {
    for (const line of file.content.split('\n').filter((l) => l && !l.startsWith('#'))) assert.match(line, /^\S+ (soft|hard) nofile \d+$/);
  }
});

test('ruby.env is shell-sourceable and sets only GC variables the chosen Ruby reads', () => {
  const dir = V.tmp('wizard-env-');
  for (const { file, bundle } of distinct((p) => p === 'config/ruby.env', (f, b) => f.content + b.answers.ruby + b.answers.ruby_version)) {
    const p = writeTmp(dir, 'ruby.env', file.content);
    const r = spawnSync('sh', ['-c', `set -a; . '${p}'; env`], { encoding: 'utf8', env: {} });
    assert.equal(r.status, 0, r.stderr);
    const set = new Set(r.stdout.split('\n').map((l) => l.split('=')[0]));
    const reads = gcVarsRead(derive(bundle.answers));
    for (const name of set) {
      if (/^RUBY_(GC|HEAP|FREE)/.test(name)) assert.ok(reads.includes(name), `${name} is not read by ${bundle.answers.ruby} ${bundle.answers.ruby_version}`);
    }
  }
});

test('puma.rb and unicorn.rb load with the real Puma and Unicorn loaders and match the model', () => {
  const dir = V.tmp('wizard-rbfiles-');
  const items = [];
  const expect = new Map();
  let i = 0;
  for (const { file, bundle } of distinct((p) => /(^|\/)config\/(puma|unicorn)\.rb$/.test(p))) {
    const path = writeTmp(dir, `${i++}-${file.path.split('/').pop()}`, file.content);
    items.push({ kind: file.path.endsWith('unicorn.rb') ? 'unicorn' : 'puma', path });
    expect.set(path, { file, bundle });
  }
  V.rubySyntax(items.map((x) => x.path).slice(0, 5)); // ruby -c (the loaders below parse every file too)
  const facts = V.loadRubyConfigs(items);
  for (const [path, { file, bundle }] of expect) {
    const f = facts[path];
    assert.ok(f, `no facts for ${file.path}`);
    if (file.path === 'config/puma.rb') {
      const m = bundle.r.model;
      assert.equal(f.max_threads, m.threads);
      assert.equal(f.workers || 1, m.mode === 'cluster' ? m.processes : 1);
      assert.deepEqual(f.binds.map((x) => x.replace(/^unix:\/\//, 'unix:').replace(/^tcp:\/\//, '')), m.upstreams);
    } else if (file.path === 'config/unicorn.rb') {
      assert.equal(f.worker_processes, bundle.r.model.processes);
      assert.equal(f.preload_app, true);
    }
  }
});

test('pitchfork.rb passes ruby -c and loads with Pitchfork::Configurator, matching the model', () => {
  const dir = V.tmp('wizard-pf-');
  const entries = distinct((p) => p === 'config/pitchfork.rb').map(({ file, bundle }, i) => ({ bundle, path: writeTmp(dir, `${i}.rb`, file.content) }));
  assert.ok(entries.length > 1);
  V.rubySyntax(entries.map((e) => e.path));
  const facts = V.loadRubyConfigs(entries.map((e) => ({ kind: 'pitchfork', path: e.path })), { e2eBundle: true });
  for (const { bundle, path } of entries) {
    const f = facts[path];
    assert.equal(f.worker_processes, bundle.r.model.processes);
    assert.deepEqual(f.listeners.map((x) => (x.startsWith('/') ? `unix:${x}` : x)), bundle.r.model.upstreams);
    assert.equal(f.refork, bundle.answers.os === 'linux' && !bundle.answers.kernel.startsWith('2.') && bundle.answers.kernel !== '3.2');
  }
});

function e2eHelp(args) {
  const env = { ...process.env, ...V.E2E_BUNDLE_ENV };
  assert.equal(spawnSync('bundle', ['check'], { env, encoding: 'utf8' }).status, 0, 'gems of tests/wizard/e2e/Gemfile missing: run tests/wizard/e2e/setup');
  const r = spawnSync('bundle', ['exec', ...args], { env, encoding: 'utf8', cwd: V.REPO, timeout: 60000 });
  return `${r.stdout}${r.stderr}`;
}

test('Falcon options in service files exist in `falcon serve --help`', () => {
  const help = e2eHelp(['falcon', 'serve', '--help']);
  const units = distinct((p) => p === 'etc/systemd/system/rails-app.service').filter(({ file }) => /falcon serve/.test(file.content));
  assert.ok(units.length > 0);
  for (const { file } of units) {
    for (const m of file.content.match(/falcon serve .*/)[0].matchAll(/(--[a-z-]+)/g)) assert.match(help, new RegExp(`${m[1]}\\b`), m[1]);
  }
});

test('every thin.yml key is a long option of `thin --help`', () => {
  const help = e2eHelp(['thin', '--help']);
  const files = distinct((p) => p === 'config/thin.yml');
  assert.ok(files.length > 1);
  for (const { file } of files) {
    for (const m of file.content.matchAll(/^([a-z_]+):/gm)) assert.match(help, new RegExp(`--${m[1].replace(/_/g, '-')}\\b`), m[1]);
  }
});

test('Passenger Standalone options in service files exist in `passenger start --help`', () => {
  const passenger = V.requireTool('passenger', 'passenger (pulled in by libapache2-mod-passenger)');
  const help = spawnSync(passenger, ['start', '--help'], { encoding: 'utf8' }).stdout;
  const units = distinct((p) => p === 'etc/systemd/system/rails-app.service').filter(({ file }) => /passenger start/.test(file.content));
  assert.ok(units.length > 0);
  for (const { file } of units) {
    for (const m of file.content.match(/passenger start .*/)[0].matchAll(/(--[a-z-]+)/g)) assert.match(help, new RegExp(`${m[1]}\\b`), m[1]);
  }
});

const THIN_KEYS = new Set(['chdir', 'environment', 'address', 'port', 'socket', 'servers', 'threaded', 'timeout', 'max_conns', 'max_persistent_conns', 'wait', 'pid', 'log', 'daemonize']);
const MONGREL_KEYS = new Set(['cwd', 'environment', 'address', 'port', 'servers', 'pid_file', 'log_file']);

test('database.yml, thin.yml and mongrel_cluster.yml parse as YAML after ERB; pool ≥ threads', () => {
  const dir = V.tmp('wizard-yml-');
  const entries = distinct((p) => /\.yml$/.test(p), (f, b) => body(f.content) + b.r.model.threads).map(({ file, bundle }, i) => ({ file, bundle, path: writeTmp(dir, `${i}-${file.path.split('/').pop()}`, file.content) }));
  const parsed = V.yamlAfterErb(entries.map((e) => e.path));
  for (const { file, bundle, path } of entries) {
    const y = parsed[path];
    if (file.path.endsWith('database.yml')) {
      const m = bundle.r.model;
      const multi = m.db_roles.length > 1;
      const prod = multi ? y.production.primary : y.production;
      const pool = prod.max_connections ?? prod.pool;
      assert.ok(Number.isInteger(pool) && pool >= m.threads, `pool ${pool} < threads ${m.threads}`);
      assert.ok(prod.adapter);
      if (multi) {
        // Rails 8 layout: every role inherits the primary (YAML merge) and has its own database and migrations.
        assert.deepEqual(Object.keys(y.production).sort(), [...m.db_roles].sort());
        for (const role of m.db_roles.filter((r) => r !== 'primary')) {
          const r = y.production[role];
          assert.equal(r.adapter, prod.adapter, role);
          assert.notEqual(r.database, prod.database, role);
          assert.equal(r.migrations_paths, `db/${role}_migrate`);
        }
        // Solid Queue: threads + 2, and never below the primary's pool (Action Cable's workers may enqueue too).
        if (y.production.queue) assert.ok((y.production.queue.max_connections ?? y.production.queue.pool) >= Math.max(pool, m.threads + 2), 'Solid Queue: threads + 2');
      }
      if (bundle.answers.database === 'sqlite' && !bundle.answers.rails.startsWith('2.') && !/^(3|4|5\.[01])/.test(bundle.answers.rails)) assert.match(prod.database, /^storage\//);
    } else if (file.path.endsWith('queue.yml')) {
      const w = y.production.workers[0];
      assert.equal(w.threads, bundle.r.model.job_threads);
      // Async mode inside Puma ignores processes: the file leaves it out.
      assert.equal(w.processes, bundle.r.model.jobs_in_puma ? undefined : bundle.r.model.job_workers);
      assert.ok(y.production.dispatchers.length === 1);
    } else if (file.path.endsWith('sidekiq.yml')) {
      assert.equal(y.concurrency, bundle.r.model.job_threads);
      assert.ok(y.timeout < 35);
    } else if (file.path.endsWith('thin.yml')) {
      for (const k of Object.keys(y)) assert.ok(THIN_KEYS.has(k), `unknown thin option ${k}`);
    } else {
      for (const k of Object.keys(y)) assert.ok(MONGREL_KEYS.has(k), `unknown mongrel_cluster option ${k}`);
    }
  }
});

const PGBOUNCER_KEYS = new Set(['listen_addr', 'listen_port', 'auth_type', 'auth_file', 'auth_hba_file', 'client_tls_sslmode', 'client_tls_cert_file', 'client_tls_key_file', 'pool_mode', 'max_client_conn', 'default_pool_size', 'max_user_connections', 'max_prepared_statements', 'server_login_retry']);

test('pgbouncer.ini has a databases section and only known settings (max_prepared_statements from 1.21)', () => {
  for (const { file, bundle } of distinct((p) => /^(db-host\/)?etc\/pgbouncer\/pgbouncer\.ini$/.test(p), (f, b) => f.content)) {
    let section = null;
    for (const line of file.content.split('\n')) {
      if (!line || line.startsWith(';')) continue;
      const s = /^\[(\w+)\]$/.exec(line);
      if (s) { section = s[1]; continue; }
      const m = /^([a-z_]+) = (.+)$/.exec(line);
      assert.ok(m, `bad line ${line}`);
      if (section === 'pgbouncer') assert.ok(PGBOUNCER_KEYS.has(m[1]), m[1]);
      if (m[1] === 'max_prepared_statements') assert.ok(!bundle.answers.pooler_version.startsWith('1.1'));
    }
  }
});

test('every Puma DSL method in a generated puma.rb exists in the Puma version it is written for', async () => {
  const { PUMA_DSL } = await import('../../guide/engine/capabilities/puma.mjs');
  const { inRange } = await import('../../guide/engine/version.mjs');
  let checked = 0;
  for (const b of bundles) {
    const f = b.byPath['config/puma.rb'];
    if (!f) continue;
    const version = b.answers.server === 'puma' ? b.answers.server_version : '6.4';
    for (const m of f.content.matchAll(/^([a-z_]+!?)(?= |$)/gm)) {
      if (['max_threads', 'end'].includes(m[1])) continue;
      // Defined by Solid Queue's Puma plugin (solid_queue ≥ 1.3), which the line before loads under the same condition.
      if (m[1] === 'solid_queue_mode') { assert.match(f.content, /^plugin :solid_queue if ENV\["SOLID_QUEUE_IN_PUMA"\]\n(#.*\n)*solid_queue_mode :async if ENV\["SOLID_QUEUE_IN_PUMA"\]$/m); continue; }
      const cap = PUMA_DSL[m[1]];
      assert.ok(cap, `${m[1]} is not a known Puma DSL method`);
      assert.ok(inRange(version, cap), `${m[1]} does not exist in Puma ${version}`);
      assert.ok(!(cap.deprecatedSince && inRange(version, { since: cap.deprecatedSince })), `${m[1]} is deprecated in Puma ${version}`);
      checked++;
    }
  }
  assert.ok(checked > 1000);
});
