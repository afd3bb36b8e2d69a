// Blind user trial of issue 24 (non-default stacks: RHEL 9 family, Ubuntu 22.04/24.04, Apache, Caddy, JRuby),
// one test per defect fixed, each on the generated bundle of the stack that showed it. Review:
// /work/notes/trial24-review.md (the defects, their severity and sources).
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';

const gen = (a) => generate({ domain: 'app.test', ...a }, { date: '2026-11-26' });
const file = (r, p) => r.files.find((f) => f.path === p)?.content ?? assert.fail(`${p} in the bundle (${r.files.map((f) => f.path).join(' ')})`);
const readme = (r) => file(r, 'README.md');
/** The README's shell lines (```sh blocks), comments dropped. */
const shell = (r) => [...readme(r).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1].split('\n')).filter((l) => l && !l.startsWith('#'));
/** Lines of README step N's shell block. */
const step = (r, n) => {
  const m = new RegExp(`^### ${n}\\. [^\\n]*\\n[\\s\\S]*?^\`\`\`sh\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(readme(r));
  return m ? m[1].split('\n').filter(Boolean) : [];
};
const APACHE_SITE = 'etc/apache2/sites-available/rails-app.conf';
const directives = (conf, name) => conf.split('\n').map((l) => l.trim()).filter((l) => l.startsWith(`${name} `));

const RHEL = ['rocky-9', 'almalinux-9', 'rhel-9'];

test('Apache on RHEL logs where httpd can write: no ${APACHE_LOG_DIR} (Debian-only envvars), and README names error_log', () => {
  for (const distro of RHEL) {
    for (const server of ['puma', 'passenger']) {
      const r = gen({ distro, proxy: 'apache', proxy_version: '2.4.62', server, ...(server === 'passenger' ? { server_version: '6.0' } : {}) });
      const site = file(r, APACHE_SITE);
      assert.doesNotMatch(site, /\$\{APACHE_LOG_DIR\}/, `${distro} ${server}: httpd on RHEL defines no APACHE_LOG_DIR`);
      assert.deepEqual(directives(site, 'CustomLog'), ['CustomLog /var/log/httpd/access.log combined env=!dontlog'], `${distro} ${server}`);
      if (server === 'passenger') assert.match(readme(r), /Apache's error log, \/var\/log\/httpd\/error_log;/, `${distro}: httpd.conf's ErrorLog is logs/error_log`);
    }
  }
  // Debian keeps its own variable (its envvars define it) and error.log.
  const deb = gen({ distro: 'debian-13', proxy: 'apache', server: 'passenger', server_version: '6.0' });
  assert.deepEqual(directives(file(deb, APACHE_SITE), 'CustomLog'), ['CustomLog ${APACHE_LOG_DIR}/access.log combined env=!dontlog']);
  assert.match(readme(deb), /Apache's error log, \/var\/log\/apache2\/error\.log;/);
  // FreeBSD's apache24 has no such variable either.
  const bsd = gen({ os: 'freebsd', proxy: 'apache', proxy_version: '2.4.62' });
  assert.deepEqual(directives(file(bsd, APACHE_SITE), 'CustomLog'), ['CustomLog /var/log/httpd-access.log combined env=!dontlog']);
});

