// Topology: where the app hosts, the database and the load balancer live, which addresses they use, and the
// limits every server accepts. derive.mjs calls placeHosts() once and databaseBudget() whenever the process
// count changes. Problems are collected as {id, vars} in ctx.topologyErrors; rules.mjs turns them into
// error-level warnings (the CLI then exits 3).

// Hard limits of the servers (the generated values are clamped to them, with an error).
export const LIMITS = {
  // PostgreSQL: max_connections + autovacuum_max_workers + 1 + max_worker_processes + max_wal_senders ≤ MAX_BACKENDS
  // (0x3FFFF = 262143; src/include/postmaster/postmaster.h). Measured: 262144 is refused (shared/config-facts.md §12).
  pgMaxBackends: 262143,
  pgMaxWalSenders: 10, // the default, counted against MAX_BACKENDS
  pgWorkMemMinKb: 64, // the smallest work_mem PostgreSQL accepts
  mysqlMaxConnections: 100000, // MySQL 8.4 and MariaDB 11.8 max_connections range 1..100000
  mysqlThreadMb: 1, // thread_stack default 1 MB per connection (MySQL 8.4 reference manual)
  bouncerFds: 65536, // LimitNOFILE of the generated units: one descriptor per client and per server connection
};

const AUTO = { lb: '10.0.0.2', db: '10.0.0.5', app: '10.0.1.11' };

const toInt = (ip) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
const toIp = (n) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/** App host addresses: a full list, or the first of a consecutive range (auto = 10.0.1.11 upwards). */
export function appAddresses(a) {
  const given = a.app_addresses === 'auto' ? [AUTO.app] : a.app_addresses.split(',');
  if (given.length > 1) return given;
  const start = toInt(given[0]);
  const out = [];
  for (let i = 0; i < a.app_hosts; i++) out.push(toIp(start + i));
  return out;
}

/** Fill ctx with the host layout: ctx.hosts = {app: [...], db, lb, dbLocal, dbNetworked}. */
export function placeHosts(ctx) {
  const { a } = ctx;
  const errors = [];
  ctx.topologyErrors = errors;
  const app = appAddresses(a);
  const sqlite = a.database === 'sqlite';
  // The database shares the (only) app host: it listens on loopback. With several app hosts and db_host=same it
  // runs on the first app host, and the others reach it over the network.
  const dbLocal = sqlite || (a.db_host === 'same' && a.app_hosts === 1);
  const db = a.db_host === 'separate' ? (a.db_address === 'auto' ? AUTO.db : a.db_address) : app[0];
  const lb = a.lb_address === 'auto' ? AUTO.lb : a.lb_address;
  ctx.hosts = { app, db: dbLocal ? '127.0.0.1' : db, lb, dbLocal, dbNetworked: !dbLocal, dbOnFirstApp: !dbLocal && a.db_host === 'same' };
  if (app.length !== a.app_hosts) errors.push({ id: 'address-count', vars: { n: app.length, hosts: a.app_hosts } });
  const all = [...app, ...(a.db_host === 'separate' && !sqlite ? [db] : []), ...(a.lb === 'nginx' || a.lb === 'haproxy' ? [lb] : [])];
  const dup = all.find((x, i) => all.indexOf(x) !== i);
  if (dup) errors.push({ id: 'address-duplicate', vars: { addr: dup } });
  const bad = all.find((x) => /^(0|127|22[4-9]|2[3-5]\d)\./.test(x)); // this-network, loopback, multicast, reserved
  if (bad) errors.push({ id: 'address-unusable', vars: { addr: bad } });
}

/** Bytes in kB as PostgreSQL writes them: the largest unit without losing precision (PGTune's formatValue). */
export function pgSize(kb) {
  const v = Math.floor(kb);
  if (v % 1048576 === 0) return `${v / 1048576}GB`;
  if (v % 1024 === 0) return `${v / 1024}MB`;
  return `${v}kB`;
}
