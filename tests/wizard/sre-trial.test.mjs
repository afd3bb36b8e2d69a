// Rule tests for the senior SRE's trial of the bundles (issues 23/24 follow-up): versions that follow the
// distribution release and the chosen server/database, PostgreSQL outside the release, Puma's watchdog under hot
// restarts, certbot on the balancer, and comments whose arithmetic adds up. Expected versions come from the capability
// tables (what each release ships), and the facts the trial found are asserted directly as well.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate, validateAnswers, parseAnswers } from '../../guide/engine/index.mjs';
import { DISTRO_RELEASES } from '../../guide/engine/capabilities/family-commands.mjs';
import { gte } from '../../guide/engine/version.mjs';

const DATE = '2026-11-25';
const gen = (a) => generate(a, { date: DATE });
const file = (r, p) => r.files.find((f) => (p instanceof RegExp ? p.test(f.path) : f.path === p))?.content;
const ids = (r) => r.warnings.map((w) => w.id);
const stack = (r) => /^Stack: .*$/m.exec(file(r, 'README.md'))[0];
const NGINX_SITE = /^etc\/nginx\/.*rails-app\.conf$/;
/** The shell blocks of a README (what a reader pastes). */
const shBlocks = (md) => [...md.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);

test('nginx and kernel default to what the release ships: no `http2 on;` for nginx before 1.25.1, the listen parameter instead', () => {
  const samples = { '^debian-?12': 'debian-12', '^debian-?13': 'debian-13', '^ubuntu-?22\\.04': 'ubuntu-22.04', '^ubuntu-?24\\.04': 'ubuntu-24.04', '^(rhel|rocky|alma|almalinux|centos-stream|ol)-?9': 'rocky-9' };
  for (const row of DISTRO_RELEASES) {
    const r = gen({ distro: samples[row.match] });
    assert.match(stack(r), new RegExp(`nginx ${row.nginx.replace('.', '\\.')}, .* linux ${row.kernel.replace('.', '\\.')} on`), row.match);
    const site = file(r, NGINX_SITE);
    if (gte(row.nginx, '1.25.1')) assert.match(site, /^\s*http2 on;$/m, row.match);
    else {
      assert.doesNotMatch(site, /^\s*http2 on;$/m, `${row.match}: nginx ${row.nginx} has no http2 directive`);
      assert.match(site, /^\s*listen 443 ssl http2 /m, row.match);
    }
    assert.ok(!ids(r).some((i) => ['distro-nginx', 'distro-kernel'].includes(i)), `${row.match}: the defaults are what it ships`);
  }
  // The trial's hosts, independently of the table: nginx -t on 1.22 and 1.24 rejects `http2 on;`.
  for (const distro of ['debian-12', 'ubuntu-24.04']) assert.doesNotMatch(file(gen({ distro }), NGINX_SITE), /http2 on;/);
  // An answered nginx newer than the release's: a warning naming both versions (like the Ruby/MySQL ones).
  const w = gen({ distro: 'ubuntu-24.04', proxy_version: '1.26' }).warnings.find((x) => x.id === 'distro-nginx');
  assert.equal(w?.severity, 'warning');
  assert.match(w.message, /ships nginx 1\.24, not 1\.26/);
  const k = gen({ distro: 'debian-12', kernel: '6.12' }).warnings.find((x) => x.id === 'distro-kernel');
  assert.match(k?.message || '', /Linux 6\.1, not 6\.12/);
});

