// The seventh stop on issue 23's SRE review (/work/notes/sre6-review.md): the blocker fixed there, checked on the
// generated README (the order of its shell lines), for each way the wizard installs a MySQL-family server.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';

const DATE = '2026-11-27';
const readme = (a) => generate(a, { date: DATE }).files.find((f) => f.path === 'README.md').content;
const lines = (text) => text.split('\n');
const MULTI = { app_hosts: 2, lb: 'nginx', db_host: 'separate', app_addresses: '10.0.0.11,10.0.0.12', db_address: '10.0.0.20', lb_address: '10.0.0.10' };

// The line that feeds the grants file to a client, and the client it names.
const grantsLines = (text) => lines(text).filter((l) => /^\S+ < (db-host\/)?setup\/mysql-grants\.sql$/.test(l));

// D1: MariaDB's own packages from 11.0 move the `mysql` names into -compat packages (its RPMs install none from
// 11.4.5), so a host set up from MariaDB's repository may have no `mysql`: the grants never ran and db:prepare was
// refused. Where README installs from MariaDB's repository the grants go to `mariadb`, after the server's install.
test('D1: README feeds the grants to mariadb where MariaDB comes from its own repository, after installing it', () => {
  const cases = [
    { name: 'rocky-9 on the host', a: { distro: 'rocky-9', cores: 2, ram_gb: 4, database: 'mariadb', database_version: '11.8', jobs: 'solid_queue' }, file: 'setup/mysql-grants.sql' },
    { name: 'rocky-9 database host', a: { distro: 'rocky-9', cores: 4, ram_gb: 8, database: 'mariadb', database_version: '11.8', ...MULTI }, file: 'db-host/setup/mysql-grants.sql' },
  ];
  for (const { name, a, file } of cases) {
    const text = readme(a);
    assert.deepEqual(grantsLines(text), [`mariadb < ${file}`], name);
    const all = lines(text);
    const repo = all.findIndex((l) => l.includes('/etc/yum.repos.d/MariaDB.repo'));
    const server = all.findIndex((l) => /dnf install -y MariaDB-server$/.test(l));
    const grants = all.indexOf(`mariadb < ${file}`);
    assert.ok(repo >= 0 && repo < server && server < grants, `${name}: repository, then MariaDB-server, then the grants`);
  }
});

test('D1: the distributions\' own MariaDB packages and MySQL keep the mysql client', () => {
  const cases = [
    // Debian 13 ships 11.8 itself (booted with `mysql` in the lab), Rocky 9 ships 10.5.
    { name: 'debian-13 MariaDB 11.8', a: { distro: 'debian-13', database: 'mariadb', database_version: '11.8' } },
    { name: 'rocky-9 MariaDB 10.5', a: { distro: 'rocky-9', database: 'mariadb', database_version: '10.5' } },
    { name: 'ubuntu-24.04 MySQL 8.0', a: { distro: 'ubuntu-24.04', database: 'mysql', database_version: '8.0' } },
  ];
  for (const { name, a } of cases) {
    const text = readme({ cores: 4, ram_gb: 8, ...a });
    assert.deepEqual(grantsLines(text), ['mysql < setup/mysql-grants.sql'], name);
    assert.doesNotMatch(text, /MariaDB\.repo|mariadb\.org/, `${name}: no vendor repository`);
  }
});

// The README's numbered step as its shell lines (the fenced blocks under "### N.").
const step = (text, n) => {
  const start = text.indexOf(`\n### ${n}. `);
  const end = text.indexOf('\n### ', start + 1);
  const body = text.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split('\n').filter(Boolean));
};

// Step 5 asked Let's Encrypt for the certificate through port 80 while firewalld (on by default on RHEL, its public
// zone open to ssh, dhcpv6-client and cockpit only) still shut it: step 6 opened HTTP and HTTPS only afterwards, so
// the first certificate failed on every fresh RHEL host that ends TLS itself. The ports now open before certbot.
test('RHEL: HTTP and HTTPS are open before step 5 asks certbot for the certificate, and step 6 does not open them again', () => {
  const open = ['firewall-cmd --permanent --add-service=http --add-service=https', 'firewall-cmd --reload'];
  for (const a of [
    { distro: 'rocky-9', cores: 2, ram_gb: 4, database: 'mariadb', database_version: '11.8', domain: 'shop.example.com' },
    { distro: 'almalinux-9', proxy: 'apache', proxy_version: '2.4', domain: 'shop.example.com' },
  ]) {
    const text = readme(a);
    const five = step(text, 5);
    const certbot = five.findIndex((l) => l.includes('certbot certonly'));
    assert.ok(certbot > 0, `${a.distro}: step 5 runs certbot`);
    for (const l of open) assert.ok(five.indexOf(l) >= 0 && five.indexOf(l) < certbot, `${a.distro}: "${l}" before certbot`);
    assert.ok(five.indexOf(open[0]) < five.indexOf(open[1]), 'the permanent rule, then the reload that applies it');
    for (const l of open) assert.ok(!step(text, 6).includes(l), `${a.distro}: step 6 does not repeat "${l}"`);
  }
  // Debian opens nothing (no firewall by default); a RHEL host behind a balancer has no certbot and keeps them in step 6.
  assert.ok(!step(readme({ distro: 'debian-13', domain: 'shop.example.com' }), 5).some((l) => l.startsWith('firewall-cmd')));
  const behind = readme({ distro: 'rocky-9', domain: 'shop.example.com', ...MULTI });
  assert.ok(!step(behind, 5).some((l) => l.startsWith('firewall-cmd')));
  for (const l of open) assert.ok(step(behind, 6).includes(l), `behind a balancer step 6 keeps "${l}"`);
});

// D4 (major, from sre5 D9): Passenger inside Apache runs the app's processes in Apache's unit, which had only
// LimitNOFILE: a leak grew until the host's OOM killer ran, which may pick a PostgreSQL backend. Apache's drop-in now
// carries the ceiling the app units get: the plan's lines for the app and Apache plus what the plan leaves free,
// OOMPolicy=continue (Passenger's core respawns a killed process) and OOMScoreAdjust=500.
test('D4: Passenger inside Apache gets the memory ceiling on Apache\'s unit, from the plan', () => {
  for (const ram of [2, 4, 8]) {
    const r = generate({ domain: 'a.example.com', server: 'passenger', proxy: 'apache', ram_gb: ram }, { date: DATE });
    const drop = r.files.find((f) => f.path === 'etc/systemd/system/apache2.service.d/rails-app.conf');
    assert.ok(drop, `${ram} GB: Apache's drop-in`);
    const value = (k) => (new RegExp(`^${k}=(.*)$`, 'm').exec(drop.content) || [])[1];
    const kinds = ['monitor', 'master', 'workers', 'jit', 'handover', 'proxy'];
    const mem = r.model.memory;
    const own = Math.round(mem.filter((x) => kinds.includes(x.kind)).reduce((s, x) => s + x.mb, 0));
    const planned = mem.reduce((s, x) => s + x.mb, 0);
    const free = Math.max(0, ram * 1024 - planned);
    assert.equal(value('MemoryMax'), `${own + free}M`, `${ram} GB: the app's and Apache's share plus the free memory`);
    assert.ok(own >= mem.filter((x) => x.kind === 'workers').reduce((s, x) => s + x.mb, 0), 'never below the workers');
    assert.equal(value('OOMPolicy'), 'continue');
    assert.equal(value('OOMScoreAdjust'), '500');
    assert.equal(value('LimitNOFILE'), '65536');
  }
});
