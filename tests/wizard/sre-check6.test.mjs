// The sixth stop on issue 23's SRE review (/work/notes/sre5-review.md, the defects left open there): each fix proven
// on the generated output (file contents checked against the bundle's own memory plan and commands, and the shell
// lines README runs executed by dash against recorders where behaviour matters).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { generate } from '../../guide/engine/index.mjs';
import { systemdVerify } from './validators.mjs';

const DATE = '2026-11-26';
const gen = (a) => generate(a, { date: DATE });
const file = (r, p) => r.files.find((f) => f.path === p)?.content;
const setting = (unit, key) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]);

// Answer sets of the review's bundles that run their own units: one host with PostgreSQL and Solid Queue; Sidekiq
// (one process per templated instance) on two app hosts; Unicorn with MySQL whose USR2 handover is planned above the
// RAM; a 1.5 GB host with Solid Queue inside Puma; Passenger inside Apache (no web unit of ours, a job unit).
const SETS = {
  single: { distro: 'debian-13', cores: 4, ram_gb: 8, jobs: 'solid_queue', websockets: true, domain: 'shop.example.com' },
  sidekiq: { distro: 'ubuntu-24.04', cores: 4, ram_gb: 8, app_hosts: 2, lb: 'haproxy', db_host: 'separate', pooler: 'pgbouncer', jobs: 'sidekiq', domain: 'shop.example.com', app_addresses: '10.0.0.11,10.0.0.12', db_address: '10.0.0.20', lb_address: '10.0.0.10' },
  unicorn: { distro: 'ubuntu-24.04', cores: 4, ram_gb: 4, server: 'unicorn', server_version: '6.1', jobs: 'sidekiq', database: 'mysql', database_version: '8.0', domain: 'shop.example.com' },
  small: { distro: 'debian-12', cores: 1, ram_gb: 1.5, jobs: 'solid_queue', worker_mb: 250, domain: 'tiny.example.com' },
  passenger: { distro: 'ubuntu-24.04', cores: 4, ram_gb: 8, proxy: 'apache', proxy_version: '2.4', server: 'passenger', server_version: '6.0', jobs: 'good_job', domain: 'shop.example.com' },
};

// The plan's lines of the other services on the host: what a unit's ceiling must leave alone.
const SERVICES = new Set(['os', 'proxy', 'database', 'pooler', 'redis']);
const JOB_LINES = new Set(['jobs-template', 'jobs']);
const mb = (lines) => lines.reduce((s, x) => s + x.mb, 0);

