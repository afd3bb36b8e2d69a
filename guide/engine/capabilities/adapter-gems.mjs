// The gem each database and Active Job adapter loads when the app boots (a fact about Rails and the adapters'
// gems, read by guide/check/gems.mjs). Any one of the listed gems in Gemfile.lock satisfies it; an adapter not
// listed here is not judged (JDBC, third-party adapters). Sources: each adapter's first lines in Rails
// (activerecord/lib/active_record/connection_adapters/*_adapter.rb: `gem "pg", "~> 1.1"`, `gem "mysql2"`,
// `gem "trilogy"`, `gem "sqlite3"`), activejob/lib/active_job/queue_adapters/*.rb (`require "sidekiq"` …), and the
// job gems that ship their own adapter (solid_queue, good_job).

export const DATABASE_ADAPTER_GEMS = {
  postgresql: ['pg'],
  postgis: ['activerecord-postgis-adapter'],
  mysql2: ['mysql2'],
  trilogy: ['trilogy'],
  sqlite3: ['sqlite3'],
  mysql: ['mysql'],
  sqlserver: ['activerecord-sqlserver-adapter'],
  oracle_enhanced: ['activerecord-oracle_enhanced-adapter'],
};

// Active Job's built-in adapters (async, inline, test) need no gem.
export const QUEUE_ADAPTER_GEMS = {
  solid_queue: ['solid_queue'],
  sidekiq: ['sidekiq'],
  good_job: ['good_job'],
  resque: ['resque'],
  delayed_job: ['delayed_job'],
  que: ['que'],
  sneakers: ['sneakers', 'kicks'],
  sucker_punch: ['sucker_punch'],
  backburner: ['backburner'],
  queue_classic: ['queue_classic'],
};