test('RHEL: step 6 enables the proxy and certbot-renew.timer at boot, step 4 PgBouncer (its packages leave them disabled); Caddy starts before its reload', () => {
  const cases = [
    { a: { proxy: 'nginx' }, units: 'nginx certbot-renew.timer', reload: 'nginx -t && systemctl reload nginx' },
    { a: { proxy: 'apache', proxy_version: '2.4.62' }, units: 'httpd certbot-renew.timer', reload: 'apachectl configtest && systemctl reload httpd' },
    { a: { proxy: 'caddy', proxy_version: '2.10' }, units: 'caddy', reload: 'caddy validate --config /etc/caddy/Caddyfile && systemctl reload caddy' },
    { a: { proxy: 'nginx', tls: 'none' }, units: 'nginx', reload: 'nginx -t && systemctl reload nginx' },
  ];
  for (const distro of RHEL) {
    for (const c of cases) {
      const lines = step(gen({ distro, ...c.a }), 6);
      const enable = lines.indexOf(`systemctl enable --now ${c.units}`);
      assert.ok(enable > 0, `${distro} ${JSON.stringify(c.a)}: step 6 enables ${c.units}\n${lines.join('\n')}`);
      assert.ok(enable < lines.indexOf(c.reload), `${distro} ${JSON.stringify(c.a)}: enabled (and started) before the reload`);
    }
    // PgBouncer on this host: enabled right after step 4 starts it (pgbouncer.mjs).
    const four = step(gen({ distro, pooler: 'pgbouncer', database_version: '17' }), 4);
    assert.ok(four.indexOf('systemctl enable --now pgbouncer') > four.indexOf('systemctl "$PGB" pgbouncer'), `${distro}: ${four.join('\n')}`);
  }
  // Debian's packages enable their services on install: no such line there.
  for (const distro of ['debian-13', 'ubuntu-24.04']) {
    const lines = step(gen({ distro, proxy: 'caddy' }), 6);
    assert.ok(!lines.some((l) => /^systemctl enable --now (nginx|apache2|caddy|certbot)/.test(l)), `${distro}: ${lines.join('\n')}`);
  }
});

test('Apache answered as its series ("2.4") is the release\'s own 2.4.x: TLS 1.3, HTTP/2, the Unix socket and /cable\'s WebSocket upgrade stay in', () => {
  const shipped = { 'ubuntu-24.04': '2.4.58', 'ubuntu-22.04': '2.4.52', 'debian-12': '2.4.62', 'rocky-9': '2.4.62' };
  for (const [distro, v] of Object.entries(shipped)) {
    const r = gen({ distro, proxy: 'apache', proxy_version: '2.4' });
    const site = file(r, APACHE_SITE);
    assert.deepEqual(directives(site, 'SSLProtocol'), ['SSLProtocol -all +TLSv1.2 +TLSv1.3'], `${distro}: TLS 1.3 (2.4.37+)`);
    assert.deepEqual(directives(site, 'Protocols'), ['Protocols h2 http/1.1'], `${distro}: HTTP/2`);
    assert.ok(directives(site, 'ProxyPass').some((l) => /^ProxyPass \/cable unix:\S+puma\.sock\|http:\/\/localhost\/cable upgrade=websocket$/.test(l)), `${distro}: /cable upgraded over the socket\n${site}`);
    const info = r.warnings.find((w) => w.id === 'apache-series') ?? assert.fail(`${distro}: the substitution is said`);
    assert.equal(info.severity, 'info');
    assert.match(info.message, new RegExp(`this bundle is for ${v.replace(/\./g, '\\.')}, the Apache ${distro} ships`));
    assert.ok(!r.warnings.some((w) => w.id === 'apache-no-unix-socket-proxy'), `${distro}: 2.4.7+ proxies to a socket`);
  }
  // An exact answer is kept as it is; a release the table does not know keeps 2.4.0's limits, with a warning.
  assert.ok(!gen({ distro: 'ubuntu-24.04', proxy: 'apache', proxy_version: '2.4.66' }).warnings.some((w) => w.id.startsWith('apache-series')));
  const other = gen({ distro: 'gentoo', proxy: 'apache', proxy_version: '2.4' });
  const zero = other.warnings.find((w) => w.id === 'apache-series-zero') ?? assert.fail('unknown release: 2.4 read as 2.4.0 is said');
  assert.equal(zero.severity, 'warning');
  assert.match(zero.message, /WebSocket upgrades in mod_proxy_http from 2\.4\.47/);
  assert.deepEqual(directives(file(other, APACHE_SITE), 'SSLProtocol'), ['SSLProtocol -all +TLSv1.2']);
});

