// Capability tables as the engine modules see them. The tables are written in capabilities/*.mjs; the catalog
// carries them as "cap.<id>" (catalog-versions.mjs), so on the page they arrive with the words as JSON instead of
// in the JavaScript bundle (40 KB budget). Each export reads the installed table on every property access, so
// `RAILS_API.loadAsync`, `rows.find(…)` and `for (const r of rows)` work as on the original objects.
import { cap } from './text.mjs';

const lazy = (id) => new Proxy({}, {
  get(_, k) {
    const table = cap(id);
    const v = table[k];
    return typeof v === 'function' ? v.bind(table) : v;
  },
  has: (_, k) => k in cap(id),
});

export const RAILS_API = lazy('rails-api');
export const RESTART_ONLY = lazy('restart-only');
export const RAILS_MIN_RUBY = lazy('rails-min-ruby');
export const RAILS_PUMA_THREADS = lazy('rails-puma-threads');
// Issue 24: the commands run inside the app per Rails version, and Bundler's settings per Ruby.
export const RAILS_COMMANDS = lazy('rails-commands');
export const BUNDLER_SETTINGS = lazy('bundler-settings');
export const REDIS_FACTS = lazy('redis-facts');
export const RAILS_RUBY_BREAKS = lazy('rails-ruby-breaks');
export const PUMA_DSL = lazy('puma-dsl');
export const PUMA_FACTS = lazy('puma-facts');
export const FEATURES = lazy('features');
export const KERNEL_FEATURES = lazy('kernel-features');
export const IO_SCHEDULERS = lazy('io-schedulers');
export const SYSCTL_KEYS = lazy('sysctl-keys');
export const NEVER_EMIT = lazy('sysctl-never');
export const LIFECYCLE = lazy('lifecycle');
export const NGINX = lazy('nginx');
export const NGINX_MODULES_INCLUDE = lazy('nginx-modules');
export const PASSENGER_APACHE = lazy('passenger-apache');
export const PASSENGER_STANDALONE = lazy('passenger-standalone');
export const IMPLEMENTATIONS = lazy('implementations');
export const JIT = lazy('jit');
export const GC_ERAS = lazy('gc-eras'); // capabilities/ruby.mjs, without evidence
export const DISTRO_FAMILIES = lazy('distro-families');
export const OS_FAMILIES = lazy('os-families');
export const MYSQL_CONF_FILES = lazy('mysql-conf-files');
// Issue 24: per-family command tables and what each release ships.
export const FAMILY_COMMANDS = lazy('family-commands');
export const DISTRO_RELEASES = lazy('distro-releases');
export const CHOICE_VERSIONS = lazy('choice-versions');
// Issue 10 (production edge, job runners, process supervision).
export const NGINX_TLS = lazy('nginx-tls');
export const APACHE_TLS = lazy('apache-tls');
export const CADDY_EDGE = lazy('caddy-edge');
export const MOZILLA = lazy('mozilla-tls');
export const HAPROXY_DEBIAN = lazy('haproxy-debian');
export const EDGE_LIMITS = lazy('edge-limits');
export const LB_ROTATION = lazy('lb-rotation'); // issue 23: rolling deploys behind a balancer
export const JOB_RUNNERS = lazy('job-runners');
export const SERVER_PROCESS = lazy('server-process');
export const SERVER_RAILS = lazy('server-rails');
export const SERVER_RUBY = lazy('server-ruby');
export const LAB_PROOFS = lazy('lab-proofs'); // issue 24: which choices the lab boots, per README // issue 24: the Rails versions a server can run
// Issue 24: what a forking server's processes share (memory-budget.mjs).
export const FORK_MEMORY = lazy('fork-memory');
export const HARDENING = lazy('hardening');
export const SANDBOX = lazy('systemd-sandbox');
