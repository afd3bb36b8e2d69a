// RHEL family, second round (issue 24: distro families as command tables; trial 24 B4/M5/m3, SRE check 5 D4): README
// steps 0 (database host) and 11 (balancer) for Rocky/Alma/RHEL answers, MariaDB's own repository where a release
// lacks the answered series, and nginx's AppStream module streams.
//
// No RHEL machine exists here and the lab boots Debian only: these content assertions, each against the command the
// primary documentation gives (sources in capabilities/family-commands.mjs next to each row entry), are the proof. The
// Debian blocks these steps share code with are booted by tests/wizard/lab-multi-host.test.mjs; the last test here
// pins their lines, so a change for RHEL cannot move them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';
import { FAMILY_COMMANDS, COMMON_PROGRAMS } from '../../guide/engine/capabilities/family-commands.mjs';

const gen = (a) => generate({ domain: 'shop.example.com', app_addresses: '10.0.0.11,10.0.0.12', db_address: '10.0.0.20', lb_address: '10.0.0.10', ...a }, { date: '2026-11-27' });
const readme = (r) => r.files.find((f) => f.path === 'README.md').content;
const file = (r, p) => r.files.find((f) => f.path === p)?.content ?? assert.fail(`${p} in the bundle`);
/** Lines of README step N's first shell block ("0" and "11" are the other hosts'). */
const step = (r, n) => {
  const m = new RegExp(`^### ${n}\\. [^\\n]*\\n[\\s\\S]*?^\`\`\`sh\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(readme(r));
  return m ? m[1].split('\n').filter((l) => l && !l.startsWith('#')) : [];
};
/** Asserts that every `wanted` line is in `lines`, in this order. */
function inOrder(lines, wanted, what) {
  let at = -1;
  for (const w of wanted) {
    const i = lines.indexOf(w, at + 1);
    assert.ok(i > at, `${what}: "${w}" after the line before it\n${lines.join('\n')}`);
    at = i;
  }
}
const RHEL = ['rocky-9', 'almalinux-9', 'rhel-9'];
const MULTI = { app_hosts: 2, db_host: 'separate', lb: 'haproxy' };
const rich = (addr, port) => `firewall-cmd --permanent --add-rich-rule='rule family="ipv4" source address="${addr}" port port="${port}" protocol="tcp" accept'`;
const DEBIAN_WORDS = /\b(apt-get|adduser|editor|a2enmod|a2ensite|apache2ctl|debconf-set-selections)\b|(^|\s)\/etc\/(postgresql|mysql)\/|systemctl \S+ (postgresql|mysql|apache2)$/;

/** Simple commands of a shell line: split at && || ; | outside quotes (enough for README's lines). */
function programs(line) {
  const parts = [];
  let cur = '', q = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) { if (c === q) q = null; cur += c; continue; }
    if (c === '"' || c === "'") q = c;
    if ((c === '&' || c === '|') && line[i + 1] === c) { parts.push(cur); cur = ''; i++; continue; }
    if (c === ';' || c === '|') { parts.push(cur); cur = ''; continue; }
    cur += c;
  }
  parts.push(cur);
  return parts.map((p) => p.trim().split(/\s+/).map((w) => w.replace(/^[({]+/, '')).filter((w) => w && !/^(if|then|fi|!|}|[A-Z_]+=\S*)$/.test(w))[0]).filter(Boolean);
}

test('RHEL database host, PostgreSQL (PGDG): step 0 installs, initialises and enables postgresql-NN, puts the files in its data directory, makes the TLS pair, opens the port to the app hosts only', () => {
  for (const distro of RHEL) {
    // Without a pooler PostgreSQL takes the app hosts on 5432 with ssl = on (the pair in its data directory).
    const r = gen({ distro, ...MULTI, database_version: '17' });
    const zero = step(r, 0);
    inOrder(zero, [
      'test -x /usr/pgsql-17/bin/postgres || dnf install -y https://download.postgresql.org/pub/repos/yum/reporpms/EL-9-x86_64/pgdg-redhat-repo-latest.noarch.rpm',
      'test -x /usr/pgsql-17/bin/postgres || dnf -qy module disable postgresql',
      'test -x /usr/pgsql-17/bin/postgres >/dev/null || dnf install -y postgresql17-server',
      'test -e /var/lib/pgsql/17/data/PG_VERSION || /usr/pgsql-17/bin/postgresql-17-setup initdb',
      'systemctl enable --now postgresql-17',
      'if [ ! -e /var/lib/pgsql/17/data/server.key ]; then (umask 077 && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 -subj "/CN=10.0.0.20" -keyout /var/lib/pgsql/17/data/server.key -out /var/lib/pgsql/17/data/server.crt 2>/dev/null) && chown postgres: /var/lib/pgsql/17/data/server.key /var/lib/pgsql/17/data/server.crt; fi',
      'install -D -m 0644 db-host/etc/postgresql/17/main/conf.d/60-rails.conf /var/lib/pgsql/17/data/conf.d/60-rails.conf',
      'install -D -m 0644 db-host/etc/postgresql/17/main/pg_hba.conf /var/lib/pgsql/17/data/pg_hba.conf',
      'grep -q "^include_dir = \'conf.d\'" /var/lib/pgsql/17/data/postgresql.conf || echo "include_dir = \'conf.d\'" >> /var/lib/pgsql/17/data/postgresql.conf',
      'systemctl reload-or-restart postgresql-17',
      'if runuser -u postgres -- psql -Atc "SELECT name FROM pg_file_settings WHERE error IS NOT NULL" | grep .; then systemctl restart postgresql-17; fi',
      'vi db-host/setup/postgresql-roles.sql',
      'runuser -u postgres -- psql -v ON_ERROR_STOP=1 < db-host/setup/postgresql-roles.sql',
      rich('10.0.0.11', 5432), rich('10.0.0.12', 5432), 'firewall-cmd --reload',
    ], distro);
    assert.ok(!zero.some((l) => DEBIAN_WORDS.test(l)), `${distro}: no Debian command or path\n${zero.join('\n')}`);
    // The settings name the pair the step makes, and listen_addresses (start-only) is applied by the restart line.
    assert.match(file(r, 'db-host/etc/postgresql/17/main/conf.d/60-rails.conf'), /^ssl_cert_file = '\/var\/lib\/pgsql\/17\/data\/server\.crt'$/m);
    assert.ok(!r.warnings.some((w) => w.id === 'hosts-by-hand'), distro);
  }
});

test('RHEL database host with PgBouncer: PGDG\'s pgbouncer user owns the auth file and the TLS pair, the unit is enabled, and only 6432 is opened', () => {
  const r = gen({ distro: 'rocky-9', ...MULTI, database_version: '18', pooler: 'pgbouncer' });
  const zero = step(r, 0);
  inOrder(zero, [
    'test -x /usr/pgsql-18/bin/postgres >/dev/null || dnf install -y postgresql18-server',
    'command -v pgbouncer >/dev/null || dnf install -y pgbouncer', 'systemctl enable --now postgresql-18',
    'PGB=reload-or-restart', 'systemctl reload-or-restart postgresql-18',
    'runuser -u postgres -- psql -v ON_ERROR_STOP=1 < db-host/setup/postgresql-roles.sql',
    'if [ ! -e /etc/pgbouncer/server.key ]; then (umask 077 && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 -subj "/CN=10.0.0.20" -keyout /etc/pgbouncer/server.key -out /etc/pgbouncer/server.crt 2>/dev/null) && chown pgbouncer: /etc/pgbouncer/server.key /etc/pgbouncer/server.crt; fi',
    'install -D -m 0644 db-host/etc/pgbouncer/pgbouncer.ini /etc/pgbouncer/pgbouncer.ini',
    'chown pgbouncer:pgbouncer /etc/pgbouncer/userlist.txt && chmod 0640 /etc/pgbouncer/userlist.txt',
    'systemctl "$PGB" pgbouncer', 'systemctl enable --now pgbouncer',
    rich('10.0.0.11', 6432), rich('10.0.0.12', 6432), 'firewall-cmd --reload',
  ], 'rocky-9 + PgBouncer');
  assert.ok(!zero.some((l) => l.includes('port="5432"')), 'PostgreSQL itself stays on loopback behind PgBouncer');
  // PostgreSQL behind PgBouncer listens on loopback and names no pair: none is made in its data directory.
  assert.ok(!zero.some((l) => l.includes('/var/lib/pgsql/18/data/server.key')));
});

test('RHEL database host, MySQL and MariaDB: the vendor or distribution server, its first start, /etc/my.cnf.d, the mysqld/mariadb unit, port 3306 to the app hosts', () => {
  // MySQL 8.4: MySQL's Yum repository (RHEL 9 ships 8.0), the community RPM's include line and insecure initialise.
  const my84 = step(gen({ distro: 'rocky-9', ...MULTI, lb: 'nginx', database: 'mysql', database_version: '8.4', adapter: 'trilogy' }), 0);
  inOrder(my84, [
    'rpm -q mysql84-community-release >/dev/null || dnf install -y https://dev.mysql.com/get/mysql84-community-release-el9-1.noarch.rpm',
    'command -v mysqld >/dev/null || dnf install -y mysql-community-server',
    "grep -qx '!includedir /etc/my.cnf.d' /etc/my.cnf || echo '!includedir /etc/my.cnf.d' >> /etc/my.cnf",
    'test -e /var/lib/mysql/mysql.ibd || mysqld --initialize-insecure --user=mysql', 'systemctl enable --now mysqld',
    'install -D -m 0644 db-host/etc/mysql/mysql.conf.d/zz-rails.cnf /etc/my.cnf.d/zz-rails.cnf',
    'install -D -m 0644 db-host/etc/systemd/system/mysqld.service.d/network-online.conf /etc/systemd/system/mysqld.service.d/network-online.conf',
    'systemctl daemon-reload', '[ -z "$MY" ] || systemctl restart mysqld',
    rich('10.0.0.11', 3306), rich('10.0.0.12', 3306), 'firewall-cmd --reload',
    'vi db-host/setup/mysql-grants.sql', 'mysql < db-host/setup/mysql-grants.sql',
  ], 'rocky-9 MySQL 8.4');
  // MySQL 8.0: RHEL 9's own mysql-server (its data directory is initialised without a root password by its unit).
  const my80 = step(gen({ distro: 'almalinux-9', ...MULTI, database: 'mysql', database_version: '8.0', adapter: 'trilogy' }), 0);
  inOrder(my80, ['rpm -q mysql-server >/dev/null || dnf install -y mysql-server', 'systemctl enable --now mysqld', '[ -z "$MY" ] || systemctl restart mysqld'], 'alma MySQL 8.0');
  assert.ok(!my80.some((l) => l.includes('community')), my80.join('\n'));
  // MariaDB: RHEL 9's 10.5 when answered so; its unit is mariadb.
  const maria = step(gen({ distro: 'rocky-9', ...MULTI, database: 'mariadb', database_version: '10.5', adapter: 'mysql2' }), 0);
  inOrder(maria, ['rpm -q mariadb-server >/dev/null || dnf install -y mariadb-server', 'systemctl enable --now mariadb', 'install -D -m 0644 db-host/etc/mysql/mariadb.conf.d/60-rails.cnf /etc/my.cnf.d/60-rails.cnf', '[ -z "$MY" ] || systemctl restart mariadb', rich('10.0.0.12', 3306)], 'rocky-9 MariaDB 10.5');
  for (const lines of [my84, my80, maria]) assert.ok(!lines.some((l) => DEBIAN_WORDS.test(l)), lines.join('\n'));
});

test('RHEL HAProxy balancer: dnf, socat, firewalld, haproxy_connect_any, a tmpfiles.d entry for /run/haproxy, started before its first reload, EPEL certbot with its timer', () => {
  for (const distro of RHEL) {
    const r = gen({ distro, ...MULTI, database_version: '18' });
    const eleven = step(r, 11);
    inOrder(eleven, [
      'command -v haproxy >/dev/null || dnf install -y haproxy', 'command -v socat >/dev/null || dnf install -y socat',
      'install -D -m 0644 lb-host/etc/haproxy/haproxy.cfg /etc/haproxy/haproxy.cfg',
      'firewall-cmd --permanent --add-service=http --add-service=https', 'firewall-cmd --reload',
      // certbot's loopback port 8402 is none of haproxy_t's port types.
      'setsebool -P haproxy_connect_any 1',
      "echo 'd /run/haproxy 0755 haproxy haproxy -' > /etc/tmpfiles.d/haproxy-run.conf",
      'systemd-tmpfiles --create /etc/tmpfiles.d/haproxy-run.conf', 'install -d -m 0700 /etc/haproxy/certs',
      // RHEL's package leaves HAProxy stopped: a reload alone would fail.
      'systemctl enable --now haproxy', 'haproxy -c -q -f /etc/haproxy/haproxy.cfg && systemctl reload haproxy',
      'rpm -q epel-release >/dev/null || dnf install -y epel-release',
      'command -v certbot >/dev/null || dnf install -y certbot', 'systemctl enable --now certbot-renew.timer',
    ], distro);
    assert.match(eleven.at(-2), /^certbot certonly --standalone --http-01-address 127\.0\.0\.1 --http-01-port 8402 /);
    assert.ok(!eleven.some((l) => DEBIAN_WORDS.test(l) || l.includes('install -d -o haproxy')), eleven.join('\n'));
    // The stats socket the step's directory is for, and the install hint in README and lb-rotation.sh.
    assert.match(file(r, 'lb-host/etc/haproxy/haproxy.cfg'), /^\s*stats socket \/run\/haproxy\/admin\.sock /m);
    assert.match(readme(r), /\(socat: dnf install socat\)/);
    assert.match(file(r, 'lb-host/lb-rotation.sh'), /socat is missing \(dnf install socat\)/);
  }
});

test('RHEL nginx balancer: httpd_can_network_connect and httpd_setrlimit, certbot\'s webroot labelled before the first issue, nginx enabled at boot', () => {
  const r = gen({ distro: 'rocky-9', ...MULTI, lb: 'nginx', database_version: '17' });
  const eleven = step(r, 11);
  inOrder(eleven, [
    'command -v nginx >/dev/null || dnf install -y nginx',
    'install -D -m 0644 lb-host/etc/nginx/nginx.conf /etc/nginx/nginx.conf',
    'firewall-cmd --permanent --add-service=http --add-service=https', 'firewall-cmd --reload',
    'setsebool -P httpd_can_network_connect 1', 'setsebool -P httpd_setrlimit 1',
    'install -d /var/www/letsencrypt', 'restorecon -R /var/www/letsencrypt',
    'command -v certbot >/dev/null || dnf install -y certbot', 'systemctl enable --now certbot-renew.timer',
    'if [ ! -e /etc/letsencrypt/renewal/shop.example.com.conf ]; then', 'nginx -t && systemctl reload-or-restart nginx',
    'systemctl enable --now nginx',
  ], 'rocky-9 nginx balancer');
  // The setrlimit boolean is for this directive of the balancer's nginx.conf, and its user is RHEL's.
  assert.match(file(r, 'lb-host/etc/nginx/nginx.conf'), /^worker_rlimit_nofile \d+;$/m);
  assert.match(file(r, 'lb-host/etc/nginx/nginx.conf'), /^user nginx;$/m);
  // Without TLS at the balancer: enabled (started) before the first reload.
  const plain = step(gen({ distro: 'rocky-9', ...MULTI, lb: 'nginx', tls: 'none' }), 11);
  inOrder(plain, ['systemctl enable --now nginx', 'nginx -t && systemctl reload nginx'], 'tls none');
  assert.ok(!plain.some((l) => l.includes('certbot')), plain.join('\n'));
});

test('every command of RHEL steps 0 and 11 is a program and unit of the RHEL row', () => {
  const row = FAMILY_COMMANDS.rhel;
  const cases = [
    { database_version: '18', pooler: 'pgbouncer' }, { lb: 'nginx', database_version: '16' },
    { database: 'mysql', database_version: '8.4', adapter: 'trilogy' }, { lb: 'nginx', database: 'mariadb', database_version: '10.5', adapter: 'mysql2', tls: 'none' },
  ];
  let n = 0;
  for (const distro of RHEL) {
    for (const c of cases) {
      const r = gen({ distro, ...MULTI, ...c });
      const major = c.database_version && !c.database ? c.database_version : '';
      const known = new Set([...COMMON_PROGRAMS, ...row.programs].map((p) => p.replaceAll('{major}', major)));
      const units = new Set([...Object.values(row.services).map((u) => u.replace('{major}', major)), '"$PGB"']);
      for (const line of [...step(r, 0), ...step(r, 11)]) {
        for (const p of programs(line)) { n++; assert.ok(known.has(p), `${distro} ${JSON.stringify(c)}: "${p}" (in: ${line}) is not in the RHEL row`); }
        const m = /^systemctl (?:enable --now|restart|reload|reload-or-restart|"\$PGB") (.+)$/.exec(line);
        if (m) for (const u of m[1].split(' ')) assert.ok(units.has(u), `${distro}: unit ${u} (in: ${line})`);
      }
    }
  }
  assert.ok(n > 300, `${n} commands checked`);
});

test('RHEL app host: SELinux labels the whole releases tree (new releases take its label; an app root outside /var/www), nginx gets httpd_setrlimit, Apache does not', () => {
  const lines = step(gen({ distro: 'rocky-9', app_root: '/srv/app' }), 6);
  inOrder(lines, [
    "semanage fcontext -a -t httpd_sys_content_t '/srv/app/releases(/.*)?' 2>/dev/null || semanage fcontext -m -t httpd_sys_content_t '/srv/app/releases(/.*)?'",
    'restorecon -R /srv/app/releases', 'setsebool -P httpd_setrlimit 1', 'nginx -t && systemctl reload nginx',
  ], '/srv/app');
  const apache = step(gen({ distro: 'rocky-9', proxy: 'apache', proxy_version: '2.4.62' }), 6);
  assert.ok(apache.includes('restorecon -R /var/www/app/releases') && !apache.some((l) => l.includes('httpd_setrlimit')), apache.join('\n'));
});

test('Debian steps 0 and 11 keep their booted lines (lab-multi-host): no firewall, SELinux or tmpfiles line, postgres owns the auth file', () => {
  const r = gen({ distro: 'debian-13', ...MULTI, database_version: '17', pooler: 'pgbouncer' });
  const zero = step(r, 0);
  const eleven = step(r, 11);
  inOrder(zero, ['test -d /usr/lib/postgresql/17 >/dev/null || apt-get install -y postgresql-17', 'install -D -m 0644 db-host/etc/postgresql/17/main/conf.d/60-rails.conf /etc/postgresql/17/main/conf.d/60-rails.conf', 'systemctl reload-or-restart postgresql', 'editor db-host/setup/postgresql-roles.sql', 'chown postgres:postgres /etc/pgbouncer/userlist.txt && chmod 0640 /etc/pgbouncer/userlist.txt', 'systemctl "$PGB" pgbouncer'], 'debian-13 step 0');
  inOrder(eleven, ['command -v haproxy >/dev/null || apt-get install -y haproxy', 'install -D -m 0644 lb-host/etc/haproxy/haproxy.cfg /etc/haproxy/haproxy.cfg', 'install -d -o haproxy -g haproxy /run/haproxy', 'haproxy -c -q -f /etc/haproxy/haproxy.cfg && systemctl reload haproxy', 'command -v certbot >/dev/null || apt-get install -y certbot'], 'debian-13 step 11');
  assert.ok(![...zero, ...eleven].some((l) => /firewall-cmd|setsebool|restorecon|tmpfiles|enable --now|dnf|socat/.test(l)), [...zero, ...eleven].join('\n'));
  assert.match(readme(r), /\(socat: apt-get install socat\)/);
  assert.match(file(r, 'lb-host/lb-rotation.sh'), /socat is missing \(apt-get install socat\)/);
});

// M5: MariaDB newer than the release's own series. MariaDB Foundation's repository configuration
// (mariadb.org/download/?t=repo-config): on RHEL a MariaDB.repo naming rpm.mariadb.org/<series>/rhel/$releasever/
// $basearch with gpgcheck against RPM-GPG-KEY-MariaDB, then MariaDB-server; on Debian and Ubuntu the signing key in
// /etc/apt/keyrings and a deb822 mariadb.sources for deb.mariadb.org/<series>/<os> <codename>, apt-get update, then
// mariadb-server. README's warnings say which: MariaDB's repository, or the release's own series.
const maria = (a) => gen({ database: 'mariadb', adapter: 'mysql2', ...a });

test('MariaDB 11.8 on RHEL 9 (10.5): MariaDB\'s own Yum repository, MariaDB-server, enabled; README says so and where its log is', () => {
  for (const distro of RHEL) {
    const r = maria({ distro, database_version: '11.8' });
    inOrder(step(r, 1), [
      "test -e /etc/yum.repos.d/MariaDB.repo || printf '%s\\n' '[mariadb]' 'name = MariaDB 11.8' 'baseurl = https://rpm.mariadb.org/11.8/rhel/$releasever/$basearch' 'gpgkey = https://rpm.mariadb.org/RPM-GPG-KEY-MariaDB' 'gpgcheck = 1' > /etc/yum.repos.d/MariaDB.repo",
      'rpm -q MariaDB-server >/dev/null || dnf install -y MariaDB-server', 'systemctl enable --now mariadb',
    ], distro);
    assert.ok(!step(r, 1).some((l) => l.includes('mariadb-server')), `${distro}: not AppStream's 10.5 as well`);
    const w = r.warnings.find((x) => x.id === 'distro-database') ?? assert.fail('README says which');
    assert.equal(w.severity, 'info');
    assert.match(w.message, new RegExp(`${distro} ships MariaDB 10\\.5, not 11\\.8: README adds MariaDB's own repository for 11\\.8`));
    assert.match(w.suggestion, /answer database_version 10\.5/);
    assert.ok(w.evidence.some((e) => e.url === 'https://mariadb.org/download/?t=repo-config'), JSON.stringify(w.evidence));
    assert.match(readme(r), /journalctl -u mariadb/, 'MariaDB\'s RPMs log to the journal');
    // The settings go where MariaDB's RPMs read them (their /etc/my.cnf includes /etc/my.cnf.d).
    assert.ok(step(r, 3).includes('install -D -m 0644 etc/mysql/mariadb.conf.d/60-rails.cnf /etc/my.cnf.d/60-rails.cnf'), step(r, 3).join('\n'));
  }
  // On a database host: step 0 has the same lines.
  inOrder(step(maria({ distro: 'rocky-9', ...MULTI, database_version: '11.4' }), 0), [
    "test -e /etc/yum.repos.d/MariaDB.repo || printf '%s\\n' '[mariadb]' 'name = MariaDB 11.4' 'baseurl = https://rpm.mariadb.org/11.4/rhel/$releasever/$basearch' 'gpgkey = https://rpm.mariadb.org/RPM-GPG-KEY-MariaDB' 'gpgcheck = 1' > /etc/yum.repos.d/MariaDB.repo",
    'rpm -q MariaDB-server >/dev/null || dnf install -y MariaDB-server', 'systemctl enable --now mariadb', '[ -z "$MY" ] || systemctl restart mariadb',
  ], 'rocky-9 database host');
});