test('the app\'s units are ordered after the family\'s own database unit: PGDG\'s postgresql-NN and mysqld on RHEL, Debian\'s names on Debian', () => {
  const after = (r, unit) => file(r, `etc/systemd/system/${unit}`).split('\n').find((l) => l.startsWith('After='));
  const cases = [
    { a: { distro: 'rocky-9', database_version: '18' }, want: 'After=network.target postgresql-18.service' },
    { a: { distro: 'almalinux-9', database: 'mysql', database_version: '8.4' }, want: 'After=network.target mysqld.service' },
    { a: { distro: 'rhel-9', database: 'mariadb', database_version: '10.5' }, want: 'After=network.target mariadb.service' },
    { a: { distro: 'rocky-9', database_version: '17', pooler: 'pgbouncer' }, want: 'After=network.target postgresql-17.service pgbouncer.service' },
    { a: { distro: 'debian-13' }, want: 'After=network.target postgresql.service' },
    { a: { distro: 'ubuntu-24.04', database: 'mysql', database_version: '8.4' }, want: 'After=network.target mariadb.service mysql.service' },
  ];
  for (const c of cases) {
    const r = gen(c.a);
    for (const unit of ['rails-app.service', 'rails-jobs.service']) assert.equal(after(r, unit), c.want, `${JSON.stringify(c.a)} ${unit}`);
  }
});

test('JRuby or TruffleRuby with ruby_path /usr/bin: a warning that the units would run the distribution\'s CRuby, and no CRuby bundler package installed', () => {
  for (const distro of ['rhel-9', 'ubuntu-24.04', 'debian-13']) {
    for (const [ruby, v] of [['jruby', '10.0'], ['truffleruby', '25.0']]) {
      const r = gen({ distro, ruby, ruby_version: v });
      const w = r.warnings.find((x) => x.id === 'distro-ruby-impl') ?? assert.fail(`${distro} ${ruby}: warned`);
      assert.equal(w.severity, 'warning');
      assert.match(w.message, new RegExp(`not ${ruby === 'jruby' ? 'JRuby' : 'TruffleRuby'} ${v.replace('.', '\\.')}`));
      const lines = step(r, 1);
      assert.ok(!lines.some((l) => /install -y (bundler|rubygem-bundler)$/.test(l)), `${distro} ${ruby}: the distribution's bundler runs CRuby\n${lines.join('\n')}`);
      assert.ok(lines.includes('test -x /usr/bin/bundle || echo "no bundle in /usr/bin: install Bundler there or answer ruby_path, then go on"'), `${distro} ${ruby}: step 1 checks the bundle the units run`);
      // With JRuby's own bin directory: no warning, no check line of /usr/bin.
      const own = gen({ distro, ruby, ruby_version: v, ruby_path: '/opt/jruby/bin' });
      assert.ok(!own.warnings.some((x) => x.id === 'distro-ruby-impl'), `${distro} ${ruby} with its own ruby_path`);
    }
  }
  // CRuby keeps the distribution's bundler package.
  assert.ok(step(gen({ distro: 'rocky-9' }), 1).includes('test -x /usr/bin/bundle >/dev/null || dnf install -y rubygem-bundler'));
});

test('RHEL 9 with Ruby 3.3 (or 3.1): step 1 enables the AppStream module stream before the bundler package, and no "nothing installs Ruby" warning', () => {
  for (const distro of RHEL) {
    for (const v of ['3.3', '3.1']) {
      const r = gen({ distro, ruby_version: v, rails: v === '3.1' ? '7.2' : '8.1' });
      const lines = step(r, 1);
      const stream = lines.indexOf(`dnf -y module enable ruby:${v}`);
      const bundler = lines.indexOf('test -x /usr/bin/bundle >/dev/null || dnf install -y rubygem-bundler');
      assert.ok(stream >= 0 && stream < bundler, `${distro} ${v}: stream enabled before rubygem-bundler\n${lines.join('\n')}`);
      assert.ok(!r.warnings.some((w) => w.id === 'distro-ruby'), `${distro} ${v}: the stream gives /usr/bin/ruby ${v}`);
    }
    // 3.4 has no stream on RHEL 9: the warning stays, and no module line.
    const r = gen({ distro, ruby_version: '3.4' });
    assert.ok(r.warnings.some((w) => w.id === 'distro-ruby'));
    assert.ok(!step(r, 1).some((l) => l.includes('module enable ruby')));
  }
  // Debian has no module streams.
  assert.ok(!shell(gen({ distro: 'debian-12', ruby_version: '3.3' })).some((l) => l.includes('module enable')));
});

