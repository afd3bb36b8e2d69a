// Background job runners as data: command, database pool rule, stop behaviour (sources in the catalog).
// poolPlus: connections a job process holds beyond one per thread on the database that keeps the jobs.
// Read by the engine through caps.mjs (the catalog carries it as "cap.job-runners", JSON on the page).

export const JOB_RUNNERS = {
  solid_queue: {
    label: 'Solid Queue', railsSince: '7.1', command: 'bin/jobs start', gem: 'solid_queue',
    // README "Threads, processes and signals": each worker thread uses one connection, two more for polling and heartbeat.
    poolPlus: 2,
    extraProcesses: 1, // the supervisor (dispatcher and scheduler run as forked processes; counted with it)
    stopSignal: 'SIGTERM', stopTimeout: 5, // SolidQueue.shutdown_timeout default 5 s
    notify: false, threaded: true,
    // The smaller plan for small hosts (guide/engine/small-host.mjs): the Puma plugin runs the supervisor, its
    // worker, dispatcher and scheduler as threads of the Puma process (README "Puma plugin", "Running as a fork or
    // asynchronously": `solid_queue_mode :async`, in solid_queue since 1.3.0; the default fork mode forks a process
    // for each of them, which a 1–2 GB host cannot afford). Rails 8's puma.rb has the plugin line.
    // `noFork`: the plan from the start where the Ruby cannot fork (JRuby, TruffleRuby: capabilities/ruby.mjs fork:
    // false), whatever the RAM: the fork mode's supervisor calls fork and stops with "NotImplementedError: fork is
    // not available on this platform" on JRuby (rails/solid_queue issue #374), and JRuby's lead names fork
    // "impossible to support on JRuby and TruffleRuby" (issue #679). The async mode came back in solid_queue 1.3.0
    // (pull request #644; 1.3.1 fixed a bug in it, issue #330): one JVM runs requests and jobs.
    inPuma: { maxRamMb: 2048, railsSince: '8.0', gemSince: '1.3.0', mode: 'async', env: 'SOLID_QUEUE_IN_PUMA',
      noFork: true,
      controlConnections: 6 }, // supervisor, dispatcher and scheduler: 2 each, as for bin/jobs (derive.mjs jobSizing)
  },
  sidekiq: {
    label: 'Sidekiq', railsSince: '6.0', command: 'bundle exec sidekiq -e production -C config/sidekiq.yml', gem: 'sidekiq',
    poolPlus: 0, // jobs live in Redis
    extraProcesses: 0,
    stopSignal: 'SIGTERM', stopTimeout: 25, // Sidekiq waits 25 s (-t) for jobs, then pushes them back to Redis
    notify: { since: '6.0.6' }, threaded: true, // Sidekiq::SdNotify: Type=notify and WatchdogSec
    // Quiet (stop fetching new jobs, finish the running ones) is TSTP; it loads no new code and lasts until the process
    // stops, so it is no ExecReload: a `systemctl reload` would leave the runner idle for good. Sidekiq's own unit
    // (sidekiq/sidekiq examples/systemd/sidekiq.service, commit 0aaaf0717828a608fb62d2a5f7d64989d2c7d4ae, LGPL-3.0) has
    // no ExecReload and says "Use `systemctl kill -s TSTP sidekiq` to quiet the Sidekiq process"; the unit says the same.
    quiet: { signal: 'TSTP' },
    // Threads when neither sidekiq.yml nor -c sets concurrency: RAILS_MAX_THREADS when set (cli.rb reads it since
    // 4.2.0: `opts[:concurrency] = Integer(ENV["RAILS_MAX_THREADS"]) if …`, absent from 4.0/4.1), else the version's
    // default in lib/sidekiq.rb DEFAULTS (read at the tags in sidekiq/sidekiq): concurrency: 25 up to 5.1.x, 10 from
    // 5.2.0 (6.x too), and 5 from 7.0 (lib/sidekiq/config.rb). An app on Sidekiq 4 or 5.0 with no concurrency runs 25.
    railsMaxThreadsSince: '4.2',
    defaultConcurrency: [{ until: '5.2', value: 25 }, { since: '5.2', until: '7.0', value: 10 }, { since: '7.0', value: 5 }],
  },
  good_job: {
    label: 'GoodJob', railsSince: '6.1', command: 'bundle exec good_job start', gem: 'good_job',
    // GoodJob keeps jobs in the primary database: execution threads plus its LISTEN/NOTIFY listener, the cron
    // scheduler and one spare (GoodJob README, "Database connections"; an upper bound).
    poolPlus: 3,
    extraProcesses: 0,
    // GOOD_JOB_SHUTDOWN_TIMEOUT's default -1 waits forever for running jobs: jobs.env sets stopTimeout, so GoodJob
    // exits by itself before systemd's SIGKILL (TimeoutStopSec = stopTimeout + 10).
    stopSignal: 'SIGTERM', stopTimeout: 25,
    // GoodJob::SystemdService (CLI, since 3.17.0, CHANGELOG #1027/#1029): READY=1, STOPPING=1 and WATCHDOG=1 every
    // half WATCHDOG_USEC; tests/wizard/lab-goodjob-dj.test.mjs sees READY=1 from good_job 4.23 in the lab.
    notify: { since: '3.17.0' }, threaded: true,
  },
  delayed_job: {
    label: 'Delayed Job', railsSince: '3.0', command: 'bundle exec rake jobs:work', gem: 'delayed_job_active_record',
    poolPlus: 0,
    extraProcesses: 0,
    stopSignal: 'SIGTERM', stopTimeout: 30, // finishes the current job, then exits
    notify: false, threaded: false,
  },
};

// What a GoodJob process counts against its database pool, for the doctor (guide/check/good-job.mjs; not in the
// page's catalog): lib/good_job/configuration.rb total_estimated_threads adds 1 for the notifier (LISTEN/NOTIFY) and
// 2 for cron when enable_cron is on to the schedulers' max_threads, and logs a warning when the sum exceeds Active
// Record's pool; the README's pool for worker processes is `1 + 2 + GOOD_JOB_MAX_THREADS`. Configuration#max_threads:
// --max-threads, config.good_job.max_threads, then these variables, else 5; the CLI runs in :external mode whatever
// execution_mode says (CLI.within_exe?).
export const GOOD_JOB_CONNECTIONS = { notifier: 1, cron: 2, maxThreadsEnv: ['GOOD_JOB_MAX_THREADS', 'RAILS_MAX_THREADS'], defaultMaxThreads: 5 };
