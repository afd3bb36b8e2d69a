// answers → context: effective stack (after substitutions for impossible combinations), sizing and the
// cross-file facts (bind addresses, pool, connection and memory budgets). Pure; no formatting here.
import { memoryBudget, perWorkerMb } from './memory-budget.mjs';
import { DISTRO_FAMILIES, OS_FAMILIES, IMPLEMENTATIONS, JIT, RAILS_API, RAILS_MIN_RUBY, RAILS_PUMA_THREADS, RAILS_RUBY_BREAKS, JOB_RUNNERS, PASSENGER_APACHE } from './caps.mjs';
import { SINGLE_TARGET_PROXIES } from './generators/edge.mjs';
import { firstSince, has } from './pick.mjs';
import { gte, inRange, lt } from './version.mjs';
import { choiceDefault, shippedBy } from './version-defaults.mjs';
import { QUESTIONS } from './questions.mjs';
import { t } from './text.mjs';
import { LIMITS, placeHosts } from './topology.mjs';
import { autovacuumWorkers, pgParallelWorkers, rawWorkMemKb } from './pgtune.mjs';
import { inPumaFacts, jobsInPumaApplies, jobsInPumaForNoFork } from './small-host.mjs';

export const APP_ROOT = '/var/www/app';
export const APP_NAME = 'rails-app';
export const APP_USER = 'deploy';

/** Action Cable's default worker pool (ActionCable::Server::Configuration#worker_pool_size). */
export const CABLE_WORKER_POOL = 4;
const FORKING = new Set(['unicorn', 'pitchfork', 'mongrel']);
// The database's own adapter: the table the adapter question's default follows (questions.mjs defaultBy).
const DEFAULT_ADAPTER = QUESTIONS.find((q) => q.key === 'adapter').defaultBy.database;
const ADAPTER_DBS = { pg: ['postgresql'], mysql2: ['mysql', 'mariadb'], trilogy: ['mysql', 'mariadb'], mysql: ['mysql', 'mariadb'], sqlite3: ['sqlite'], jdbc: ['postgresql', 'mysql', 'mariadb', 'sqlite'] };

/** Language level of the chosen implementation/version. */
export function languageVersion(ruby, version) {
  const impl = IMPLEMENTATIONS[ruby];
  if (!impl || impl.lang.length === 0) return version;
  return firstSince(impl.lang, version).lang;
}

