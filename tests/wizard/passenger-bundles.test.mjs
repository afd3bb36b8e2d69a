// Passenger bundles as the SRE trial (issue 24, item 7) found them wanting, one rule per defect: the README installs
// Passenger from the family's table (Debian's packages; Phusion's repository on RHEL, named as such), Standalone runs
// the distribution's passenger with an engine the distribution ships and the `current` link rather than the release
// getcwd resolves, the pool is counted from cores and memory with every factor in its reason, and Apache's Action
// Cable group has a process of its own. tests/wizard/lab-passenger-bundle.test.mjs boots both modes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';
import { readmeSteps } from '../helpers/readme.mjs';
import { spawnSync } from 'node:child_process';
import { requireTool } from './validators.mjs';

const DATE = '2026-11-25';
const gen = (answers) => generate({ domain: 'app.test', server: 'passenger', ...answers }, { date: DATE });
const file = (b, path) => b.files.find((f) => f.path === path)?.content;
const step = (b, n) => (readmeSteps(file(b, 'README.md')).get(n) || []).join('\n');

test('README step 1 installs Passenger from the family\'s table: Debian\'s packages, Phusion\'s repository on RHEL', () => {
  assert.match(step(gen({}), 1), /^command -v passenger >\/dev\/null \|\| apt-get install -y passenger$/m);
  assert.match(step(gen({ proxy: 'apache' }), 1), /^test -e \/usr\/lib\/apache2\/modules\/mod_passenger\.so >\/dev\/null \|\| apt-get install -y libapache2-mod-passenger$/m);
  assert.doesNotMatch(step(gen({ proxy: 'apache' }), 1), /apt-get install -y passenger$/m, 'the module package pulls in passenger itself');
  const rhel = step(gen({ distro: 'rocky-9' }), 1).split('\n');
  const repo = rhel.findIndex((l) => l.includes('/etc/yum.repos.d/passenger.repo') && l.includes('oss-binaries.phusionpassenger.com'));
  const epel = rhel.findIndex((l) => l.includes('dnf install -y epel-release'));
  const install = rhel.findIndex((l) => /dnf install -y passenger$/.test(l));
  assert.ok(epel >= 0 && repo > epel && install > repo, `EPEL, then Phusion's repository, then the package:\n${rhel.join('\n')}`);
  assert.match(step(gen({ distro: 'rocky-9', proxy: 'apache' }), 1), /dnf install -y mod_passenger$/m);
  // Other servers install no Passenger.
  assert.doesNotMatch(step(generate({ domain: 'app.test' }, { date: DATE }), 1), /passenger/);
});

test('Standalone: the distribution\'s passenger, the builtin engine, the current link, files the sandbox allows', () => {
  const unit = file(gen({}), 'etc/systemd/system/rails-app.service');
  const start = /^ExecStart=(.*)$/m.exec(unit)[1];
  assert.match(start, /^\/usr\/bin\/passenger start \/var\/www\/app\/current --engine builtin --ruby \/usr\/bin\/ruby /);
  assert.match(start, / --pid-file \/var\/www\/app\/tmp\/pids\/passenger\.pid --log-file \/var\/www\/app\/log\/passenger\.log /);
  // The instance registry outside the unit's private /tmp, where passenger-status looks, created by the unit.
  assert.match(start, / --instance-registry-dir \/run\/passenger-instreg$/);
  assert.match(unit, /^RuntimeDirectory=passenger-instreg$/m);
  const rw = /^ReadWritePaths=(.*)$/m.exec(unit)[1].split(' ');
  for (const f of ['/var/www/app/tmp/pids/passenger.pid', '/var/www/app/log/passenger.log']) assert.ok(rw.some((d) => f.startsWith(`${d}/`)), `${f} is writable under ProtectSystem=strict`);
  assert.doesNotMatch(start, /\/dev\/stdout/, 'the journal\'s socket cannot be reopened by path');
  assert.match(unit, /^ExecReload=\/usr\/bin\/passenger-config restart-app \/var\/www\/app --ignore-app-not-running$/m);
  // Passenger 4 has no builtin engine: not emitted there.
  assert.doesNotMatch(file(gen({ server_version: '4.0' }), 'etc/systemd/system/rails-app.service'), /--engine/);
  // FreeBSD has no command table: the Gemfile's passenger, in its rc.d script.
  assert.match(file(gen({ os: 'freebsd' }), 'usr/local/etc/rc.d/rails_app'), /exec \/usr\/local\/bin\/bundle exec passenger start --engine builtin /);
});

