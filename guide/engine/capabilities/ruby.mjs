// Ruby implementation capabilities as data (shared/config-facts.md §1, §2, §4.8, §9).
import { SRC } from '../evidence.mjs';

export const CURRENT_CRUBY = '4.0';

// Language level implemented by non-CRuby versions (used for Rails compatibility checks only).
// JRuby 10 → 3.4 is from config-facts §4.8; the other rows are the compatibility levels announced in the
// respective release notes (approximate: an implementation may lack parts of a language version).
export const IMPLEMENTATIONS = {
// `distroRuby`: the distributions' ruby packages (/usr/bin/ruby, their bundler package's /usr/bin/bundle) are this
// implementation; for the others ruby_path /usr/bin runs the distribution's CRuby instead (trial 24: a JRuby bundle
// on RHEL 9 installed rubygem-bundler and ran Ruby 3.0 with no warning).
  cruby: { label: 'CRuby', fork: true, mriGc: true, dead: false, distroRuby: true, lang: [] },
  ree: { label: 'Ruby Enterprise Edition', fork: true, mriGc: true, dead: true, lang: [{ since: '0', lang: '1.8.7' }] },
  jruby: {
    label: 'JRuby', fork: false, mriGc: false, dead: false,
    lang: [{ since: '10.0', lang: '3.4' }, { since: '9.4', lang: '3.1' }, { since: '9.3', lang: '2.6' },
      { since: '9.2', lang: '2.5' }, { since: '9.1', lang: '2.3' }, { since: '9.0', lang: '2.2' },
      { since: '1.7', lang: '1.9.3' }, { since: '0', lang: '1.8.7' }],
  },
  truffleruby: {
    label: 'TruffleRuby', fork: false, mriGc: false, dead: false,
    lang: [{ since: '25.0', lang: '3.3' }, { since: '24.0', lang: '3.2' }, { since: '23.0', lang: '3.1' },
      { since: '22.0', lang: '3.0' }, { since: '0', lang: '2.7' }],
  },
  rubinius: { label: 'Rubinius', fork: true, mriGc: false, dead: true, lang: [{ since: '2.0', lang: '2.1' }, { since: '0', lang: '1.8.7' }] },
};

/**
 * GC environment variables per era. `reads` is the complete list of variable names that era's interpreter reads
 * (tests check that every emitted variable is in it). Ranges: since inclusive, until exclusive.
 * `comment` and `settings`: what config/ruby.env says and sets for the era (generators/ruby-env.mjs; a setting is
 * emitted only while `reads` has it at the answered version). `why` is a catalog key, `ev` evidence names: "ds:x"
 * a dataset (evidence.mjs DS), "art:x" an article (ART), "news:v" Ruby's NEWS for v, else an SRC key.
 */
