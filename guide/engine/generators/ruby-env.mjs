// config/ruby.env: GC, JIT and allocator environment for the exact Ruby implementation and version.
// Only variables the chosen interpreter reads are emitted (capabilities/ruby.mjs GC_ERAS[].reads).
import { GC_ERAS, JIT } from '../caps.mjs';
import { SRC, DS, ART } from '../evidence.mjs';
import { namesAt } from '../pick.mjs';
import { inRange, gte } from '../version.mjs';
import { SERVER_LABEL } from './util.mjs';
import { t } from '../text.mjs';
import { railsEnablesYjit } from '../yjit-memory.mjs';

export const id = 'ruby-env';

/** An evidence name of the GC eras table: "ds:x", "art:x", "news:v" or an SRC key. */
const evidenceOf = (e) => {
  const [kind, k] = e.split(':');
  return k === undefined ? SRC[kind] : kind === 'ds' ? DS[k] : kind === 'art' ? ART[k] : SRC.rubyNews(k);
};

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
    out.push({ comment: t('env.non-mri', { impl: ctx.impl.label }) });
    if (ctx.a.ruby === 'jruby') {
      out.push({ key: 'JAVA_OPTS', value: `-Xmx${ctx.jvmHeapMb}m`, why: t(ctx.workerMbMeasured ? 'env.java.heap.measured' : 'env.java.heap', { free: ctx.jvmFreeMb, mb: ctx.a.worker_mb }), evidence: [SRC.jrubyTuning] });
    }
    return out;
  }
  // The era's comment and settings are capability data (capabilities/ruby.mjs GC_ERAS, JSON on the page); none
  // before the catalog has loaded. A setting is written only while the interpreter reads it at this version.
  if (!era) return out;
  out.push({ comment: t(era.comment, { v }) });
  const reads = namesAt(era.reads, v);
  for (const s of era.settings || []) {
    if (reads.includes(s.key)) out.push({ key: s.key, value: s.value, ...(s.commented ? { commented: true } : {}), why: t(s.why), evidence: s.ev.map(evidenceOf) });
  }
  return out;
}

function jitEntries(ctx) {
  const { a } = ctx;
  const out = [];
  if (a.ruby !== 'cruby') return out;
  const v = a.ruby_version;
  if (JIT.mjit && inRange(v, JIT.mjit)) {
    out.push({ comment: t('env.15') });
  }
  if (ctx.yjitProduction) {
    if (railsEnablesYjit(ctx)) {
      out.push({ comment: t('env.yjit-rails', { rails: a.rails }) });
    } else {
      out.push({ key: 'RUBY_YJIT_ENABLE', value: 1, why: t('env.yjit', { mb: ctx.yjitMbPerProcess }), evidence: [SRC.rubyNews('3.2.0'), SRC.yjitDoc, DS.yjitPuma2026, SRC.railsRelease('7.2'), ART.jit] });
    }
    const bound = ctx.yjit?.bound;
    if (bound) {
      const why = t(bound.bounds === 'total' ? 'env.yjit-bound.total' : 'env.yjit-bound.exec', { ram: ctx.a.ram_gb, option: bound.option, value: bound.value, mb: ctx.yjitMbPerProcess })
        + (bound.lazy ? ` ${t('env.yjit-bound.lazy', { lazy: bound.lazy })}` : '');
      out.push({ key: 'RUBYOPT', value: bound.rubyopt, why, evidence: [SRC.yjitDoc, SRC.rubyNews(bound.bounds === 'total' ? '3.4.0' : gte(v, '3.3') ? '3.3.0' : '3.2.0'), DS.yjitPuma2026, ART.jit] });
    }
  } else if (ctx.yjitAvailable) {
    out.push({ comment: t('env.yjit-experimental', { v }) });
  } else if (ctx.yjitNotBuilt) {
    out.push({ comment: t('env.yjit-missing', { v }), evidence: [SRC.debianRubyYjit, SRC.debianRuby34, DS.interpreters2026] });
  }
  return out;
}

function allocatorEntries(ctx) {
  const out = [];
  if (!ctx.linux || ctx.a.ruby !== 'cruby') return out;
  if (!gte(ctx.lang, '1.9')) {
    out.push({ comment: t('env.16') });
    return out;
  }
  const threaded = ['puma', 'falcon', 'webrick'].includes(ctx.server);
  const triplet = ctx.a.arch === 'arm64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu';
  const jemalloc = (ctx.family.jemalloc || '/usr/lib/{triplet}/libjemalloc.so.2').replace('{triplet}', triplet);
  if (ctx.family.libc === 'musl') {
    // musl has no malloc arenas (MALLOC_ARENA_MAX is a glibc variable); its allocator is the one to replace.
    out.push({ key: 'LD_PRELOAD', value: jemalloc, commented: true, why: t('env.musl', { pkg: ctx.family.jemallocPkg }), evidence: [SRC.muslMalloc, SRC.railsRelease('7.2'), DS.stackprof] });
    return out;
  }
  out.push({ key: 'MALLOC_ARENA_MAX', value: 2, why: t('env.arena', { note: threaded ? '' : t('env.arena.single', { server: SERVER_LABEL[ctx.server] }) }), evidence: [SRC.heroku] });
  out.push({ key: 'LD_PRELOAD', value: jemalloc, commented: true, why: t('env.11'), evidence: [SRC.railsRelease('7.2'), DS.stackprof] });
  return out;
}

export function envEntries(ctx) {
  const { a } = ctx;
  const out = [{ key: 'RAILS_ENV', value: 'production' }];
  if (['puma', 'falcon', 'webrick'].includes(ctx.server)) {
    out.push({ key: 'RAILS_MAX_THREADS', value: ctx.threads, why: t('env.12'), evidence: [SRC.railsPumaTemplate] });
  }
  if (ctx.server === 'puma' && ctx.mode === 'cluster') out.push({ key: 'WEB_CONCURRENCY', value: ctx.processes, why: t('env.13'), evidence: [SRC.pumaDeploy] });
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