test('RHEL: the MySQL/MariaDB server install is guarded by rpm -q (their daemons live in /usr/libexec, on no PATH)', () => {
  for (const distro of RHEL) {
    assert.ok(step(gen({ distro, database: 'mariadb', database_version: '10.5' }), 1).includes('rpm -q mariadb-server >/dev/null || dnf install -y mariadb-server'), distro);
    assert.ok(step(gen({ distro, database: 'mysql', database_version: '8.0' }), 1).includes('rpm -q mysql-server >/dev/null || dnf install -y mysql-server'), distro);
  }
});

test('Debian family: step 1 reads the package lists first, only when one of its installs will run (guards joined); RHEL needs none', () => {
  for (const a of [{ distro: 'debian-13' }, { distro: 'ubuntu-24.04', database_version: '16' }, { distro: 'ubuntu-22.04', proxy: 'caddy', database: 'sqlite', database_version: '3.37' }]) {
    const lines = step(gen(a), 1);
    const installs = lines.filter((l) => / \|\| (DEBIAN_FRONTEND=\S+ )?apt-get install /.test(l));
    const refresh = lines.findIndex((l) => l.endsWith(' || apt-get update'));
    assert.ok(refresh >= 0 && refresh < lines.indexOf(installs[0]), `${a.distro}: the lists before the first install\n${lines.join('\n')}`);
    // Every install's guard is in the refresh line's condition: the lists are read whenever any install runs.
    for (const l of installs) {
      const guard = l.split(' || ')[0].replace(/ >\/dev\/null$/, '');
      assert.ok(lines[refresh].includes(`${guard} >/dev/null`), `${a.distro}: ${guard} in ${lines[refresh]}`);
    }
  }
  assert.ok(!shell(gen({ distro: 'rocky-9' })).some((l) => l.includes('apt-get')));
});

test('Ubuntu 22.04 has no caddy package: step 1 adds Caddy\'s own repository (key as .asc, signed-by) before installing it; releases that ship caddy do not', () => {
  const lines = step(gen({ distro: 'ubuntu-22.04', proxy: 'caddy', proxy_version: '2.10' }), 1);
  const list = '/etc/apt/sources.list.d/caddy-stable.list';
  const want = [
    'install -d -m 0755 /etc/apt/keyrings',
    `test -e ${list} || curl --fail -sSLo /etc/apt/keyrings/caddy-stable.asc https://dl.cloudsmith.io/public/caddy/stable/gpg.key`,
    `test -e ${list} || echo "deb [signed-by=/etc/apt/keyrings/caddy-stable.asc] https://dl.cloudsmith.io/public/caddy/stable/deb/debian any-version main" > ${list}`,
    'apt-get update',
  ];
  const at = lines.indexOf(want[0]);
  assert.deepEqual(lines.slice(at, at + want.length), want, lines.join('\n'));
  assert.ok(at < lines.indexOf('command -v caddy >/dev/null || apt-get install -y caddy'), 'the repository before the install');
  for (const distro of ['ubuntu-24.04', 'debian-12', 'debian-13', 'rocky-9']) {
    assert.ok(!shell(gen({ distro, proxy: 'caddy' })).some((l) => l.includes('cloudsmith')), `${distro} ships caddy (EPEL on RHEL)`);
  }
});

