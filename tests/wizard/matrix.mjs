// The answer matrix for the validation sweep: every value of every question appears at least once
// (enum options, and representative versions for the free version questions), plus the cross product of
// the main stack choices and a few historical stacks.
import { QUESTIONS, DEFAULTS } from '../../guide/engine/index.mjs';

export const VERSION_VALUES = {
  distro: ['debian-12', 'ubuntu-10.04', 'gentoo', 'centos-5', 'rocky-9', 'alpine-3.20'],
  kernel: ['2.6.26', '2.6.32', '3.10', '4.9', '4.11', '4.19', '5.4', '5.10', '6.1', '6.8'],
  ruby_version: { cruby: ['1.8.7', '1.9.1', '1.9.3', '2.0', '2.1', '2.4', '2.6', '2.7', '3.0', '3.1', '3.2', '3.3.0', '3.3', '3.4', '4.0'], ree: ['1.8.7'], jruby: ['1.7', '9.2', '9.4', '10.0'], truffleruby: ['23.0', '24.0'], rubinius: ['2.5', '3.0'] },
  rails: ['2.3.5', '3.0', '3.2', '4.0', '4.2', '5.0', '5.2', '6.0', '6.1', '7.0', '7.1', '7.2', '8.0', '8.1'],
  server_version: { puma: ['3.12', '4.3', '5.6', '6.4', '7.1', '8.0'], unicorn: ['4.8', '6.1'], pitchfork: ['0.18'], passenger: ['2.2', '3.0', '4.0', '6.0'], thin: ['1.8.2'], falcon: ['0.48'], webrick: ['1.8'], mongrel: ['1.1.5'] },
  proxy_version: { nginx: ['0.7.65', '1.0', '1.2.4', '1.9.5', '1.22', '1.25.1', '1.29.7'], apache: ['2.2', '2.4.6', '2.4.17', '2.4.62'], caddy: ['1.0', '2.6'], thruster: ['0.1'], 'kamal-proxy': ['0.9'], cherokee: ['1.2'], none: ['0'] },
  database_version: { postgresql: ['8.4', '9.6', '12', '15', '17'], mysql: ['5.0', '5.7', '8.0'], mariadb: ['10.3', '10.11'], sqlite: ['3.40'] },
  pooler_version: ['1.18', '1.21', '1.24'],
  app_hosts: [1, 3, 20],
  worker_mb: [0, 300, 4096],
  cores: [1, 2, 8, 64],
  ram_gb: [0.5, 2, 4, 64],
  db_cores: [0, 4, 32],
  db_ram_gb: [0, 16, 256],
  app_addresses: ['auto', '192.168.7.20', '10.1.0.5,10.1.0.9,10.1.0.7'],
  db_address: ['auto', '10.9.0.5'],
  lb_address: ['auto', '10.9.0.2'],
  domain: ['example.com', 'localhost', 'shop.example.org'],
  app_root: ['/var/www/app', '/srv/rails/current'],
  ruby_path: ['/usr/bin', '/home/deploy/.rbenv/versions/3.4.7/bin'],
  deploy_user: ['deploy', 'rails_app'],
  job_processes: [1, 2, 8],
  job_threads: [1, 3, 10],
};

const SAFE_RUBY = { cruby: '3.3', ree: '1.8.7', jruby: '9.4', truffleruby: '24.0', rubinius: '3.0' };
const SAFE_SERVER = { puma: '6.4', unicorn: '6.1', pitchfork: '0.18', passenger: '6.0', thin: '1.8.2', falcon: '0.48', webrick: '1.8', mongrel: '1.1.5' };
const SAFE_PROXY = { nginx: '1.22', apache: '2.4.62', caddy: '2.6', thruster: '0.1', 'kamal-proxy': '0.9', cherokee: '1.2', none: '0' };
const SAFE_DB = { postgresql: '15', mysql: '8.0', mariadb: '10.11', sqlite: '3.40' };
const ADAPTER = { postgresql: 'pg', mysql: 'mysql2', mariadb: 'mysql2', sqlite: 'sqlite3' };

function values(q) {
  if (q.type === 'enum') return q.options.map((o) => o.value);
  if (q.type === 'boolean') return [false, true];
  const v = VERSION_VALUES[q.key];
  if (Array.isArray(v)) return v;
  return [...new Set(Object.values(v).flat())];
}

/** A stack whose versions fit the implementation/server/proxy/database chosen. */
function consistent(a) {
  return {
    ...a,
    ruby_version: a.ruby_version ?? SAFE_RUBY[a.ruby],
    server_version: a.server_version ?? SAFE_SERVER[a.server],
    proxy_version: a.proxy_version ?? SAFE_PROXY[a.proxy],
    database_version: a.database_version ?? SAFE_DB[a.database],
    adapter: a.adapter ?? ADAPTER[a.database],
  };
}

