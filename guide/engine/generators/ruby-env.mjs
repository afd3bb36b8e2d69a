// config/ruby.env: GC, JIT and allocator environment for the exact Ruby implementation and version.
// Only variables the chosen interpreter reads are emitted (capabilities/ruby.mjs GC_ERAS[].reads).
import { GC_ERAS, JIT } from '../capabilities/ruby.mjs';
import { RAILS_API } from '../capabilities/rails.mjs';
import { SRC, DS, ART } from '../evidence.mjs';
import { has, namesAt } from '../pick.mjs';
import { inRange, gte } from '../version.mjs';
import { SERVER_LABEL } from './util.mjs';

export const id = 'ruby-env';

export function gcEra(ctx) {
  if (!ctx.mri) return null;
  return GC_ERAS.find((e) => e.impl === ctx.a.ruby && inRange(ctx.a.ruby_version, e)) || null;
}

/** Variable names the interpreter reads (empty for non-MRI GCs). */
export function gcVarsRead(ctx) {
  const era = gcEra(ctx);
  return era ? namesAt(era.reads, ctx.a.ruby_version) : [];
}

function gcEntries(ctx) {
  const era = gcEra(ctx);
  const v = ctx.a.ruby_version;
  const out = [];
  if (!ctx.mri) {
    out.push({ comment: `${ctx.impl.label} does not use CRuby's garbage collector: RUBY_GC_* / RUBY_HEAP_* variables and YJIT flags do not apply.` });
    if (ctx.a.ruby === 'jruby') {
      const heap = Math.max(512, Math.round(ctx.perWorkerMb * 0.75));
      out.push({ key: 'JAVA_OPTS', value: `-Xmx${heap}m`, why: `JVM heap ceiling, about three quarters of the ${ctx.perWorkerMb} MB budgeted for the process (an estimate: measure and adjust).`, evidence: [SRC.pumaDeploy] });
    }
    return out;
  }
  switch (era.id) {
    case 'ree':
      out.push(
        { comment: 'REE reads the railsbench GC-patch variables. Values: the thesis\u2019 tuned set (Appendix C), which cut the benchmark suite time by 13.2 % and memory from 30.81 to 29.09 MB. Definitions follow section 5.2.2.2 (Appendix H.2 swaps the first two).' },
        { key: 'RUBY_HEAP_MIN_SLOTS', value: 500000, why: 'Initial (and minimum) heap size in slots; default 10000. A large initial heap avoids many GC runs while Rails boots.', evidence: [DS.gcTuning, SRC.reeGc, ART.gc] },
        { key: 'RUBY_HEAP_SLOTS_INCREMENT', value: 500000, why: 'Slots added when the heap grows; default 10000.', evidence: [DS.gcTuning, SRC.reeGc] },
        { key: 'RUBY_HEAP_SLOTS_GROWTH_FACTOR', value: 1.1, why: 'Multiplier for the next heap increment; default 1.8.', evidence: [DS.gcTuning, SRC.reeGc] },
        { key: 'RUBY_GC_MALLOC_LIMIT', value: 40000000, why: 'Bytes of malloc\u2019d memory allowed before a GC is forced (the thesis calls it a number of C structures; it is bytes). Default 8000000.', evidence: [DS.gcTuning, SRC.reeGc] },
        { key: 'RUBY_HEAP_FREE_MIN', value: 100000, why: 'Free slots required after a GC before a new heap is allocated; default 4096.', evidence: [DS.gcTuning, SRC.reeGc] },
      );
      break;
    case 'mri-18':
      out.push({ comment: `Stock CRuby ${v} has its GC parameters compiled in and reads no GC environment variables (they needed the railsbench patch or REE). The thesis' five variables do nothing here.` });
      break;
    case 'mri-193':
      out.push(
        { comment: `CRuby ${v} reads exactly three GC variables; RUBY_HEAP_SLOTS_INCREMENT, RUBY_HEAP_SLOTS_GROWTH_FACTOR and RUBY_HEAP_FREE_MIN are REE names and are ignored.` },
        { key: 'RUBY_HEAP_MIN_SLOTS', value: 500000, why: 'Initial heap slots (default 10000): fewer GC runs while Rails boots. Value from the thesis\u2019 tuned set.', evidence: [DS.gcTuning, SRC.gc193] },
        { key: 'RUBY_FREE_MIN', value: 100000, why: 'Free slots required after GC (REE called it RUBY_HEAP_FREE_MIN).', evidence: [DS.gcTuning, SRC.gc193] },
        { key: 'RUBY_GC_MALLOC_LIMIT', value: 40000000, why: 'Bytes of malloc\u2019d memory before a GC is forced (default 8000000).', evidence: [DS.gcTuning, SRC.gc193] },
      );
      break;
    case 'rgengc':
      out.push(
        { comment: `CRuby ${v} has a generational GC that adapts its malloc limits by itself; the 2010 values are not a substitute for measuring (GC.stat).` },
        { key: 'RUBY_GC_HEAP_INIT_SLOTS', value: 600000, why: 'The 2.1+ name of RUBY_HEAP_MIN_SLOTS: start with a heap large enough for a booted Rails app so boot does not run dozens of GCs. Check GC.stat[:heap_live_slots] after boot and adjust.', evidence: [DS.gcTuning, SRC.rubyNews('2.1.0'), ART.gc] },
      );
      break;
    default: // per-heap, 3.3+
      out.push(
        { comment: `CRuby ${v}: RUBY_GC_HEAP_INIT_SLOTS was removed in 3.3; initial sizes are per heap (RUBY_GC_HEAP_<n>_INIT_SLOTS). Derive them from GC.stat_heap of a warmed-up worker, e.g. with Shopify's autotuner, rather than copying numbers.` },
      );
      if (namesAt(era.reads, v).includes('RUBY_GC_HEAP_0_INIT_SLOTS')) {
        out.push({ key: 'RUBY_GC_HEAP_0_INIT_SLOTS', value: 100000, commented: true, why: 'Example only (commented out): heap 0 holds the smallest objects. Replace with GC.stat_heap(0, :heap_eden_slots) measured after boot.', evidence: [SRC.autotuner, SRC.rubyNews('3.3.0')] });
      }
  }
  return out;
}