test('the pool is counted from cores and memory, its reason shows every factor, and Action Cable\'s group gets a process', () => {
  for (const [answers, pool] of [[{ ram_gb: 16, cores: 2 }, 3], [{ ram_gb: 16, cores: 4, workload: 'io' }, 8], [{ ram_gb: 8, cores: 8 }, null]]) {
    const b = gen({ proxy: 'apache', ...answers });
    const site = file(b, 'etc/apache2/sites-available/rails-app.conf');
    const n = Number(/^PassengerMaxPoolSize (\d+)$/m.exec(site)[1]);
    if (pool) assert.equal(n, pool, JSON.stringify(answers));
    assert.equal(n, b.model.processes, 'the README\'s process count');
    const why = site.split('\n').filter((l) => l.startsWith('#')).join(' ').replace(/#\s*/g, '');
    assert.match(why, new RegExp(`At most ${n} application processes`));
    assert.match(why, new RegExp(`(\\d+) by the cores \\(${answers.cores} × (1\\.5|2|1) for this workload\\), (\\d+) by the memory budget`));
  }
  // 4 GB, 2 cores: with smart spawning the preloader's copy counts once (memory-budget.mjs), two app processes fit.
  const small = gen({ proxy: 'apache', ram_gb: 4, cores: 2 });
  assert.match(file(small, 'etc/apache2/sites-available/rails-app.conf'), /^PassengerMaxPoolSize 2$/m);
  assert.match(file(small, 'etc/apache2/sites-available/rails-app.conf'), /^ {4}PassengerMinInstances 1$/m);
  assert.ok(!small.warnings.some((w) => /exceeds the host's RAM/.test(w.message)), 'two processes fit 4 GB');
  // 2 GB: one process would fit, but Action Cable's group needs its own: the pool stays 2 and the budget says it is over.
  const tiny = gen({ proxy: 'apache', ram_gb: 2, cores: 2 });
  assert.match(file(tiny, 'etc/apache2/sites-available/rails-app.conf'), /^PassengerMaxPoolSize 2$/m);
  assert.ok(tiny.warnings.some((w) => /exceeds the host's RAM/.test(w.message)), 'the over-budget host is reported, not hidden');
  const noCable = gen({ proxy: 'apache', ram_gb: 2, cores: 2, websockets: false });
  assert.match(file(noCable, 'etc/apache2/sites-available/rails-app.conf'), /^PassengerMaxPoolSize 1$/m);
  // Standalone has one group: the same count as Unicorn's.
  const unicorn = generate({ domain: 'app.test', server: 'unicorn', ram_gb: 16 }, { date: DATE });
  assert.match(file(gen({ ram_gb: 16 }), 'etc/systemd/system/rails-app.service'), new RegExp(`--max-pool-size ${unicorn.model.processes} `));
});

test('inside Apache: secrets and Ruby settings through a PassengerRuby wrapper (not Apache\'s environment), a restart, a jobs unit, passenger-config to deploy', () => {
  const b = gen({ proxy: 'apache' });
  const dropIn = file(b, 'etc/systemd/system/apache2.service.d/rails-app.conf');
  assert.match(dropIn, /^LimitNOFILE=65536$/m);
  assert.doesNotMatch(dropIn, /^EnvironmentFile=/m, 'no secrets in Apache\'s environment (every Apache child would see them)');
  assert.doesNotMatch(file(b, 'etc/apache2/sites-available/rails-app.conf'), /^\s*SetEnv (RAILS_MASTER_KEY|DATABASE_PASSWORD)/m);
  assert.match(file(b, 'etc/apache2/sites-available/rails-app.conf'), /^\s*PassengerRuby \/etc\/rails-app\/passenger-ruby$/m);
  const wrapper = file(b, 'etc/rails-app/passenger-ruby');
  assert.match(wrapper, /^set -a\n(?:#.*\n)?\. \/var\/www\/app\/current\/config\/ruby\.env\n(?:#.*\n)?\. \/etc\/rails-app\/secrets\.env\nset \+a\nexec \/usr\/bin\/ruby "\$@"$/m);
  // README step 2: the wrapper installed executable; the secrets readable by the app's group (the wrapper runs as it).
  assert.match(step(b, 2), /^install -d -m 0750 -g deploy \/etc\/rails-app$/m);
  assert.match(step(b, 2), /^chown root:deploy \/etc\/rails-app\/secrets\.env && chmod 0640 \/etc\/rails-app\/secrets\.env$/m);
  assert.match(step(b, 2), /^install -m 0755 etc\/rails-app\/passenger-ruby \/etc\/rails-app\/passenger-ruby$/m);
  assert.doesNotMatch(step(b, 3), /passenger-ruby/, 'not again as a 0644 file');
  assert.match(file(b, 'README.md'), /^\| etc\/rails-app\/secrets\.env \| Install as \/etc\/rails-app\/secrets\.env, owner root, group deploy, mode 0640 /m);
  // The wrapper is POSIX sh that ShellCheck and dash accept.
  const lint = spawnSync(requireTool('shellcheck', 'shellcheck'), ['-s', 'sh', '-'], { input: wrapper, encoding: 'utf8', timeout: 60000 });
  assert.equal(lint.status, 0, lint.stdout);
  assert.equal(spawnSync('dash', ['-n'], { input: wrapper, encoding: 'utf8', timeout: 10000 }).status, 0);
  // Passenger 3 has no per-app PassengerRuby: Apache's environment, as before.
  const old = file(gen({ proxy: 'apache', server_version: '3.0' }), 'etc/systemd/system/apache2.service.d/rails-app.conf');
  assert.match(old, /^EnvironmentFile=\/etc\/rails-app\/secrets\.env$/m);
  assert.ok(file(b, 'etc/rails-app/secrets.env'), 'the secrets template');
  assert.ok(file(b, 'etc/systemd/system/rails-jobs.service'), 'Solid Queue runs in its own unit');
  assert.doesNotMatch(file(b, 'etc/systemd/system/rails-jobs.service'), /PartOf=rails-app/, 'no unit of that name here');
  assert.equal(file(b, 'etc/systemd/system/rails-app.service'), undefined, 'Apache runs the app');
  assert.match(step(b, 6), /^apache2ctl configtest && systemctl restart apache2$/m);
  assert.match(step(b, 6), /^a2enmod passenger /m);
  // Releases like every other server (SRE check 5, D8): deploy.sh switches current and restarts with passenger-config.
  assert.match(step(b, 7), /^sh deploy\.sh deploy /m);
  assert.match(file(b, 'deploy.sh'), /^restart_app\(\) \{ \/usr\/bin\/passenger-config restart-app \/var\/www\/app --ignore-app-not-running && systemctl restart rails-jobs\.service; \}$/m);
  assert.doesNotMatch(file(b, 'README.md'), /systemctl reload rails-app/);
  // RHEL: httpd's drop-in.
  assert.ok(file(gen({ proxy: 'apache', distro: 'rocky-9' }), 'etc/systemd/system/httpd.service.d/rails-app.conf'));
});

test('Standalone with Action Cable is warned about: each WebSocket holds one of its single-request processes', () => {
  const ids = (answers) => gen(answers).warnings.map((w) => w.id);
  const w = gen({ ram_gb: 16 }).warnings.find((x) => x.id === 'passenger-standalone-cable');
  assert.ok(w, 'warned behind nginx');
  assert.equal(w.severity, 'warning');
  assert.match(w.message, /pool of 3: .* 3 open connection/);
  assert.ok(!ids({ websockets: false }).includes('passenger-standalone-cable'), 'not without WebSockets');
  assert.ok(!ids({ proxy: 'apache' }).includes('passenger-standalone-cable'), 'not inside Apache (its own /cable group)');
  assert.ok(!generate({ domain: 'app.test' }, { date: DATE }).warnings.some((x) => x.id === 'passenger-standalone-cable'), 'not for Puma');
});
