// Topology (issue 11): PGTune parity over a grid, bounds of every derived limit, impossible layouts as errors
// (CLI exit 3), database-host access files. Engine-only except two postgres -C runs on the extremes.
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../../guide/engine/index.mjs';
import { pgtune } from '../../guide/engine/pgtune.mjs';
import { LIMITS } from '../../guide/engine/topology.mjs';
import * as V from './validators.mjs';

after(V.cleanup);
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'guide', 'cli.mjs');
const cli = (answers, ...args) => spawnSync(process.execPath, [CLI, '--answers', '-', '--format', 'json', '--date', '2026-01-01', ...args], { input: JSON.stringify(answers), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }); // 1000 hosts: over 1 MB of JSON
const ids = (r) => r.warnings.map((w) => w.id);
const errors = (r) => r.warnings.filter((w) => w.severity === 'error').map((w) => w.id);
const file = (r, re) => r.files.find((f) => re.test(f.path));
/** key = value lines of a postgresql.conf / my.cnf file (quotes removed). */
function conf(f) {
  const out = {};
  for (const l of f.content.split('\n')) {
    const m = /^([a-z_.-]+) = '?([^']*)'?$/.exec(l);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

// ---- PGTune, transcribed from le0pard/pgtune src/features/configuration/configurationSlice.js ("web", Linux,
// database size "mid", the default) as an independent reference: sizes in kB, formatted like its formatValue.
const KB = { MB: 1024, GB: 1048576 };
const fmt = (kb) => (kb % KB.GB === 0 ? `${kb / KB.GB}GB` : kb % KB.MB === 0 ? `${kb / KB.MB}MB` : `${kb}kB`);
function reference({ ramGb, cores, connections, storage, version }) {
  const total = ramGb * KB.GB;
  const shared = Math.floor(total / 4);
  let maint = Math.floor(total / 16);
  if (maint >= 8 * KB.GB) maint = 8 * KB.GB;
  let wal = Math.floor((3 * shared) / 100);
  if (wal > 16 * KB.MB) wal = 16 * KB.MB;
  if (wal > 14 * KB.MB && wal < 16 * KB.MB) wal = 16 * KB.MB;
  if (wal < 32) wal = 32;
  const parallel = cores >= 4 ? cores : 8;
  let work = Math.floor((total - shared) / ((connections + parallel) * 3));
  if (work < 4 * KB.MB) work = 4 * KB.MB;
  const out = {
    max_connections: String(connections), shared_buffers: fmt(shared), effective_cache_size: fmt(Math.floor((total * 3) / 4)),
    maintenance_work_mem: fmt(maint), checkpoint_completion_target: '0.9', wal_buffers: fmt(wal), default_statistics_target: '100',
    random_page_cost: storage === 'hdd' ? '4' : '1.1', effective_io_concurrency: String({ hdd: 2, ssd: 200, nvme: 1000 }[storage]),
    work_mem: fmt(work), huge_pages: shared >= 2 * KB.GB ? 'try' : 'off', jit: 'off', wal_compression: version >= 15 ? 'lz4' : 'on',
    min_wal_size: '1GB', max_wal_size: '4GB',
  };
  if (cores >= 32) out.autovacuum_max_workers = '5'; else if (cores >= 16) out.autovacuum_max_workers = '4';
  if (maint >= 2 * KB.GB) out.autovacuum_work_mem = '2GB';
  if (version >= 18 && Math.floor(cores / 4) > 3) out.io_workers = String(Math.min(32, Math.floor(cores / 4)));
  if (cores >= 4) {
    Object.assign(out, { max_worker_processes: String(cores), max_parallel_workers_per_gather: String(Math.min(4, Math.ceil(cores / 2))), max_parallel_workers: String(cores), max_parallel_maintenance_workers: String(Math.min(4, Math.ceil(cores / 2))) });
  }
  return out;
}
const engine = (x) => Object.fromEntries(pgtune({ ramKb: x.ramGb * KB.GB, cores: x.cores, connections: x.connections, storage: x.storage, version: String(x.version), os: 'linux' })
  .map((s) => [s.key, s.kind === 'size' ? fmt(s.value) : String(s.value)]));