export function derive(a, options = {}) {
  const subs = []; // substitutions {key, from, to, reason}
  // JRuby's releases are 1.x, 9.x and 10.x: "3.1" is a Ruby language level, not a JRuby release. Use the first
  // JRuby release that implements it (JRuby 9.4 → Ruby 3.1, 10.0 → 3.4), with a warning saying so.
  const major = Number(String(a.ruby_version).split('.')[0]);
  if (a.ruby === 'jruby' && major >= 2 && major <= 8) {
    const to = [...(IMPLEMENTATIONS.jruby?.lang || [])].reverse().find((r) => gte(r.lang, a.ruby_version))?.since || '10.0';
    subs.push({ key: 'ruby_version', from: a.ruby_version, to, reason: 'jruby-release' });
    a = { ...a, ruby_version: to };
  }
  // Before the page has its catalog (caps.mjs) an implementation is only its name.
  const impl = IMPLEMENTATIONS[a.ruby] || { label: a.ruby, fork: true, lang: [] };
  const lang = languageVersion(a.ruby, a.ruby_version);
  // options.appRoot (tests) wins over the answer; both pass the same strict path check.
  const ctx = { a, impl, lang, subs, root: safeRoot(options.appRoot || a.app_root), date: options.date || new Date().toISOString().slice(0, 10) };
  ctx.user = a.deploy_user || APP_USER;
  ctx.rubyBin = a.ruby_path || '/usr/bin';
  // FreeBSD's packages install Ruby and Bundler under /usr/local/bin; the default /usr/bin has neither there.
  if (a.os === 'freebsd' && ctx.rubyBin === '/usr/bin') ctx.rubyBin = '/usr/local/bin';
  ctx.linux = a.os === 'linux';
  // Distribution family (capabilities/distros.mjs): users, paths, libc, firewall and SELinux of the app hosts.
  ctx.family = OS_FAMILIES[a.os] || [...(DISTRO_FAMILIES.length ? DISTRO_FAMILIES : [])].find((f) => new RegExp(f.match, 'i').test(a.distro)) || { id: 'debian', webUser: 'www-data', libc: 'glibc' };
  ctx.familyGuessed = a.os === 'linux' && ctx.family.id === 'debian' && !/^(debian|ubuntu|raspbian|linuxmint|mint|pop|devuan|kali)/i.test(a.distro);
  ctx.mri = a.ruby === 'cruby' || a.ruby === 'ree';
  ctx.canFork = impl.fork;

  // Effective server.
  let server = a.server;
  if (!ctx.canFork && FORKING.has(server)) {
    subs.push({ key: 'server', from: server, to: 'puma', reason: 'fork' });
    server = 'puma';
  }
  ctx.server = server;
  ctx.serverVersion = server === a.server ? a.server_version : '6.4';

  // Effective proxy: Cherokee gets nginx as its replacement (a migration file set is generated).
  ctx.proxy = a.proxy === 'cherokee' ? 'nginx' : a.proxy;
  ctx.proxyVersion = a.proxy === 'cherokee' ? '1.22' : a.proxy_version;
  if (a.proxy === 'cherokee') subs.push({ key: 'proxy', from: 'cherokee', to: 'nginx', reason: 'dead' });
  // "2.4" names Apache's series, not 2.4.0 (trial 24: Ubuntu 24.04 + "2.4" lost TLS 1.3, HTTP/2, the Unix socket and
  // Action Cable's WebSocket proxying, all from 2.4.7–2.4.47, with one info line). When the release ships that series
  // (DISTRO_RELEASES' apache column) the bundle is for the release's own 2.4.x, which `apt-get`/`dnf install` gives.
  const apacheShipped = ctx.proxy === 'apache' && a.os === 'linux' && /^\d+\.\d+$/.test(String(a.proxy_version))
    && shippedBy(a.distro)?.apache;
  if (apacheShipped && apacheShipped.startsWith(`${a.proxy_version}.`)) {
    subs.push({ key: 'proxy_version', from: a.proxy_version, to: apacheShipped, reason: 'apache-series' });
    ctx.proxyVersion = apacheShipped;
  }
  // Passenger is loaded into Apache; with nginx it runs as Passenger Standalone behind nginx; with Caddy/none it runs standalone.
  // Thruster and kamal-proxy forward to one host:port: servers that listen on several ports get nginx instead.
  if (SINGLE_TARGET_PROXIES.includes(ctx.proxy) && ['thin', 'mongrel'].includes(server)) {
    subs.push({ key: 'proxy', from: ctx.proxy, to: 'nginx', reason: 'single-target' });
    ctx.proxy = 'nginx';
    ctx.proxyVersion = choiceDefault('proxy_version', { ...a, proxy: 'nginx' }) || '1.26'; // the release's nginx
  }
  // TLS: ending it "at the proxy" needs a proxy.
  ctx.tls = a.tls;
  if (ctx.tls === 'proxy' && ctx.proxy === 'none') {
    subs.push({ key: 'tls', from: 'proxy', to: 'none', reason: 'no-proxy' });
    ctx.tls = 'none';
  }
  // A balancer in front of several app hosts ends TLS itself (generators/load-balancer.mjs); the app hosts then
  // speak HTTP to it on the private network (rules.mjs explains the change).
  if (ctx.tls === 'proxy' && a.app_hosts > 1 && (a.lb === 'nginx' || a.lb === 'haproxy')) {
    subs.push({ key: 'tls', from: 'proxy', to: 'upstream', reason: 'load-balancer' });
    ctx.tls = 'upstream';
  }
  ctx.domain = a.domain;
  ctx.websockets = a.websockets;

  // Effective adapter.
  let adapter = a.adapter;
  if (!ADAPTER_DBS[adapter].includes(a.database)) {
    subs.push({ key: 'adapter', from: adapter, to: DEFAULT_ADAPTER[a.database], reason: 'database' });
    adapter = DEFAULT_ADAPTER[a.database];
  }
  if (a.ruby === 'jruby' && adapter !== 'jdbc') {
    subs.push({ key: 'adapter', from: adapter, to: 'jdbc', reason: 'jruby' });
    adapter = 'jdbc';
  } else if (a.ruby !== 'jruby' && adapter === 'jdbc') {
    subs.push({ key: 'adapter', from: 'jdbc', to: DEFAULT_ADAPTER[a.database], reason: 'not-jruby' });
    adapter = DEFAULT_ADAPTER[a.database];
  }
  if (adapter === 'mysql' && !has(RAILS_API.mysqlAdapter, a.rails)) {
    subs.push({ key: 'adapter', from: 'mysql', to: 'mysql2', reason: 'rails' });
    adapter = 'mysql2';
  }
  if (adapter === 'trilogy' && !has(RAILS_API.trilogyAdapter, a.rails)) {
    subs.push({ key: 'adapter', from: 'trilogy', to: 'mysql2', reason: 'rails' });
    adapter = 'mysql2';
  }
  ctx.adapter = adapter;
  ctx.pooler = a.pooler === 'pgbouncer' && a.database === 'postgresql' ? 'pgbouncer' : 'none';
  if (a.pooler === 'pgbouncer' && ctx.pooler === 'none') subs.push({ key: 'pooler', from: 'pgbouncer', to: 'none', reason: 'database' });

  // Background jobs: a runner the Rails version supports, or none.
  ctx.jobs = a.jobs;
  // (Without the catalog, on the page before it has loaded, there are no runner facts yet: no job runner then.)
  if (ctx.jobs !== 'none' && !JOB_RUNNERS[ctx.jobs]) ctx.jobs = 'none';
  if (ctx.jobs !== 'none' && lt(a.rails, JOB_RUNNERS[ctx.jobs].railsSince)) {
    subs.push({ key: 'jobs', from: ctx.jobs, to: 'none', reason: 'rails' });
    ctx.jobs = 'none';
  }
  ctx.jobRunner = ctx.jobs === 'none' ? null : JOB_RUNNERS[ctx.jobs];
  ctx.jobProcesses = ctx.jobRunner ? a.job_processes : 0;
  ctx.jobThreads = ctx.jobRunner ? (ctx.jobRunner.threaded ? a.job_threads : 1) : 0;
  // Rails 8 apps keep Solid Cache, Solid Queue and Solid Cable in their own databases (the generated production.rb
  // and cable.yml name them, so database.yml must have them); Solid Queue on Rails 7.1/7.2 gets its queue database.
  const rails8 = has(RAILS_API.solidCacheDefault, a.rails);
  // With another runner than Solid Queue (and a job runner at all) the queue database has no user.
  ctx.dbRoles = rails8 ? ['primary', 'cache', ...(['none', 'solid_queue'].includes(ctx.jobs) ? ['queue'] : []), 'cable'] : ctx.jobs === 'solid_queue' ? ['primary', 'queue'] : ['primary'];

  ctx.railsMinRuby = firstSince(RAILS_MIN_RUBY, a.rails)?.ruby || '0';
  ctx.rubyTooOldForRails = lt(lang, ctx.railsMinRuby);
  const breaks = firstSince(RAILS_RUBY_BREAKS, a.rails) || {};
  ctx.rubyTooNewForRails = breaks.ruby && gte(lang, breaks.ruby) ? breaks : null;

  // JIT.
  const yjit = JIT.yjit;
  ctx.yjitAvailable = Boolean(yjit) && a.ruby === 'cruby' && gte(a.ruby_version, yjit.since)
    && (a.arch === 'x86_64' || gte(a.ruby_version, yjit.arm64Since));
  // A distribution Ruby built without YJIT: no YJIT memory in the budget, no setting that cannot take effect.
  ctx.yjitNotBuilt = ctx.yjitAvailable && ctx.linux && (JIT.yjitMissing || []).some((m) =>
    new RegExp(m.distro, 'i').test(a.distro || '') && ctx.rubyBin.replace(/\/+$/, '') === m.bin && inRange(a.ruby_version, m));
  if (ctx.yjitNotBuilt) ctx.yjitAvailable = false;
  ctx.yjitProduction = ctx.yjitAvailable && gte(a.ruby_version, yjit.production);

  placeHosts(ctx);
  // A Ruby that cannot fork (JRuby): Solid Queue's fork mode cannot start, so it runs inside Puma (one JVM).
  if (jobsInPumaForNoFork(ctx)) { ctx.jobsInPuma = 'nofork'; ctx.jobProcesses = 0; }
  sizeProcesses(ctx);
  bindings(ctx);
  databaseSizing(ctx);
  memoryBudget(ctx, resize);
  // Over RAM on a small host: the smaller plan runs Solid Queue inside Puma (small-host.mjs); size everything again.
  if (jobsInPumaApplies(ctx)) {
    ctx.separatePlan = { memory: ctx.memory, total: ctx.memoryTotalMb };
    ctx.jobsInPuma = true;
    ctx.jobProcesses = 0;
    ctx.memoryLimited = false;
    sizeProcesses(ctx);
    bindings(ctx);
    databaseSizing(ctx);
    memoryBudget(ctx, resize);
  }
  return ctx;
}

