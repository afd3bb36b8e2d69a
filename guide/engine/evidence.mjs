// Evidence catalogue: every setting and piece of advice points at one or more of these.
// Dataset pages live at /datasets/<id>/ (ids from shared/seed-datasets.md §9); external sources are the ones
// recorded in shared/config-facts.md.

export const ds = (id, label) => ({ label: label || `Dataset: ${id}`, url: `/datasets/${id}/` });
const ext = (label, url) => ({ label, url });
const gh = (repo, path, label) => ext(label || `${repo} ${path}`, `https://github.com/${repo}/blob/master/${path}`);

export const SRC = {
  // Ruby / GC / JIT
  rubyNews: (v) => ext(`Ruby ${v} NEWS`, `https://github.com/ruby/ruby/blob/master/doc/NEWS/NEWS-${v}.md`),
  rubyGcC: ext('ruby/ruby gc.c / gc/default/default.c (GC environment variables)', 'https://github.com/ruby/ruby/blob/master/gc/default/default.c'),
  reeGc: ext('Ruby Enterprise Edition: garbage collector performance tuning', 'http://www.rubyenterpriseedition.com/documentation.html#_garbage_collector_performance_tuning'),
  gc193: ext('Ruby 1.9.3/2.0 GC variables (RUBY_GC_MALLOC_LIMIT, RUBY_HEAP_MIN_SLOTS, RUBY_FREE_MIN)', 'https://github.com/ruby/ruby/blob/ruby_2_0_0/gc.c'),
  yjitDoc: gh('ruby/ruby', 'doc/yjit/yjit.md', 'YJIT documentation (memory usage)'),
  heroku: ext('Heroku: default MALLOC_ARENA_MAX=2 for Ruby apps', 'https://devcenter.heroku.com/changelog-items/1683'),
  autotuner: ext('Shopify autotuner (per-heap GC suggestions)', 'https://github.com/Shopify/autotuner'),
  // Servers
  pumaDeploy: gh('puma/puma', 'docs/deployment.md', 'Puma: deployment (workers, threads, sizing)'),
  pumaHistory: gh('puma/puma', 'History.md', 'Puma History.md'),
  puma7: gh('puma/puma', 'docs/7.0-Upgrade.md', 'Puma 7.0 upgrade notes (hook renames)'),
  pumaNginx: gh('puma/puma', 'docs/nginx.md', 'Puma behind nginx'),
  pumaConfig: gh('puma/puma', 'lib/puma/dsl.rb', 'Puma DSL (lib/puma/dsl.rb)'),
  unicorn: ext('Unicorn README (slow clients, reverse proxy)', 'https://yhbt.net/unicorn/README.html'),
  unicornConf: ext('Unicorn example configuration', 'https://yhbt.net/unicorn/examples/unicorn.conf.rb'),
  pitchfork: gh('Shopify/pitchfork', 'docs/CONFIGURATION.md', 'Pitchfork configuration'),
  pitchforkRefork: gh('Shopify/pitchfork', 'docs/REFORKING.md', 'Pitchfork reforking'),
  passenger: ext('Passenger configuration reference', 'https://www.phusionpassenger.com/docs/references/config_reference/apache/'),
  passengerStandalone: ext('Passenger Standalone configuration reference', 'https://www.phusionpassenger.com/docs/references/config_reference/standalone/'),
  thin: ext('Thin README ("no longer maintained")', 'https://github.com/macournoyer/thin'),
  falcon: ext('Falcon README', 'https://github.com/socketry/falcon'),
  railsConfiguring: ext('Rails guide: Configuring Rails Applications', 'https://guides.rubyonrails.org/configuring.html'),
  railsRelease: (v) => ext(`Rails ${v} release notes`, `https://guides.rubyonrails.org/${v.replace('.', '_')}_release_notes.html`),
  railsPumaTemplate: gh('rails/rails', 'railties/lib/rails/generators/rails/app/templates/config/puma.rb.tt', 'Rails generated config/puma.rb'),
  railsCaching: ext('Rails guide: Caching with Rails', 'https://guides.rubyonrails.org/caching_with_rails.html'),
  railsQuery: ext('Rails guide: Active Record Query Interface', 'https://guides.rubyonrails.org/active_record_querying.html'),
  railsAssoc: ext('Rails guide: Active Record Associations (counter_cache)', 'https://guides.rubyonrails.org/association_basics.html'),
  // Proxies
  nginxCore: ext('nginx core module (worker_processes, worker_connections, worker_rlimit_nofile)', 'https://nginx.org/en/docs/ngx_core_module.html'),
  nginxEvents: ext('nginx: connection processing methods', 'https://nginx.org/en/docs/events.html'),
  nginxProxy: ext('nginx proxy module (proxy_buffering, proxy_http_version)', 'https://nginx.org/en/docs/http/ngx_http_proxy_module.html'),
  nginxUpstream: ext('nginx upstream module (keepalive)', 'https://nginx.org/en/docs/http/ngx_http_upstream_module.html#keepalive'),
  nginxChanges: ext('nginx changes (1.29.7: upstream keepalive by default)', 'https://nginx.org/en/CHANGES'),
  nginxInternal: ext('nginx: internal locations (X-Accel-Redirect)', 'https://nginx.org/en/docs/http/ngx_http_core_module.html#internal'),
  nginxGzipStatic: ext('nginx gzip_static module', 'https://nginx.org/en/docs/http/ngx_http_gzip_static_module.html'),
  apacheProxy: ext('Apache mod_proxy (ProxyPass, unix sockets since 2.4.7)', 'https://httpd.apache.org/docs/2.4/mod/mod_proxy.html'),
  apacheMpm: ext('Apache MPM common directives (MaxRequestWorkers, formerly MaxClients)', 'https://httpd.apache.org/docs/2.4/mod/mpm_common.html'),
  xsendfile: ext('mod_xsendfile', 'https://tn123.org/mod_xsendfile/'),
  caddyProxy: ext('Caddy reverse_proxy directive', 'https://caddyserver.com/docs/caddyfile/directives/reverse_proxy'),
  rackSendfile: gh('rack/rack', 'lib/rack/sendfile.rb', 'Rack::Sendfile (X-Sendfile / X-Accel-Redirect; CVE-2025-61780 change)'),
  // Databases
  pgResource: ext('PostgreSQL: resource consumption (shared_buffers, work_mem)', 'https://www.postgresql.org/docs/current/runtime-config-resource.html'),
  pgConnection: ext('PostgreSQL: connections (max_connections)', 'https://www.postgresql.org/docs/current/runtime-config-connection.html'),
  pgtune: gh('le0pard/pgtune', 'src/features/configuration/configurationSlice.js', 'PGTune formulas'),
  pgbouncer: ext('PgBouncer configuration', 'https://www.pgbouncer.org/config.html'),
  pgbouncerChangelog: ext('PgBouncer changelog (1.21 prepared statements, 1.24 default)', 'https://www.pgbouncer.org/changelog.html'),
  mysqlDedicated: ext('MySQL: automatic InnoDB configuration for a dedicated server', 'https://dev.mysql.com/doc/refman/8.4/en/innodb-dedicated-server.html'),
  mysqlVars: ext('MySQL server system variables (max_connections default 151)', 'https://dev.mysql.com/doc/refman/8.4/en/server-system-variables.html'),
  mariadbVars: ext('MariaDB server system variables', 'https://mariadb.com/kb/en/server-system-variables/'),
  railsPool: ext('Rails guide: database pooling', 'https://guides.rubyonrails.org/configuring.html#database-pooling'),
  sqliteRails: gh('rails/rails', 'activerecord/lib/active_record/connection_adapters/sqlite3_adapter.rb', 'Rails SQLite adapter defaults'),
  trilogy: ext('Rails 7.1 release notes: Trilogy adapter', 'https://guides.rubyonrails.org/7_1_release_notes.html'),
  // Kernel / OS
  ipSysctl: ext('Linux ip-sysctl documentation', 'https://docs.kernel.org/networking/ip-sysctl.html'),
  timeWait: ext('Vincent Bernat: coping with the TCP TIME-WAIT state', 'https://vincent.bernat.ch/en/blog/2014-tcp-time-wait-state-linux'),
  twRecycle: ext('Linux commit 4396e46187ca "tcp: remove tcp_tw_recycle" (4.12)', 'https://github.com/torvalds/linux/commit/4396e46187ca5070219b81773c4e65088dac50cc'),
  fdLimits: ext('Lennart Poettering: file descriptor limits', 'https://0pointer.net/blog/file-descriptor-limits.html'),
  ioSched: ext('Linux 5.0 "block: remove legacy IO schedulers"', 'https://github.com/torvalds/linux/commit/f382fb0bcef4c37dc049e9f6963e3baf204d815c'),
};

