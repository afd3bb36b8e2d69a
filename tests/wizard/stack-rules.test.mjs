// Rule tests for issue 24's review findings: each stack is right by its own tools' rules (MySQL on the same host,
// the distribution's Ruby and database versions, Unicorn/Pitchfork deploy steps, PgBouncer's file limit, Sidekiq
// with Redis). The running proofs are elsewhere (reload-new-code, stop-signals, the lab tests); these check the files.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';

const DATE = '2026-11-25';
const gen = (a) => generate(a, { date: DATE });
const file = (r, p) => r.files.find((f) => f.path === p || (p instanceof RegExp && p.test(f.path)))?.content;
const ids = (r) => r.warnings.map((w) => w.id);

test('MySQL/MariaDB on the app host: account + databases + grants for loopback, bind-address pinned, X Plugin off (MySQL 8+), README runs the SQL', () => {
  const my = gen({ database: 'mysql', database_version: '8.4', adapter: 'trilogy' });
  const cnf = file(my, 'etc/mysql/mysql.conf.d/zz-rails.cnf');
  assert.match(cnf, /^bind-address = 127\.0\.0\.1$/m);
  assert.match(cnf, /^mysqlx = OFF$/m);
  const sql = file(my, 'setup/mysql-grants.sql');
  for (const host of ['localhost', '127.0.0.1']) {
    assert.match(sql, new RegExp(`^CREATE USER IF NOT EXISTS 'app'@'${host.replace(/\./g, '\\.')}' IDENTIFIED BY 'change-me';$`, 'm'));
    for (const db of ['app_production', 'app_production_cache', 'app_production_queue', 'app_production_cable']) assert.match(sql, new RegExp(`^GRANT ALL PRIVILEGES ON ${db}\\.\\* TO 'app'@'${host.replace(/\./g, '\\.')}';$`, 'm'));
  }
  assert.match(file(my, 'README.md'), /^editor setup\/mysql-grants\.sql\nmysql < setup\/mysql-grants\.sql\n/m);
  const maria = gen({ database: 'mariadb', database_version: '11.8', adapter: 'mysql2' });
  assert.match(file(maria, /mariadb\.conf\.d\/60-rails\.cnf$/), /^bind-address = 127\.0\.0\.1$/m);
  assert.doesNotMatch(file(maria, /mariadb\.conf\.d\/60-rails\.cnf$/), /mysqlx/, 'MariaDB has no X Plugin');
  assert.doesNotMatch(file(gen({ database: 'mysql', database_version: '5.7', adapter: 'mysql2' }), 'etc/mysql/mysql.conf.d/zz-rails.cnf'), /mysqlx/);
  // Redo log (trial D12): the series answer 8.0 is a current 8.0 patch (past 8.0.30): innodb_redo_log_capacity, never
  // the deprecated innodb_log_file_size; a patch before 8.0.30 keeps the file size.
  const redo = (v) => file(gen({ database: 'mysql', database_version: v, adapter: 'mysql2' }), 'etc/mysql/mysql.conf.d/zz-rails.cnf');
  assert.match(redo('8.0'), /^innodb_redo_log_capacity = \d+G$/m);
  assert.doesNotMatch(redo('8.0'), /innodb_log_file_size/);
  assert.match(redo('8.0.28'), /^innodb_log_file_size = \d+M$/m);
  assert.doesNotMatch(redo('8.0.28'), /innodb_redo_log_capacity/);
});

