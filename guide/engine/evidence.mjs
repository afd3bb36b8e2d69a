// Evidence catalogue: every setting and piece of advice points at one or more of these.
// Dataset pages live at /datasets/<id>/ (ids from shared/seed-datasets.md §9); external sources are the ones
// recorded in shared/config-facts.md.

// Evidence objects carry catalog keys: the label ("ev.<key>", resolved by core.mjs) and, for external sources,
// the URL ("url.<key>"); dataset and article URLs are derived from their ids.
import { t, catalogStamp, hasCatalog, hasText } from './text.mjs';

export const ds = (id) => ({ key: `ds.${id}`, url: `/datasets/${id}/` });
const ext = (key, vars) => {
  let stamp = null;
  let url = '';
  return {
    key: `ev.${key}`,
    ...(vars ? { vars } : {}),
    // Resolved once per installed catalog (every generated file reads it for its "see:" lines).
    get url() {
      if (stamp !== catalogStamp()) { stamp = catalogStamp(); url = t(`url.${key}`, vars); }
      return url;
    },
  };
};

// Plain external sources: SRC.<name> has the label "ev.<name>" and the URL "url.<name>" in the catalog, whose "url.*"
// keys are also the list of names (the page fetches them as JSON instead of carrying a second copy, about 0.9 KB gzip,
// in its JavaScript). With a catalog installed, a name without its URL there is undefined, as a misspelt property of
// a plain object would be; without one (the page before its catalog has loaded) every name answers, with empty words.
// One object per name: evidence keeps its identity across renders (core.mjs caches labels by it).
const FUNCTIONS = {
  rubyNews: (v) => ext('rubyNews', { v }),
  railsRelease: (v) => ext('railsRelease', { v, u: v.replace('.', '_') }),
};
const made = new Map();
const bare = { stamp: null, value: true };
const known = (name) => {
  if (bare.stamp !== catalogStamp()) { bare.stamp = catalogStamp(); bare.value = !hasCatalog(); }
  return bare.value || hasText(`url.${name}`);
};
export const SRC = new Proxy(FUNCTIONS, {
  get(fns, name) {
    if (typeof name !== 'string' || Object.prototype.hasOwnProperty.call(fns, name)) return fns[name];
    if (!known(name)) return undefined;
    if (!made.has(name)) made.set(name, ext(name));
    return made.get(name);
  },
});

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
  interpreters2026: ds('rebench-2026-interpreters'),
  // Puma on the lab's Ruby 3.4 YJIT build, YJIT off and on: PSS per process, the YJIT memory the budget counts.
  yjitPuma2026: ds('rebench-2026-app-servers-yjit'),
  // PSS of one process and of master + workers of the reference app: the memory model's measured side (the first
  // bundle-vs-defaults run, which answered the wizard with 2 cores: its throughput design was flawed, its PSS is not).
  bundleVsDefaults: ds('rebench-2026-bundle-vs-defaults-2core'),
  appServers2026: ds('rebench-2026-app-servers'),
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
  jobs: art('background-jobs'),
  timeouts: art('timeouts-and-overload'),
  observability: art('observability'),
  scalingDb: art('scaling-the-database'),
};
