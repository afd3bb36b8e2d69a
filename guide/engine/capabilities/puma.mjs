// Puma DSL names per Puma version (config-facts §4.1; puma/puma History.md, docs/7.0-Upgrade.md, lib/puma/dsl.rb).
// since inclusive, until exclusive (removed). Names without a range exist in every Puma version we generate for (≥ 3.0).

export const PUMA_DSL = {
  environment: {},
  directory: {},
  bind: {},
  threads: {},
  workers: {},
  'preload_app!': {},
  pidfile: {},
  state_path: {},
  worker_timeout: {},
  worker_boot_timeout: {},
  worker_shutdown_timeout: {},
  persistent_timeout: {},
  first_data_timeout: {},
  plugin: {},
  tag: {},
  // `rackup DefaultRackup` (Heroku's old puma.rb): the constant went in Puma 6.0 (puma PR #2928), so the line raises
  // NameError and Puma does not boot (errbit reverted its Puma 6 bump for it, errbit PR #1686). Puma reads config.ru
  // from the directory by default: the fix is to delete the line.
  rackup: { removedArgs: [{ value: 'DefaultRackup', until: '6.0', fix: 'delete the line (Puma loads config.ru by default)', url: 'https://github.com/puma/puma/pull/2928' }] },
  // Puma 7 and 8 still run the old hook names and warn "will be removed in Puma v9" (lib/puma.rb deprecate_method_change, 8.0.2).
  on_worker_boot: { until: '9.0', deprecatedSince: '7.0', replacement: 'before_worker_boot' },
  before_worker_boot: { since: '7.0' },
  before_fork: {},
  on_restart: { until: '9.0', deprecatedSince: '7.0', replacement: 'before_restart' },
  fork_worker: { since: '5.0' },
  nakayoshi_fork: { since: '5.0', until: '6.0' },
  wait_for_less_busy_worker: { since: '5.0' },
  silence_single_worker_warning: { since: '5.0' },
};

export const PUMA_FACTS = {
  // Threads when neither a config's `threads` nor `-t` sets them (lib/puma/configuration.rb: 0:16 up to 4.3, 0:5 on MRI
  // since 5.0 through 8.0); since 5.0 the default max comes from PUMA_MAX_THREADS or MAX_THREADS when set.
  defaultMaxThreadsMri: [{ until: '5.0', value: 16 }, { since: '5.0', value: 5 }],
  maxThreadsEnv: { since: '5.0', names: ['PUMA_MAX_THREADS', 'MAX_THREADS'] },
  preloadDefaultInCluster: { since: '7.0' },
  requiredRuby: [{ since: '7.0', ruby: '3.0' }, { since: '6.0', ruby: '2.4' }, { since: '5.0', ruby: '2.2' }],
  webConcurrencyAuto: { since: '6.5' }, // History.md 6.5.0: "Set the worker process count automatically when using WEB_CONCURRENCY=auto" (#3439)
  workersAuto: { since: '7.2' }, // `workers :auto` in the DSL: v7.2.0 release notes; docs/deployment.md recommends it
};