/** What depends on the process count, re-derived when the memory budget lowers it. */
function resize(ctx) {
  bindings(ctx);
  databaseSizing(ctx);
}

function sizeProcesses(ctx) {
  const { a } = ctx;
  const cores = a.cores;
  const io = a.workload === 'io';
  const cpu = a.workload === 'cpu';
  let processes = 1;
  let threads = 1;
  let mode = 'single';
  switch (ctx.server) {
    case 'puma': {
      if (ctx.mri) {
        const railsDefault = firstSince(RAILS_PUMA_THREADS, a.rails)?.value ?? 5;
        threads = io ? 5 : cpu ? 2 : railsDefault;
      } else if (!ctx.canFork) {
        // JRuby/TruffleRuby: one process whose threads run in parallel, so threads scale with the cores.
        ctx.threadsPerCore = io ? 8 : cpu ? 2 : 4;
        threads = Math.min(256, Math.max(4, cores * ctx.threadsPerCore));
      } else {
        threads = io ? 16 : cpu ? Math.max(4, cores * 2) : Math.min(16, Math.max(8, cores * 2));
      }
      if (ctx.canFork && cores >= 2) { processes = cores; mode = 'cluster'; }
      break;
    }
    case 'falcon':
      processes = ctx.canFork ? cores : 1;
      threads = io ? 16 : 8; // concurrent fibers that may hold a connection (bounded by the pool)
      mode = ctx.canFork ? 'cluster' : 'single';
      break;
    case 'webrick':
      processes = 1; threads = 5; mode = 'single';
      break;
    case 'passenger':
      // As Unicorn's: one request per process. In Apache with Action Cable, /cable is a process group of its own
      // (generators/passenger.mjs) drawing on the same pool: one process per group at least, or the two groups
      // would evict each other's processes.
      ctx.passengerCableGroup = a.proxy === 'apache' && Boolean(ctx.websockets) && gte(a.rails, '5.0') && has(PASSENGER_APACHE.PassengerForceMaxConcurrentRequestsPerProcess, a.server_version);
      ctx.processFloor = ctx.passengerCableGroup ? 2 : 1;
      ctx.perCore = io ? 2 : cpu ? 1 : 1.5;
      processes = Math.max(ctx.processFloor, Math.round(cores * ctx.perCore));
      threads = 1; mode = 'cluster';
      break;
    default: // unicorn, pitchfork, thin, mongrel: one request per process
      processes = Math.max(1, Math.round(cores * (io ? 2 : cpu ? 1 : 1.5)));
      threads = 1; mode = 'cluster';
  }
  ctx.mode = mode;
  ctx.threads = threads;
  ctx.perWorkerMb = perWorkerMb(ctx);
  ctx.processesByCores = processes;
  ctx.processes = processes;
  ctx.jobWorkers = ctx.jobProcesses;
  // The primary pool of a web process: its request threads, plus Action Cable's worker pool when the process serves
  // WebSockets (config.action_cable.worker_pool_size, default 4: those threads run channel actions on the same
  // Active Record pool, and Rails' API docs ask for pool ≥ worker pool), plus load_async's executor threads
  // (config.active_record.global_executor_concurrency) — 0 here: async_query_executor defaults to nil, so load_async
  // runs in the foreground until the reader turns an executor on (the rails-load-async advice says by how much).
  ctx.cableWorkers = ctx.websockets && gte(a.rails, '5.0') ? CABLE_WORKER_POOL : 0;
  ctx.asyncThreads = 0;
  // Solid Queue inside Puma (small-host.mjs): its worker threads run jobs on this process's pools.
  ctx.inPumaJobThreads = ctx.jobsInPuma ? ctx.jobThreads : 0;
  ctx.pool = Math.max(1, threads) + ctx.cableWorkers + ctx.asyncThreads + ctx.inPumaJobThreads;
  jobSizing(ctx);
}

