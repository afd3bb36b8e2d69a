// Evidence catalogue: every setting and piece of advice points at one or more of these.
// Dataset pages live at /datasets/<id>/ (ids from shared/seed-datasets.md §9); external sources are the ones
// recorded in shared/config-facts.md.

// Evidence objects carry catalog keys: the label ("ev.<key>", resolved by core.mjs) and, for external sources,
// the URL ("url.<key>"); dataset and article URLs are derived from their ids.
import { t, catalogStamp } from './text.mjs';

export const ds = (id) => ({ key: `ds.${id}`, url: `/datasets/${id}/` });
const ext = (key, vars) => {
  let stamp = null;
  let url = '';
  return {
    key: `ev.${key}`,
    ...(vars ? { vars } : {}),
    // Resolved once per installed catalog (every generated file reads it for its "see:" lines).
    get url() {
      if (stamp !== catalogStamp()) { stamp = catalogStamp(); url = t(`url.${key}`, vars); }
      return url;
    },
  };
};

// Plain external sources: SRC.<name> has the label "ev.<name>" and the URL "url.<name>" in the catalog.
const PLAIN = 'rubyGcC reeGc gc193 yjitDoc heroku autotuner pumaDeploy pumaHistory puma7 pumaNginx pumaConfig unicorn unicornConf pitchfork pitchforkRefork passenger passengerStandalone thin falcon rubyBranches railsMaintenance railsMysqlRemoved railsAdvisoryOption railsConfiguring railsPumaTemplate railsCaching railsQuery railsAssoc nginxCore nginxEvents nginxProxy nginxUpstream nginxChanges nginxInternal nginxGzipStatic apacheProxy apacheMpm xsendfile caddyProxy rackSendfile nginxHttpCore systemdService systemdExec apacheCore apacheBalancer caddyEncode caddyMatchers caddyHandle pgResource pgConnection pgtune pgbouncer pgbouncerChangelog mysqlDedicated mysqlVars mariadbVars railsPool sqliteRails trilogy pgHba pgSsl pgClient pgLogging pgWikiConnections mysqlRedo mysqlSlowLog mysqlBinlog mysqlCreateUser mysqlX redisConf sidekiqRedis haproxy nginxRealIp nginxconfig ipSysctl pgVersioning mysqlReleases mariadbMaintenance jrubyTuning railsAsyncExecutor pgBackup mysqlBackup sqliteBackup pgMonitoring apacheRemoteIp muslMalloc selinuxHttpd firewalld freebsdTuning freebsdRc alpineNginx ufw pgbouncerShow timeWait twRecycle fdLimits ioSched debianRubyYjit debianRuby34';

export const SRC = {
  rubyNews: (v) => ext('rubyNews', { v }),
  railsRelease: (v) => ext('railsRelease', { v, u: v.replace('.', '_') }),
};
// Issue 10 (production edge, processes, jobs): words and URLs in catalog-prod.mjs.
const PROD = 'hsts mozillaTls letsencryptOcsp certbot nginxSsl nginxHttp2 nginxWebsocket nginxMap nginxRewrite nginxLog apacheSsl apacheHeaders apacheLog apacheAlias apacheHttp2 apacheWstunnel caddyHttps caddyTls caddyHeader thruster kamalProxy railsHealth railsSsl railsMultiDb railsDbTemplate actionCable solidQueue solidCable sidekiq goodJob delayedJob pumaSystemd pumaRestart unicornSignals unicornSystemd pitchforkSignals passengerRestart passengerOptimization passengerDebian systemdKill systemdAnalyze logrotate';
// Issue 23 (balancers and edges that trust no client header, small hosts): words and URLs in catalog-edge.mjs.
const EDGE = 'strongMigrations railsHosts railsForwardedHost haproxyDebian nginxDefaultServer certbotHooks journaldRate solidQueuePuma nginxGeo solidQueueNoFork';
// Issue 24 (parity with nginxconfig.io and Mozilla): words and URLs in catalog-parity.mjs.
const PARITY = 'nginxGzip rackRequest';
// Issue 24 (every offered server and job backend booted in the lab): words and URLs in catalog-prod.mjs.
const SERVERS = 'asyncContainer falconDeploy rackMongrelRemoved actionpackRack2 mongrelReleases mongrelDispatcher mongrelRuby19 railsServerUsing mysqlRepo mysqlYumRepo passengerEnv';
// Issue 24 (the memory model of forking servers): words and URLs in catalog-memory.mjs.
const MEMORY = 'pumaPreload unicornPreload passengerSpawn solidQueueFork';
for (const k of `${PLAIN} ${PROD} ${EDGE} ${PARITY} ${SERVERS} ${MEMORY}`.split(' ')) SRC[k] = ext(k);

