// EL10 answers (RHEL 10, Rocky Linux 10, AlmaLinux 10): the README's commands are RHEL 10's, not RHEL 9's. No RHEL
// machine exists here (the lab boots Debian only), so these are content assertions against the documented commands:
// PGDG's EL-10 repository package with no `dnf module` step (RHEL 10 has no modules), the stream-named database
// packages Red Hat documents for RHEL 10 (mysql8.4-server; mariadb10.11-server), Valkey where Sidekiq asks for Redis,
// and the release's own versions as defaults (capabilities/distro-releases.mjs, family-commands.mjs byEl).
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';

const DATE = '2026-11-25';
const EL10 = ['rocky-10', 'rhel-10', 'almalinux-10'];
const readmeOf = (r) => r.files.find((f) => f.path === 'README.md').content;
const bundle = (a) => generate({ os: 'linux', ...a }, { date: DATE });

test('EL10: PGDG comes from the EL-10 repository and no line enables or disables a module', () => {
  for (const distro of EL10) {
    for (const jobs of ['solid_queue', 'sidekiq']) {
      const r = bundle({ distro, database: 'postgresql', database_version: '17', adapter: 'pg', jobs, proxy: 'nginx', tls: 'proxy', domain: 'app.example.com' });
      const readme = readmeOf(r);
      assert.match(readme, /^test -x \/usr\/pgsql-17\/bin\/postgres \|\| dnf install -y https:\/\/download\.postgresql\.org\/pub\/repos\/yum\/reporpms\/EL-10-x86_64\/pgdg-redhat-repo-latest\.noarch\.rpm$/m, distro);
      assert.match(readme, /dnf install -y postgresql17-server$/m);
      assert.doesNotMatch(readme, /EL-9-|module (disable|enable)|dnf -y module|dnf -qy module/, `${distro} ${jobs}`);
    }
  }
  // arm64 takes PGDG's aarch64 directory; RHEL 9 keeps its EL-9 repository and the module step.
  assert.match(readmeOf(bundle({ distro: 'rocky-10', arch: 'arm64', database: 'postgresql', database_version: '17', adapter: 'pg' })), /reporpms\/EL-10-aarch64\//);
  const el9 = readmeOf(bundle({ distro: 'rocky-9', database: 'postgresql', database_version: '17', adapter: 'pg' }));
  assert.match(el9, /reporpms\/EL-9-x86_64\//);
  assert.match(el9, /dnf -qy module disable postgresql/);
});

test('EL10: the release\'s own versions are the defaults (PostgreSQL 16, MySQL 8.4, MariaDB 10.11, nginx 1.26, kernel 6.12)', () => {
  const stack = (a) => /^Stack: (.*)$/m.exec(readmeOf(bundle({ distro: 'rocky-10', ...a })))[1];
  assert.match(stack({ database: 'postgresql' }), /nginx 1\.26, postgresql 16 .*linux 6\.12/);
  assert.match(stack({ database: 'mysql', adapter: 'trilogy' }), /mysql 8\.4/);
  assert.match(stack({ database: 'mariadb', adapter: 'trilogy' }), /mariadb 10\.11/);
  // Ruby 3.3 is the release's /usr/bin/ruby: no module stream, no mismatch warning for 3.3.
  const r = bundle({ distro: 'rocky-10', ruby: 'cruby', ruby_version: '3.3', ruby_path: '/usr/bin' });
  assert.doesNotMatch(readmeOf(r), /module enable ruby/);
  assert.ok(!r.warnings.some((w) => /ruby-distro|distro-ruby/.test(w.id)), r.warnings.map((w) => w.id).join());
});

test('EL10: MySQL 8.4 is mysql8.4-server and MariaDB mariadb10.11-server, with RHEL\'s units', () => {
  for (const distro of EL10) {
    const my = readmeOf(bundle({ distro, database: 'mysql', database_version: '8.4', adapter: 'trilogy' }));
    assert.match(my, /^rpm -q mysql8\.4-server >\/dev\/null \|\| dnf install -y mysql8\.4-server$/m, distro);
    assert.match(my, /^systemctl enable --now mysqld$/m);
    assert.doesNotMatch(my, /install -y mysql-server|mysql84-community-release|module/);
    const maria = readmeOf(bundle({ distro, database: 'mariadb', database_version: '10.11', adapter: 'trilogy' }));
    assert.match(maria, /^rpm -q mariadb10\.11-server >\/dev\/null \|\| dnf install -y mariadb10\.11-server$/m);
    assert.match(maria, /^systemctl enable --now mariadb$/m);
    assert.doesNotMatch(maria, /MariaDB\.repo|install -y mariadb-server/);
  }
  // A MySQL series RHEL 10 lacks and MySQL builds no el10 repository for (8.0) has no repository step.
  const old = bundle({ distro: 'rocky-10', database: 'mysql', database_version: '8.0', adapter: 'trilogy' });
  assert.doesNotMatch(readmeOf(old), /community-release-el10|mysql80/);
  // A newer MariaDB LTS than 10.11 comes from MariaDB's repository for this release ($releasever is 10 there).
  assert.match(readmeOf(bundle({ distro: 'rocky-10', database: 'mariadb', database_version: '11.8', adapter: 'trilogy' })), /rpm\.mariadb\.org\/11\.8\/rhel\/\$releasever/);
});

test('EL10 with Sidekiq: Valkey is installed, included, restarted and ordered; README says so', () => {
  for (const distro of EL10) {
    const r = bundle({ distro, jobs: 'sidekiq' });
    const readme = readmeOf(r);
    assert.match(readme, /^command -v valkey-server >\/dev\/null \|\| dnf install -y valkey$/m, distro);
    assert.match(readme, /^grep -qx 'include \/etc\/redis\/rails\.conf' \/etc\/valkey\/valkey\.conf \|\| \{ echo 'include \/etc\/redis\/rails\.conf' >> \/etc\/valkey\/valkey\.conf; REDIS=1; \}$/m);
    assert.match(readme, /^\[ -z "\$REDIS" \] \|\| systemctl restart valkey$/m);
    assert.doesNotMatch(readme, /dnf install -y redis|\/etc\/redis\/redis\.conf|restart redis$/m);
    const dropIn = r.files.find((f) => f.path === 'etc/systemd/system/rails-app.service.d/redis.conf').content;
    assert.match(dropIn, /^After=valkey\.service$/m);
    assert.match(dropIn, /^Wants=valkey\.service$/m);
    // Valkey 8.0 takes the optional IPv6 loopback, and no "Redis too old" error: Sidekiq supports Valkey 7.2+.
    assert.match(r.files.find((f) => f.path === 'etc/redis/rails.conf').content, /^bind 127\.0\.0\.1 -::1$/m);
    assert.ok(!r.warnings.some((w) => w.id === 'sidekiq-redis-too-old'));
    const info = r.warnings.find((w) => w.id === 'redis-fork');
    assert.ok(info, 'README says Valkey stands in for Redis');
    assert.match(JSON.stringify(info), /valkey 8\.0/);
  }
  // RHEL 9 keeps its redis package (and the too-old error: 6.2).
  const el9 = bundle({ distro: 'rocky-9', jobs: 'sidekiq' });
  assert.match(readmeOf(el9), /dnf install -y redis$/m);
  assert.ok(!el9.warnings.some((w) => w.id === 'redis-fork'));
});