/**
 * Database pools per process and per role (an upper bound: Active Record opens connections lazily).
 * Web processes use primary, cache (Rails 8), queue (to enqueue Solid Queue jobs) and cable (WebSockets on Rails 8).
 * Job processes use the same roles with their own threads; Solid Queue needs threads + 2 on the queue database.
 */
function jobSizing(ctx) {
  const roles = new Set(ctx.dbRoles);
  const queuePool = (t) => t + 2; // Solid Queue README: one connection per thread, two for polling and heartbeat
  // The queue database's pool beyond RAILS_MAX_THREADS: + 2, never below the primary's extra threads; inside Puma
  // also the worker's polling and heartbeat (2) and the supervisor's, dispatcher's and scheduler's connections.
  ctx.inPumaControl = ctx.jobsInPuma ? 2 + inPumaFacts().controlConnections : 0;
  ctx.queuePlus = ctx.jobsInPuma ? ctx.pool - ctx.threads + ctx.inPumaControl : Math.max(2, ctx.pool - ctx.threads);
  ctx.rolePools = {
    primary: ctx.pool,
    ...(roles.has('cache') ? { cache: ctx.pool } : {}),
    ...(roles.has('queue') ? { queue: ctx.threads + ctx.queuePlus } : {}),
    ...(roles.has('cable') ? { cable: ctx.pool } : {}),
  };
  const webRoles = ['primary', ...(roles.has('cache') ? ['cache'] : []), ...(ctx.jobs === 'solid_queue' ? ['queue'] : []), ...(ctx.websockets && roles.has('cable') ? ['cable'] : [])];
  // A web process only enqueues on the queue database: at most one connection per thread, within its pool.
  // Inside Puma the process also runs the jobs: its whole queue pool counts.
  ctx.webRolePools = Object.fromEntries(webRoles.map((r) => [r, r === 'queue' && !ctx.jobsInPuma ? Math.min(ctx.pool, ctx.rolePools.queue) : ctx.rolePools[r]]));
  ctx.webConnectionsPerProcess = webRoles.reduce((s, r) => s + ctx.webRolePools[r], 0);
  ctx.webDbRoles = webRoles;
  let perJob = 0;
  let extra = 0;
  if (ctx.jobRunner && !ctx.jobsInPuma) {
    const t = ctx.jobThreads;
    const cache = roles.has('cache') ? t : 0;
    switch (ctx.jobs) {
      case 'solid_queue': perJob = t + queuePool(t) + cache; extra = 3 * 2; break; // supervisor, dispatcher, scheduler: 2 each
      case 'good_job': perJob = t + ctx.jobRunner.poolPlus + cache; break;
      case 'sidekiq': perJob = t + cache; break;
      default: perJob = 1 + cache; // delayed_job: one job at a time
    }
  }
  ctx.jobPoolPerProcess = perJob;
  ctx.jobConnections = ctx.jobProcesses * perJob + extra;
}

