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

// Commands a Procfile, Dockerfile, Kamal role or Compose service runs to work jobs, and the gem that defines them
// (read by guide/check/deploy.mjs; only judged when Gemfile.lock is read). `task` is the rake task (a task of that
// name in lib/tasks/*.rake or the Rakefile counts as defined by the app); `bin` an executable the gem installs.
// Sources: delayed_job lib/delayed/tasks.rb (`namespace :jobs … task :work`, loaded by its Railtie), resque
// lib/resque/tasks.rb (`namespace :resque … task :work`, `:workers`), resque-scheduler lib/resque/scheduler/tasks.rb
// (`resque:scheduler`), solid_queue lib/solid_queue/tasks.rb (`solid_queue:start`) and its generated bin/jobs
// (`require "solid_queue/cli"`), the sidekiq, good_job and resque-pool gems' executables.
export const JOB_COMMANDS = [
  { task: 'jobs:work', gems: ['delayed_job'], runner: 'Delayed Job' },
  { task: 'jobs:workoff', gems: ['delayed_job'], runner: 'Delayed Job' },
  { task: 'resque:work', gems: ['resque'], runner: 'Resque' },
  { task: 'resque:workers', gems: ['resque'], runner: 'Resque' },
  { task: 'resque:scheduler', gems: ['resque-scheduler'], runner: 'resque-scheduler' },
  { task: 'solid_queue:start', gems: ['solid_queue'], runner: 'Solid Queue' },
  { bin: 'bin/jobs', gems: ['solid_queue'], runner: 'Solid Queue', binRequires: /solid_queue/ },
  { bin: 'sidekiq', gems: ['sidekiq'], runner: 'Sidekiq' },
  { bin: 'good_job', gems: ['good_job'], runner: 'GoodJob' },
  { bin: 'resque-pool', gems: ['resque-pool'], runner: 'resque-pool' },
];

// Job runners that are executables, not rake tasks, run as a task by mistake (`worker: bin/rake sidekiq`, spree_starter
// e8555a8 "Replace solid_queue with sidekiq": rake stops with "Don't know how to build task 'sidekiq'"). Sources: the
// sidekiq gem ships no .rake file and its Railtie (lib/sidekiq/rails.rb) defines no rake_tasks; its worker is
// `bin/sidekiq` (gemspec executables). Only the gem's own tasks are known here, not every gem's of a bundle.
export const NOT_RAKE_TASKS = [
  { task: 'sidekiq', gem: 'sidekiq', run: 'bundle exec sidekiq', runner: 'Sidekiq' },
];

// App servers a deployment command starts through `bundle exec` (Procfile web:, a Dockerfile CMD, Kamal, Compose), and
// the gem whose executable it is: under `bundle exec`, Bundler runs only executables of gems in the bundle ("bundler:
// command not found"), so the web process never starts (alphagov/email-alert-api 2023-04: a Procfile still ran
// Unicorn after the Gemfile moved to Puma). Sources: each gem's gemspec `executables`.
export const SERVER_COMMANDS = [
  { bin: 'unicorn', gems: ['unicorn'], runner: 'Unicorn' },
  { bin: 'unicorn_rails', gems: ['unicorn'], runner: 'Unicorn' },
  { bin: 'puma', gems: ['puma'], runner: 'Puma' },
  { bin: 'pitchfork', gems: ['pitchfork'], runner: 'Pitchfork' },
  { bin: 'thin', gems: ['thin'], runner: 'Thin' },
  { bin: 'falcon', gems: ['falcon'], runner: 'Falcon' },
  { bin: 'passenger', gems: ['passenger'], runner: 'Passenger' },
  { bin: 'thrust', gems: ['thruster'], runner: 'Thruster' },
];
