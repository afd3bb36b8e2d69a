// Words for versions as data (issue 11): support lifecycles, Ruby too new for a Rails series, memory per worker,
// JRuby and Falcon sizing. Spread into CATALOG by catalog.mjs. The "cap.*" entries are capability tables that
// reach the engine through text.mjs cap() (JSON on the page) rather than through imports.
import { LIFECYCLE } from './capabilities/lifecycle.mjs';
import { RAILS_RUBY_BREAKS } from './capabilities/rails-ruby.mjs';
import { RAILS_API, RAILS_MIN_RUBY, RAILS_PUMA_THREADS } from './capabilities/rails.mjs';
import { PUMA_DSL, PUMA_FACTS } from './capabilities/puma.mjs';
import { FEATURES, IMPLEMENTATIONS, JIT, GC_ERAS } from './capabilities/ruby.mjs';
import { KERNEL_FEATURES, IO_SCHEDULERS, SYSCTL_KEYS, NEVER_EMIT } from './capabilities/kernel.mjs';
import { NGINX, NGINX_MODULES_INCLUDE } from './capabilities/nginx.mjs';
import { PASSENGER_APACHE, PASSENGER_STANDALONE } from './capabilities/passenger.mjs';
import { DISTRO_FAMILIES, OS_FAMILIES, MYSQL_CONF_FILES } from './capabilities/distros.mjs';
import { FAMILY_COMMANDS, DISTRO_RELEASES } from './capabilities/family-commands.mjs';
import { CHOICE_VERSIONS } from './capabilities/choice-versions.mjs';
import { RESTART_ONLY } from './capabilities/restart-only.mjs';
import { RAILS_COMMANDS, BUNDLER_SETTINGS } from './capabilities/rails-commands.mjs';
import { REDIS_FACTS } from './capabilities/redis.mjs';