test('PostgreSQL settings equal PGTune over RAM × cores × storage × connections × version', () => {
  let rows = 0;
  for (const ramGb of [1, 2, 4, 7, 16, 64, 100, 256, 1024]) {
    for (const cores of [1, 2, 4, 6, 16, 32, 64, 128]) {
      for (const storage of ['hdd', 'ssd', 'nvme']) {
        for (const connections of [20, 100, 200, 1000]) {
          for (const version of [14, 17, 18]) {
            const x = { ramGb, cores, connections, storage, version };
            assert.deepEqual(engine(x), reference(x), JSON.stringify(x));
            rows++;
          }
        }
      }
    }
  }
  assert.equal(rows, 9 * 8 * 3 * 4 * 3);
  // Two rows worked by hand from the formulas: 16 GB, 8 cores, SSD, 200 connections; 64 GB, 32 cores, NVMe, 100.
  assert.equal(engine({ ramGb: 16, cores: 8, connections: 200, storage: 'ssd', version: 17 }).work_mem, '20164kB'); // 12 GB / 624
  const big = engine({ ramGb: 64, cores: 32, connections: 100, storage: 'nvme', version: 18 });
  assert.deepEqual([big.shared_buffers, big.maintenance_work_mem, big.autovacuum_work_mem, big.io_workers, big.max_parallel_workers_per_gather], ['16GB', '4GB', '2GB', '8', '4']);
});

test('the generated postgresql.conf carries the PGTune values of the database host it names', () => {
  for (const [dbCores, dbRam, storage] of [[4, 16, 'ssd'], [32, 128, 'nvme'], [2, 2, 'hdd']]) {
    const r = generate({ app_hosts: 3, db_host: 'separate', db_cores: dbCores, db_ram_gb: dbRam, storage, database_version: '17', lb: 'nginx' });
    const got = conf(file(r, /conf\.d\/60-rails\.conf$/));
    const want = reference({ ramGb: dbRam, cores: dbCores, connections: r.model.db_server_max_connections, storage, version: 17 });
    for (const [k, v] of Object.entries(want)) assert.equal(got[k], v, `${k} for ${dbCores} cores / ${dbRam} GB`);
  }
  // Settings PGTune writes that the version does not have are left out (jit from 12, wal_compression from 10, WAL sizes from 9.5).
  const old = conf(file(generate({ database_version: '9.4', cores: 8, ram_gb: 32, db_host: 'separate' }), /60-rails\.conf$/));
  for (const k of ['jit', 'wal_compression', 'min_wal_size', 'max_parallel_workers_per_gather']) assert.equal(old[k], undefined, k);
  assert.equal(old.max_worker_processes, '8');
});

test('one PgBouncer on the database host: more app hosts add clients, never PostgreSQL backends', () => {
  const base = { pooler: 'pgbouncer', db_host: 'separate', db_cores: 8, db_ram_gb: 32, workload: 'io', lb: 'haproxy' };
  const two = generate({ ...base, app_hosts: 2 });
  const ten = generate({ ...base, app_hosts: 10 });
  assert.equal(two.model.db_server_max_connections, ten.model.db_server_max_connections);
  assert.ok(ten.model.db_max_connections >= ten.model.connections_needed);
  const ini = file(ten, /^db-host\/etc\/pgbouncer\/pgbouncer\.ini$/).content;
  assert.match(ini, /^listen_addr = 127\.0\.0\.1,10\.0\.0\.5$/m);
  assert.match(ini, /^auth_type = hba$/m);
  assert.match(ini, /^client_tls_sslmode = require$/m);
  const pool = Number(/^default_pool_size = (\d+)$/m.exec(ini)[1]);
  assert.ok(pool + 5 + 3 <= ten.model.db_server_max_connections);
  const hba = file(ten, /^db-host\/etc\/pgbouncer\/pg_hba\.conf$/).content.split('\n').filter((l) => l.startsWith('hostssl'));
  assert.equal(hba.length, 10);
  // Rails 8's four databases: PgBouncer lists and admits each, and one budget caps the app role over all of them.
  const bouncerIni = file(ten, /pgbouncer\.ini$/).content;
  for (const db of ['app_production', 'app_production_cache', 'app_production_queue', 'app_production_cable']) assert.match(bouncerIni, new RegExp(`^${db} = host=127\\.0\\.0\\.1 port=5432 dbname=${db}$`, 'm'));
  assert.match(bouncerIni, new RegExp(`^max_user_connections = ${ten.model.pooler_pool_size ?? '\\d+'}$`, 'm'));
  // …and their session-mode *_migrate aliases, which migrations use (issue 23).
  assert.ok(hba.every((l) => l.split(/\s+/)[1] === 'app_production,app_production_cache,app_production_queue,app_production_cable,app_production_migrate,app_production_cache_migrate,app_production_queue_migrate,app_production_cable_migrate'));
  assert.deepEqual(hba.map((l) => l.split(/\s+/)[3]), Array.from({ length: 10 }, (_, i) => `10.0.1.${11 + i}/32`));
  // PostgreSQL itself stays on loopback behind its PgBouncer.
  assert.equal(conf(file(ten, /conf\.d\/60-rails\.conf$/)).listen_addresses, 'localhost');
  assert.match(file(ten, /config\/database\.yml$/).content, /host: "10\.0\.0\.5"\n[\s\S]*port: 6432\n[\s\S]*sslmode: require/);
});

