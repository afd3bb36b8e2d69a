// Passenger inside Apache (integrated mode: no upstream, the app runs under mod_passenger), checked against
// Passenger's own option table (src/ruby_supportlib/phusion_passenger/apache2/config_options.rb: which options are
// :global, which per application) and its guides. One rule per point the review found:
// - PassengerPreStart, because PassengerMinInstances starts nothing by itself; both it and PassengerMaxPoolSize
//   are global options, so they stand outside every VirtualHost;
// - PassengerRuby: the answered Ruby, not Passenger's default one;
// - PassengerUser/PassengerGroup: the deploy user, not the owner of config.ru;
// - Action Cable in its own process group with unlimited concurrent requests per process, and one process of the
//   pool left for it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';

const BASE = { server: 'passenger', server_version: '6.0', proxy: 'apache', proxy_version: '2.4.62', domain: 'app.test', jobs: 'none', ruby_path: '/home/deploy/.rbenv/versions/3.4.7/bin', deploy_user: 'deploy' };

/** Directives of the Apache site with the sections they stand in: [{name, args, path: ['VirtualHost *:443', …]}]. */
function directives(answers) {
  const b = generate({ ...BASE, ...answers }, { date: '2026-11-25' });
  const text = b.files.find((f) => f.path === 'etc/apache2/sites-available/rails-app.conf').content;
  const out = [];
  const stack = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const close = /^<\/(\w+)>$/.exec(line);
    if (close) { assert.equal(stack.pop()?.split(' ')[0], close[1], `balanced </${close[1]}>`); continue; }
    const open = /^<(\w+)\s*(.*)>$/.exec(line);
    if (open) { stack.push(`${open[1]} ${open[2]}`.trim()); continue; }
    const [name, ...args] = line.split(/\s+/);
    out.push({ name, args: args.join(' '), path: [...stack] });
  }
  assert.deepEqual(stack, [], 'every section closed');
  return out;
}
const find = (ds, name) => ds.filter((d) => d.name === name);

test('Passenger in Apache: global options outside every VirtualHost, PassengerPreStart with PassengerMinInstances', () => {
  for (const tls of ['proxy', 'none']) {
    const ds = directives({ tls });
    for (const g of ['PassengerMaxPoolSize', 'PassengerPreStart']) {
      assert.equal(find(ds, g).length, 1, `${g} once`);
      assert.deepEqual(find(ds, g)[0].path, [], `${g} is a global option (server config)`);
    }
    assert.equal(find(ds, 'PassengerPreStart')[0].args, `${tls === 'proxy' ? 'https' : 'http'}://app.test/`, 'pre-starts the site the vhost serves');
    const min = find(ds, 'PassengerMinInstances');
    assert.equal(min.length, 1);
    assert.match(min[0].path[0], /^VirtualHost/, 'PassengerMinInstances per application');
    assert.ok(Number(min[0].args) <= Number(find(ds, 'PassengerMaxPoolSize')[0].args));
  }
  // Passenger 2.x had no PassengerPreStart: not emitted there.
  assert.equal(find(directives({ server_version: '2.2' }), 'PassengerPreStart').length, 0);
});

test('Passenger in Apache: the answered Ruby and user run the app', () => {
  const ds = directives({});
  const vh = (n) => find(ds, n).filter((d) => /^VirtualHost/.test(d.path[0]));
  // PassengerRuby is the wrapper that gives the app its secrets (not Apache's environment); it execs the answered Ruby.
  const wrapperExec = (answers) => /^exec (.+) "\$@"$/m.exec(generate({ ...BASE, ...answers }, { date: '2026-11-25' }).files.find((f) => f.path === 'etc/rails-app/passenger-ruby').content)[1];
  assert.deepEqual(vh('PassengerRuby').map((d) => d.args), ['/etc/rails-app/passenger-ruby']);
  assert.equal(wrapperExec({}), '/home/deploy/.rbenv/versions/3.4.7/bin/ruby');
  assert.deepEqual(vh('PassengerUser').map((d) => d.args), ['deploy']);
  assert.deepEqual(vh('PassengerGroup').map((d) => d.args), ['deploy']);
  const other = directives({ deploy_user: 'rails', ruby_path: '/usr/local/bin' });
  assert.deepEqual(find(other, 'PassengerRuby').map((d) => d.args), ['/etc/rails-app/passenger-ruby']);
  assert.equal(wrapperExec({ deploy_user: 'rails', ruby_path: '/usr/local/bin' }), '/usr/local/bin/ruby');
  assert.deepEqual(find(other, 'PassengerUser').map((d) => d.args), ['rails']);
  // PassengerRuby per application only from 4.0 (server-wide before): not emitted in a 3.0 vhost.
  assert.equal(find(directives({ server_version: '3.0' }), 'PassengerRuby').length, 0);
});

test('Passenger in Apache: Action Cable in its own group with unlimited concurrency; none without WebSockets', () => {
  for (const cores of [2, 8]) {
    const ds = directives({ websockets: true, cores, ram_gb: 16 });
    const group = find(ds, 'PassengerAppGroupName');
    assert.equal(group.length, 1);
    assert.deepEqual(group[0].path.slice(-1), ['Location /cable']);
    const force = find(ds, 'PassengerForceMaxConcurrentRequestsPerProcess');
    assert.deepEqual(force.map((d) => [d.args, d.path.at(-1)]), [['0', 'Location /cable']]);
    const pool = Number(find(ds, 'PassengerMaxPoolSize')[0].args);
    assert.ok(Number(find(ds, 'PassengerMinInstances')[0].args) <= pool - 1, `one of ${pool} processes left for Action Cable's group`);
  }
  const none = directives({ websockets: false });
  assert.equal(find(none, 'PassengerAppGroupName').length, 0);
  assert.equal(find(none, 'PassengerForceMaxConcurrentRequestsPerProcess').length, 0);
  assert.equal(find(directives({ websockets: true, server_version: '5.0.30' }), 'PassengerForceMaxConcurrentRequestsPerProcess').length, 0, 'only where the option table was checked (6.0)');
});
