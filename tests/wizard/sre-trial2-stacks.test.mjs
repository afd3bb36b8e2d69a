// The second SRE trial's open defects (issue 24), each asserted on generated bundles of the stacks it hit:
// old Rails get the commands their Rails and Bundler have (no bin/rails, db:prepare, assets:precompile or
// `bundle config set` where they do not exist); Sidekiq's unit has no ExecReload (TSTP only quiets); Redis's bind
// line follows the release's Redis; MySQL's settings file sits where Ubuntu/Debian read it last; Rocky 9 + MySQL 8.4
// from MySQL's repository gets my.cnf.d included and an initialized data directory before the first start; the
// mysql-apt-config release package is pinned and the README says it is not checksummed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';

const gen = (a) => generate({ domain: 'app.test', ...a }, { date: '2026-11-26' });
const file = (r, p) => r.files.find((f) => f.path === p)?.content ?? assert.fail(`${p} in the bundle (${r.files.map((f) => f.path).join(' ')})`);
/** The README's shell lines (```sh blocks), comments kept. */
const shell = (r) => [...file(r, 'README.md').matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1].split('\n')).filter(Boolean);
const deployLines = (r) => file(r, 'deploy.sh').split('\n').filter((l) => !l.trimStart().startsWith('#'));

// Rails 2.3 on Ruby 1.8.7 (Bundler 1.x only), Rails 3.0 (script/rails, no pipeline), 3.2 (pipeline, rake),
// 4.2 (bin/rails runner, rake tasks), 5.2 on Ruby 2.5 (rails tasks, no db:prepare), 6.0 and the default (8.1).
const OLD = [
  { a: { rails: '2.3', ruby_version: '1.8.7', server: 'unicorn', server_version: '1.1', database: 'mysql', database_version: '5.5', adapter: 'mysql', jobs: 'none' },
    task: 'rake', runner: 'script/runner', prepare: 'db:migrate', assets: false, bundler1: true, app: 'ActionController::Dispatcher.new' },
  { a: { rails: '3.0', ruby_version: '1.9.3', server: 'unicorn', server_version: '4.8', jobs: 'none' },
    task: 'rake', runner: 'script/rails runner', prepare: 'db:migrate', assets: false, bundler1: true, app: 'Rails.application' },
  { a: { rails: '3.2', ruby_version: '2.3', server: 'unicorn', server_version: '5.0', jobs: 'none' },
    task: 'rake', runner: 'script/rails runner', prepare: 'db:migrate', assets: true, bundler1: false, app: 'Rails.application' },
  { a: { rails: '4.2', ruby_version: '2.2', server: 'puma', server_version: '3.12', jobs: 'none' },
    task: 'rake', runner: 'bin/rails runner', prepare: 'db:migrate', assets: true, bundler1: true, app: 'Rails.application' },
  { a: { rails: '5.2', ruby_version: '2.5', server_version: '4.3', jobs: 'none' },
    task: 'bin/rails', runner: 'bin/rails runner', prepare: 'db:migrate', assets: true, bundler1: false, app: 'Rails.application' },
  { a: { rails: '6.0', ruby_version: '2.7', server_version: '5.6', jobs: 'none' },
    task: 'bin/rails', runner: 'bin/rails runner', prepare: 'db:prepare', assets: true, bundler1: false, app: 'Rails.application' },
  { a: {}, task: 'bin/rails', runner: 'bin/rails runner', prepare: 'db:prepare', assets: true, bundler1: false, app: 'Rails.application' },
];