test('PostgreSQL reached directly: listen address, TLS, and pg_hba lines for exactly the app hosts', () => {
  const r = generate({ app_hosts: 3, db_host: 'separate', db_address: '192.168.50.10', app_addresses: '192.168.50.21,192.168.50.22,192.168.50.30', lb: 'nginx', database_version: '17' });
  assert.deepEqual(errors(r), []);
  const c = conf(file(r, /conf\.d\/60-rails\.conf$/));
  assert.equal(c.listen_addresses, 'localhost,192.168.50.10');
  assert.equal(c.ssl, 'on');
  assert.equal(c.password_encryption, 'scram-sha-256');
  const hba = file(r, /^db-host\/etc\/postgresql\/17\/main\/pg_hba\.conf$/).content.split('\n').filter((l) => /^(host|local)/.test(l));
  assert.deepEqual(hba.filter((l) => l.startsWith('hostssl')), ['192.168.50.21', '192.168.50.22', '192.168.50.30'].map((a) => `hostssl app_production,app_production_cache,app_production_queue,app_production_cable app ${a}/32 scram-sha-256`));
  // The replacement keeps a local replication rule for the postgres user: the CHECKLIST's pg_basebackup needs it
  // (a replication connection matches no `all` rule; sre5 review m2).
  assert.ok(hba.includes('local replication postgres peer'), hba.join('\n'));
  // Rails 7.2 has one database: one name.
  const one = generate({ app_hosts: 2, db_host: 'separate', lb: 'nginx', rails: '7.2', jobs: 'none' });
  assert.match(file(one, /pg_hba\.conf$/).content, /^hostssl app_production app /m);
  assert.ok(!hba.some((l) => /0\.0\.0\.0|\ball\b.*\/0/.test(l)), 'no catch-all network line');
  const roles = file(r, /postgresql-roles\.sql$/).content;
  assert.match(roles, /ALTER ROLE app SET statement_timeout = '30s';/);
  assert.equal(c.idle_in_transaction_session_timeout, '60s');
  assert.equal(c.log_min_duration_statement, '500ms');
});

test('db_host=same with several app hosts: the database runs on the first one, which the others reach', () => {
  const r = generate({ app_hosts: 2, lb: 'haproxy' });
  assert.ok(ids(r).includes('db-on-first-app-host'));
  assert.match(file(r, /config\/database\.yml$/).content, /host: "10\.0\.1\.11"/);
  assert.equal(conf(file(r, /60-rails\.conf$/)).listen_addresses, 'localhost,10.0.1.11');
  const single = generate({});
  assert.match(file(single, /config\/database\.yml$/).content, /host: localhost/);
  assert.ok(!single.files.some((f) => /pg_hba/.test(f.path)));
});

test('MySQL/MariaDB database host: bind address, TLS-only accounts per app host, versioned InnoDB settings', () => {
  const my = generate({ database: 'mysql', database_version: '8.4', adapter: 'mysql2', app_hosts: 3, db_host: 'separate', db_cores: 8, db_ram_gb: 32, lb: 'haproxy' });
  const c = conf(file(my, /^db-host\/etc\/mysql\/mysql\.conf\.d\/zz-rails\.cnf$/));
  assert.equal(c['bind-address'], '127.0.0.1,10.0.0.5');
  assert.equal(c.require_secure_transport, 'ON');
  assert.equal(c.innodb_buffer_pool_size, `${32 * 1024 * 0.75}M`);
  assert.equal(c.innodb_redo_log_capacity, '4G');
  assert.equal(c.innodb_flush_method, undefined, 'O_DIRECT is the 8.4 default on Linux');
  assert.equal(c.binlog_expire_logs_seconds, '604800');
  assert.equal(c.slow_query_log, 'ON');
  const grants = file(my, /mysql-grants\.sql$/).content;
  assert.equal((grants.match(/REQUIRE SSL;/g) || []).length, 3);
  assert.match(grants, /'app'@'10\.0\.1\.13'/);
  assert.match(file(my, /database\.yml$/).content, /ssl_mode: required/);
  const maria = conf(file(generate({ database: 'mariadb', database_version: '10.5', adapter: 'mysql2', db_host: 'separate', db_ram_gb: 4 }), /mariadb\.conf\.d/));
  assert.equal(maria.innodb_flush_method, 'O_DIRECT');
  assert.equal(maria.innodb_log_file_size, '512M');
  assert.equal(maria.innodb_buffer_pool_size, '2048M');
  assert.equal(maria.innodb_redo_log_capacity, undefined);
});

