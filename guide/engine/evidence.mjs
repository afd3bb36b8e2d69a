// Evidence catalogue: every setting and piece of advice points at one or more of these.
// Dataset pages live at /datasets/<id>/ (ids from shared/seed-datasets.md §9); external sources are the ones
// recorded in shared/config-facts.md.

// Evidence objects carry catalog keys: the label ("ev.<key>", resolved by core.mjs) and, for external sources,
// the URL ("url.<key>"); dataset and article URLs are derived from their ids.
import { t } from './text.mjs';

export const ds = (id) => ({ key: `ds.${id}`, url: `/datasets/${id}/` });
const ext = (key, vars) => ({
  key: `ev.${key}`,
  ...(vars ? { vars } : {}),
  get url() {
    return t(`url.${key}`, vars);
  },
});

export const SRC = {
  // Ruby / GC / JIT
  rubyNews: (v) => ext('rubyNews', { v }),
  rubyGcC: ext('rubyGcC'),
  reeGc: ext('reeGc'),
  gc193: ext('gc193'),
  yjitDoc: ext('yjitDoc'),
  heroku: ext('heroku'),
  autotuner: ext('autotuner'),
  // Servers
  pumaDeploy: ext('pumaDeploy'),
  pumaHistory: ext('pumaHistory'),
  puma7: ext('puma7'),
  pumaNginx: ext('pumaNginx'),
  pumaConfig: ext('pumaConfig'),
  unicorn: ext('unicorn'),
  unicornConf: ext('unicornConf'),
  pitchfork: ext('pitchfork'),
  pitchforkRefork: ext('pitchforkRefork'),
  passenger: ext('passenger'),
  passengerStandalone: ext('passengerStandalone'),
  thin: ext('thin'),
  falcon: ext('falcon'),
  rubyBranches: ext('rubyBranches'),
  railsMaintenance: ext('railsMaintenance'),
  railsMysqlRemoved: ext('railsMysqlRemoved'),
  railsAdvisoryOption: ext('railsAdvisoryOption'),
  railsConfiguring: ext('railsConfiguring'),
  railsRelease: (v) => ext('railsRelease', { v, u: v.replace('.', '_') }),
  railsPumaTemplate: ext('railsPumaTemplate'),
  railsCaching: ext('railsCaching'),
  railsQuery: ext('railsQuery'),
  railsAssoc: ext('railsAssoc'),
  // Proxies
  nginxCore: ext('nginxCore'),
  nginxEvents: ext('nginxEvents'),
  nginxProxy: ext('nginxProxy'),
  nginxUpstream: ext('nginxUpstream'),
  nginxChanges: ext('nginxChanges'),
  nginxInternal: ext('nginxInternal'),
  nginxGzipStatic: ext('nginxGzipStatic'),
  apacheProxy: ext('apacheProxy'),
  apacheMpm: ext('apacheMpm'),
  xsendfile: ext('xsendfile'),
  caddyProxy: ext('caddyProxy'),
  rackSendfile: ext('rackSendfile'),
  nginxHttpCore: ext('nginxHttpCore'),
  systemdService: ext('systemdService'),
  systemdExec: ext('systemdExec'),
  apacheCore: ext('apacheCore'),
  apacheBalancer: ext('apacheBalancer'),
  caddyEncode: ext('caddyEncode'),
  caddyMatchers: ext('caddyMatchers'),
  caddyHandle: ext('caddyHandle'),
  // Databases
  pgResource: ext('pgResource'),
  pgConnection: ext('pgConnection'),
  pgtune: ext('pgtune'),
  pgbouncer: ext('pgbouncer'),
  pgbouncerChangelog: ext('pgbouncerChangelog'),
  mysqlDedicated: ext('mysqlDedicated'),
  mysqlVars: ext('mysqlVars'),
  mariadbVars: ext('mariadbVars'),
  railsPool: ext('railsPool'),
  sqliteRails: ext('sqliteRails'),
  trilogy: ext('trilogy'),
  // Kernel / OS
  ipSysctl: ext('ipSysctl'),
  timeWait: ext('timeWait'),
  twRecycle: ext('twRecycle'),
  fdLimits: ext('fdLimits'),
  ioSched: ext('ioSched'),
};

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
};