test('MariaDB on Debian and Ubuntu: deb.mariadb.org for a newer LTS series (key, deb822 source with the codename, update, install); the release\'s own series otherwise', () => {
  const cases = { 'debian-12': ['debian', 'bookworm', '10.11'], 'ubuntu-22.04': ['ubuntu', 'jammy', '10.6'], 'ubuntu-24.04': ['ubuntu', 'noble', '10.11'] };
  for (const [distro, [os, codename, shipped]] of Object.entries(cases)) {
    for (const v of ['11.4', '11.8']) {
      const r = maria({ distro, database_version: v });
      inOrder(step(r, 1), [
        'install -d -m 0755 /etc/apt/keyrings',
        'test -e /etc/apt/sources.list.d/mariadb.sources || curl --fail -sSLo /etc/apt/keyrings/mariadb-keyring.pgp https://mariadb.org/mariadb_release_signing_key.pgp',
        `test -e /etc/apt/sources.list.d/mariadb.sources || printf '%s\\n' 'X-Repolib-Name: MariaDB' 'Types: deb' 'URIs: https://deb.mariadb.org/${v}/${os}' 'Suites: ${codename}' 'Components: main' 'Signed-By: /etc/apt/keyrings/mariadb-keyring.pgp' > /etc/apt/sources.list.d/mariadb.sources`,
        'apt-get update',
        'command -v mariadbd >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y mariadb-server',
      ], `${distro} ${v}`);
      assert.match(r.warnings.find((x) => x.id === 'distro-database')?.message ?? '', new RegExp(`ships MariaDB ${shipped.replace('.', '\\.')}, not ${v.replace('.', '\\.')}: README adds MariaDB's own repository`));
    }
  }
  // The release's own series: its package, no repository, no warning (Debian 13 ships 11.8, Debian 12 10.11).
  for (const [distro, v] of [['debian-13', '11.8'], ['debian-12', '10.11']]) {
    const r = maria({ distro, database_version: v });
    assert.ok(!step(r, 1).some((l) => l.includes('mariadb.org')), `${distro} ${v}`);
    assert.ok(step(r, 1).includes('command -v mariadbd >/dev/null || apt-get install -y mariadb-server'), step(r, 1).join('\n'));
    assert.ok(!r.warnings.some((x) => x.id === 'distro-database'), distro);
  }
  // An older series than the release's (Debian 13 with 10.11): no repository step; the warning says what installs.
  const older = maria({ distro: 'debian-13', database_version: '10.11' });
  assert.ok(!step(older, 1).some((l) => l.includes('mariadb.org')));
  assert.equal(older.warnings.find((x) => x.id === 'distro-database')?.severity, 'warning');
});

