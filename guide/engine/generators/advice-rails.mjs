// Rails coding and operations advice in the API spelling of the chosen Rails (and Ruby) version, with the
// measured effects. Words come from the catalog ("a.<id>…").
import { RAILS_API, FEATURES, JIT } from '../caps.mjs';
import { SRC, DS, ART } from '../evidence.mjs';
import { has } from '../pick.mjs';
import { gte, inRange } from '../version.mjs';
import { t } from '../text.mjs';

export const id = 'advice-rails';

/** `key: value` on Ruby ≥ 1.9, `:key => value` before. */
export function hashArg(ctx, key, value) {
  return has(FEATURES.hash19Syntax, ctx.lang) ? `${key}: ${value}` : `:${key} => ${value}`;
}

const A = (id, parts, vars, evidence, titleKey = id) => ({
  id, title: t(`a.${titleKey}.title`, vars), body: parts.filter(Boolean).map((p) => t(`a.${p}`, vars)).join(' '), evidence,
});

export const ADVICE_RULES = [
  function eagerLoading(ctx) {
    const r = ctx.a.rails;
    const rel = has(RAILS_API.includesRelation, r);
    return A('rails-eager-loading', [rel ? 'eager.relation' : 'eager.finder', rel && 'eager.variants', has(RAILS_API.strictLoading, r) ? 'eager.strict' : 'eager.strict-later', 'eager.effect'], { rails: r }, [DS.eager, SRC.railsQuery, ART.railsCode]);
  },
  function transactions(ctx) {
    return A('rails-transactions', ['tx.body', has(RAILS_API.insertAll, ctx.a.rails) ? 'tx.insert-all' : 'tx.insert-all-later'], {}, [DS.transactions, ART.railsCode]);
  },
  function batches(ctx) {
    const r = ctx.a.rails;
    if (!has(RAILS_API.findEach, r)) return A('rails-batches', ['batches.none'], { rails: r }, [DS.findEach]);
    return A('rails-batches', ['batches.find-each', has(RAILS_API.inBatches, r) && 'batches.in-batches', 'batches.limits'], { arg: hashArg(ctx, 'batch_size', 1000) }, [DS.findEach, SRC.railsQuery, ART.railsCode]);
  },
  function finders(ctx) {
    const r = ctx.a.rails;
    const modern = has(RAILS_API.findBy, r);
    return A('rails-finders', [modern ? 'finders.find-by' : 'finders.old'], { rails: r, arg: hashArg(ctx, 'created_at', 'time') }, [DS.finders, ART.railsCode], modern ? 'rails-finders' : 'rails-finders-old');
  },
  function counterCache(ctx) {
    return A('rails-counter-cache', ['counter.body'], { arg: hashArg(ctx, 'counter_cache', 'true') }, [SRC.railsAssoc]);
  },
  function caching(ctx) {
    const r = ctx.a.rails;
    return A('rails-caching', [has(RAILS_API.russianDoll, r) ? 'cache.russian' : 'cache.keys', has(RAILS_API.solidCacheDefault, r) && 'cache.solid', 'cache.limits'], { rails: r }, [SRC.railsCaching]);
  },
  function loadAsync(ctx) {
    if (!has(RAILS_API.loadAsync, ctx.a.rails)) return null;
    return A('rails-load-async', ['load-async.body'], { pool: ctx.pool }, [SRC.railsAsyncExecutor, SRC.railsPool]);
  },
  function jobConnections(ctx) {
    if (ctx.a.database === 'sqlite') return null;
    return A('jobs-connections', ['jobs.body'], { needed: ctx.connectionsNeeded, limit: ctx.appSideLimit }, [SRC.railsPool, DS.pumaProcThreads]);
  },
  function profile() {
    return A('profile-first', ['profile.body'], {}, [DS.stackprof, ART.profiling]);
  },
  function compaction(ctx) {
    if (ctx.a.ruby !== 'cruby' || !has(FEATURES.gcCompact, ctx.a.ruby_version)) return null;
    const warm = has(FEATURES.processWarmup, ctx.a.ruby_version);
    return A('ruby-compact-before-fork', [warm ? 'compact.warmup' : 'compact.compact', 'compact.effect'], {}, [DS.compactionMem, DS.compactionThroughput, ART.gc], warm ? 'ruby-warmup-before-fork' : 'ruby-compact-before-fork');
  },
  function mjit(ctx) {
    if (ctx.a.ruby !== 'cruby' || !JIT.mjit || !inRange(ctx.a.ruby_version, JIT.mjit)) return null;
    return A('ruby-no-mjit', ['mjit.body'], { version: ctx.a.ruby_version }, [DS.mjit, DS.mjitRails, ART.jit]);
  },
  function extendPerRequest() {
    return A('ruby-no-extend-per-request', ['extend.body'], {}, [DS.extendLeak]);
  },
  function sendfile(ctx) {
    if (!ctx.a.downloads) return null;
    const r = ctx.a.rails;
    const header = ctx.proxy === 'nginx' ? 'X-Accel-Redirect' : ctx.proxy === 'apache' ? 'X-Sendfile' : null;
    let part;
    if (!header) part = 'sendfile.no-proxy';
    else if (has(RAILS_API.xSendfileHeader, r)) part = 'sendfile.config';
    else part = header === 'X-Sendfile' ? 'sendfile.old-apache' : 'sendfile.old-nginx';
    return A('rails-sendfile', [part], { header, rails: r, root: ctx.root }, [SRC.rackSendfile, SRC.nginxInternal]);
  },
  function bootsnap(ctx) {
    if (!gte(ctx.a.rails, '5.0')) return null;
    return A('rails-bootsnap', [has(RAILS_API.bootsnapDefault, ctx.a.rails) ? 'bootsnap.default' : 'bootsnap.add'], {}, [DS.startup]);
  },
  function yjit(ctx) {
    if (ctx.yjitNotBuilt) return A('ruby-yjit', ['yjit.missing'], { v: ctx.a.ruby_version }, [DS.interpreters2026, SRC.yjitDoc, ART.jit]);
    if (!ctx.yjitProduction) return null;
    const r = ctx.a.rails;
    return A('ruby-yjit', [has(RAILS_API.configYjit, r) ? 'yjit.config' : 'yjit.env'], { rails: r }, [SRC.railsRelease('7.2'), SRC.yjitDoc, DS.yjitPuma2026, ART.jit]);
  },
  function warmup() {
    return A('bench-warmup', ['warmup.body'], {}, [DS.warmup, ART.benchmark]);
  },
];

export function generate(ctx) {
  return { advice: ADVICE_RULES.map((r) => r(ctx)).filter(Boolean) };
}
