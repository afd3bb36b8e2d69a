// The configuration samples across the articles are one coherent set for one stated stack
// (_data/sample-stack.yml): the wizard's engine generates the bundle for those answers, and
// - the app-servers puma.rb binds, in production, the Unix socket the wizard's puma.rb binds,
// - the reverse-proxies nginx site's upstream is that socket and its root the app's public/,
// - the kernel article's systemd drop-in extends the wizard's unit,
// - the databases article's database.yml, rendered by Ruby's ERB with the variables unset, gives each
//   Puma worker a pool that covers its request threads (puma.rb), the load_async executor threads
//   (concurrency article) and Action Cable's default worker pool (4), and is never smaller than the
//   wizard's own pool.
// samples-lab.test.mjs boots puma.rb and the nginx site together in the lab.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import yaml from 'js-yaml';
import { ROOT, loadPosts } from './lib.mjs';
import { generate } from '../../guide/engine/index.mjs';

const stack = yaml.load(readFileSync(join(ROOT, '_data/sample-stack.yml'), 'utf8'));
const bundle = generate(stack.answers, { date: '2026-11-25' });
const file = (path) => {
  const f = bundle.files.find((x) => x.path === path || x.path.endsWith(path));
  assert.ok(f, `the wizard bundle has no ${path}`);
  return f;
};
const posts = new Map(loadPosts().map((p) => [p.slug, p]));

/** The fenced block of `lang` in a post whose text starts with `first`. */
export function sample(slug, lang, first) {
  const p = posts.get(slug);
  const b = [...p.body.matchAll(/^```(\w+)\n([\s\S]*?)^```[ \t]*$/gm)].filter((m) => m[1] === lang).map((m) => m[2]).find((x) => x.startsWith(first));
  assert.ok(b, `${p.file}: no ${lang} block starting with "${first}"`);
  return b;
}

/** Ruby's ERB + YAML on a database.yml, with the given variables removed from the environment. */
function renderDatabaseYml(text, unset) {
  const env = { ...process.env };
  for (const k of unset) delete env[k];
  const r = spawnSync('ruby', ['-rerb', '-ryaml', '-rjson', '-e', 'puts JSON.generate(YAML.safe_load(ERB.new(STDIN.read).result, aliases: true))'], { input: text, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const socketOf = (puma) => puma.match(/^\s*bind\s+"unix:\/\/([^"]+)"/m)?.[1];
const VARS = ['RAILS_MAX_THREADS', 'ASYNC_QUERY_THREADS', 'CABLE_WORKER_THREADS', 'DATABASE_PASSWORD'];

test('puma.rb and the nginx site meet on the wizard\'s Unix socket', () => {
  const puma = sample('app-servers', 'ruby', '# config/puma.rb for Rails 7.2+');
  const wizardSocket = socketOf(file('config/puma.rb').content);
  assert.ok(wizardSocket, 'the wizard binds a Unix socket for this stack');
  const production = puma.slice(puma.indexOf('== "production"'), puma.indexOf('\nelse'));
  assert.equal(socketOf(production), wizardSocket, 'the article binds the wizard\'s socket in production');
  const site = sample('reverse-proxies', 'nginx', 'upstream app {');
  assert.equal(site.match(/server unix:([^\s;]+)/)?.[1], wizardSocket, 'nginx\'s upstream is the socket Puma binds');
  const wizardSite = file('etc/nginx/sites-enabled/rails-app.conf').content;
  const roots = [...wizardSite.matchAll(/^\s*root\s+([^;]+);/gm)].map((m) => m[1]);
  assert.ok(roots.includes(site.match(/^\s*root\s+([^;]+);/m)?.[1]), `the site's root is one of the wizard's (${roots.join(', ')})`);
  assert.ok(roots.includes(`${stack.answers.app_root}/current/public`), 'the wizard serves the live release\'s public/');
  assert.equal(site.match(/server_name\s+([^;]+);/)?.[1], stack.answers.domain);
});

test('the systemd drop-in extends the wizard\'s unit', () => {
  const dropIn = sample('kernel-network-tuning', 'ini', '# /etc/systemd/system/');
  const unit = dropIn.match(/^# \/etc\/systemd\/system\/([^/]+)\.d\//)?.[1];
  const wizardUnit = bundle.files.map((f) => f.path).find((p) => /systemd\/system\/rails-app\.service$/.test(p));
  assert.ok(wizardUnit, 'the wizard writes a systemd unit for Puma');
  assert.equal(unit, wizardUnit.split('/').pop());
  assert.match(file(wizardUnit).content, /^ExecStart=.*puma -C config\/puma\.rb/m, 'the unit starts Puma with config/puma.rb');
});

test('database.yml gives each worker a connection for every thread that can query', () => {
  const puma = sample('app-servers', 'ruby', '# config/puma.rb for Rails 7.2+');
  const threads = Number(puma.match(/ENV\.fetch\("RAILS_MAX_THREADS", (\d+)\)/)?.[1]);
  const conc = sample('concurrency-models', 'ruby', '# config/application.rb\nconfig.active_record.async_query_executor');
  const asyncThreads = Number(conc.match(/global_executor_concurrency = Integer\(ENV\.fetch\("ASYNC_QUERY_THREADS", (\d+)\)\)/)?.[1]);
  const CABLE_DEFAULT = 4; // ActionCable::Server::Configuration worker_pool_size
  assert.ok(threads > 0 && asyncThreads > 0, 'puma.rb and the executor sample state their defaults');
  const article = renderDatabaseYml(sample('databases-and-drivers', 'yaml', '# config/database.yml'), VARS).production;
  const pool = article.max_connections ?? article.pool;
  assert.ok(pool >= threads + asyncThreads + CABLE_DEFAULT, `pool ${pool} < ${threads} threads + ${asyncThreads} async + ${CABLE_DEFAULT} cable`);
  const wizard = renderDatabaseYml(file('config/database.yml').content, VARS).production;
  const wizardPool = (wizard.primary ?? wizard).max_connections ?? (wizard.primary ?? wizard).pool;
  assert.ok(pool >= wizardPool, `the article's pool ${pool} is below the wizard's ${wizardPool}`);
  assert.equal(Number(file('config/puma.rb').content.match(/RAILS_MAX_THREADS"\)\s*\{\s*(\d+)/)?.[1]), threads, 'same default thread count as the wizard');
});

test('the checks notice a sample that leaves the set', () => {
  assert.equal(socketOf('bind "unix:///srv/other.sock"'), '/srv/other.sock');
  assert.equal(socketOf('port ENV.fetch("PORT", 3000)'), undefined);
  const short = renderDatabaseYml('production:\n  max_connections: <%= Integer(ENV.fetch("RAILS_MAX_THREADS", 3)) %>\n', VARS).production.max_connections;
  assert.equal(short, 3);
});