test('MariaDB left unanswered: the release\'s own series while it is supported, else 11.8 from MariaDB\'s repository (lifecycle)', () => {
  const v = (distro, date) => generate({ distro, database: 'mariadb', adapter: 'mysql2' }, { date }).answers.database_version;
  assert.equal(v('debian-12', '2026-11-27'), '10.11', '10.11 is supported until 2028-02');
  assert.equal(v('debian-13', '2026-11-27'), '11.8');
  assert.equal(v('rocky-9', '2026-11-27'), '11.8', 'RHEL 9\'s 10.5 ended 2025-06');
  assert.equal(v('ubuntu-22.04', '2026-05-01'), '10.6', '10.6 is supported until 2026-07');
  assert.equal(v('ubuntu-22.04', '2026-11-27'), '11.8', 'and not after');
});

// m3: RHEL 9 ships nginx 1.20 as its RPM and newer series as AppStream module streams (nginx:1.22 from 9.1, 1.24 from
// 9.3, 1.26 from 9.5; Red Hat's "Managing software with the DNF tool": additional Application Stream versions as
// modules from 9.1): `dnf module enable nginx:<stream>` before `dnf install nginx` gives that series.
test('RHEL 9 nginx module streams: step 1 (and a balancer\'s step 11) enables nginx:1.2x before installing nginx; an info instead of the nginx.org warning', () => {
  for (const distro of RHEL) {
    for (const v of ['1.22', '1.24', '1.26']) {
      const r = gen({ distro, proxy: 'nginx', proxy_version: v });
      inOrder(step(r, 1), [`dnf -y module enable nginx:${v}`, 'command -v nginx >/dev/null || dnf install -y nginx'], `${distro} ${v}`);
      assert.ok(!r.warnings.some((w) => w.id === 'distro-nginx'), `${distro} ${v}: the stream gives it`);
      const info = r.warnings.find((w) => w.id === 'distro-nginx-stream') ?? assert.fail(`${distro} ${v}: README says which`);
      assert.equal(info.severity, 'info');
      assert.match(info.message, new RegExp(`ships nginx 1\\.20 as its default package and ${v.replace('.', '\\.')} as the AppStream module stream nginx:${v.replace('.', '\\.')}`));
    }
    // The release's own 1.20: no stream. A series with no stream (1.28): no stream line, the warning stays.
    const own = gen({ distro, proxy: 'nginx', proxy_version: '1.20' });
    assert.ok(!step(own, 1).some((l) => l.includes('module enable nginx')) && !own.warnings.some((w) => /^distro-nginx/.test(w.id)));
    const none = gen({ distro, proxy: 'nginx', proxy_version: '1.28' });
    assert.ok(!step(none, 1).some((l) => l.includes('module enable nginx')));
    assert.equal(none.warnings.find((w) => w.id === 'distro-nginx')?.severity, 'warning');
  }
  // Behind an nginx balancer with an nginx edge, the balancer runs the answered series: step 11 enables it too.
  const lb = gen({ distro: 'rocky-9', ...MULTI, lb: 'nginx', proxy_version: '1.26' });
  inOrder(step(lb, 11), ['dnf -y module enable nginx:1.26', 'command -v nginx >/dev/null || dnf install -y nginx'], 'nginx balancer');
  assert.match(file(lb, 'lb-host/etc/nginx/nginx.conf'), /^\s*http2 on;$/m, '1.26 is configured as 1.26 (1.25.1+ directive)');
  // Ruby's stream stays before it, and Debian never gets a module line.
  inOrder(step(gen({ distro: 'rocky-9', proxy_version: '1.26', ruby_version: '3.3' }), 1), ['dnf -y module enable ruby:3.3', 'dnf -y module enable nginx:1.26', 'test -x /usr/bin/bundle >/dev/null || dnf install -y rubygem-bundler'], 'both streams');
  assert.ok(!step(gen({ distro: 'debian-12', proxy_version: '1.26' }), 1).some((l) => l.includes('module')));
});
