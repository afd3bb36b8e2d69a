// Which servers the wizard offers for which Rails (issue 24): Mongrel is refused at error level from Rails 3.0
// (capabilities/server-rails.mjs), WEBrick's unit names the server and its warning asks for the gem.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { generate, DEFAULTS } from '../../guide/engine/index.mjs';
import { SERVER_RAILS } from '../../guide/engine/capabilities/server-rails.mjs';

const gen = (over) => generate({ ...DEFAULTS, ...over }, { date: '2026-01-01' });
const file = (r, path) => r.files.find((f) => f.path === path)?.content;
const warningIds = (r) => r.warnings.map((w) => w.id);

// Mongrel (issue 24, capabilities/server-rails.mjs): the bundle's mongrel_cluster runs mongrel_rails, whose Rails
// handler needs Rails 2's dispatcher (gone in 3.0: evan/mongrel#9), and Rack 2.0 (required from Rails 5.0) removed
// Rack's Mongrel handler; so Rails 3.0 and later are refused at error level (CLI exit 3) with the reason of their
// range and its sources. Mongrel 1.1.5 builds only on Ruby 1.8 (evan/mongrel#26): another error. Rails 2.3 on Ruby
// 1.8.7 keeps its bundle, with the dead-server warning, a migration path and a unit systemd can follow.
test('Mongrel: an error from Rails 3.0 (reason per range, from the capability table) and on Ruby 1.9+; its bundle for Rails 2.3', () => {
  assert.equal(SERVER_RAILS.mongrel.railsBefore, '3.0');
  const rack2 = ['https://github.com/rack/rack/commit/2577f0bb09ff85fe6b07d290f708028aebf640ee', 'https://rubygems.org/gems/actionpack/versions/5.0.0/dependencies', 'https://rubygems.org/gems/mongrel/versions'];
  const dispatcher = ['https://github.com/evan/mongrel/issues/9', 'https://rubygems.org/gems/mongrel/versions'];
  for (const [rails, ruby_version, why, urls] of [['3.2', '1.9.3', /mongrel_rails, whose Rails handler loads the dispatcher of Rails 2, which Rails 3\.0 removed/, dispatcher],
    ['4.2', '2.2', /dispatcher of Rails 2/, dispatcher], ['5.0', '2.3', /Rails 5\.0 and later require Rack 2 .*Rack 2\.0 removed Rack's Mongrel handler/, rack2],
    ['6.1', '2.7', /Rack 2\.0 removed/, rack2], ['8.1', '3.4', /Rack 2\.0 removed/, rack2]]) {
    const r = gen({ server: 'mongrel', server_version: '1.1.5', rails, ruby_version });
    const w = r.warnings.find((x) => x.id === 'server-cannot-run-rails');
    assert.equal(w?.severity, 'error', `Rails ${rails}: ${warningIds(r)}`);
    assert.match(w.message, new RegExp(`^Mongrel cannot run Rails ${rails.replace('.', '\\.')}: `));
    assert.match(w.message, why);
    assert.match(w.suggestion, /Puma.*Mongrel bundles are generated for Rails before 3\.0 only/);
    assert.deepEqual(w.evidence.map((e) => e.url), urls);
  }
  // Ruby: 1.1.5 on 1.9 or later is an error naming the build failure; the prerelease 1.2 is not refused for it.
  const ruby19 = gen({ server: 'mongrel', server_version: '1.1.5', rails: '2.3.5', ruby_version: '1.9.3' });
  const w = ruby19.warnings.find((x) => x.id === 'server-needs-older-ruby');
  assert.equal(w?.severity, 'error', warningIds(ruby19));
  assert.match(w.message, /^Mongrel 1\.1\.5 does not build on Ruby 1\.9\.3: .*fails to compile on Ruby 1\.9 and later/);
  assert.deepEqual(w.evidence.map((e) => e.url), ['https://github.com/evan/mongrel/issues/26', 'https://rubygems.org/gems/mongrel/versions']);
  assert.ok(!warningIds(gen({ server: 'mongrel', server_version: '1.2', rails: '2.3.5', ruby_version: '1.9.3' })).includes('server-needs-older-ruby'));
  const r = gen({ server: 'mongrel', server_version: '1.1.5', rails: '2.3.5', ruby_version: '1.8.7' });
  assert.deepEqual(r.warnings.filter((x) => x.severity === 'error').map((x) => x.id), []);
  assert.ok(warningIds(r).includes('dead-server-mongrel'));
  assert.ok(file(r, 'config/mongrel_cluster.yml') && file(r, 'migrate-to/config/puma.rb'));
  // The unit: mongrel_cluster daemonizes every member and exits, so systemd follows the first member's PID file
  // (mongrel_cluster inserts the port: mongrel.pid → mongrel.8000.pid) and stops every member of the cgroup.
  const unit = file(r, 'etc/systemd/system/rails-app.service');
  assert.match(unit, /^Type=forking$/m);
  assert.match(unit, /^PIDFile=\/var\/www\/app\/tmp\/pids\/mongrel\.8000\.pid$/m);
  assert.match(file(r, 'config/mongrel_cluster.yml'), /^port: "?8000"?$/m);
  assert.match(file(r, 'config/mongrel_cluster.yml'), /^pid_file: tmp\/pids\/mongrel\.pid$/m);
  assert.match(unit, /^KillMode=control-group$/m);
  // Through Bundler: README and deploy.sh install the gems into the bundle path, not the system's gems.
  assert.match(unit, /^ExecStart=\/usr\/bin\/bundle exec mongrel_rails cluster::start -C config\/mongrel_cluster\.yml --clean$/m);
  // Step 9: the members write the app's output to their own files, not to journald.
  assert.match(file(r, 'README.md'), /Mongrel writes the app's output .* to its own files, \/var\/www\/app\/log\/mongrel\.PORT\.log/);
  // No other server is refused for any Rails the sweep uses.
  for (const server of ['puma', 'unicorn', 'pitchfork', 'passenger', 'thin', 'falcon', 'webrick']) {
    for (const rails of ['4.2', '8.1']) assert.ok(!warningIds(gen({ server, rails, ruby_version: rails === '4.2' ? '2.2' : '3.4' })).includes('server-cannot-run-rails'), `${server} ${rails}`);
  }
  // The CLI: exit 3 naming the finding (the bundle is still printed with --allow-errors).
  const dir = mkdtempSync(join(tmpdir(), 'mongrel-'));
  try {
    const f = join(dir, 'a.json');
    writeFileSync(f, JSON.stringify({ server: 'mongrel', server_version: '1.1.5', rails: '8.1' }));
    const run = (extra) => spawnSync(process.execPath, [new URL('../../guide/cli.mjs', import.meta.url).pathname, '--answers', f, '--format', 'json', '--date', '2026-01-01', ...extra], { encoding: 'utf8', timeout: 30000 });
    const strict = run([]);
    assert.equal(strict.status, 3, strict.stderr);
    assert.match(strict.stderr, /error \[server-cannot-run-rails\]: Mongrel cannot run Rails 8\.1/);
    assert.equal(run(['--allow-errors']).status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// WEBrick (issue 24): the unit names the server (Rails picks Puma before WEBrick when both load), with the option
// the Rails version has; from Ruby 3.0 on the warning says the Gemfile needs the gem.
test('WEBrick: the unit names the server per Rails version; the Gemfile line from Ruby 3.0', () => {
  const exec = (r) => /^ExecStart=(.*)$/m.exec(file(r, 'etc/systemd/system/rails-app.service'))[1];
  assert.match(exec(gen({ server: 'webrick', server_version: '1.9' })), / bin\/rails server -u webrick -e production -b \S+ -p \d+$/);
  assert.match(exec(gen({ server: 'webrick', server_version: '1.9', rails: '5.2', ruby_version: '2.5' })), / bin\/rails server webrick -e production /);
  const modern = gen({ server: 'webrick', server_version: '1.9' }).warnings.find((w) => w.id === 'webrick-in-production');
  assert.match(modern.message, /Ruby 3\.\d has no WEBrick of its own.*`gem "webrick"`/);
  assert.match(modern.message, /systemctl restart rails-app/);
  const old = gen({ server: 'webrick', server_version: '1.8', rails: '5.2', ruby_version: '2.5' }).warnings.find((w) => w.id === 'webrick-in-production');
  assert.doesNotMatch(old.message, /gem "webrick"/);
});