export const GC_ERAS = [
  {
    id: 'ree', impl: 'ree', since: '0',
    reads: ['RUBY_HEAP_MIN_SLOTS', 'RUBY_HEAP_SLOTS_INCREMENT', 'RUBY_HEAP_SLOTS_GROWTH_FACTOR', 'RUBY_GC_MALLOC_LIMIT', 'RUBY_HEAP_FREE_MIN'],
    evidence: [SRC.reeGc],
    comment: 'env.14',
    settings: [
      { key: 'RUBY_HEAP_MIN_SLOTS', value: 500000, why: 'env.1', ev: ['ds:gcTuning', 'reeGc', 'art:gc'] },
      { key: 'RUBY_HEAP_SLOTS_INCREMENT', value: 500000, why: 'env.2', ev: ['ds:gcTuning', 'reeGc'] },
      { key: 'RUBY_HEAP_SLOTS_GROWTH_FACTOR', value: 1.1, why: 'env.3', ev: ['ds:gcTuning', 'reeGc'] },
      { key: 'RUBY_GC_MALLOC_LIMIT', value: 40000000, why: 'env.4', ev: ['ds:gcTuning', 'reeGc'] },
      { key: 'RUBY_HEAP_FREE_MIN', value: 100000, why: 'env.5', ev: ['ds:gcTuning', 'reeGc'] },
    ],
  },
  { id: 'mri-18', impl: 'cruby', since: '0', until: '1.9.3', reads: [], evidence: [SRC.gc193], comment: 'env.mri18' },
  {
    id: 'mri-193', impl: 'cruby', since: '1.9.3', until: '2.1',
    reads: ['RUBY_GC_MALLOC_LIMIT', 'RUBY_HEAP_MIN_SLOTS', 'RUBY_FREE_MIN'],
    evidence: [SRC.gc193],
    comment: 'env.mri193',
    settings: [
      { key: 'RUBY_HEAP_MIN_SLOTS', value: 500000, why: 'env.6', ev: ['ds:gcTuning', 'gc193'] },
      { key: 'RUBY_FREE_MIN', value: 100000, why: 'env.7', ev: ['ds:gcTuning', 'gc193'] },
      { key: 'RUBY_GC_MALLOC_LIMIT', value: 40000000, why: 'env.8', ev: ['ds:gcTuning', 'gc193'] },
    ],
  },
  {
    id: 'rgengc', impl: 'cruby', since: '2.1', until: '3.3',
    reads: ['RUBY_GC_HEAP_INIT_SLOTS', 'RUBY_GC_HEAP_FREE_SLOTS', 'RUBY_GC_HEAP_GROWTH_FACTOR', 'RUBY_GC_HEAP_GROWTH_MAX_SLOTS',
      'RUBY_GC_MALLOC_LIMIT', 'RUBY_GC_MALLOC_LIMIT_MAX', 'RUBY_GC_MALLOC_LIMIT_GROWTH_FACTOR', 'RUBY_GC_OLDMALLOC_LIMIT',
      'RUBY_GC_OLDMALLOC_LIMIT_MAX', 'RUBY_GC_OLDMALLOC_LIMIT_GROWTH_FACTOR',
      { name: 'RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR', since: '2.1.1' },
      { name: 'RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO', since: '2.4' }, { name: 'RUBY_GC_HEAP_FREE_SLOTS_GOAL_RATIO', since: '2.4' },
      { name: 'RUBY_GC_HEAP_FREE_SLOTS_MAX_RATIO', since: '2.4' }],
    evidence: [SRC.rubyNews('2.1.0'), SRC.rubyGcC],
    comment: 'env.rgengc',
    settings: [{ key: 'RUBY_GC_HEAP_INIT_SLOTS', value: 600000, why: 'env.9', ev: ['ds:gcTuning', 'news:2.1.0', 'art:gc'] }],
  },
  {
    id: 'per-heap', impl: 'cruby', since: '3.3',
    reads: ['RUBY_GC_HEAP_FREE_SLOTS', 'RUBY_GC_HEAP_GROWTH_FACTOR', 'RUBY_GC_HEAP_GROWTH_MAX_SLOTS', 'RUBY_GC_MALLOC_LIMIT',
      'RUBY_GC_MALLOC_LIMIT_MAX', 'RUBY_GC_MALLOC_LIMIT_GROWTH_FACTOR', 'RUBY_GC_OLDMALLOC_LIMIT', 'RUBY_GC_OLDMALLOC_LIMIT_MAX',
      'RUBY_GC_OLDMALLOC_LIMIT_GROWTH_FACTOR', 'RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR', 'RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO',
      'RUBY_GC_HEAP_FREE_SLOTS_GOAL_RATIO', 'RUBY_GC_HEAP_FREE_SLOTS_MAX_RATIO',
      'RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO',
      // Five heaps on 64-bit builds of 3.3 and 3.4; later versions must read the count from GC.stat_heap.
      { name: 'RUBY_GC_HEAP_0_INIT_SLOTS', until: '3.5' }, { name: 'RUBY_GC_HEAP_1_INIT_SLOTS', until: '3.5' },
      { name: 'RUBY_GC_HEAP_2_INIT_SLOTS', until: '3.5' }, { name: 'RUBY_GC_HEAP_3_INIT_SLOTS', until: '3.5' },
      { name: 'RUBY_GC_HEAP_4_INIT_SLOTS', until: '3.5' }],
    evidence: [SRC.rubyNews('3.3.0'), SRC.rubyGcC],
    comment: 'env.per-heap',
    settings: [{ key: 'RUBY_GC_HEAP_0_INIT_SLOTS', value: 100000, commented: true, why: 'env.10', ev: ['autotuner', 'news:3.3.0'] }],
  },
];

