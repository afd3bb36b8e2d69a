// Distribution families as data (issue 11): users, include directories and install destinations, libc-specific
// allocator settings, firewall/SELinux/init steps per family. Engine-only and structural: every distinct nginx
// file of every family also goes through nginx -t in sweep.test.mjs (with www-data standing in for users this
// Debian host does not have).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generate } from '../../guide/engine/index.mjs';

const gen = (a) => generate(a, { date: '2026-11-23' });
const file = (r, re) => r.files.find((f) => re.test(f.path))?.content;
const readmeRow = (r, path) => file(r, /^README\.md$/).split('\n').find((l) => l.startsWith(`| ${path} |`));

test('nginx runs as the family user and includes the family site directory, where README installs the site', () => {
  const cases = [
    [{ distro: 'debian-13' }, 'www-data', 'sites-enabled', null],
    [{ distro: 'ubuntu-24.04' }, 'www-data', 'sites-enabled', null],
    [{ distro: 'rocky-9' }, 'nginx', 'conf.d', '/etc/nginx/conf.d/rails-app.conf'],
    [{ distro: 'centos-5' }, 'nginx', 'conf.d', '/etc/nginx/conf.d/rails-app.conf'],
    [{ distro: 'alpine-3.20' }, 'nginx', 'http.d', '/etc/nginx/http.d/rails-app.conf'],
    [{ os: 'freebsd', init: 'other' }, 'www', 'sites-enabled', '/usr/local/etc/nginx/sites-enabled/rails-app.conf'],
  ];
  for (const [a, user, dir, dest] of cases) {
    const r = gen(a);
    const main = file(r, /^etc\/nginx\/nginx\.conf$/);
    assert.match(main, new RegExp(`^user ${user};$`, 'm'), JSON.stringify(a));
    assert.match(main, new RegExp(`^\\s*include ${dir}/\\*\\.conf;$`, 'm'), JSON.stringify(a));
    const row = readmeRow(r, 'etc/nginx/sites-enabled/rails-app.conf');
    if (dest) {
      assert.ok(row.includes(`install as ${dest}`), row);
      assert.ok(dest.startsWith('/usr/local/etc/nginx/') || dest.includes(`/${dir}/`), 'the destination is in the included directory');
    } else assert.doesNotMatch(row, /install as/);
  }
  // macOS (development): Homebrew's nginx runs as the user who starts it, so no user line.
  assert.doesNotMatch(file(gen({ os: 'macos', init: 'other' }), /nginx\.conf$/), /^user /m);
});

test('database files land in the family paths (PGDG data directory on RHEL, /usr/local on FreeBSD)', () => {
  const r = gen({ distro: 'rocky-9', db_host: 'separate', app_hosts: 2, lb: 'haproxy', database_version: '17' });
  assert.ok(readmeRow(r, 'db-host/etc/postgresql/17/main/pg_hba.conf').includes('install as /var/lib/pgsql/17/data/pg_hba.conf'));
  const my = gen({ distro: 'rocky-9', database: 'mariadb', database_version: '11.8', adapter: 'mysql2' });
  assert.ok(readmeRow(my, 'etc/mysql/mariadb.conf.d/60-rails.cnf').includes('install as /etc/my.cnf.d/60-rails.cnf'));
  const bsd = gen({ os: 'freebsd', init: 'other', database_version: '17' });
  assert.ok(readmeRow(bsd, 'etc/postgresql/17/main/conf.d/60-rails.conf').includes('install as /var/db/postgres/data17/conf.d/60-rails.conf'));
});

