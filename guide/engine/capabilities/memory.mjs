// How forking app servers share memory: what the memory budget (memory-budget.mjs) counts once and what it counts
// per worker. Read through caps.mjs as FORK_MEMORY ("cap.fork-memory" in catalog-memory.mjs).
//
// The budget is a PSS budget: the expected sum of the Pss of every process (/proc/PID/smaps_rollup), where a page
// shared by k processes counts 1/k in each and so exactly once in the sum. A server that boots the app once and
// forks its workers from that booted copy (the "template") holds one whole copy (worker_mb) in the template; each
// worker adds only the pages it writes after the fork, privateShare × worker_mb. The template is:
// - Puma's master in cluster mode with preload_app!, which this bundle always writes (Puma README "Clustered mode":
//   preloading "reduces total memory usage … via … copy-on-write (Ruby 2.0+ only)"; docs/deployment.md);
// - Unicorn's master with `preload_app true` (Unicorn::Configurator#preload_app: "memory savings when using a
//   copy-on-write-friendly GC");
// - Pitchfork's mold, a process of its own that loads the app and forks the workers, while the master monitors and
//   never loads the app (docs/REFORKING.md). Its master is `monitorMb`: the lab measured 33 MiB RSS (20 MiB PSS) for
//   it (raw-output/rebench-2026-app-servers/007-pitchfork-r1-api.pss.csv), rounded up to 64 MB like the proxy lines;
// - Passenger's preloader with smart spawning, which the bundle sets wherever the Ruby forks (Passenger's
//   PassengerSpawnMethod reference: the smart method loads the app once in a preloader process and forks the app
//   processes from it); the bundle keeps the preloader alive (PassengerMaxPreloaderIdleTime 0).
// Servers not in `servers` (Falcon, Thin, Mongrel, WEBrick, single-mode Puma) and the JVM implementations keep the
// plain count: every process a whole copy.
//
// privateShare: the lab's reference app (Rails 8.1, Puma 8, 2 workers after 10 s of load) grew from one process
// alone to master + 2 workers by about half a copy per worker (rebench-2026-bundle-vs-defaults-2core: pss_total_mib of
// the two configurations; tests/wizard/memory-model.test.mjs derives it from the dataset's cells). The budget counts
// three quarters: shared pages erode as workers age (lazily filled inline caches, YJIT code, memoised values and GC
// writes dirty them: Pitchfork docs/REFORKING.md), so a worker drifts towards a whole copy; the test keeps the
// budget within 35 % above the measured PSS of the default bundle and never below it.
// copyOnWrite: Ruby versions whose GC leaves shared pages alone. CRuby 2.0 moved the mark bits out of the objects
// into a bitmap (bitmap marking, Ruby 2.0.0); before it a worker's first GC wrote to every page it marked,
// so a worker was a whole copy again (privateShare 1). REE had its own copy-on-write-friendly GC
// (GC.copy_on_write_friendly, which the Unicorn bundle turns on).
//
// Job runners are counted the same way only where their own source says the app is booted before the fork:
// - Solid Queue's `bin/jobs start` in its default fork mode: bin/jobs requires config/environment (the whole app,
//   eager-loaded in production) before SolidQueue::Cli.start (lib/generators/solid_queue/install/templates/bin/jobs),
//   and the supervisor then forks each worker, the dispatcher and the scheduler from itself (README "Fork vs. async
//   mode": "the supervisor will fork a separate process for each supervised worker/dispatcher/scheduler"; "Lifecycle
//   hooks": `start` runs "after the supervisor has finished booting and right before it forks workers and
//   dispatchers"; checked in rails/solid_queue v1.5.0). So the supervisor holds one copy and each of the job_processes
//   workers its private share. The dispatcher and the scheduler are forked too but poll and run no jobs: they are
//   counted with the supervisor's copy, as the whole-copy count did before (their PSS was not measured separately).
// - Sidekiq (`sidekiq`), GoodJob (`good_job start`) and Delayed Job (`rake jobs:work`) run one process per unit that
//   loads the app itself and forks nothing: each is a whole copy, as before.
export const FORK_MEMORY = {
  privateShare: 0.75,
  copyOnWrite: { cruby: '2.0', ree: '0' },
  servers: {
    puma: { template: 'master', mode: 'cluster' },
    unicorn: { template: 'master' },
    pitchfork: { template: 'mold', monitorMb: 64 },
    passenger: { template: 'preloader' },
  },
  jobs: {
    solid_queue: { template: 'supervisor', sources: ['solidQueueFork'] },
  },
};

// The app's memory ceiling (generators/memory-ceiling.mjs, SRE check 5, D9): what systemd and the kernel do when a
// leaking Ruby process grows past the plan.
// - MemoryMax= (systemd.resource-control): the unit's cgroup limit (cgroup v2 memory.max; RHEL 8's cgroup v1 gets
//   memory.limit_in_bytes, Red Hat's "Configuring memory resource control settings with unit files"). Past it the
//   kernel first reclaims the cgroup's page cache, then OOM-kills a process inside that cgroup only.
// - No MemoryHigh=: above it the kernel throttles the cgroup's allocations and reclaims hard but never kills
//   (kernel admin guide, cgroup-v2 memory.high); without swap a Ruby heap cannot be reclaimed, so a leaking worker
//   would stall every request it holds instead of being replaced.
// - OOMPolicy= (systemd.service, systemd 243+): the default `stop` stops the whole unit when the kernel kills one of
//   its processes; `continue` leaves Puma's, Unicorn's or Pitchfork's master to replace the killed worker. Older
//   systemd (RHEL 8's 239) ignores the unknown key with a warning and never stopped the unit on an OOM kill.
// - OOMScoreAdjust= (systemd.exec, the kernel's oom_score_adj, -1000…1000): where the host runs out anyway (several
//   units leaking at once), the kernel kills the process with the highest score. Debian's postgresql@.service sets
//   -900 on the postmaster only and its backends go back to 0 (PostgreSQL docs "Linux Memory Overcommit": a killed
//   backend makes the postmaster end every session and recover); +500 puts any Ruby process of the app ahead of a
//   backend holding less than half the RAM (the score is the share of RAM in thousandths plus the adjustment).
// web, jobs: the memory plan's lines (memory-budget.mjs kinds) each unit holds; the rest belongs to other services.
export const MEMORY_CEILING = {
  oomScoreAdjust: 500, oomPolicy: 'continue', oomPolicySince: 243,
  web: ['monitor', 'master', 'workers', 'jit', 'handover'], jobs: ['jobs-template', 'jobs'],
  // Passenger inside Apache (limits.mjs): the app's processes live in Apache's unit, with Apache's own line.
  apache: ['monitor', 'master', 'workers', 'jit', 'handover', 'proxy'],
};