// JIT capabilities (config-facts §2).
export const JIT = {
  mjit: { impl: 'cruby', since: '2.6', until: '3.3' },
  yjit: { impl: 'cruby', since: '3.1', production: '3.2', arm64Since: '3.2' },
  yjitEnv: { impl: 'cruby', since: '3.1' }, // RUBY_YJIT_ENABLE
  // What bounds YJIT's memory, per version, newest first (yjit-memory.mjs reads it). `option`: the command-line
  // option, set through RUBYOPT (ruby.c parses --yjit* in RUBYOPT like on the command line, 3.2 onwards; the lab's
  // 3.4 YJIT build honours it, tests/lab/yjit-mem-bound.test.mjs). `bounds`: 'total' (3.4+ --yjit-mem-size: "soft
  // limit on YJIT memory usage", code and metadata) or 'exec' (--yjit-exec-mem-size: the code block only, and
  // yjit.md puts the total at 3–4× it). `defaultMiB`: the limit when no option is given. `lazy`: the option that
  // keeps YJIT off at boot while the other options apply, for Rails' config.yjit to enable it later (3.3 NEWS:
  // --yjit-disable, "to use other YJIT options while disabling YJIT at boot"); 3.2 has no RubyVM::YJIT.enable.
  // `enableKw`: RubyVM::YJIT.enable(mem_size:) exists (NEWS-4.0.0: "Add mem_size: and call_threshold: options to
  // RubyVM::YJIT.enable"); on 3.4 the lab's Ruby raises "unknown keyword: :mem_size", so Rails 8.1's
  // `config.yjit = { mem_size: … }` (finisher.rb passes the Hash to RubyVM::YJIT.enable) crashes the boot there:
  // the bundle never writes it and uses RUBYOPT on every version.
  yjitMemory: [
    { since: '4.0', option: '--yjit-mem-size', bounds: 'total', defaultMiB: 128, lazy: '--yjit-disable', enableKw: 'mem_size' },
    { since: '3.4', option: '--yjit-mem-size', bounds: 'total', defaultMiB: 128, lazy: '--yjit-disable' },
    // 3.3.0 kept 3.2's 64 MiB; 3.3.1 lowered it to 48 (a bare "3.3" means the current 3.3 release).
    { since: '3.3', option: '--yjit-exec-mem-size', bounds: 'exec', defaultMiB: 48, defaultMiBAt: { '3.3.0': 64 }, lazy: '--yjit-disable' },
    { since: '3.2', option: '--yjit-exec-mem-size', bounds: 'exec', defaultMiB: 64, lazy: null },
  ],
  yjitTotalPerExec: 3.5, // yjit.md "Reducing YJIT Memory Usage": total ≈ 3–4× --yjit-exec-mem-size
  // Small hosts (RAM per app host at most maxRamGb): a total of totalMiB per process instead of the default ceiling
  // (128 MiB on 3.4+, 168 on 3.3). The lab measured 11.2–13.1 MiB more PSS per Puma process with YJIT on the
  // reference app (rebench-2026-app-servers-yjit, smoke grade): 64 MiB keeps 5× that as headroom for a larger app
  // and halves what the budget must hold back per process. With 'exec' the option gets totalMiB / yjitTotalPerExec.
  yjitSmallHost: { maxRamGb: 2, totalMiB: 64 },
  // Distribution builds without YJIT (YJIT needs rustc at build time): Debian's ruby3.3 (trixie) and ruby3.4
  // (experimental) print no +YJIT and have no RubyVM::YJIT, as the lab's interpreters re-run recorded. Only the
  // distribution's own Ruby (bin /usr/bin) is meant; rbenv, ruby-build and the official image build with rustc.
  yjitMissing: [{ distro: '^debian', bin: '/usr/bin', since: '3.3', until: '3.5' }],
};

export const FEATURES = {
  gcCompact: { since: '2.7' },
  autoCompact: { since: '3.0' },
  processWarmup: { since: '3.3' },
  hash19Syntax: { since: '1.9' }, // `key: value` literal syntax
  webrickBundled: { until: '3.0' },
};

// The Docker Official Image for CRuby under the names registries serve it by (Docker Hub `ruby`, `library/ruby`,
// `docker.io/library/ruby` as Rails' generated Dockerfile writes it, registry.docker.com, Amazon ECR's and Google's
// mirrors). Its tags name the Ruby: `3.4.8-slim` is that release, `3.4-alpine` the newest 3.4.x when the image is
// built (hub.docker.com/_/ruby, "Supported tags"). Read by guide/check/ruby-image.mjs; not in the page's catalog.
export const RUBY_IMAGE = /^(?:(?:docker\.io|index\.docker\.io|registry-1\.docker\.io|registry\.docker\.com|public\.ecr\.aws\/docker|mirror\.gcr\.io)\/)?(?:library\/)?ruby$/;