test('old Rails: README and deploy.sh run the tasks, runner, migration and Bundler settings that Rails and its Ruby have', () => {
  for (const c of OLD) {
    const r = gen(c.a);
    const what = `Rails ${c.a.rails || 'default'}`;
    const lines = shell(r);
    const sh = deployLines(r);
    const all = [...lines, ...sh].join('\n');
    // Step 4: create-or-migrate with this Rails' own task.
    assert.ok(lines.some((l) => l.includes(`bundle exec ${c.task} ${c.prepare})`)), `${what}: README step 4 runs ${c.task} ${c.prepare}\n${lines.join('\n')}`);
    if (c.prepare !== 'db:prepare') assert.doesNotMatch(all, /db:prepare/, `${what}: no db:prepare before Rails 6.0`);
    // deploy.sh: migrations and the in-process boot check with this Rails' runner and Rack endpoint.
    assert.ok(sh.some((l) => l.includes(`exec ${c.task} db:migrate ||`)), `${what}: deploy.sh migrates with ${c.task}`);
    const pre = sh.find((l) => l.includes("exec ") && l.includes('.call(Rack::MockRequest')) ?? assert.fail(`${what}: deploy.sh preflight`);
    assert.ok(pre.includes(`exec ${c.runner} 'status, = ${c.app}.call(`), `${what}: ${pre}`);
    if (c.task === 'rake') assert.doesNotMatch(all, /bin\/rails (db:|assets:)/, `${what}: rake tasks are rake's before Rails 5.0`);
    if (!c.runner.startsWith('bin/')) assert.doesNotMatch(all, /bin\/rails/, `${what}: no bin/ directory before Rails 4.0`);
    // Assets: only with the asset pipeline (Rails 3.1+).
    assert.equal(/assets:precompile/.test(all), c.assets, `${what}: assets:precompile ${c.assets ? 'run' : 'absent'}`);
    if (!c.assets) assert.match(file(r, 'deploy.sh'), /No assets:precompile: this Rails has no asset pipeline/);
    // README step 7 without release directories (a release tool's `current`): the same commands, run in place.
    const tool = shell(gen({ ...c.a, app_root: '/srv/app/current' }));
    assert.equal(tool.some((l) => l.includes(`bundle exec ${c.task} assets:precompile`)), c.assets, `${what}: step 7's assets`);
    assert.ok(tool.some((l) => l.includes(`bundle exec ${c.task} db:migrate)`)), `${what}: step 7 migrates with ${c.task}`);
    // Bundler: 1.x's install flags on a Ruby older than 2.3, 2.1+'s `config set` otherwise.
    if (c.bundler1) {
      assert.doesNotMatch([...all.split('\n'), ...tool].join('\n'), /bundle"? config set/, `${what}: Bundler 1.x has no config set`);
      assert.ok(tool.some((l) => /\/bundle install --deployment$/.test(l)), `${what}: README installs with --deployment\n${tool.join('\n')}`);
      assert.ok(sh.some((l) => l.includes('"$BUNDLE" install --quiet --deployment --path "$ROOT/shared/bundle" --without development test ||')), `${what}: deploy.sh's Bundler 1 install`);
    } else {
      assert.ok(tool.some((l) => /\/bundle config set --local deployment true$/.test(l)), `${what}: README's config set`);
      assert.ok(sh.some((l) => l.includes('"$BUNDLE" config set --local path "$ROOT/shared/bundle" ||')), `${what}: deploy.sh's config set`);
      assert.doesNotMatch(all, /install[^\n]*--deployment/, `${what}: no deprecated install flags`);
    }
  }
  // The checklist and the rollback paragraph name the same commands.
  const old = gen(OLD[0].a);
  assert.match(file(old, 'CHECKLIST.md'), /Create and migrate every database \(rake db:migrate\)/);
  assert.match(file(old, 'README.md'), /Roll back migrations \(`rake db:rollback STEP=n`\)/);
  assert.match(file(gen({}), 'CHECKLIST.md'), /Create and migrate every database \(bin\/rails db:prepare\)/);
});

test('Sidekiq: no ExecReload (TSTP only quiets, loading no code); the unit says how to quiet, as Sidekiq\'s own example does', () => {
  const unit = file(gen({ jobs: 'sidekiq' }), 'etc/systemd/system/rails-jobs@.service');
  assert.doesNotMatch(unit, /^ExecReload=/m);
  assert.match(unit, /^# No ExecReload: TSTP only quiets Sidekiq[\s\S]*?systemctl kill -s TSTP rails-jobs@1/m);
  // The other runners have none either (nothing of theirs reloads on a signal).
  for (const jobs of ['solid_queue', 'good_job', 'delayed_job']) {
    const r = gen({ jobs });
    const u = r.files.find((f) => /^etc\/systemd\/system\/rails-jobs@?\.service$/.test(f.path))?.content ?? '';
    assert.doesNotMatch(u, /^ExecReload=|TSTP/m, jobs);
  }
});

test('Redis: "-::1" (optional IPv6 loopback) only where the release ships Redis 6.2+; IPv4 loopback elsewhere', () => {
  const bind = (distro) => /^bind .*$/m.exec(file(gen({ jobs: 'sidekiq', distro }), 'etc/redis/rails.conf'))[0];
  assert.equal(bind('ubuntu-22.04'), 'bind 127.0.0.1', 'Ubuntu 22.04 ships Redis 6.0, which reads -::1 as an address');
  for (const distro of ['debian-12', 'debian-13', 'ubuntu-24.04', 'rocky-9']) assert.equal(bind(distro), 'bind 127.0.0.1 -::1', distro);
  assert.equal(bind('debian-99'), 'bind 127.0.0.1', 'a release the table does not know: the line every Redis accepts');
});

test('MySQL/MariaDB settings go where the server reads them last, so their bind-address wins over the package\'s', () => {
  const paths = (a) => gen(a).files.map((f) => f.path).filter((p) => /\.cnf$/.test(p));
  // Ubuntu's (and MySQL's APT) my.cnf reads conf.d before mysql.conf.d, whose mysqld.cnf sets bind-address.
  for (const distro of ['ubuntu-24.04', 'ubuntu-22.04', 'debian-13']) {
    const r = gen({ distro, database: 'mysql', database_version: '8.0', adapter: 'trilogy' });
    assert.deepEqual(paths({ distro, database: 'mysql', database_version: '8.0', adapter: 'trilogy' }), ['etc/mysql/mysql.conf.d/zz-rails.cnf'], distro);
    assert.ok('zz-rails.cnf' > 'mysqld.cnf', 'sorts after the package\'s mysqld.cnf');
    assert.ok(shell(r).includes('install -D -m 0644 etc/mysql/mysql.conf.d/zz-rails.cnf /etc/mysql/mysql.conf.d/zz-rails.cnf'), distro);
    assert.match(file(r, 'etc/mysql/mysql.conf.d/zz-rails.cnf'), /^bind-address = 127\.0\.0\.1$/m);
  }
  // Several hosts: the networked bind address is in the file read last.
  const multi = gen({ distro: 'ubuntu-24.04', database: 'mysql', database_version: '8.0', adapter: 'trilogy', db_host: 'separate', app_hosts: 2, lb: 'haproxy' });
  assert.match(file(multi, 'db-host/etc/mysql/mysql.conf.d/zz-rails.cnf'), /^bind-address = (127\.0\.0\.1,)?10\.0\.0\.5$/m);
  // MariaDB: after 50-server.cnf in mariadb.conf.d; RHEL: its one include directory.
  assert.deepEqual(paths({ database: 'mariadb', database_version: '11.8', adapter: 'mysql2' }), ['etc/mysql/mariadb.conf.d/60-rails.cnf']);
  const rocky = gen({ distro: 'rocky-9', database: 'mysql', database_version: '8.0', adapter: 'trilogy' });
  assert.ok(shell(rocky).includes('install -D -m 0644 etc/mysql/mysql.conf.d/zz-rails.cnf /etc/my.cnf.d/zz-rails.cnf'), shell(rocky).join('\n'));
});

test('Rocky 9 + MySQL 8.4 from MySQL\'s repository: my.cnf.d included and the data directory initialized before the first start', () => {
  const r = gen({ distro: 'rocky-9', database: 'mysql', database_version: '8.4', adapter: 'trilogy' });
  const lines = shell(r);
  const at = (re) => lines.findIndex((l) => re.test(l));
  const pkg = at(/dnf install -y mysql-community-server$/);
  const include = at(/^grep -qx '!includedir \/etc\/my\.cnf\.d' \/etc\/my\.cnf \|\| echo '!includedir \/etc\/my\.cnf\.d' >> \/etc\/my\.cnf$/);
  const init = at(/^test -e \/var\/lib\/mysql\/mysql\.ibd \|\| mysqld --initialize-insecure --user=mysql$/);
  const start = at(/^systemctl enable --now mysqld$/);
  const grants = at(/^mysql < setup\/mysql-grants\.sql$/);
  assert.ok(pkg >= 0 && include > pkg && init > include && start > init && grants > start, `order: package ${pkg}, include ${include}, init ${init}, start ${start}, grants ${grants}\n${lines.join('\n')}`);
  const w = r.warnings.find((x) => /initializes the data directory with --initialize-insecure/.test(x.message)) ?? assert.fail(r.warnings.map((x) => x.message).join('\n'));
  assert.equal(w.severity, 'info');
  assert.match(w.suggestion, /mysql_secure_installation/);
  // RHEL's own MySQL 8.0 already includes my.cnf.d and starts without a temporary password: no extra steps.
  const own = shell(gen({ distro: 'rocky-9', database: 'mysql', database_version: '8.0', adapter: 'trilogy' })).join('\n');
  assert.doesNotMatch(own, /initialize-insecure|!includedir/);
});

test('mysql-apt-config: a pinned release package, and README says plainly that no checksum is verified', () => {
  const r = gen({ distro: 'debian-13', database: 'mysql', database_version: '8.4', adapter: 'trilogy' });
  const lines = shell(r);
  assert.ok(lines.some((l) => /curl --fail -sSLo \/tmp\/mysql-apt-config\.deb https:\/\/repo\.mysql\.com\/mysql-apt-config_\d+\.\d+\.\d+-\d+_all\.deb$/.test(l)), lines.join('\n'));
  assert.doesNotMatch(lines.join('\n'), /repo\.mysql\.com\/mysql-apt-config\.deb/, 'never the unversioned package');
  assert.ok(lines.some((l) => /^# mysql-apt-config [\d.-]+ \(pinned\) over HTTPS; no checksum is verified/.test(l)));
  const w = r.warnings.find((x) => x.id === 'distro-database') ?? assert.fail('the vendor repository finding');
  assert.match(w.suggestion, /verifies NO checksum/);
});

test('old Rails: the README names the database task it runs, and the checklist the health path that Rails has', () => {
  for (const c of OLD) {
    const r = gen(c.a);
    const what = `Rails ${c.a.rails || 'default'}`;
    const readme = file(r, 'README.md');
    assert.match(readme, new RegExp(`then prepare the databases \\(${c.task} ${c.prepare}\\)`), `${what}: step 4 names ${c.task} ${c.prepare}`);
    assert.doesNotMatch(readme, /load the schemas/, what);
    const up = c.a.rails && !/^(7\.[1-9]|8)/.test(c.a.rails) ? '/' : '/up';
    assert.match(file(r, 'CHECKLIST.md'), new RegExp(`curl ${up.replace('/', '\\/')} answers`), `${what}: the checklist's health path is ${up}`);
  }
});

test('unicorn.rb uses only what the answered Unicorn has: check_client_connection from 4.5 (SRE trial 24b, D1)', () => {
  for (const [v, has] of [['1.1', false], ['4.4', false], ['4.5', true], ['6.1', true]]) {
    const a = v === '1.1' ? OLD[0].a : { server: 'unicorn', server_version: v };
    assert.equal(/^check_client_connection/m.test(file(gen(a), 'config/unicorn.rb')), has, `Unicorn ${v}`);
  }
});

test('Sidekiq on a distribution whose Redis current Sidekiq refuses is an error, not a bundle that stops at boot (24b, D2)', () => {
  for (const [distro, refused] of [['debian-13', false], ['debian-12', false], ['ubuntu-24.04', false], ['ubuntu-22.04', true], ['rocky-9', true]]) {
    const w = gen({ distro, jobs: 'sidekiq' }).warnings.find((x) => x.id === 'sidekiq-redis-too-old');
    assert.equal(Boolean(w), refused, distro);
    if (w) { assert.equal(w.severity, 'error'); assert.match(w.suggestion, /Solid Queue/); }
  }
  assert.equal(gen({ distro: 'ubuntu-22.04', jobs: 'solid_queue' }).warnings.some((x) => x.id === 'sidekiq-redis-too-old'), false);
});

test('the distribution\'s Ruby is suggested as an answer only when it can run the answered Rails (24b, D7)', () => {
  const s = (a) => gen(a).warnings.find((w) => w.id === 'distro-ruby')?.suggestion;
  assert.doesNotMatch(s({ distro: 'ubuntu-22.04' }), /answer ruby_version/, 'Ruby 3.0 cannot run Rails 8.1');
  assert.match(s({ distro: 'ubuntu-22.04' }), /Ruby 3\.0 cannot run Rails 8\.1, which needs Ruby 3\.2/);
  assert.match(s({ distro: 'ubuntu-22.04', rails: '7.0', ruby_version: '3.1' }), /or answer ruby_version 3\.0/);
});

test('the app unit orders itself only after units on its own host: PgBouncer on a separate database host is not one (23b, D19)', () => {
  const after = (a) => file(gen(a), 'etc/systemd/system/rails-app.service').match(/^After=(.*)$/m)[1].split(' ');
  assert.ok(after({ pooler: 'pgbouncer' }).includes('pgbouncer.service'), 'same host: after its PgBouncer');
  assert.ok(!after({ pooler: 'pgbouncer', db_host: 'separate' }).includes('pgbouncer.service'));
  assert.ok(!after({ pooler: 'pgbouncer', db_host: 'separate', app_hosts: 2, lb: 'haproxy' }).includes('postgresql.service'));
});