export const DS = {
  sysctl: ds('thesis-os-sysctl-values', 'Thesis Table 5.12: sysctl options'),
  gcTuning: ds('thesis-ruby-yarv-gc-tuning', 'Thesis Table 5.14: GC tuning (−13.2 % suite time)'),
  mriVsYarv: ds('thesis-ruby-mri-vs-yarv', 'Thesis Table 5.13: MRI 1.8 vs YARV 1.9'),
  reverseProxy: ds('thesis-webserver-reverse-proxy', 'Thesis Table 5.15: reverse proxy benchmark'),
  passengerOptions: ds('thesis-passenger-options', 'Thesis Table 5.16: Passenger options'),
  passengerHosts: ds('thesis-passenger-apache-vs-nginx', 'Thesis Table 5.17: Passenger on Apache vs nginx'),
  thinUnicorn: ds('thesis-thin-vs-unicorn', 'Thesis Table 5.18: Thin vs Unicorn'),
  serverMemory: ds('thesis-webserver-memory-workers', 'Thesis Table 5.19: web server memory by workers'),
  thinThreaded: ds('thesis-thin-threaded', 'Thesis Table 5.20: Thin threaded mode'),
  eager: ds('thesis-rails-eager-loading', 'Thesis Table 5.21: eager loading (283 s → 21 s)'),
  transactions: ds('thesis-rails-explicit-transactions', 'Thesis Table 5.22: explicit transactions (76 s → 5.2 s)'),
  finders: ds('thesis-rails-magic-finders', 'Thesis Table 5.23: dynamic finders'),
  findEach: ds('thesis-rails-find-each', 'Thesis Table 5.24: find_each (158 → 118 MB)'),
  pumaProcThreads: ds('rrb-puma-processes-threads', 'Rails Ruby Bench: Puma processes × threads'),
  compactionMem: ds('rsb-gc-compaction-memory', 'GC.compact memory saving'),
  compactionThroughput: ds('rrb-gc-compaction-throughput', 'GC.compact throughput'),
  mjit: ds('rrb-ruby27-preview2-jit', 'MJIT on Rails Ruby Bench (slower)'),
  mjitRails: ds('rsb-jit-rails-rack', 'MJIT on Rails Simpler Bench'),
  stackprof: ds('rrb-stackprof-profile', 'StackProf profile of Discourse'),
  keepalive: ds('wrk-keepalive', 'wrk with and without keep-alive'),
  fibers: ds('fibers-threads-processes-macbook', 'Fibers vs threads vs processes'),
  extendLeak: ds('oldmoe-object-extend-leak', 'Object#extend per request (Ruby 1.9.1)'),
  startup: ds('rrb-discourse-startup-time', 'Rails/Discourse startup time'),
  warmup: ds('rrb-benchmark-design-parameters', 'Rails Ruby Bench design (warm-up iterations)'),
};

// Articles of this site (site-relative; the page prefixes the baseurl).
const art = (slug, label) => ({ label: `Article: ${label}`, url: `/articles/${slug}/` });
export const ART = {
  kernel: art('kernel-network-tuning', 'Kernel and network tuning'),
  os: art('operating-systems', 'Operating systems'),
  interpreters: art('ruby-interpreters', 'Ruby interpreters'),
  gc: art('garbage-collection', 'Garbage collection'),
  jit: art('jit-compilers', 'JIT compilers'),
  appServers: art('app-servers', 'Application servers'),
  proxies: art('reverse-proxies', 'Reverse proxies'),
  concurrency: art('concurrency-models', 'Concurrency models'),
  databases: art('databases-and-drivers', 'Databases and drivers'),
  railsCode: art('rails-code', 'Rails code'),
  profiling: art('profiling', 'Profiling'),
  benchmark: art('benchmark-your-own-app', 'Benchmark your own app'),
};