// Historical and present-day stacks (eras of the source research).
export const ERA_STACKS = [
  { os: 'linux', distro: 'gentoo', kernel: '2.6.32', ruby: 'ree', ruby_version: '1.8.7', rails: '2.3.5', server: 'passenger', server_version: '2.2', proxy: 'apache', proxy_version: '2.2', database: 'mysql', database_version: '5.0', adapter: 'mysql', storage: 'hdd', init: 'other', cores: 2, ram_gb: 4 },
  { os: 'linux', distro: 'debian-5', kernel: '2.6.26', ruby: 'cruby', ruby_version: '1.9.1', rails: '2.3.5', server: 'thin', server_version: '1.2', proxy: 'nginx', proxy_version: '0.7.65', database: 'mysql', database_version: '5.0', adapter: 'mysql', storage: 'hdd', init: 'other', downloads: true },
  { os: 'linux', kernel: '2.6.32', ruby: 'cruby', ruby_version: '1.8.7', rails: '2.3.5', server: 'mongrel', server_version: '1.1.5', proxy: 'cherokee', proxy_version: '1.2', database: 'mysql', database_version: '5.0', adapter: 'mysql', storage: 'hdd', init: 'other' },
  { os: 'linux', kernel: '3.2', ruby: 'cruby', ruby_version: '1.9.3', rails: '3.2', server: 'unicorn', server_version: '4.8', proxy: 'nginx', proxy_version: '1.2.4', database: 'postgresql', database_version: '9.1', adapter: 'pg', init: 'other', downloads: true },
  { os: 'linux', kernel: '3.10', ruby: 'cruby', ruby_version: '2.2', rails: '4.2', server: 'puma', server_version: '3.12', proxy: 'nginx', proxy_version: '1.10', database: 'postgresql', database_version: '9.6', adapter: 'pg', cores: 8, ram_gb: 16, workload: 'io' },
  { os: 'linux', kernel: '4.19', ruby: 'cruby', ruby_version: '2.6', rails: '6.0', server: 'puma', server_version: '4.3', proxy: 'apache', proxy_version: '2.4.38', database: 'mysql', database_version: '5.7', adapter: 'mysql2', app_hosts: 11, cores: 8, ram_gb: 32 },
  { os: 'linux', kernel: '5.10', ruby: 'cruby', ruby_version: '3.2', rails: '7.1', server: 'pitchfork', server_version: '0.18', proxy: 'nginx', proxy_version: '1.22', database: 'mariadb', database_version: '10.11', adapter: 'trilogy', cores: 16, ram_gb: 64 },
  { os: 'linux', kernel: '6.8', ruby: 'cruby', ruby_version: '3.4', rails: '8.1', server: 'puma', server_version: '8.0', proxy: 'caddy', proxy_version: '2.6', database: 'sqlite', database_version: '3.45', adapter: 'sqlite3', cores: 4, ram_gb: 8 },
  { os: 'linux', kernel: '6.1', arch: 'arm64', ruby: 'cruby', ruby_version: '3.3', rails: '7.2', server: 'falcon', server_version: '0.48', proxy: 'nginx', proxy_version: '1.29.7', database: 'postgresql', database_version: '17', adapter: 'pg', pooler: 'pgbouncer', pooler_version: '1.24', app_hosts: 6, cores: 32, ram_gb: 64, db_host: 'separate', storage: 'nvme' },
  { os: 'linux', kernel: '6.8', ruby: 'cruby', ruby_version: '3.4', rails: '8.1', server: 'puma', server_version: '8.0', proxy: 'nginx', proxy_version: '1.26', database: 'postgresql', database_version: '18', adapter: 'pg', pooler: 'pgbouncer', pooler_version: '1.24', app_hosts: 2, db_host: 'separate', db_cores: 16, db_ram_gb: 64, lb: 'nginx', cores: 4, ram_gb: 8 },
  { os: 'linux', kernel: '6.8', ruby: 'cruby', ruby_version: '3.4', rails: '8.1', server: 'puma', server_version: '8.0', proxy: 'nginx', database: 'mysql', database_version: '8.4', adapter: 'trilogy', app_hosts: 4, db_host: 'separate', db_cores: 8, db_ram_gb: 32, lb: 'haproxy', cores: 4, ram_gb: 8 },
  { os: 'linux', kernel: '6.8', ruby: 'cruby', ruby_version: '3.4', rails: '8.1', server: 'puma', server_version: '8.0', proxy: 'nginx', database: 'mariadb', database_version: '11.8', adapter: 'mysql2', app_hosts: 3, db_host: 'same', lb: 'cloud', cores: 4, ram_gb: 8 },
  { os: 'linux', kernel: '6.1', ruby: 'jruby', ruby_version: '10.0', rails: '8.0', server: 'puma', server_version: '7.1', proxy: 'nginx', database: 'postgresql', adapter: 'jdbc', cores: 8, ram_gb: 16 },
];