test('version defaults follow the chosen server, proxy and database; versions never released are refused', () => {
  const u = gen({ distro: 'ubuntu-24.04', server: 'unicorn', database: 'mysql', adapter: 'trilogy' });
  assert.match(stack(u), /Unicorn 6\.1, /);
  // Ubuntu 24.04 ships MySQL 8.0, past its end of life (April 2026) on this date: 8.4 from MySQL's repository, an info.
  assert.match(stack(u), /mysql 8\.4 \(trilogy\)/, 'Ubuntu 24.04\'s MySQL 8.0 ended in April 2026');
  assert.equal(u.warnings.find((w) => w.id === 'distro-database')?.severity, 'info');
  assert.match(stack(generate({ distro: 'ubuntu-24.04', server: 'unicorn', database: 'mysql', adapter: 'trilogy' }, { date: '2026-03-01' })), /mysql 8\.0 \(trilogy\)/, 'before then, the release\'s own');
  assert.match(stack(gen({ server: 'passenger' })), /Passenger 6\.0, /);
  assert.match(stack(gen({ database: 'mysql', adapter: 'trilogy' })), /mysql 8\.4 /, 'Debian has no MySQL: the current LTS');
  assert.match(stack(gen({ distro: 'debian-12', database: 'mariadb', adapter: 'mysql2' })), /mariadb 10\.11 /);
  assert.match(stack(gen({ proxy: 'apache' })), /apache 2\.4\.65, /, 'never nginx\'s 1.26 for Apache: Debian 13\'s httpd');
  // Strict (CLI): exit 2 with the key and the series that exist.
  for (const [a, key] of [[{ server: 'unicorn', server_version: '8.0' }, 'server_version'], [{ database: 'mysql', database_version: '17' }, 'database_version'],
    [{ server: 'passenger', server_version: '8.0' }, 'server_version'], [{ proxy: 'apache', proxy_version: '1.26' }, 'proxy_version']]) {
    const e = validateAnswers(a);
    assert.deepEqual(e.map((x) => x.key), [key], JSON.stringify(a));
    assert.match(e[0].message, /was never released for/);
  }
  for (const a of [{ server: 'unicorn', server_version: '6.1' }, { database: 'mysql', database_version: '8.4' }, { database: 'mariadb', database_version: '11.4' }, { database_version: '9.6' }, {}]) {
    assert.deepEqual(validateAnswers(a), [], JSON.stringify(a));
  }
  // Forgiving (page): a note and the choice's default, never the other choice's version.
  const p = parseAnswers({ server: 'unicorn', server_version: '8.0' });
  assert.equal(p.answers.server_version, '6.1');
  assert.ok(p.notes.some((n) => n.key === 'server_version' && /never released for Unicorn/.test(n.message)));
  const dir = mkdtempSync(join(tmpdir(), 'sre-trial-'));
  try {
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ distro: 'ubuntu-24.04', server: 'unicorn', server_version: '8.0' }));
    const cli = spawnSync(process.execPath, ['guide/cli.mjs', '--answers', join(dir, 'a.json'), '--out', join(dir, 'out'), '--date', DATE], { encoding: 'utf8', timeout: 30000 });
    assert.equal(cli.status, 2, cli.stderr);
    assert.match(cli.stderr, /server_version "8\.0" was never released for Unicorn/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('PostgreSQL the release does not ship: a warning, the PGDG step from the family table, and no `exit` in any pasted block', () => {
  const d13 = gen({ distro: 'debian-13', database_version: '18' });
  assert.match(d13.warnings.find((w) => w.id === 'distro-postgresql')?.message || '', /debian-13 ships PostgreSQL 17, not 18/);
  assert.match(file(d13, 'README.md'), /apt\.postgresql\.org\.sh -y\n[\s\S]*apt-get install -y postgresql-18\n/);
  const d12 = gen({ distro: 'debian-12', database_version: '17' });
  assert.ok(ids(d12).includes('distro-postgresql'));
  assert.match(stack(gen({ distro: 'debian-12' })), /postgresql 15 /, 'left out: the release\'s PostgreSQL');
  assert.ok(!ids(gen({ distro: 'debian-12' })).includes('distro-postgresql'));
  // The database host of a multi-host bundle installs the same way (it used to print and `exit 1`).
  const sep = gen({ distro: 'debian-12', database_version: '17', db_host: 'separate', app_hosts: 2, lb: 'haproxy' });
  const readme = file(sep, 'README.md');
  assert.match(readme, /apt\.postgresql\.org\.sh -y\ntest -d \/usr\/lib\/postgresql\/17 >\/dev\/null \|\| apt-get install -y postgresql-17\n/);
  for (const r of [d13, d12, sep, gen({ ruby_path: '/opt/ruby/bin' }), gen({ database: 'mysql', adapter: 'trilogy', db_host: 'separate', app_hosts: 2, lb: 'nginx' })]) {
    for (const block of shBlocks(file(r, 'README.md'))) assert.doesNotMatch(block, /(^|[;{&|]\s*)exit\b/m, block);
  }
});

test('Puma under hot restart (USR2 re-exec): Type=notify without WatchdogSec, with the reason in the unit', () => {
  const unit = file(gen({}), 'etc/systemd/system/rails-app.service');
  assert.match(unit, /^Type=notify$/m);
  assert.match(unit, /^ExecReload=\/bin\/kill -USR2 \$MAINPID$/m);
  assert.doesNotMatch(unit, /^WatchdogSec=/m);
  assert.match(unit, /^# No WatchdogSec: .*hot restart/m);
  assert.match(unit, /puma\/puma#3329/);
});

test('balancer README: certbot is installed before it runs; the HAProxy text says nothing about stopping nginx', () => {
  for (const lb of ['haproxy', 'nginx']) {
    const md = file(gen({ app_hosts: 3, lb, domain: 'shop.example.org' }), 'README.md');
    const step = md.slice(md.indexOf('### 11.'));
    const install = step.indexOf('command -v certbot >/dev/null || apt-get install -y certbot');
    assert.ok(install >= 0 && install < step.indexOf('certbot certonly'), `${lb}: install before certonly`);
    if (lb === 'haproxy') assert.doesNotMatch(step, /nginx is stopped/);
  }
});

test('comments that show arithmetic: haproxy maxconn states its floor or its sum, the queue pool is one figure everywhere', () => {
  for (const [a, floor] of [[{ app_hosts: 3, lb: 'haproxy' }, true], [{ app_hosts: 40, cores: 32, ram_gb: 128, lb: 'haproxy', db_host: 'separate' }, false]]) {
    const cfg = file(gen(a), /haproxy\.cfg$/).replace(/\n\s*# /g, ' ');
    const maxconn = Number(/^\s*maxconn (\d+)\b/m.exec(cfg)[1]);
    const [, n, per, busy] = /\(4 × (\d+) × (\d+) = (\d+)\)/.exec(cfg).map(Number);
    assert.equal(4 * n * per, busy);
    const ws = /\((\d+) × (\d+) = (\d+)\)/.exec(cfg.slice(cfg.indexOf('WebSockets per app host'))).map(Number);
    assert.equal(ws[1] * ws[2], ws[3]);
    assert.equal(maxconn, Math.max(4096, busy + ws[3]));
    if (floor) assert.match(cfg, /the floor of 4096, since .* makes only (\d+)/);
    else assert.doesNotMatch(cfg, /floor/);
  }
  const r = gen({});
  const plus = Number(/queue:[\s\S]*?max_connections: <%= ENV\.fetch\("RAILS_MAX_THREADS"\) \{ \d+ \}\.to_i \+ (\d+) %>/.exec(file(r, 'config/database.yml'))[1]);
  assert.match(file(r, 'config/database.yml').replace(/\n\s*# /g, ' '), new RegExp(`RAILS_MAX_THREADS \\+ ${plus}, the larger of the two`));
  for (const p of ['config/queue.yml', 'config/jobs.env']) {
    const text = file(r, p).replace(/\n\s*# /g, ' ');
    const [, threads, add, pool] = /(\d+) \+ (\d+) = (\d+)/.exec(text).map(Number);
    assert.equal(add, plus, `${p}: the same + ${plus} as database.yml`);
    assert.equal(threads + add, pool, p);
    assert.doesNotMatch(text, /\+ 2 \(|\d \+ 2\)/, `${p}: no second figure`);
  }
});

test('Apache defaults to the release\'s httpd: TLS 1.3 beside 1.2 and Action Cable upgraded to a WebSocket (trial items 5, 6)', () => {
  const samples = { '^debian-?12': 'debian-12', '^debian-?13': 'debian-13', '^ubuntu-?22\\.04': 'ubuntu-22.04', '^ubuntu-?24\\.04': 'ubuntu-24.04', '^(rhel|rocky|alma|almalinux|centos-stream|ol)-?9': 'rocky-9' };
  for (const rel of DISTRO_RELEASES) {
    const distro = samples[rel.match];
    if (!distro || !rel.apache) continue;
    const r = gen({ distro, proxy: 'apache' });
    assert.match(stack(r), new RegExp(`apache ${rel.apache.replace(/\./g, '\\.')}`), distro);
    const site = file(r, /rails-app\.conf$/);
    // Mozilla intermediate: TLS 1.2 and 1.3 (httpd 2.4.36+ with OpenSSL 1.1.1, which every release here has).
    assert.match(site, /SSLProtocol\s+-all \+TLSv1\.2 \+TLSv1\.3/, `${distro}: TLS 1.3 allowed`);
    // httpd 2.4.47+ upgrades in mod_proxy_http; every release here ships a later 2.4.
    assert.ok(gte(rel.apache, '2.4.47'), `${distro} ships ${rel.apache}`);
    assert.match(site, /ProxyPass \/cable \S+ upgrade=websocket/, `${distro}: /cable upgraded`);
    assert.ok(site.indexOf('ProxyPass /cable') < site.indexOf('ProxyPass / '), `${distro}: /cable before the catch-all`);
  }
  // An answered old httpd keeps what it supports, never a directive it lacks.
  const old = file(gen({ proxy: 'apache', proxy_version: '2.4.29' }), /rails-app\.conf$/);
  assert.doesNotMatch(old, /TLSv1\.3|upgrade=websocket/);
});

test('Caddy caches digest-stamped assets like nginx and Apache, and only those (trial item 11)', () => {
  const caddy = file(gen({ proxy: 'caddy' }), /Caddyfile$/);
  assert.match(caddy, /^\s*@assets path \/assets\/\*$/m);
  assert.match(caddy, /^\s*header @assets Cache-Control "public, max-age=31536000, immutable"$/m);
  assert.doesNotMatch(caddy.replace(/^\s*#.*$/gm, ''), /immutable[\s\S]*immutable/, 'one immutable rule, for /assets/ only');
  const nginx = file(gen({}), NGINX_SITE);
  assert.match(nginx, /location \^~ \/assets\/ \{[\s\S]*?expires max;/);
});