// D9: no unit had a memory ceiling, so a leaking worker grew until the kernel's OOM killer picked a process, possibly
// a PostgreSQL backend (every session ends, crash recovery). Each app unit now gets MemoryMax = its share of the
// plan plus what the plan leaves free, OOMPolicy=continue and a positive OOMScoreAdjust; no MemoryHigh.
test('D9: every app unit has a memory ceiling from the plan: its own share plus the free rest, never below its share, the other services\' share untouched', () => {
  for (const [name, answers] of Object.entries(SETS)) {
    const r = gen(answers);
    const ram = Math.round(answers.ram_gb * 1024);
    const lines = r.model.memory;
    const total = mb(lines);
    const free = Math.max(0, ram - total);
    const services = mb(lines.filter((x) => SERVICES.has(x.kind)));
    const jobs = mb(lines.filter((x) => JOB_LINES.has(x.kind)));
    const web = total - services - jobs; // the app server's lines: master or mold, workers, YJIT, a handover
    const units = r.files.filter((f) => /^etc\/systemd\/system\/rails-(app|jobs@?)\.service$/.test(f.path));
    assert.ok(units.length >= 1, `${name}: the bundle has units`);
    for (const u of units) {
      const max = setting(u.content, 'MemoryMax');
      assert.equal(max.length, 1, `${name} ${u.path}: one MemoryMax`);
      const ceiling = Number(/^(\d+)M$/.exec(max[0])[1]);
      if (u.path.endsWith('rails-app.service')) {
        assert.equal(ceiling, web + free, `${name}: the web unit may use its ${web} MB and the ${free} MB left free`);
        // With the job runner and the services at their plans, the web unit at its ceiling fills the RAM exactly
        // (or the plan, where the plan is already above the RAM): nothing planned for PostgreSQL or Redis is taken.
        assert.equal(ceiling + services + jobs, Math.max(ram, total), `${name}: web ceiling + the rest of the plan`);
      } else {
        const templated = u.path.includes('@');
        // A templated unit runs one job process per instance; Solid Queue's unit its workers and the supervisor.
        const jobProcesses = r.model.job_workers;
        const jit = mb(lines.filter((x) => x.kind === 'jit')) / r.model.processes; // YJIT per process
        const share = templated ? Math.round(jobs / jobProcesses) + jit : jobs + jit * (jobProcesses + 1);
        assert.equal(ceiling, share + free, `${name} ${u.path}: a job unit (or instance) may use its ${share} MB and the ${free} MB left free`);
        assert.ok(ceiling >= Math.round(jobs / (templated ? jobProcesses : 1)), `${name}: never below the planned job memory`);
      }
      assert.ok(ceiling >= 256, `${name} ${u.path}: a ceiling a booted Rails app fits in`);
      assert.deepEqual(setting(u.content, 'MemoryHigh'), [], `${name}: no MemoryHigh (throttles a Ruby heap without killing it)`);
      assert.deepEqual(setting(u.content, 'OOMPolicy'), ['continue'], `${name}: one OOM kill does not stop the whole unit`);
      const adj = Number(setting(u.content, 'OOMScoreAdjust')[0]);
      assert.ok(adj > 0 && adj <= 1000, `${name}: the app's processes go before a PostgreSQL backend (0) when the host runs out`);
      const said = u.content.replace(/\n# /g, ' ');
      assert.match(said, new RegExp(`The unit's ceiling: [^\\n]*\\(\\d+ MB\\) plus the ${free} MB the plan leaves free on this host \\(${ram} MB of RAM, ${total} MB planned\\), never below that share`), `${name}: the ceiling says where it comes from`);
      assert.match(u.content, /systemd\.resource-control\.html/, `${name}: the ceiling cites systemd.resource-control`);
    }
  }
  // Solid Queue inside Puma (small host): no job unit, the web unit holds the plan's job line (0 MB: threads).
  assert.equal(file(gen(SETS.small), 'etc/systemd/system/rails-jobs.service'), undefined);
  // Passenger inside Apache: Apache's unit runs the app (no ceiling of ours there); the job unit gets one.
  const p = gen(SETS.passenger);
  assert.equal(file(p, 'etc/systemd/system/rails-app.service'), undefined);
  assert.equal(setting(file(p, 'etc/systemd/system/rails-jobs@.service'), 'OOMPolicy')[0], 'continue');
});

test('D9: systemd-analyze verify accepts the units with their memory settings', () => {
  const r = gen(SETS.single);
  for (const name of ['rails-app.service', 'rails-jobs.service']) systemdVerify(name, file(r, `etc/systemd/system/${name}`));
});

// README step 3 of a bundle, run by dash in a scratch tree: every absolute /etc path moved under the scratch
// directory, systemctl, apt-get, sysctl and redis-cli replaced by recorders (redis-cli answers nothing, as with no
// Redis running, so a Redis on the test machine is never touched). Returns the recorded calls of each run.
function stepThreeRunner(r) {
  const dir = mkdtempSync(join(tmpdir(), 'sre6-step3-'));
  const bundle = join(dir, 'bundle');
  for (const f of r.files) {
    mkdirSync(dirname(join(bundle, f.path)), { recursive: true });
    writeFileSync(join(bundle, f.path), f.content);
  }
  const readme = file(r, 'README.md');
  const block = /^### 3\. [^\n]*\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme)[1];
  const root = join(dir, 'root');
  mkdirSync(join(root, 'etc', 'redis'), { recursive: true });
  writeFileSync(join(root, 'etc', 'redis', 'redis.conf'), '# the package\'s file\n');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const log = join(dir, 'calls');
  for (const tool of ['systemctl', 'apt-get', 'sysctl', 'redis-cli']) writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "${log}"\n`, { mode: 0o755 });
  const script = ['set -eu', block.replace(/(^|[\s'])\/etc\//gm, `$1${root}/etc/`)].join('\n');
  return {
    bundle,
    run() {
      writeFileSync(log, '');
      const res = spawnSync('dash', ['-c', script], { cwd: bundle, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeout: 20000 });
      assert.equal(res.status, 0, `${res.stdout}${res.stderr}`);
      return readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith('systemctl '));
    },
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// m1: README step 3 restarted Redis and MySQL on every run, also when nothing had changed (Sidekiq's enqueues fail
// while Redis restarts; InnoDB's buffer pool goes cold). Now each file is compared before it is installed.
test('m1: re-running README step 3 restarts Redis and MySQL only when their files changed', () => {
  const step3 = stepThreeRunner(gen(SETS.unicorn));
  try {
    assert.deepEqual(step3.run(), ['systemctl restart redis-server', 'systemctl restart mysql'], 'the first run installs and restarts both');
    assert.deepEqual(step3.run(), [], 'a re-run that changes nothing restarts nothing');
    writeFileSync(join(step3.bundle, 'etc/redis/rails.conf'), '# edited\n', { flag: 'a' });
    assert.deepEqual(step3.run(), ['systemctl restart redis-server'], 'a changed rails.conf restarts Redis alone');
    writeFileSync(join(step3.bundle, 'etc/mysql/mysql.conf.d/zz-rails.cnf'), '# edited\n', { flag: 'a' });
    assert.deepEqual(step3.run(), ['systemctl restart mysql'], 'a changed MySQL include restarts MySQL alone');
  } finally {
    step3.done();
  }
  // The database host's step 0 (MariaDB on a private address): the same comparison before its files go in.
  const sep = file(gen({ database: 'mariadb', database_version: '11.8', adapter: 'mysql2', db_host: 'separate', db_address: '10.0.0.20', app_addresses: '10.0.0.11' }), 'README.md');
  assert.match(sep, /^MY=\ncmp -s db-host\/etc\/mysql\/mariadb\.conf\.d\/60-rails\.cnf \/etc\/mysql\/mariadb\.conf\.d\/60-rails\.cnf \|\| MY=1\n[\s\S]*?^install -D -m 0644 db-host\/etc\/mysql\/[\s\S]*?^\[ -z "\$MY" \] \|\| systemctl restart mariadb$/m);
});

// m6: deploy.sh said migrations ran "as the migrations role", and no bundle has one: every database.yml names one
// user. The comment now says so, and what RAILS_DB_MIGRATE gives each database is in that database's database.yml.
test('m6: deploy.sh says migrations run as the app\'s own role, and the settings it names are the ones database.yml gives RAILS_DB_MIGRATE', () => {
  const cases = [
    [{}, /^ {6}statement_timeout: <%= ENV\["RAILS_DB_MIGRATE"\] \? 0 : [^\n]*\n {6}lock_timeout: <%= "5s" if ENV\["RAILS_DB_MIGRATE"\] %>$/m],
    [{ pooler: 'pgbouncer' }, /^ {4}database: <%= ENV\["RAILS_DB_MIGRATE"\] \? "app_production_migrate" : "app_production" %>$/m],
    [{ database: 'mysql' }, /^ {6}lock_wait_timeout: <%= 5 if ENV\["RAILS_DB_MIGRATE"\] %>$/m],
    [{ database: 'sqlite' }, null],
  ];
  for (const [answers, yml] of cases) {
    const r = gen(answers);
    const sh = file(r, 'deploy.sh');
    const at = sh.split('\n').findIndex((l) => l.startsWith('# Migrations once per deploy'));
    const [comment, line] = sh.split('\n').slice(at, at + 2);
    assert.doesNotMatch(comment, /as the migrations role/, 'no role that does not exist');
    assert.match(comment, /as the app's own database role: there is no separate migrations role/);
    const users = [...file(r, 'config/database.yml').matchAll(/^\s+username: (\S+)$/gm)].map((m) => m[1]);
    assert.ok(new Set(users).size <= 1, `${JSON.stringify(answers)}: one database user (${users})`);
    if (yml) {
      assert.match(line, / RAILS_DB_MIGRATE=1 "\$BUNDLE" exec bin\/rails db:migrate /, `${JSON.stringify(answers)}: the migration sets the variable`);
      assert.match(file(r, 'config/database.yml'), yml, `${JSON.stringify(answers)}: database.yml gives it what the comment says`);
    } else assert.doesNotMatch(line, /RAILS_DB_MIGRATE/, 'SQLite: the app\'s connection settings');
  }
});

// D8: Passenger inside Apache deployed in place (bundle install, assets and migrations under the running app, then
// passenger-config), with no release to go back to. It now has the release layout of every other server; the lab
// proof (lab-passenger-bundle.test.mjs) switches current to a new release and restarts with deploy.sh's line.
test('D8: Passenger inside Apache deploys releases: Apache and Passenger read current, deploy.sh restarts with passenger-config and rolls back', () => {
  const r = gen(SETS.passenger);
  const site = file(r, 'etc/apache2/sites-available/rails-app.conf');
  assert.match(site, /^\s*DocumentRoot \/var\/www\/app\/current\/public$/m);
  assert.match(site, /^\s*<Directory \/var\/www\/app\/current\/public>$/m);
  assert.match(site, /^\s*PassengerAppRoot \/var\/www\/app\/current$/m);
  assert.match(file(r, 'etc/rails-app/passenger-ruby'), /^\. \/var\/www\/app\/current\/config\/ruby\.env$/m);
  const sh = file(r, 'deploy.sh');
  assert.ok(sh, 'a deploy.sh');
  assert.match(sh, /^restart_app\(\) \{ \/usr\/bin\/passenger-config restart-app \/var\/www\/app --ignore-app-not-running && systemctl restart rails-jobs@1\.service; \}$/m);
  const restartNote = sh.split('\n')[sh.split('\n').findIndex((l) => l.startsWith('restart_app()')) - 1];
  assert.match(restartNote, /passenger-config restart-app \(Apache runs the app/, 'the comment names what runs');
  assert.doesNotMatch(restartNote, /systemctl reload/);
  assert.doesNotMatch(sh, /journalctl -u rails-app/, 'no unit of that name here: the messages point at Apache\'s error log');
  assert.match(sh, /see Apache's error log/);
  assert.equal(spawnSync('dash', ['-n'], { input: sh, encoding: 'utf8', timeout: 10000 }).status, 0);
  const readme = file(r, 'README.md');
  assert.match(readme, /^test -e \/var\/www\/app\/current \|\| sh deploy\.sh init$/m, 'README step 1 moves the app into the first release');
  assert.match(readme, /^sh deploy\.sh deploy \/path\/to\/checkout$/m);
  assert.match(readme, /^sh deploy\.sh rollback$/m);
  assert.doesNotMatch(readme, /put it back in place/, 'rollback is a command, not prose');
  assert.doesNotMatch(readme, /^cd \/var\/www\/app\n[\s\S]*?bundle install$/m, 'no bundle install under the running app');
  assert.match(file(r, 'CHECKLIST.md'), /^- \[ \] Deploy as README step 7 says: with the bundle's deploy\.sh where it has one \(it builds and checks a release, switches current and runs passenger-config restart-app/m);
});

// m7: the edge nginx appended to the client's own X-Forwarded-For ($proxy_add_x_forwarded_for), so a client could
// put a private address first and Rails (which skips private addresses as proxies) took it for request.ip.
test('m7: the first nginx hop sets X-Forwarded-For from the connection; behind the bundle\'s balancer from real_ip; behind a TLS terminator of the reader\'s own the list is kept', () => {
  const xff = (answers) => [...file(gen(answers), 'etc/nginx/sites-enabled/rails-app.conf').matchAll(/^\s*proxy_set_header X-Forwarded-For (\S+);$/gm)].map((m) => m[1]);
  const edge = xff({});
  assert.ok(edge.length >= 1);
  assert.deepEqual([...new Set(edge)], ['$remote_addr'], 'every proxied location of the edge');
  const lb = gen(SETS.sidekiq);
  const site = file(lb, 'etc/nginx/sites-enabled/rails-app.conf');
  assert.match(site, /^\s*set_real_ip_from 10\.0\.0\.10;$/m, 'behind the balancer $remote_addr is the client real_ip found');
  assert.deepEqual([...new Set(xff(SETS.sidekiq))], ['$remote_addr']);
  assert.deepEqual([...new Set(xff({ tls: 'upstream' }))], ['$proxy_add_x_forwarded_for'], 'TLS ends in front of this nginx: its list is kept');
  assert.match(file(gen({}), 'etc/nginx/sites-enabled/rails-app.conf').replace(/\n\s*# /g, ' '), /a client’s own X-Forwarded-For is dropped/, 'the reason is in the file');
});

// m5: CHECKLIST told the reader to deploy with `systemctl reload rails-app` and to keep a previous release by hand,
// and to set up log rotation the bundle already ships.
test('m5: CHECKLIST deploys and rolls back with deploy.sh and points at the bundle\'s logrotate file', () => {
  const r = gen(SETS.single);
  const list = file(r, 'CHECKLIST.md');
  assert.doesNotMatch(list, /Deploy with `systemctl reload rails-app`/);
  assert.match(list, /^- \[ \] Deploy as README step 7 says: with the bundle's deploy\.sh \(`sh deploy\.sh deploy SOURCE_DIR`\)/m);
  assert.match(list, /^- \[ \] Try `sh deploy\.sh rollback` once before you need it/m);
  assert.match(file(r, 'deploy.sh'), /^  rollback\) lock; rollback ;;$/m, 'deploy.sh has the rollback it names');
  assert.match(list, /etc\/logrotate\.d\/rails-app on Linux \(daily, 14 kept, copytruncate\)/);
  const rotate = file(r, 'etc/logrotate.d/rails-app');
  for (const word of ['daily', 'rotate 14', 'copytruncate']) assert.match(rotate, new RegExp(`^\\s+${word}$`, 'm'), `the file does what CHECKLIST says: ${word}`);
});