test('the distribution\'s versions: Ubuntu 24.04\'s /usr/bin/ruby is 3.2, MySQL 8.4 is not in its archive; Debian 13 + PostgreSQL 18 uses PGDG', () => {
  const u = gen({ distro: 'ubuntu-24.04', ruby_version: '3.4', database: 'mysql', database_version: '8.4', adapter: 'trilogy' });
  assert.ok(ids(u).includes('distro-ruby') && ids(u).includes('distro-database'), ids(u).join(' '));
  assert.match(file(u, 'README.md'), /^Stack: CRuby 3\.4 \(not installed by these steps: \/usr\/bin\/ruby on ubuntu-24\.04 is 3\.2/m);
  // An rbenv Ruby, or the shipped versions: no warning.
  assert.ok(!ids(gen({ distro: 'ubuntu-24.04', ruby_version: '3.4', ruby_path: '/home/deploy/.rbenv/versions/3.4.7/bin' })).includes('distro-ruby'));
  assert.ok(!ids(gen({ distro: 'ubuntu-24.04', ruby_version: '3.2', rails: '8.0', database: 'mysql', database_version: '8.0', adapter: 'trilogy' })).some((i) => i.startsWith('distro-')));
  assert.ok(!ids(gen({})).some((i) => i.startsWith('distro-')), 'the defaults (Debian 13, Ruby 3.3, PostgreSQL 17) are what Debian 13 ships');
  assert.match(file(gen({ distro: 'debian-13', database_version: '18' }), 'README.md'), /apt\.postgresql\.org\.sh -y\n[\s\S]*apt-get install -y postgresql-18\n/);
});

test('deploy steps follow each server\'s process row: Unicorn reloads (USR2), Pitchfork restarts and says what it costs', () => {
  const u = file(gen({ server: 'unicorn', server_version: '6.1' }), 'README.md');
  assert.match(file(gen({ server: 'unicorn', server_version: '6.1' }), 'deploy.sh'), /^restart_app\(\) \{ if systemctl is-active --quiet rails-app; then o=\$\(cat "\$PIDFILE"\) && as_user touch "\$PIDFILE\.deploy" && systemctl reload rails-app && wait_handover "\$o"[; ]/m);
  assert.match(u, /a new Unicorn master loads the new code/);
  const p = file(gen({ server: 'pitchfork', server_version: '0.18' }), 'README.md');
  assert.match(file(gen({ server: 'pitchfork', server_version: '0.18' }), 'deploy.sh'), /^restart_app\(\) \{ systemctl restart rails-app[; ]/m);
  assert.match(p, /Pitchfork has no reload/);
  const unit = file(gen({ server: 'pitchfork', server_version: '0.18' }), 'etc/systemd/system/rails-app.service');
  assert.doesNotMatch(unit, /^ExecReload=/m, 'Pitchfork docs: remove ExecReload');
  const thruster = file(gen({ server: 'unicorn', server_version: '6.1', proxy: 'thruster' }), 'etc/systemd/system/rails-app.service');
  assert.match(thruster, /^Type=exec$/m);
  assert.doesNotMatch(thruster, /^ExecReload=|^PIDFile=| -D$/m, 'under Thruster the handover cannot work: no reload, no daemon');
});

test('PgBouncer: the unit\'s open-files limit matches what pgbouncer.ini relies on (a drop-in, on the host that runs it)', () => {
  const same = gen({ pooler: 'pgbouncer' });
  assert.match(file(same, 'etc/systemd/system/pgbouncer.service.d/limits.conf'), /^LimitNOFILE=65536$/m);
  assert.match(file(same, 'etc/pgbouncer/pgbouncer.ini').replace(/\n;\s*/g, ' '), /65536 file descriptors/);
  const sep = gen({ pooler: 'pgbouncer', db_host: 'separate', app_hosts: 2, lb: 'haproxy' });
  assert.match(file(sep, 'db-host/etc/systemd/system/pgbouncer.service.d/limits.conf'), /^LimitNOFILE=65536$/m);
  // Listening on the private address: ordered after network-online.target (SRE review: else loopback only after a boot).
  assert.match(file(sep, 'db-host/etc/systemd/system/pgbouncer.service.d/limits.conf'), /^\[Unit\]\n(?:#.*\n)*Wants=network-online\.target\nAfter=network-online\.target$/m);
  assert.doesNotMatch(file(same, 'etc/systemd/system/pgbouncer.service.d/limits.conf'), /network-online/);
  assert.match(file(sep, 'README.md'), /install -D -m 0644 db-host\/etc\/systemd\/system\/pgbouncer\.service\.d\/limits\.conf \/etc\/systemd\/system\/pgbouncer\.service\.d\/limits\.conf[\s\S]*systemctl daemon-reload\nsystemctl "\$PGB" pgbouncer/);
  // Restarted only when the drop-in or a setting PgBouncer reads at start changed (compared before the installs).
  assert.match(file(sep, 'README.md'), /^PGB=reload-or-restart\nK='\^\(listen_addr\|listen_port\|.*\)\\b'\ncmp -s db-host\/etc\/systemd\/system\/pgbouncer\.service\.d\/limits\.conf \/etc\/systemd\/system\/pgbouncer\.service\.d\/limits\.conf \|\| PGB=restart\n\[ "\$\(grep -E "\$K" db-host\/etc\/pgbouncer\/pgbouncer\.ini\)" = "\$\(grep -sE "\$K" \/etc\/pgbouncer\/pgbouncer\.ini\)" \] \|\| PGB=restart\ninstall /m);
});

test('Sidekiq: Redis configured for it (noeviction, AOF, loopback), REDIS_URL and unit ordering, Redis in the memory budget, no queue database', () => {
  const r = gen({ jobs: 'sidekiq' });
  const conf = file(r, 'etc/redis/rails.conf');
  for (const line of ['maxmemory-policy noeviction', 'appendonly yes', 'appendfsync everysec', 'bind 127.0.0.1 -::1']) assert.match(conf, new RegExp(`^${line}$`, 'm'));
  const mb = Number(/^maxmemory (\d+)mb$/m.exec(conf)[1]);
  assert.equal(r.model.memory.find((m) => m.kind === 'redis').mb, mb, 'maxmemory is in the memory budget');
  for (const unit of ['rails-app.service', 'rails-jobs@.service']) {
    const d = file(r, `etc/systemd/system/${unit}.d/redis.conf`);
    assert.match(d, /^Wants=redis-server\.service$/m);
    assert.match(d, /^After=redis-server\.service$/m);
    assert.match(d, /^Environment=REDIS_URL=redis:\/\/127\.0\.0\.1:6379\/0$/m);
  }
  // Restarted only when rails.conf or the include line changed (SRE check 5, m1; run by dash in sre-check6).
  assert.match(file(r, 'README.md'), /^command -v redis-server >\/dev\/null \|\| apt-get install -y redis-server\ngrep -qx 'include \/etc\/redis\/rails\.conf' \/etc\/redis\/redis\.conf \|\| \{ echo 'include \/etc\/redis\/rails\.conf' >> \/etc\/redis\/redis\.conf; REDIS=1; \}\n(?:# .*\n)+if \[ -n "\$REDIS" \] && \[ "\$\(redis-cli CONFIG GET appendonly .*\n  \[ "\$\(redis-cli CONFIG SET appendonly yes\)" = OK \] && .*\nfi\n\[ -z "\$REDIS" \] \|\| systemctl restart redis-server$/m);
  assert.deepEqual(r.model.db_roles, ['primary', 'cache', 'cable'], 'jobs run on Sidekiq: no queue database');
  assert.doesNotMatch(file(r, 'config/database.yml'), /^\s+queue:/m);
  assert.doesNotMatch(r.advice.map((a) => a.body).join(' '), /not configured by this bundle/);
  // Solid Queue keeps its queue database and gets no Redis.
  const sq = gen({ jobs: 'solid_queue' });
  assert.ok(sq.model.db_roles.includes('queue'));
  assert.ok(!sq.files.some((f) => /redis/.test(f.path)));
  // RHEL names the unit redis.service.
  assert.match(file(gen({ jobs: 'sidekiq', distro: 'rocky-9' }), 'etc/systemd/system/rails-app.service.d/redis.conf'), /^Wants=redis\.service$/m);
});

test('JRuby: a Ruby language level answered as the JRuby version becomes the JRuby release that implements it, with a warning', () => {
  const r = gen({ ruby: 'jruby', ruby_version: '3.1', adapter: 'jdbc' });
  const w = r.warnings.find((x) => x.id === 'jruby-release');
  assert.match(w.message, /JRuby has no release 3\.1[\s\S]*JRuby 9\.4, which implements Ruby 3\.1\./);
  assert.match(file(r, 'README.md'), /^Stack: JRuby 9\.4,/m);
  assert.doesNotMatch(r.warnings.map((x) => x.message).join(' '), /implements Ruby 1\.9\.3|you run Ruby 1\.9\.3/);
  assert.match(gen({ ruby: 'jruby', ruby_version: '3.4', adapter: 'jdbc' }).warnings.find((x) => x.id === 'jruby-release').message, /JRuby 10\.0, which implements Ruby 3\.4/);
  assert.ok(!ids(gen({ ruby: 'jruby', ruby_version: '9.4', adapter: 'jdbc' })).includes('jruby-release'));
});

test('JRuby + Solid Queue (trial D3): no fork, so Solid Queue runs in async mode inside Puma, the plan counts one JVM, and the default JRuby stack is accepted', () => {
  const r = gen({ ruby: 'jruby', ruby_version: '10.0' });
  assert.deepEqual(r.warnings.filter((w) => w.severity === 'error').map((w) => w.id), [], 'the default JRuby stack fits a 4 GB host');
  assert.ok(ids(r).includes('jobs-in-puma-nofork'), ids(r).join(' '));
  assert.match(file(r, 'config/puma.rb'), /^plugin :solid_queue if ENV\["SOLID_QUEUE_IN_PUMA"\]\n[\s\S]*^solid_queue_mode :async if ENV\["SOLID_QUEUE_IN_PUMA"\]$/m);
  assert.match(file(r, 'etc/systemd/system/rails-app.service'), /^Environment=SOLID_QUEUE_IN_PUMA=1$/m);
  assert.ok(!r.files.some((f) => /rails-jobs|config\/jobs\.env/.test(f.path)), 'no jobs service: bin/jobs would fork');
  // One JVM: the Puma process (heap + 256 MB); the jobs are threads of it, 0 MB of their own.
  const processes = r.model.memory.filter((m) => m.mb > 0 && /jobs|workers|master/.test(m.kind));
  assert.deepEqual(processes.map((m) => m.kind), ['workers'], JSON.stringify(r.model.memory));
  assert.equal(r.model.memory.find((m) => m.kind === 'jobs').mb, 0);
  assert.ok(r.model.jobs_in_puma);
  // Its threads are in the Puma process's queue pool (3 job threads + polling/heartbeat + supervisor/dispatcher/scheduler).
  assert.match(file(r, 'config/database.yml'), /Solid Queue runs inside the Puma process/);
  // CRuby on the same host keeps its rails-jobs service (fork mode, the README's default).
  assert.ok(gen({}).files.some((f) => f.path === 'etc/systemd/system/rails-jobs.service'));
  // Where async mode inside Puma is not available (Rails 7.2 here), a forkless Ruby with Solid Queue is an error.
  const old = gen({ ruby: 'jruby', ruby_version: '9.4', rails: '7.2' });
  assert.equal(old.warnings.find((w) => w.id === 'solid-queue-needs-fork')?.severity, 'error');
});

test('a release\'s database past its end of life is not the default (trial D4): PGDG\'s current PostgreSQL instead, dates from capabilities/lifecycle.mjs against a pinned day; an explicit EOL answer is warned with its date', () => {
  const rocky = gen({ distro: 'rocky-9' });
  assert.match(file(rocky, 'README.md'), /^Stack: .*postgresql 17 /m);
  assert.match(file(rocky, 'README.md'), /pgdg-redhat-repo-latest\.noarch\.rpm\n.*module disable postgresql\n[\s\S]*dnf install -y postgresql17-server$/m);
  const info = rocky.warnings.find((w) => w.id === 'distro-postgresql');
  assert.equal(info.severity, 'info');
  assert.match(info.suggestion, /PostgreSQL 13 reached its end of life on 2025-11-13/);
  assert.ok(!ids(rocky).includes('database-end-of-life'), ids(rocky).join(' '));
  // Ubuntu 22.04's PostgreSQL 14 ended on 2026-11-12: the default follows the generation day.
  const at = (date) => generate({ distro: 'ubuntu-22.04' }, { date });
  assert.match(file(at('2026-11-26'), 'README.md'), /^Stack: .*postgresql 17 /m);
  assert.match(file(at('2026-11-26'), 'README.md'), /apt\.postgresql\.org\.sh -y\n[\s\S]*apt-get install -y postgresql-17$/m);
  assert.match(file(at('2026-11-01'), 'README.md'), /^Stack: .*postgresql 14 /m, 'before its end of life the release\'s own is the default');
  assert.ok(!ids(at('2026-11-01')).some((i) => i === 'distro-postgresql' || i === 'database-end-of-life'));
  // Answered explicitly: that version, with a warning naming the date.
  const old = gen({ distro: 'rocky-9', database_version: '13' });
  assert.match(file(old, 'README.md'), /^Stack: .*postgresql 13 /m);
  assert.match(old.warnings.find((w) => w.id === 'database-end-of-life').message, /PostgreSQL 13 is past its end of life \(support ended by 2025-11-13\)/);
  // MySQL 8.0 (Ubuntu 24.04, RHEL 9) ended in April 2026: 8.4 from MySQL's repository is the default.
  assert.match(file(gen({ distro: 'ubuntu-24.04', database: 'mysql' }), 'README.md'), /^Stack: .*mysql 8\.4 [\s\S]*select mysql-8\.4-lts/m);
});

test('MySQL/MariaDB bound to a private address start after network-online.target (trial D5): a drop-in named from the family\'s unit, installed and daemon-reloaded before the restart', () => {
  const sep = gen({ database: 'mysql', database_version: '8.4', adapter: 'trilogy', db_host: 'separate' });
  const dropIn = file(sep, 'db-host/etc/systemd/system/mysql.service.d/network-online.conf');
  assert.match(dropIn, /^\[Unit\]\n(#.*\n)*Wants=network-online\.target\nAfter=network-online\.target$/m);
  assert.match(dropIn, /ip_nonlocal_bind/, 'the file says why not the sysctl');
  assert.match(file(sep, 'README.md'), /^install -D -m 0644 db-host\/etc\/systemd\/system\/mysql\.service\.d\/network-online\.conf \/etc\/systemd\/system\/mysql\.service\.d\/network-online\.conf\n[\s\S]*^systemctl daemon-reload\n\[ -z "\$MY" \] \|\| systemctl restart mysql$/m);
  // MariaDB on the first of two app hosts (it listens on the private address): the same, its unit mariadb.
  const maria = gen({ database: 'mariadb', database_version: '11.8', adapter: 'mysql2', app_hosts: 2 });
  assert.match(file(maria, 'etc/systemd/system/mariadb.service.d/network-online.conf'), /^After=network-online\.target$/m);
  assert.match(file(maria, 'README.md'), /^systemctl daemon-reload\n\[ -z "\$MY" \] \|\| systemctl restart mariadb$/m);
  // RHEL names MySQL's unit mysqld.
  assert.ok(gen({ database: 'mysql', database_version: '8.4', adapter: 'trilogy', db_host: 'separate', distro: 'rocky-9' }).files.some((f) => f.path === 'db-host/etc/systemd/system/mysqld.service.d/network-online.conf'));
  // Loopback only: nothing to wait for.
  assert.ok(!gen({ database: 'mysql', database_version: '8.4', adapter: 'trilogy' }).files.some((f) => /network-online/.test(f.path)));
});

test('RHEL SELinux step (trial D6): installs semanage\'s package first, and every file-context rule is safe to add again (-a, else -m)', () => {
  for (const a of [{ distro: 'rocky-9' }, { distro: 'rocky-9', proxy: 'apache', proxy_version: '2.2' }]) {
    const readme = file(gen(a), 'README.md');
    const lines = readme.split('\n');
    const pkg = lines.indexOf('command -v semanage >/dev/null || dnf install -y policycoreutils-python-utils');
    const uses = lines.map((l, i) => (/^semanage /.test(l) ? i : -1)).filter((i) => i >= 0);
    assert.ok(pkg >= 0 && uses.length > 0 && uses.every((i) => i > pkg), JSON.stringify(a));
    for (const i of uses) assert.match(lines[i], /^semanage fcontext -a -t (\S+) ('[^']+') 2>\/dev\/null \|\| semanage fcontext -m -t \1 \2$/, lines[i]);
  }
  assert.doesNotMatch(file(gen({}), 'README.md'), /semanage|policycoreutils/);
});

test('RHEL repository packages (trial): MySQL\'s Yum release package pinned (el9-1), PGDG\'s -latest with the reason; MySQL\'s root gets a password right after --initialize-insecure (D9)', () => {
  const readme = file(gen({ distro: 'rocky-9', database: 'mysql', database_version: '8.4', adapter: 'trilogy' }), 'README.md');
  assert.match(readme, /^rpm -q mysql84-community-release >\/dev\/null \|\| dnf install -y https:\/\/dev\.mysql\.com\/get\/mysql84-community-release-el9-1\.noarch\.rpm$/m);
  assert.doesNotMatch(readme, /community-release-el9\.rpm/);
  // Order: initialize without a password, first start, then a random password kept in /root/.my.cnf (0600), set only
  // while root has none; step 4's `mysql <` (as root) reads that file.
  const lines = readme.split('\n');
  const at = (re) => lines.findIndex((l) => re.test(l));
  const init = at(/^test -e \/var\/lib\/mysql\/mysql\.ibd \|\| mysqld --initialize-insecure --user=mysql$/);
  const start = at(/^systemctl enable --now mysqld$/);
  const cnf = at(/^test -e \/root\/\.my\.cnf \|\| \(umask 077 && echo "\[client\]" > \/root\/\.my\.cnf && echo "password=\$\(openssl rand -hex 24\)" >> \/root\/\.my\.cnf\)$/);
  const alter = at(/^if mysql --no-defaults -u root -e 'SELECT 1' >\/dev\/null 2>&1; then mysql --no-defaults -u root -e "ALTER USER 'root'@'localhost' IDENTIFIED BY '\$\(sed -n 's\/\^password=\/\/p' \/root\/\.my\.cnf\)'"; fi$/);
  const grants = at(/^mysql < setup\/mysql-grants\.sql$/);
  assert.ok(init >= 0 && init < start && start < cnf && cnf < alter && alter < grants, JSON.stringify({ init, start, cnf, alter, grants }));
  assert.doesNotMatch(gen({ distro: 'rocky-9', database: 'mysql', database_version: '8.4', adapter: 'trilogy' }).warnings.find((w) => w.id === 'mysql-community-root').suggestion, /After step 4, give root a password/);
  // PGDG: not pinned, and the README says why.
  assert.match(file(gen({ distro: 'rocky-9' }), 'README.md'), /^# pgdg-redhat-repo-latest \(not pinned: its versioned names carry the EL minor release\)/m);
});

test('Apache with TLS sends one HSTS header (trial D18): its own in the always table, and the backend\'s (Rails force_ssl) unset in the onsuccess table mod_proxy fills', () => {
  const site = file(gen({ proxy: 'apache', proxy_version: '2.4.65', tls: 'proxy' }), 'etc/apache2/sites-available/rails-app.conf');
  assert.equal((site.match(/^\s*Header always set Strict-Transport-Security max-age=\d+$/gm) || []).length, 1);
  assert.equal((site.match(/^\s*Header unset Strict-Transport-Security$/gm) || []).length, 1);
  assert.doesNotMatch(file(gen({ proxy: 'apache', proxy_version: '2.4.65', tls: 'none' }), 'etc/apache2/sites-available/rails-app.conf'), /Strict-Transport-Security/);
});

test('no Puma words or Puma sources in other servers\' units or the jobs unit (trial D16)', () => {
  for (const server of ['unicorn', 'pitchfork', 'passenger', 'falcon', 'thin', 'webrick', 'mongrel']) {
    const r = gen({ server });
    for (const f of r.files.filter((x) => /^etc\/systemd\/system\/rails-(app|jobs)/.test(x.path))) assert.doesNotMatch(f.content, /puma/i, `${server}: ${f.path}`);
  }
  assert.doesNotMatch(file(gen({}), 'etc/systemd/system/rails-jobs.service'), /puma/i);
  // Puma's own unit keeps them.
  assert.match(file(gen({}), 'etc/systemd/system/rails-app.service'), /Puma's restart changes into it again/);
});

test('README step 9 names the database\'s own log for the family and package (trial D15)', () => {
  const step9 = (a) => { const r = file(gen(a), 'README.md'); return r.slice(r.indexOf('### 9.'), r.indexOf('### 10.')); };
  assert.match(step9({}), /PostgreSQL's own log \(start-up and connection errors\) is \/var\/log\/postgresql\/postgresql-17-main\.log\./);
  assert.match(step9({ distro: 'rocky-9' }), /PostgreSQL's own log [^\n]* is \/var\/lib\/pgsql\/17\/data\/log\/\./);
  assert.match(step9({ distro: 'rocky-9', database: 'mysql', database_version: '8.4', adapter: 'trilogy' }), /MySQL's own log [^\n]* is \/var\/log\/mysqld\.log\./, 'the community RPM');
  assert.match(step9({ distro: 'rocky-9', database: 'mysql', database_version: '8.0', adapter: 'trilogy' }), /is \/var\/log\/mysql\/mysqld\.log\./, 'RHEL\'s own mysql-server');
  assert.match(step9({ distro: 'ubuntu-24.04', database: 'mysql', database_version: '8.0', adapter: 'trilogy' }), /is \/var\/log\/mysql\/error\.log\./);
  assert.match(step9({ database: 'mariadb', database_version: '11.8', adapter: 'mysql2' }), /MariaDB's own log [^\n]* is the journal \(journalctl -u mariadb\)\./);
  assert.doesNotMatch(step9({ db_host: 'separate' }), /own log/, 'not on an app host without the database');
});

test('ufw items are runnable ufw (trial D20): one source per rule, SSH allowed before ufw enable, the balancer rule only behind a balancer', () => {
  const ops = (a) => file(gen(a), 'CHECKLIST.md').split('\n').filter((l) => /ufw/.test(l)).join('\n');
  const one = ops({});
  assert.match(one, /ufw allow 22\/tcp first[^\n]*then ufw allow 80,443\/tcp and ufw enable/);
  assert.doesNotMatch(one, /balancer/);
  const multi = ops({ app_hosts: 2, lb: 'haproxy', db_host: 'separate' });
  assert.match(multi, /ufw allow 22\/tcp first[^\n]*ufw allow from 10\.0\.0\.2 to any port 80 proto tcp/);
  assert.match(multi, /ufw allow from 10\.0\.1\.11 to any port 5432 proto tcp; ufw allow from 10\.0\.1\.12 to any port 5432 proto tcp; then ufw enable/);
  // Every "ufw allow from X" names a single IPv4 address.
  for (const m of ops({ app_hosts: 5, lb: 'haproxy', db_host: 'separate' }).matchAll(/ufw allow from (\S+)/g)) assert.match(m[1], /^\d+\.\d+\.\d+\.\d+$/);
});

test('Unicorn/Pitchfork behind Apache: the request body is spooled (proxy-sendcl, mod_env named), and a warning says responses are not buffered', () => {
  for (const server of ['unicorn', 'pitchfork']) {
    const r = gen({ server, proxy: 'apache', proxy_version: '2.4.62' });
    const site = r.files.find((f) => f.path === 'etc/apache2/sites-available/rails-app.conf');
    assert.match(site.content, /^\s+SetEnv proxy-sendcl 1$/m);
    assert.ok(site.meta.modules.includes('env'));
    assert.ok(ids(r).includes('apache-not-fully-buffering'), server);
  }
  const puma = gen({ server: 'puma', proxy: 'apache', proxy_version: '2.4.62' });
  assert.ok(!ids(puma).includes('apache-not-fully-buffering'));
  assert.doesNotMatch(file(puma, 'etc/apache2/sites-available/rails-app.conf'), /proxy-sendcl/);
});