function bindings(ctx) {
  const { a } = ctx;
  const sock = (name) => ({ type: 'unix', path: `${ctx.root}/tmp/sockets/${name}.sock` });
  const tcp = (port, host = '127.0.0.1') => ({ type: 'tcp', host, port });
  const proxied = ctx.proxy !== 'none';
  const apacheUnix = ctx.proxy !== 'apache' || gte(ctx.proxyVersion, '2.4.7');
  const singleTarget = SINGLE_TARGET_PROXIES.includes(ctx.proxy); // they dial host:port only
  const unixOk = proxied && a.os !== 'macos' && apacheUnix && !singleTarget;
  let upstreams;
  switch (ctx.server) {
    case 'puma': case 'unicorn': case 'pitchfork':
      upstreams = [unixOk ? sock(ctx.server) : (proxied ? tcp(3000) : tcp(3000, '0.0.0.0'))];
      break;
    case 'thin': {
      // `thin start --servers N --socket path` appends the server index: thin.0.sock … thin.N-1.sock.
      upstreams = [];
      for (let i = 0; i < ctx.processes; i++) upstreams.push(unixOk ? sock(`thin.${i}`) : tcp(3000 + i, proxied ? '127.0.0.1' : '0.0.0.0'));
      break;
    }
    case 'mongrel': {
      upstreams = [];
      for (let i = 0; i < ctx.processes; i++) upstreams.push(tcp(8000 + i, proxied ? '127.0.0.1' : '0.0.0.0'));
      break;
    }
    case 'passenger':
      upstreams = ctx.proxy === 'apache' ? [] : [tcp(3000, proxied ? '127.0.0.1' : '0.0.0.0')];
      break;
    default: // falcon, webrick
      upstreams = [tcp(3000, proxied ? '127.0.0.1' : '0.0.0.0')];
  }
  ctx.upstreams = upstreams;
  ctx.passengerIntegrated = ctx.server === 'passenger' && ctx.proxy === 'apache';
  // Inside Apache the app's secrets reach it through a PassengerRuby wrapper run as the app's user, not through
  // Apache's own environment (every Apache process and module would see them): PassengerRuby is per app from 4.0.
  ctx.passengerEnvWrapper = ctx.passengerIntegrated && has(PASSENGER_APACHE.PassengerRuby, a.server_version) ? '/etc/rails-app/passenger-ruby' : '';
  // Release directories (generators/deploy-script.mjs): where systemd runs the app, the code lives in
  // releases/TIMESTAMP and the servers read it through the `current` symlink; tmp, log and storage stay in the app
  // root, shared by every release, so sockets, PID files and the sandbox's writable paths never move. An app root
  // that is itself a `current` link belongs to a release tool (Capistrano, Mina), which keeps its own releases.
  ctx.releases = ctx.linux && a.init === 'systemd' && !/\/current$/.test(ctx.root);
  ctx.appDir = ctx.releases ? `${ctx.root}/current` : ctx.root;
}