// The releases tree as a whole since rhel-steps2 (a new release takes its parent's label: tests/wizard/rhel-steps2.test.mjs).
test('RHEL SELinux step labels the public/ that exists: the releases tree with release directories (no {root}/public there), the app root\'s without', () => {
  for (const distro of RHEL) {
    const rel = step(gen({ distro }), 6);
    assert.ok(rel.includes("semanage fcontext -a -t httpd_sys_content_t '/var/www/app/releases(/.*)?' 2>/dev/null || semanage fcontext -m -t httpd_sys_content_t '/var/www/app/releases(/.*)?'"), rel.join('\n'));
    assert.ok(rel.includes('restorecon -R /var/www/app/releases'));
    assert.ok(!rel.some((l) => /restorecon -R \/var\/www\/app\/public/.test(l)), `${distro}: deploy.sh init moved public/ into the first release`);
    // A release tool's own `current` (no release directories of ours): its public/ under the app root.
    const tool = step(gen({ distro, app_root: '/srv/app/current' }), 6);
    assert.ok(tool.includes('restorecon -R /srv/app/current/public'), tool.join('\n'));
  }
});

// Since rhel-steps2 the RHEL row has the steps itself (their commands: tests/wizard/rhel-steps2.test.mjs): no warning.
test('RHEL with a database host or a balancer: README has steps 0 and 11 like Debian, and no hosts-by-hand warning', () => {
  for (const distro of ['rocky-9', 'debian-13']) {
    const r = gen({ distro, app_hosts: 2, lb: 'haproxy', db_host: 'separate', database: 'mysql', database_version: '8.4' });
    assert.ok(!r.warnings.some((x) => x.id === 'hosts-by-hand'), distro);
    assert.match(readme(r), /^### 0\. /m, distro);
    assert.match(readme(r), /^### 11\. /m, distro);
    assert.match(readme(r), /README step 11 does it/, `${distro}: the Files table cites the step that exists`);
  }
});

test('PgBouncer on the app host: step 4 installs its files, writes userlist.txt from the role and reloads or restarts it before db:prepare goes through it', () => {
  for (const [distro, owner] of [['ubuntu-24.04', 'postgres'], ['debian-13', 'postgres'], ['rocky-9', 'pgbouncer']]) {
    const r = gen({ distro, pooler: 'pgbouncer', database_version: '18' });
    assert.ok(!step(r, 3).some((l) => l.includes('pgbouncer')), `${distro}: not in step 3 (the role does not exist yet)`);
    const lines = step(r, 4);
    const at = (s) => lines.findIndex((l) => l.startsWith(s));
    const order = [
      at('runuser -u postgres -- psql -v ON_ERROR_STOP=1 < setup/postgresql-roles.sql'),
      at('PGB=reload-or-restart'),
      at('install -D -m 0644 etc/pgbouncer/pgbouncer.ini /etc/pgbouncer/pgbouncer.ini'),
      at('runuser -u postgres -- psql -Atc "SELECT format('),
      at(`chown ${owner}:${owner} /etc/pgbouncer/userlist.txt && chmod 0640 /etc/pgbouncer/userlist.txt`),
      at('systemctl "$PGB" pgbouncer'),
      at('(cd /var/www/app/current && '),
    ];
    assert.ok(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1])), `${distro}: ${order}\n${lines.join('\n')}`);
    assert.match(lines[order[3]], /> \/etc\/pgbouncer\/userlist\.txt$/);
  }
});

test('PgBouncer left unanswered is the release\'s own series: Debian 12\'s 1.18 gets no max_prepared_statements and Rails\' prepared statements off', () => {
  const ini = (r) => file(r, 'etc/pgbouncer/pgbouncer.ini');
  const deb12 = gen({ distro: 'debian-12', pooler: 'pgbouncer', database_version: '15' });
  assert.equal(deb12.answers.pooler_version, '1.18');
  assert.doesNotMatch(ini(deb12), /^max_prepared_statements =/m, 'PgBouncer 1.21 added it');
  assert.match(file(deb12, 'config/database.yml'), /prepared_statements: false/);
  for (const [distro, v] of [['debian-13', '1.24'], ['ubuntu-24.04', '1.22'], ['ubuntu-22.04', '1.16'], ['rocky-9', '1.24']]) {
    assert.equal(gen({ distro, pooler: 'pgbouncer' }).answers.pooler_version, v, distro);
  }
  // An answered version is kept.
  assert.equal(gen({ distro: 'debian-12', pooler: 'pgbouncer', pooler_version: '1.24' }).answers.pooler_version, '1.24');
});