function jitEntries(ctx) {
  const { a } = ctx;
  const out = [];
  if (a.ruby !== 'cruby') return out;
  const v = a.ruby_version;
  if (inRange(v, JIT.mjit)) {
    out.push({ comment: 'MJIT (--jit) is not enabled: it made Rails slower in the measured benchmarks.' });
  }
  if (ctx.yjitProduction) {
    if (has(RAILS_API.configYjit, a.rails) && gte(v, '3.3')) {
      out.push({ comment: `YJIT: Rails ${a.rails} enables it from config.yjit (load_defaults 7.2) on Ruby 3.3+, so no variable is needed.` });
    } else {
      out.push({ key: 'RUBY_YJIT_ENABLE', value: 1, why: `YJIT is production-ready from Ruby 3.2 (Rails 7.2 reports 15–25 % lower latency). Costs memory: about ${ctx.yjitMbPerProcess} MB per process, included in the memory budget.`, evidence: [SRC.rubyNews('3.2.0'), SRC.yjitDoc, SRC.railsRelease('7.2'), ART.jit] });
    }
  } else if (ctx.yjitAvailable) {
    out.push({ comment: `YJIT exists in Ruby ${v} but is experimental there; not enabled.` });
  }
  return out;
}

function allocatorEntries(ctx) {
  const out = [];
  if (!ctx.linux || ctx.a.ruby !== 'cruby') return out;
  if (!gte(ctx.lang, '1.9')) {
    out.push({ comment: 'Ruby 1.8 runs all Ruby threads on one OS thread, so glibc malloc arenas (MALLOC_ARENA_MAX) are not an issue.' });
    return out;
  }
  const threaded = ['puma', 'falcon', 'webrick'].includes(ctx.server);
  out.push({ key: 'MALLOC_ARENA_MAX', value: 2, why: `glibc creates up to 8 malloc arenas per core for threaded processes, which fragments Ruby\u2019s memory${threaded ? '' : ` (${SERVER_LABEL[ctx.server]} runs one request per process, so the gain is smaller)`}; Heroku sets 2 for all Ruby apps. Has no effect when jemalloc is preloaded.`, evidence: [SRC.heroku] });
  const triplet = ctx.a.arch === 'arm64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu';
  out.push({ key: 'LD_PRELOAD', value: `/usr/lib/${triplet}/libjemalloc.so.2`, commented: true, why: 'Alternative: preload jemalloc (Debian package libjemalloc2), as Rails 7.2+ Dockerfiles do; it sped up Rails Ruby Bench.', evidence: [DS.stackprof, SRC.railsRelease('7.2')] });
  return out;
}

export function envEntries(ctx) {
  const { a } = ctx;
  const out = [{ key: 'RAILS_ENV', value: 'production' }];
  if (['puma', 'falcon', 'webrick'].includes(ctx.server)) {
    out.push({ key: 'RAILS_MAX_THREADS', value: ctx.threads, why: 'Read by config/puma.rb and database.yml (pool), so both stay equal.', evidence: [SRC.railsPumaTemplate] });
  }
  if (ctx.server === 'puma' && ctx.mode === 'cluster') out.push({ key: 'WEB_CONCURRENCY', value: ctx.processes, why: 'Worker processes (read by config/puma.rb).', evidence: [SRC.pumaDeploy] });
  out.push({ blank: true }, ...gcEntries(ctx));
  const jit = jitEntries(ctx);
  if (jit.length) out.push({ blank: true }, ...jit);
  const alloc = allocatorEntries(ctx);
  if (alloc.length) out.push({ blank: true }, ...alloc);
  void a;
  return out;
}

export function generate(ctx) {
  return { files: [{ path: 'config/ruby.env', format: 'env', body: envEntries(ctx) }] };
}