function databaseSizing(ctx) {
  const { a } = ctx;
  const sqlite = a.database === 'sqlite';
  const pg = a.database === 'postgresql';
  const separate = a.db_host === 'separate';
  ctx.connectionsNeeded = sqlite ? 0 : a.app_hosts * (ctx.processes * ctx.webConnectionsPerProcess + ctx.jobConnections);
  ctx.adminConnections = 5; // consoles, migrations, monitoring
  ctx.reservedConnections = pg ? 3 : 1; // superuser_reserved_connections / MySQL's extra SUPER connection
  // A separate host has its own size (0 = like an app host); on a shared host the database gets a quarter of the RAM.
  ctx.dbCores = separate ? a.db_cores || a.cores : a.cores;
  ctx.dbRamMb = Math.round((separate ? a.db_ram_gb || a.ram_gb : a.ram_gb * 0.25) * 1024);
  const errors = ctx.topologyErrors.filter((e) => !e.budget);
  ctx.topologyErrors = errors;
  const fail = (id, vars) => errors.push({ id, vars, budget: true });
  if (pg) {
    ctx.defaultMaxConnections = 100;
    // Everything else PostgreSQL counts against MAX_BACKENDS: autovacuum workers, the launcher, background workers, WAL senders.
    const background = autovacuumWorkers(ctx.dbCores) + 1 + (gte(a.database_version, '9.4') ? pgParallelWorkers(ctx.dbCores) : 8) + LIMITS.pgMaxWalSenders;
    const ceiling = LIMITS.pgMaxBackends - background;
    let want;
    if (ctx.pooler === 'pgbouncer') {
      // One PgBouncer on the database host for every app host: its server pool is the global budget, so adding app
      // hosts adds client connections, never PostgreSQL backends. Pool: PostgreSQL wiki's (2 × cores + spindles),
      // never below PgBouncer's default 20, never above what the app can use.
      const spindles = a.storage === 'hdd' ? 1 : 0;
      ctx.pgbouncerPoolSize = Math.max(1, Math.min(ctx.connectionsNeeded, Math.max(20, 2 * ctx.dbCores + spindles)));
      let client = Math.max(100, ctx.connectionsNeeded + ctx.adminConnections);
      const fdCeiling = LIMITS.bouncerFds - ctx.pgbouncerPoolSize - 100;
      if (client > fdCeiling) { fail('pgbouncer-over-fd-limit', { needed: client, max: fdCeiling }); client = fdCeiling; }
      ctx.pgbouncerMaxClient = client;
      want = Math.max(100, ctx.pgbouncerPoolSize + ctx.adminConnections + ctx.reservedConnections + 5);
      ctx.appSideLimit = ctx.pgbouncerMaxClient;
    } else {
      want = Math.max(100, ctx.connectionsNeeded + ctx.adminConnections + ctx.reservedConnections);
    }
    if (want > ceiling) fail('pg-connections-over-limit', { needed: want, max: ceiling });
    ctx.maxConnections = Math.min(want, ceiling);
    if (ctx.pooler !== 'pgbouncer') ctx.appSideLimit = ctx.maxConnections - ctx.reservedConnections;
    ctx.tooManyConnections = ctx.pooler === 'none' && ctx.maxConnections > 300;
    // Memory: PGTune's work_mem must stay at or above the smallest value PostgreSQL accepts.
    const raw = rawWorkMemKb({ ramKb: ctx.dbRamMb * 1024, cores: ctx.dbCores, connections: ctx.maxConnections });
    if (raw < LIMITS.pgWorkMemMinKb) fail('db-memory-too-small', { ram: ctx.dbRamMb, max: ctx.maxConnections, db: 'PostgreSQL' });
  } else if (a.database === 'mysql' || a.database === 'mariadb') {
    ctx.defaultMaxConnections = 151;
    const want = Math.max(151, ctx.connectionsNeeded + ctx.adminConnections);
    if (want > LIMITS.mysqlMaxConnections) fail('mysql-connections-over-limit', { needed: want, max: LIMITS.mysqlMaxConnections });
    ctx.maxConnections = Math.min(want, LIMITS.mysqlMaxConnections);
    ctx.appSideLimit = ctx.maxConnections;
    ctx.tooManyConnections = ctx.maxConnections > 1000;
    ctx.bufferPoolMb = bufferPoolMb(ctx);
    if (ctx.bufferPoolMb + ctx.maxConnections * LIMITS.mysqlThreadMb > ctx.dbRamMb) fail('db-memory-too-small', { ram: ctx.dbRamMb, max: ctx.maxConnections, db: a.database === 'mysql' ? 'MySQL' : 'MariaDB' });
  } else {
    ctx.defaultMaxConnections = null;
    ctx.maxConnections = null;
    ctx.appSideLimit = null;
    ctx.tooManyConnections = false;
  }
}

