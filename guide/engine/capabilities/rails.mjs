// Rails API and requirement capabilities (config-facts §8, §9, §4, §6).
export const RAILS_API = {
  includesRelation: { since: '3.0' }, // includes / preload / eager_load
  findAllInclude: { until: '4.1' }, // find(:all, :include => …); deprecated 4.0, removed 4.1
  strictLoading: { since: '6.1' },
  findEach: { since: '2.3' },
  inBatches: { since: '5.0' },
  insertAll: { since: '6.0' },
  findBy: { since: '4.0' },
  multiDynamicFinders: { until: '4.1' }, // find_all_by_* etc.
  loadAsync: { since: '7.0' },
  bootsnapDefault: { since: '5.2' },
  solidCacheDefault: { since: '8.0' },
  isolationLevel: { since: '7.0' },
  xSendfileHeader: { since: '3.0' },
  configYjit: { since: '7.2' },
  trilogyAdapter: { since: '7.1' },
  pgPreparedStatements: { since: '3.1' }, // PostgreSQL adapter prepares statements; `prepared_statements: false` turns it off
  migrationAdvisoryLocks: { since: '5.0' }, // migrations take an advisory lock (rails/rails#22122)
  advisoryLocksOption: { since: '6.0' }, // database.yml `advisory_locks: false` (rails/rails#33691)
  // database.yml `variables:` for the MySQL adapters: SET @@SESSION.<name> for each, a nil value skipped
  // (abstract_mysql_adapter.rb configure_connection; Rails 4.0's Active Record).
  mysqlSessionVariables: { since: '4.0' },
  mysqlAdapter: { until: '5.0' }, // legacy `mysql` gem adapter removed in 5.0 (rails/rails#22642)
  russianDoll: { since: '4.0' }, // cache digests in the default stack
  forkTracker: { since: '6.1' }, // pools discarded after fork
  poolPerPid: { since: '4.0' },
  maxConnectionsKey: { since: '8.1' }, // database.yml `max_connections:` (pool: still read)
  sqliteWalDefault: { since: '7.1' },
  // self.ignored_columns (rails/rails#21720, Rails 5.0; api.rubyonrails.org ActiveRecord::ModelSchema): README's
  // expand/contract advice names it where the app's Rails has it.
  ignoredColumns: { since: '5.0' },
  secretKeyBaseDummy: { since: '7.1' }, // SECRET_KEY_BASE_DUMMY=1: a throw-away secret_key_base for assets:precompile (rails/rails#46760)
  binRails: { since: '4.0' }, // bin/rails (3.x: script/rails, 2.3: script/server)
  rackBased: { since: '2.3' },
  // `rails server -u SERVER` (rails/rails#32058, Rails 6.0; the server name as a plain argument was deprecated then).
  // Before 6.0 the name is the first argument (`rails server webrick`, Rails 2.x `script/server webrick`). Without a
  // name Rails picks the first Rack handler it can load (puma before webrick), so a Gemfile with Puma boots Puma.
  serverUsingOption: { since: '6.0' },
};

// Minimum Ruby (language level) per Rails series (config-facts §9; 2.3 from its gemspec era).
export const RAILS_MIN_RUBY = [
  { since: '8.0', ruby: '3.2.0' },
  { since: '7.2', ruby: '3.1.0' },
  { since: '7.0', ruby: '2.7.0' },
  { since: '6.0', ruby: '2.5.0' },
  { since: '5.0', ruby: '2.2.2' },
  { since: '4.0', ruby: '1.9.3' },
  { since: '0', ruby: '1.8.7' },
];

export const RAILS_CURRENT = '8.1';

// Threads in the generated config/puma.rb per Rails version.
// Before 4.0 a production app serves one request at a time per process unless config.threadsafe! is set (Rack::Lock
// in the middleware; Rails 4.0 dropped it when cache_classes and eager_load are on): threads then never hold
// connections at once, so the pool is not compared with them.
export const RAILS_CONCURRENT_REQUESTS = { since: '4.0' };
export const RAILS_PUMA_THREADS = [{ since: '7.2', value: 3 }, { since: '5.0', value: 5 }];