export const DS = {
  sysctl: ds('thesis-os-sysctl-values'),
  gcTuning: ds('thesis-ruby-yarv-gc-tuning'),
  mriVsYarv: ds('thesis-ruby-mri-vs-yarv'),
  reverseProxy: ds('thesis-webserver-reverse-proxy'),
  passengerOptions: ds('thesis-passenger-options'),
  passengerHosts: ds('thesis-passenger-apache-vs-nginx'),
  thinUnicorn: ds('thesis-thin-vs-unicorn'),
  serverMemory: ds('thesis-webserver-memory-workers'),
  thinThreaded: ds('thesis-thin-threaded'),
  eager: ds('thesis-rails-eager-loading'),
  transactions: ds('thesis-rails-explicit-transactions'),
  finders: ds('thesis-rails-magic-finders'),
  findEach: ds('thesis-rails-find-each'),
  pumaProcThreads: ds('rrb-puma-processes-threads'),
  compactionMem: ds('rsb-gc-compaction-memory'),
  compactionThroughput: ds('rrb-gc-compaction-throughput'),
  mjit: ds('rrb-ruby27-preview2-jit'),
  mjitRails: ds('rsb-jit-rails-rack'),
  stackprof: ds('rrb-stackprof-profile'),
  keepalive: ds('wrk-keepalive'),
  fibers: ds('fibers-threads-processes-macbook'),
  extendLeak: ds('oldmoe-object-extend-leak'),
  startup: ds('rrb-discourse-startup-time'),
  warmup: ds('rrb-warmup-iterations'),
  interpreters2026: ds('rebench-2026-interpreters'),
  // Puma on the lab's Ruby 3.4 YJIT build, YJIT off and on: PSS per process, the YJIT memory the budget counts.
  yjitPuma2026: ds('rebench-2026-app-servers-yjit'),
  // PSS of one process and of master + workers of the reference app: the memory model's measured side (the first
  // bundle-vs-defaults run, which answered the wizard with 2 cores: its throughput design was flawed, its PSS is not).
  bundleVsDefaults: ds('rebench-2026-bundle-vs-defaults-2core'),
  appServers2026: ds('rebench-2026-app-servers'),
};

// Articles of this site (site-relative; the page prefixes the baseurl).
const art = (slug) => ({ key: `art.${slug}`, url: `/articles/${slug}/` });
export const ART = {
  kernel: art('kernel-network-tuning'),
  os: art('operating-systems'),
  interpreters: art('ruby-interpreters'),
  gc: art('garbage-collection'),
  jit: art('jit-compilers'),
  appServers: art('app-servers'),
  proxies: art('reverse-proxies'),
  concurrency: art('concurrency-models'),
  databases: art('databases-and-drivers'),
  railsCode: art('rails-code'),
  profiling: art('profiling'),
  benchmark: art('benchmark-your-own-app'),
  jobs: art('background-jobs'),
  timeouts: art('timeouts-and-overload'),
  observability: art('observability'),
  scalingDb: art('scaling-the-database'),
};
