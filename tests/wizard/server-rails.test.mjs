// Which servers the wizard offers for which Rails (issue 24): Mongrel is refused at error level from Rails 5.0
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

// Mongrel (issue 24, capabilities/server-rails.mjs): Rack 2.0 removed Rack::Handler::Mongrel and Rails 5.0 requires
// Rack 2, so from Rails 5.0 on the wizard refuses Mongrel at error level (CLI exit 3) with that reason and its three
// sources; Rails 2.3–4.2 keep their Mongrel bundle with the dead-server warning and a migration path.
test('Mongrel: an error for Rails 5.0 and later (reason and sources from the capability table), its bundle before', () => {
  assert.equal(SERVER_RAILS.mongrel.railsBefore, '5.0');
  const urls = ['https://github.com/rack/rack/commit/2577f0bb09ff85fe6b07d290f708028aebf640ee', 'https://rubygems.org/gems/actionpack/versions/5.0.0/dependencies', 'https://rubygems.org/gems/mongrel/versions'];
  for (const [rails, ruby_version] of [['5.0', '2.3'], ['6.1', '2.7'], ['7.1', '3.2'], ['8.1', '3.4']]) {
    const r = gen({ server: 'mongrel', server_version: '1.1.5', rails, ruby_version });
    const w = r.warnings.find((x) => x.id === 'server-cannot-run-rails');
    assert.equal(w?.severity, 'error', `Rails ${rails}: ${warningIds(r)}`);
    assert.match(w.message, new RegExp(`^Mongrel cannot run Rails ${rails.replace('.', '\\.')}: Rails 5\\.0 and later require Rack 2 .*Rack 2\\.0 removed Rack's Mongrel handler`));
    assert.match(w.suggestion, /Puma/);
    assert.deepEqual(w.evidence.map((e) => e.url), urls);
  }
  for (const [rails, ruby_version] of [['2.3.5', '1.8.7'], ['3.2', '1.9.3'], ['4.2', '2.2']]) {
    const r = gen({ server: 'mongrel', server_version: '1.1.5', rails, ruby_version });
    assert.ok(!warningIds(r).includes('server-cannot-run-rails'), `Rails ${rails}: ${warningIds(r)}`);
    assert.ok(warningIds(r).includes('dead-server-mongrel'));
    assert.ok(file(r, 'config/mongrel_cluster.yml') && file(r, 'migrate-to/config/puma.rb'));
  }
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