test('musl (Alpine): no MALLOC_ARENA_MAX, jemalloc from the Alpine package path; glibc families keep both', () => {
  const alpine = file(gen({ distro: 'alpine-3.20' }), /ruby\.env$/);
  assert.doesNotMatch(alpine, /^MALLOC_ARENA_MAX/m);
  assert.match(alpine, /^# LD_PRELOAD=\/usr\/lib\/libjemalloc\.so\.2$/m);
  assert.match(alpine, /musl/);
  const rhel = file(gen({ distro: 'rocky-9' }), /ruby\.env$/);
  assert.match(rhel, /^MALLOC_ARENA_MAX=2$/m);
  assert.match(rhel, /^# LD_PRELOAD=\/usr\/lib64\/libjemalloc\.so\.2$/m);
  assert.match(file(gen({ arch: 'arm64' }), /ruby\.env$/), /^# LD_PRELOAD=\/usr\/lib\/aarch64-linux-gnu\/libjemalloc\.so\.2$/m);
});

test('host steps per family: SELinux and firewalld on RHEL, ufw on Debian, OpenRC on Alpine, rc.d and soacceptqueue on FreeBSD', () => {
  const ops = (a) => { const c = file(gen(a), /^CHECKLIST\.md$/); return c.slice(c.indexOf('## Operations'), c.indexOf('## Application')); };
  const rhel = ops({ distro: 'rocky-9', db_host: 'separate', app_hosts: 2, lb: 'haproxy', pooler: 'pgbouncer' });
  assert.match(rhel, /semanage fcontext -a -t httpd_var_run_t '\/var\/www\/app\/tmp\/sockets\(\/\.\*\)\?'/);
  assert.match(rhel, /firewall-cmd --permanent --add-service=http --add-service=https/);
  // One rich rule per app host address (a rich rule takes one source; trial D20's finding for ufw, here too).
  assert.match(rhel, /source address=10\.0\.1\.11 port port=6432 protocol=tcp accept'; firewall-cmd --permanent --add-rich-rule='rule family=ipv4 source address=10\.0\.1\.12 port port=6432 protocol=tcp accept'; then firewall-cmd --reload/);
  // TCP to the app server (no Unix socket on Apache 2.2): the boolean instead of a socket label.
  assert.match(ops({ distro: 'rocky-9', proxy: 'apache', proxy_version: '2.2' }), /setsebool -P httpd_can_network_connect 1/);
  assert.match(ops({ distro: 'debian-12' }), /ufw allow 80,443\/tcp/);
  assert.doesNotMatch(ops({ distro: 'debian-12' }), /SELinux|firewall-cmd/);
  assert.match(ops({ distro: 'alpine-3.20' }), /OpenRC/);
  const bsd = ops({ os: 'freebsd', init: 'other' });
  assert.match(bsd, /kern\.ipc\.soacceptqueue=4096/);
  assert.match(bsd, /sysrc nginx_enable=YES && service nginx start/);
  const gentoo = ops({ distro: 'gentoo' });
  assert.match(gentoo, /"gentoo" is not one the wizard knows/);
  assert.doesNotMatch(gentoo, /ufw/);
});

test('init = other: README gives the foreground command for the init system the reader has', () => {
  const row = (a) => file(gen(a), /^README\.md$/).split('\n').find((l) => l.startsWith('| Start command (no systemd) |'));
  assert.match(row({ init: 'other' }), /`cd \/var\/www\/app && RAILS_ENV=production \/usr\/bin\/bundle exec puma -C config\/puma\.rb` as deploy, in the foreground/);
  assert.match(row({ os: 'freebsd', init: 'other', server: 'unicorn', server_version: '6.1' }), /bundle exec unicorn -c config\/unicorn\.rb -E production/);
  assert.equal(row({}), undefined, 'systemd hosts get the unit file instead');
});

test('FreeBSD: rc.d scripts under daemon(8) for servers that stop on SIGTERM, secrets readable by the app user, sh -n clean', () => {
  const r = gen({ os: 'freebsd', domain: 'app.test' });
  const app = file(r, /^usr\/local\/etc\/rc\.d\/rails_app$/);
  const jobs = file(r, /^usr\/local\/etc\/rc\.d\/rails_jobs$/);
  for (const [name, script] of [['rails_app', app], ['rails_jobs', jobs]]) {
    assert.ok(script.startsWith('#!/bin/sh\n'), `${name}: the interpreter line comes first`);
    for (const re of [new RegExp(`^# PROVIDE: ${name}$`, 'm'), /^# REQUIRE: LOGIN DAEMON NETWORKING$/m, /^# KEYWORD: shutdown$/m, /^\. \/etc\/rc\.subr$/m,
      new RegExp(`^rcvar="${name}_enable"$`, 'm'), /^command="\/usr\/sbin\/daemon"$/m, /^run_rc_command "\$1"$/m]) assert.match(script, re, name);
    // daemon drops to the app user, supervises, and the secrets file is sourced by that user.
    assert.match(script, new RegExp(`-u \\$\\{${name}_user\\} /bin/sh -c 'cd \\$\\{${name}_dir\\} && set -a; \\. /usr/local/etc/rails-app/secrets\\.env; \\. config/ruby\\.env;`), name);
    const check = spawnSync('sh', ['-n'], { input: script });
    assert.equal(check.status, 0, `${name}: sh -n: ${check.stderr}`);
  }
  // The same command as the README's foreground line, with FreeBSD's /usr/local/bin Ruby.
  assert.match(app, /exec \/usr\/local\/bin\/bundle exec puma -C config\/puma\.rb'"$/m);
  assert.match(app, /^reload_cmd="kill -USR2 \\\$\(cat \$child_pidfile\)"$/m);
  assert.match(jobs, /\. config\/jobs\.env; set \+a && RAILS_ENV=production exec \/usr\/local\/bin\/bundle exec bin\/jobs start'"$/m);
  assert.match(file(r, /^usr\/local\/etc\/rails-app\/secrets\.env$/), /mode 0640/);
  assert.ok(!r.files.some((f) => f.path.startsWith('etc/rails-app/') || f.path.startsWith('etc/systemd/') || f.path.startsWith('etc/logrotate.d/')), 'no Linux-only files');
  // Unicorn stops gracefully on SIGQUIT, which daemon(8) does not pass on: no app script, the README's foreground command instead.
  const unicorn = gen({ os: 'freebsd', server: 'unicorn' });
  assert.ok(!unicorn.files.some((f) => f.path === 'usr/local/etc/rc.d/rails_app'));
  assert.ok(unicorn.files.some((f) => f.path === 'usr/local/etc/rc.d/rails_jobs'));
  // An explicit Ruby directory wins over the FreeBSD default.
  assert.match(file(gen({ os: 'freebsd', ruby_path: '/home/deploy/.rbenv/versions/3.4.7/bin' }), /rc\.d\/rails_app$/), /exec \/home\/deploy\/\.rbenv\/versions\/3\.4\.7\/bin\/bundle exec puma/);
});