/** innodb_buffer_pool_size: MySQL's innodb_dedicated_server rule on a database host, 75 % of the share on an app host. */
export function bufferPoolMb(ctx) {
  const ram = ctx.dbRamMb;
  if (ctx.a.db_host === 'same') return Math.max(128, Math.round(ram * 0.75));
  return ram < 1024 ? 128 : ram <= 4096 ? Math.round(ram * 0.5) : Math.round(ram * 0.75);
}

/** The numbers the page draws. */
export function modelOf(ctx) {
  return {
    server: ctx.server,
    mode: ctx.mode,
    processes: ctx.processes,
    threads: ctx.threads,
    pool: ctx.pool,
    app_hosts: ctx.a.app_hosts,
    job_workers: ctx.jobWorkers,
    jobs: ctx.jobs,
    jobs_in_puma: Boolean(ctx.jobsInPuma),
    job_threads: ctx.jobThreads,
    job_connections: ctx.jobConnections,
    web_connections_per_process: ctx.webConnectionsPerProcess,
    db_roles: [...ctx.dbRoles],
    tls: ctx.tls,
    proxy: ctx.proxy,
    db_max_connections: ctx.appSideLimit,
    db_server_max_connections: ctx.maxConnections,
    connections_needed: ctx.connectionsNeeded,
    pooler: ctx.pooler,
    pooler_pool_size: ctx.pgbouncerPoolSize ?? null,
    upstreams: ctx.upstreams.map((u) => (u.type === 'unix' ? `unix:${u.path}` : `${u.host}:${u.port}`)),
    memory: ctx.memory.map(({ label, mb, kind }) => ({ label, mb, kind })),
    memory_total_mb: ctx.memoryTotalMb,
    ram_mb: ctx.ramMb,
  };
}

/** Application root: an absolute path of safe characters (tests pass a temporary directory). */
export function safeRoot(p) {
  return typeof p === 'string' && /^\/[A-Za-z0-9._/-]{1,200}$/.test(p) && !p.includes('..') ? p.replace(/\/+$/, '') : APP_ROOT;
}