test('impossible topologies are named errors', () => {
  assert.ok(errors(generate({ app_hosts: 3, app_addresses: '10.0.0.1,10.0.0.2' })).includes('address-count'));
  assert.ok(errors(generate({ app_hosts: 2, db_host: 'separate', db_address: '10.0.1.12' })).includes('address-duplicate'));
  assert.ok(errors(generate({ app_hosts: 2, app_addresses: '127.0.0.1' })).includes('address-unusable'));
  assert.ok(errors(generate({ database: 'sqlite', adapter: 'sqlite3', database_version: '3.45', app_hosts: 2 })).includes('sqlite-single-host'));
  assert.ok(ids(generate({ app_hosts: 4 })).includes('no-load-balancer'));
  // A consecutive range from one address.
  assert.match(file(generate({ app_hosts: 3, db_host: 'separate', app_addresses: '10.2.0.254', lb: 'nginx' }), /pg_hba/).content, /10\.2\.1\.0\/32/);
});

test('bounds: huge topologies give values the servers accept, or a named error and exit 3', () => {
  const huge = { app_hosts: 1000, cores: 512, ram_gb: 4096, db_host: 'separate', db_cores: 1024, db_ram_gb: 8192, workload: 'io', lb: 'haproxy' };
  const pg = generate(huge);
  assert.ok(errors(pg).includes('pg-connections-over-limit'));
  const c = conf(file(pg, /60-rails\.conf$/));
  const background = 5 + 1 + 1024 + LIMITS.pgMaxWalSenders;
  assert.equal(Number(c.max_connections) + background, LIMITS.pgMaxBackends);
  assert.equal(Number(c.max_connections), pg.model.db_server_max_connections);
  const v = V.postgresCheck(file(pg, /60-rails\.conf$/).content, ['max_connections', 'work_mem', 'shared_buffers']);
  assert.equal(Number(v.max_connections), Number(c.max_connections));
  const strict = cli(huge);
  assert.equal(strict.status, 3);
  assert.match(strict.stderr, /error \[pg-connections-over-limit\]/);
  assert.equal(cli(huge, '--allow-errors').status, 0);
  // Through PgBouncer the server side stays small; the client side is bounded by file descriptors.
  const pooled = generate({ ...huge, pooler: 'pgbouncer' });
  assert.ok(errors(pooled).includes('pgbouncer-over-fd-limit'));
  assert.ok(pooled.model.db_max_connections <= LIMITS.bouncerFds);
  assert.ok(!errors(pooled).includes('pg-connections-over-limit'));
  // MySQL: max_connections at most 100000; accepted by mariadbd.
  const my = generate({ ...huge, database: 'mariadb', database_version: '11.8', adapter: 'mysql2' });
  assert.ok(errors(my).includes('mysql-connections-over-limit'));
  assert.equal(my.model.db_server_max_connections, LIMITS.mysqlMaxConnections);
  // Memory: a small database host cannot hold the connections.
  const small = generate({ app_hosts: 40, cores: 16, ram_gb: 64, db_host: 'separate', db_ram_gb: 0.5, workload: 'io', lb: 'nginx' });
  assert.ok(errors(small).includes('db-memory-too-small'));
  // A sane topology has no error-level finding and exits 0.
  const ok = { app_hosts: 4, cores: 8, ram_gb: 16, db_host: 'separate', db_cores: 16, db_ram_gb: 64, pooler: 'pgbouncer', lb: 'haproxy' };
  assert.deepEqual(errors(generate(ok)), []);
  assert.equal(cli(ok).status, 0);
});