export const VERSIONS_CATALOG = {
  "cap.lifecycle": LIFECYCLE,
  "cap.rails-ruby-breaks": RAILS_RUBY_BREAKS,
  "cap.rails-api": RAILS_API,
  "cap.rails-min-ruby": RAILS_MIN_RUBY,
  "cap.rails-puma-threads": RAILS_PUMA_THREADS,
  "cap.puma-dsl": PUMA_DSL,
  "cap.puma-facts": PUMA_FACTS,
  "cap.features": FEATURES,
  "cap.implementations": IMPLEMENTATIONS,
  "cap.jit": JIT,
  // The GC variables each Ruby era reads (ruby-env.mjs), without their evidence objects (the generator cites its own):
  // JSON here instead of 2.5 KB of first-load JavaScript, mostly for Rubies older than 3.3.
  "cap.gc-eras": GC_ERAS.map(({ evidence, ...era }) => era),
  "cap.kernel-features": KERNEL_FEATURES,
  "cap.io-schedulers": IO_SCHEDULERS,
  "cap.sysctl-keys": SYSCTL_KEYS,
  "cap.sysctl-never": NEVER_EMIT,
  "cap.nginx": NGINX,
  "cap.nginx-modules": NGINX_MODULES_INCLUDE,
  "cap.passenger-apache": PASSENGER_APACHE,
  "cap.passenger-standalone": PASSENGER_STANDALONE,
  "cap.distro-families": DISTRO_FAMILIES,
  "cap.os-families": OS_FAMILIES,
  "cap.mysql-conf-files": MYSQL_CONF_FILES,
  "cap.family-commands": FAMILY_COMMANDS,
  "cap.distro-releases": DISTRO_RELEASES,
  "cap.choice-versions": CHOICE_VERSIONS,
  "cap.restart-only": RESTART_ONLY,
  "cap.rails-commands": RAILS_COMMANDS,
  "cap.bundler-settings": BUNDLER_SETTINGS,
  "cap.redis-facts": REDIS_FACTS,
  "w.end-of-life.m": "{name} {v} is past its end of life (support ended by {eol}): no more fixes, including security fixes.",
  "w.end-of-life.s": "Plan the upgrade to a supported series. The settings in this bundle are the right ones for the version you run.",
  "w.security-only.m": "{name} {v} receives security fixes only (since {security}) until {eol}.",
  "w.security-only.s": "Bugs stay unfixed in this series: schedule the upgrade before {eol}.",
  "w.ruby-too-new-for-rails.m": "Rails {rails} does not run on Ruby {lang}: {why}",
  "w.ruby-too-new-for-rails.s": "Use a Ruby older than {ruby} for this Rails, or upgrade Rails first (then Ruby).",
  "w.ruby-too-new.iconv": "Ruby 2.0 removed iconv from the standard library, and Rails 2.3 requires it.",
  "w.ruby-too-new.json": "Ruby 2.4 unified Fixnum and Bignum; the json 1.x gem these Rails versions pin does not build on it (Rails 4.2.8 was the first to allow json 2).",
  "w.ruby-too-new.bigdecimal": "Ruby 2.7's bigdecimal 2.0 removed BigDecimal.new, which Rails 4.2 calls.",
  "w.ruby-too-new.kwargs": "Ruby 3.0 separated keyword from positional arguments; Rails before 6.0 passes option hashes where keywords are expected.",
  "w.ruby-too-new.bundled": "Ruby 3.4 turned base64, bigdecimal, drb and mutex_m into bundled gems; Active Support before 7.1 requires them without declaring them, so Bundler raises LoadError at boot.",
  "ev.pgVersioning": "PostgreSQL versioning policy",
  "ev.mysqlReleases": "MySQL releases: Innovation and LTS",
  "ev.mariadbMaintenance": "MariaDB maintenance policy",
  "ops.health.up": "Point the load balancer's and the monitoring's health checks at /up (Rails 7.1+ generates it: 200 once the app has booted, 500 if it raised).",
  "ops.health.own": "Add a cheap health-check route (Rails {rails} has no /up; 7.1 added it) and point the load balancer's and the monitoring's checks at it.",
  "ops.backup.postgresql": "Back up PostgreSQL with pg_basebackup plus WAL archiving (point-in-time recovery), or a nightly pg_dump for a small database; restore one into a scratch server every month.",
  "ops.backup.mysql": "Back up with a consistent dump (mysqldump --single-transaction, or MySQL Shell / mariadb-backup for large databases) plus the binary logs; restore one into a scratch server every month.",
  "ops.backup.sqlite": "Copy the database with the online backup API (sqlite3 db .backup file), never with cp of a live database; restore one every month.",
  "ops.restart.puma": "Deploy with a hot restart (pumactl restart, SIGUSR2): this puma.rb preloads the app, and phased restarts (SIGUSR1) do not work with preload_app!.",
  "ops.restart.unicorn": "Deploy with USR2 to the master (a new master boots next to the old one), then QUIT the old master once the new workers answer.",
  "ops.restart.passenger": "Deploy as README step 7 says: with the bundle's deploy.sh where it has one (it builds and checks a release, switches current and runs passenger-config restart-app; `sh deploy.sh rollback` goes back), else passenger-config restart-app after updating the code; open-source Passenger restarts every process at once.",
  "ops.restart.other": "Deploy by restarting the service; with one host, requests fail during the boot — run two hosts behind the load balancer and restart them one at a time.",
  "ops.logs": "Check that the app's log files rotate: Rails 7.1+ logs to STDOUT (journald bounds its own size), and the files under log/ rotate with the bundle's etc/logrotate.d/rails-app on Linux (daily, 14 kept, copytruncate) or newsyslog elsewhere; an unrotated log fills the disk.",
  "ops.connections.pg": "Watch connections: SELECT count(*) FROM pg_stat_activity against max_connections ({max}); read the slow-query log weekly.",
  "ops.connections.pgbouncer": "Watch PgBouncer: SHOW POOLS on its admin console; cl_waiting above 0 for long means default_pool_size ({pool}) is too small.",
  "ops.connections.mysql": "Watch connections: SHOW GLOBAL STATUS LIKE 'Threads_connected' against max_connections ({max}); read the slow-query log weekly.",
  "ev.railsAsyncExecutor": "Rails guide: config.active_record.async_query_executor",
  "ev.pgBackup": "PostgreSQL: continuous archiving and point-in-time recovery",
  "ev.mysqlBackup": "MySQL 8.4: backup methods",
  "ev.sqliteBackup": "SQLite online backup API",
  "ev.pgMonitoring": "PostgreSQL: the statistics collector views",
  "ev.pgbouncerShow": "PgBouncer: SHOW POOLS",
  "url.railsAsyncExecutor": "https://guides.rubyonrails.org/configuring.html#config-active-record-async-query-executor",
  "url.pgBackup": "https://www.postgresql.org/docs/current/continuous-archiving.html",
  "url.mysqlBackup": "https://dev.mysql.com/doc/refman/8.4/en/backup-methods.html",
  "url.sqliteBackup": "https://www.sqlite.org/backup.html",
  "url.pgMonitoring": "https://www.postgresql.org/docs/current/monitoring-stats.html",
  "url.pgbouncerShow": "https://www.pgbouncer.org/usage.html#show-pools",
  "ev.jrubyTuning": "JRuby wiki: Performance tuning (heap and -Xmx)",
  "url.jrubyTuning": "https://github.com/jruby/jruby/wiki/PerformanceTuning",
  "url.pgVersioning": "https://www.postgresql.org/support/versioning/",
  "url.mysqlReleases": "https://dev.mysql.com/doc/refman/8.4/en/mysql-releases.html",
  "url.mariadbMaintenance": "https://mariadb.org/about/#maintenance-policy",
  "q.worker_mb.label": "Memory per worker process (MB)",
  "readme.worker-mb": "Memory per worker process",
  "mem.worker.modern": "Puma's deployment guide expects about 512 MB to 1 GB per worker for a Rails app",
  "mem.worker.thesis": "the thesis measured about 3000 MB for 30 workers of a Rails 2.3 app on Ruby 1.8/1.9 (Table 5.19)",
  "mem.worker.jvm": "a JVM process: the heap set in JAVA_OPTS plus about 256 MB of metaspace, code cache and thread stacks",
  "env.java.heap": "JVM heap ceiling: three quarters of the {free} MB this host has for the one JRuby process, in whole 64 MB steps, at most 31 GB (compressed object pointers stop above 32 GB); the JVM's own default would be a quarter of RAM.",
  "env.java.heap.measured": "JVM heap ceiling: your measured {mb} MB per process, less about 256 MB outside the heap.",
  "puma.threads.jruby": "{threads} threads in the one process: JRuby threads run in parallel, so {per} per core ({cores} cores) for a {workload} workload, at most 256. The connection pool matches.",
  "falcon.pool": "Falcon starts a fiber for every request with no upper limit, so the pool is the bound: {pool} connections per process ({sum}, within {limit}); the fiber past that waits up to checkout_timeout (5 s) for a connection, then raises ActiveRecord::ConnectionTimeoutError.",
  "a.falcon-pool.title": "Falcon: the connection pool bounds concurrency",
  "puma.workers.env": "Without WEB_CONCURRENCY in the environment: {workers} workers. Puma reads WEB_CONCURRENCY itself, including WEB_CONCURRENCY=auto (one per core, Puma 6.5+), which an Integer(ENV.fetch(...)) call would reject",
  "puma.workers.auto": "; `workers :auto` (Puma 7.2+) gives the same count from the CPU",
};
