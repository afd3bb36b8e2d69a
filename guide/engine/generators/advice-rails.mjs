// Rails coding advice in the API spelling of the chosen Rails (and Ruby) version, with measured effects.
import { RAILS_API } from '../capabilities/rails.mjs';
import { FEATURES, JIT } from '../capabilities/ruby.mjs';
import { SRC, DS, ART } from '../evidence.mjs';
import { has } from '../pick.mjs';
import { gte, inRange } from '../version.mjs';

export const id = 'advice-rails';

/** `key: value` on Ruby ≥ 1.9, `:key => value` before. */
export function hashArg(ctx, key, value) {
  return has(FEATURES.hash19Syntax, ctx.lang) ? `${key}: ${value}` : `:${key} => ${value}`;
}

export const ADVICE_RULES = [
  function eagerLoading(ctx) {
    const r = ctx.a.rails;
    const code = has(RAILS_API.includesRelation, r) ? 'Post.includes(:comments).each { |post| post.comments.size }' : 'Post.find(:all, :include => :comments)';
    let body = `Load associations with the records instead of one query per record (the N+1 pattern): \`${code}\`.`;
    if (has(RAILS_API.includesRelation, r)) body += ' `preload` forces separate queries, `eager_load` a JOIN.';
    if (has(RAILS_API.strictLoading, r)) body += ` Rails ${r} can raise on lazy loads: \`self.strict_loading_by_default = true\` in a model, or \`config.active_record.strict_loading_by_default = true\`.`;
    else body += ` (strict_loading, which turns lazy loads into errors, arrives in Rails 6.1.)`;
    body += ' Measured in the thesis: 283 s → 21 s. Does not help when you only touch the association for a few records.';
    return { id: 'rails-eager-loading', title: 'Eager-load associations', body, evidence: [DS.eager, SRC.railsQuery, ART.railsCode] };
  },
  function transactions(ctx) {
    let body = 'Wrap a loop of writes in one `ActiveRecord::Base.transaction do … end`: each save otherwise commits (and syncs to disk) on its own. Measured in the thesis: 76 s → 5.2 s for 100 posts × 20 comments.';
    if (has(RAILS_API.insertAll, ctx.a.rails)) body += ' For plain inserts, `insert_all` / `upsert_all` write all rows in one statement, but skip validations and callbacks.';
    else body += ' (insert_all / upsert_all for single-statement bulk inserts arrive in Rails 6.0.)';
    return { id: 'rails-transactions', title: 'One transaction around bulk writes', body, evidence: [DS.transactions, ART.railsCode] };
  },
  function batches(ctx) {
    const r = ctx.a.rails;
    if (!has(RAILS_API.findEach, r)) {
      return { id: 'rails-batches', title: 'Process large tables in batches', body: `Rails ${r} has no find_each (added in 2.3): page through the table by id ranges manually, or upgrade.`, evidence: [DS.findEach] };
    }
    let body = `Iterate large tables with \`Model.find_each(${hashArg(ctx, 'batch_size', 1000)}) { |r| … }\` (or find_in_batches) instead of loading every row at once. Measured in the thesis: 158 → 118 MB and 211 → 195 s.`;
    if (has(RAILS_API.inBatches, r)) body += ' `in_batches(of: 1000)` yields relations, e.g. for batched `update_all`.';
    body += ' Not useful when ordering by something other than the primary key matters.';
    return { id: 'rails-batches', title: 'Process large tables in batches', body, evidence: [DS.findEach, SRC.railsQuery, ART.railsCode] };
  },
  function finders(ctx) {
    const r = ctx.a.rails;
    const body = has(RAILS_API.findBy, r)
      ? `Use \`Comment.find_by(${hashArg(ctx, 'created_at', 'time')})\`. Dynamic finders (find_by_created_at) still work and cost extra only on their first call, when Rails defines the method; the thesis' 197 vs 62 ms single measurement was that first-call cost on Rails 2.3. find_all_by_* and other multi-record dynamic finders were removed in Rails 4.1.`
      : `On Rails ${r}, \`Comment.find(:first, :conditions => ["created_at = ?", time])\` avoids method_missing on the first call of \`find_by_created_at\`; after the first call Rails has defined the method. The thesis measured 197 vs 62 ms for one call.`;
    return { id: 'rails-finders', title: has(RAILS_API.findBy, r) ? 'find_by instead of dynamic finders' : 'Dynamic finders: a first-call cost', body, evidence: [DS.finders, ART.railsCode] };
  },
  function counterCache(ctx) {
    return {
      id: 'rails-counter-cache', title: 'Counter caches for counts shown on every page',
      body: `\`belongs_to :post, ${hashArg(ctx, 'counter_cache', 'true')}\` keeps posts.comments_count up to date, so \`post.comments.size\` needs no COUNT query. Costs one UPDATE per insert/delete of a comment.`,
      evidence: [SRC.railsAssoc],
    };
  },
  function caching(ctx) {
    const r = ctx.a.rails;
    let body = has(RAILS_API.russianDoll, r)
      ? 'Cache rendered fragments with `<% cache post do %>` (digests invalidate them when templates change; nest them "Russian doll" style).'
      : 'Cache rendered fragments with `<% cache("post-#{post.id}-#{post.updated_at.to_i}") do %>` and expire them by key.';
    if (has(RAILS_API.solidCacheDefault, r)) body += ` Rails ${r} stores Rails.cache in the database (Solid Cache) by default.`;
    body += ' Does not help pages that differ for every request.';
    return { id: 'rails-caching', title: 'Cache what is expensive and shared', body, evidence: [SRC.railsCaching] };
  },
  function loadAsync(ctx) {
    if (!has(RAILS_API.loadAsync, ctx.a.rails)) return null;
    return { id: 'rails-load-async', title: 'load_async needs pool headroom', body: `\`Post.where(…).load_async\` runs independent queries in parallel on a background executor. Each in-flight query holds a connection: raise the pool to threads + 4 + 1 (global_executor_concurrency default 4) if you use it; database.yml here is sized for ${ctx.pool} (threads only).`, evidence: [SRC.railsPool] };
  },
  function profile() {
    return { id: 'profile-first', title: 'Profile before tuning', body: 'Use a sampling profiler (e.g. StackProf in cpu mode) on production-like traffic before changing settings; in the Discourse profile GC was only 6–7 % of samples, so GC tuning alone cannot give large wins.', evidence: [DS.stackprof, ART.profiling] };
  },
  function compaction(ctx) {
    if (ctx.a.ruby !== 'cruby' || !has(FEATURES.gcCompact, ctx.a.ruby_version)) return null;
    const warm = has(FEATURES.processWarmup, ctx.a.ruby_version);
    return { id: 'ruby-compact-before-fork', title: warm ? 'Process.warmup before forking' : 'GC.compact before forking', body: `${warm ? 'Process.warmup (Ruby 3.3+) runs GC and compaction once after boot' : 'GC.compact (Ruby 2.7+) once after boot'}, before workers fork, so more memory stays shared. The measured saving on a small app was about 0.8 % RSS with no throughput change — cheap, not a large win. Preforking configs in this bundle already do it where the server has a hook.`, evidence: [DS.compactionMem, DS.compactionThroughput, ART.gc] };
  },
  function mjit(ctx) {
    if (ctx.a.ruby !== 'cruby' || !inRange(ctx.a.ruby_version, JIT.mjit)) return null;
    return { id: 'ruby-no-mjit', title: 'Do not enable MJIT for Rails', body: `Ruby ${ctx.a.ruby_version} has MJIT (--jit), which made Rails slower in the measurements (Rails Ruby Bench with 2.7-preview2; Rails Simpler Bench 1280 → 1060 req/s). MJIT was removed in 3.3; YJIT (3.2+) is the JIT to use.`, evidence: [DS.mjit, DS.mjitRails, ART.jit] };
  },
  function extendPerRequest() {
    return { id: 'ruby-no-extend-per-request', title: 'Avoid Object#extend on per-request objects', body: 'Extending individual objects creates a singleton class for each and defeats method caches; include the module in the class instead. On Ruby 1.9.1 it also leaked memory (9.1 s vs 0.2 s for a million calls).', evidence: [DS.extendLeak] };
  },
  function sendfile(ctx) {
    if (!ctx.a.downloads) return null;
    const r = ctx.a.rails;
    const header = ctx.proxy === 'nginx' ? 'X-Accel-Redirect' : ctx.proxy === 'apache' ? 'X-Sendfile' : null;
    let body;
    if (!header) body = 'Without nginx or Apache in front, a Ruby process streams every download. Serve large files from the proxy or object storage.';
    else if (has(RAILS_API.xSendfileHeader, r)) body = `Set \`config.action_dispatch.x_sendfile_header = "${header}"\` in config/environments/production.rb and use \`send_file\` for files under ${ctx.root}/private; the proxy sends the bytes. Since Rack 2.2.20/3.1.18/3.2.3 (CVE-2025-61780) this must be configured in the app — a request header from the proxy no longer switches it on.`;
    else body = header === 'X-Sendfile' ? `On Rails ${r}: \`send_file path, :x_sendfile => true\` emits X-Sendfile for Apache's mod_xsendfile.` : `Rails ${r} cannot emit X-Accel-Redirect by itself (the thesis wrote a plugin); set \`response.headers["X-Accel-Redirect"] = "/private-files/name"\` and render nothing. Rails 3.0+ has config.action_dispatch.x_sendfile_header.`;
    return { id: 'rails-sendfile', title: 'Let the proxy send large files', body, evidence: [SRC.rackSendfile, SRC.nginxInternal] };
  },
  function bootsnap(ctx) {
    if (!gte(ctx.a.rails, '5.0')) return null;
    return { id: 'rails-bootsnap', title: 'Bootsnap for faster boots', body: has(RAILS_API.bootsnapDefault, ctx.a.rails) ? 'Rails 5.2+ apps include bootsnap by default; keep `require "bootsnap/setup"` in config/boot.rb — it caches load-path lookups and compiled Ruby, shortening deploys and worker restarts.' : 'Add the bootsnap gem (default from Rails 5.2) to cache load-path lookups and compiled Ruby; the reported effect on Discourse was about half the startup time.', evidence: [DS.startup] };
  },
  function yjit(ctx) {
    if (!ctx.yjitProduction) return null;
    const r = ctx.a.rails;
    return { id: 'ruby-yjit', title: 'YJIT', body: has(RAILS_API.configYjit, r) ? `Rails ${r} has config.yjit (on with load_defaults 7.2, effective on Ruby 3.3+). Set it to false on memory-constrained hosts.` : 'Enable YJIT with RUBY_YJIT_ENABLE=1 (config/ruby.env). Watch memory: it is counted in the budget.', evidence: [SRC.railsRelease('7.2'), SRC.yjitDoc] };
  },
  function warmup() {
    return { id: 'bench-warmup', title: 'Warm up before measuring', body: 'When you benchmark a configuration change, discard the first requests: warm-up changed throughput by about 10 % in Rails Ruby Bench, even without a JIT.', evidence: [DS.warmup, ART.benchmark] };
  },
];

export function generate(ctx) {
  return { advice: ADVICE_RULES.map((r) => r(ctx)).filter(Boolean) };
}