export function buildMatrix() {
  const out = [];
  const seen = new Set();
  const add = (a) => {
    const full = consistent({ ...DEFAULTS, ruby_version: undefined, server_version: undefined, proxy_version: undefined, database_version: undefined, adapter: undefined, ...a });
    // Rails < 4 needs on_worker_boot, which Puma ≥ 7 spells differently; such a stack cannot exist (Rails 3 does not run on Ruby 3).
    const key = JSON.stringify(full);
    if (!seen.has(key)) { seen.add(key); out.push(full); }
  };
  // 1. Every value of every question, one at a time on top of the defaults (versions matched to their product).
  for (const q of QUESTIONS) {
    for (const v of values(q)) {
      if (q.key === 'ruby_version') for (const [ruby, vs] of Object.entries(VERSION_VALUES.ruby_version)) { if (vs.includes(v)) add({ ruby, ruby_version: v, rails: ruby === 'cruby' && v < '2.7' ? '4.2' : DEFAULTS.rails }); }
      else if (q.key === 'server_version') for (const [server, vs] of Object.entries(VERSION_VALUES.server_version)) { if (vs.includes(v)) add({ server, server_version: v }); }
      else if (q.key === 'proxy_version') for (const [proxy, vs] of Object.entries(VERSION_VALUES.proxy_version)) { if (vs.includes(v)) add({ proxy, proxy_version: v }); }
      else if (q.key === 'database_version') for (const [database, vs] of Object.entries(VERSION_VALUES.database_version)) { if (vs.includes(v)) add({ database, database_version: v }); }
      else if (q.key === 'adapter') add({ adapter: v }); // mismatches are substituted (with a warning)
      else if (q.key === 'pooler_version') add({ pooler: 'pgbouncer', pooler_version: v });
      else if (q.key === 'app_addresses' && v.includes(',')) add({ app_addresses: v, app_hosts: 3, db_host: 'separate' });
      else if (['db_cores', 'db_ram_gb', 'db_address'].includes(q.key)) add({ [q.key]: v, db_host: 'separate', app_hosts: 2, lb: 'haproxy' });
      else add({ [q.key]: v });
    }
  }
  // 2. Cross product of the main choices.
  for (const ruby of ['cruby', 'ree', 'jruby', 'truffleruby', 'rubinius']) {
    for (const server of ['puma', 'unicorn', 'pitchfork', 'passenger', 'thin', 'falcon', 'webrick', 'mongrel']) {
      for (const proxy of ['nginx', 'apache', 'caddy', 'cherokee', 'none']) {
        for (const database of ['postgresql', 'mysql', 'mariadb', 'sqlite']) {
          add({ ruby, server, proxy, database, rails: ruby === 'ree' ? '2.3.5' : DEFAULTS.rails, downloads: (server.length + proxy.length) % 2 === 0, cores: 1 + ((server.length * 3 + database.length) % 8) });
        }
      }
    }
  }
  // 3. Rails versions × servers (API spelling and hooks), kernels × storage (schedulers).
  for (const rails of VERSION_VALUES.rails) for (const server of ['puma', 'unicorn', 'passenger']) add({ rails, server, ruby_version: rails < '4' ? '1.9.3' : rails < '5' ? '2.2' : rails < '7' ? '2.7' : '3.3', server_version: server === 'puma' && rails < '4' ? '3.12' : undefined, proxy: server === 'passenger' ? 'apache' : 'nginx' });
  for (const kernel of VERSION_VALUES.kernel) for (const storage of ['hdd', 'ssd', 'nvme']) add({ kernel, storage });
  for (const v of VERSION_VALUES.pooler_version) for (const rails of ['4.2', '7.2']) add({ pooler: 'pgbouncer', pooler_version: v, rails });
  // 4. Load balancers in front of several app hosts, with TLS at the balancer or none.
  for (const lb of ['nginx', 'haproxy']) for (const tls of ['proxy', 'none']) add({ app_hosts: 3, lb, tls, db_host: 'separate', rails: lb === 'nginx' ? '7.0' : DEFAULTS.rails });
  add({ app_hosts: 2, lb: 'haproxy', proxy: 'apache', proxy_version: '2.4.62', tls: 'none', db_host: 'separate' });
  for (const s of ERA_STACKS) add(s);
  return out;
}
