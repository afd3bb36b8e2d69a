// Production rules (TLS, jobs, edge): each returns a warning or null; words "w.<id>.m"/"w.<id>.s" in catalog-prod.mjs.
import { SRC } from './evidence.mjs';
import { gte } from './version.mjs';
import { t } from './text.mjs';
import { handoverReload } from './generators/releases.mjs';
import { releaseOf } from './generators/family-steps.mjs';
import { REDIS_FACTS } from './caps.mjs';

const PAGE_CACHE_MB = 256;
const W = (id, severity, vars, evidence = []) => ({ id, severity, message: t(`w.${id}.m`, vars), suggestion: t(`w.${id}.s`, vars), evidence });
const sub = (ctx, key, reason) => ctx.subs.find((s) => s.key === key && s.reason === reason);

export const PROD_RULES = [
  // Sidekiq with the distribution's Redis (README step 3 installs it): a Redis below what Sidekiq needs stops the
  // job process at boot (capabilities/redis.mjs sidekiqMin).
  function sidekiqRedisTooOld(ctx) {
    const redis = ctx.a.jobs === 'sidekiq' && releaseOf(ctx)?.redis;
    if (!redis || gte(redis, REDIS_FACTS.sidekiqMin)) return null;
    return W('sidekiq-redis-too-old', 'error', { redis, min: REDIS_FACTS.sidekiqMin, distro: ctx.a.distro }, [SRC.sidekiqRedis]);
  },
  function tlsNone(ctx) {
    if (ctx.tls !== 'none') return null;
    return W('tls-none', 'warning', { from: sub(ctx, 'tls', 'no-proxy') ? t('w.tls-none.no-proxy') : '' }, [SRC.railsSsl, SRC.hsts]);
  },
  function domainPlaceholder(ctx) {
    if (ctx.tls !== 'proxy' || ctx.domain !== 'example.com') return null;
    return W('domain-placeholder', 'info', {}, [SRC.certbot]);
  },
  function jobsNeedNewerRails(ctx) {
    const s = sub(ctx, 'jobs', 'rails');
    if (!s) return null;
    return W('jobs-need-newer-rails', 'warning', { runner: s.from, rails: ctx.a.rails }, [SRC.solidQueue, SRC.goodJob]);
  },
  // GoodJob is built on PostgreSQL (LISTEN/NOTIFY, advisory locks; its README: "GoodJob is a multithreaded,
  // Postgres-based, ActiveJob backend"): with another database its rails-jobs@ units cannot start.
  function goodJobNeedsPostgresql(ctx) {
    if (ctx.jobs !== 'good_job' || ctx.a.database === 'postgresql') return null;
    return W('good-job-needs-postgresql', 'error', { database: ctx.a.database }, [SRC.goodJob]);
  },
  function singleTargetProxy(ctx) {
    const s = sub(ctx, 'proxy', 'single-target');
    if (!s) return null;
    return W('single-target-proxy', 'warning', { proxy: s.from }, [SRC.thruster, SRC.kamalProxy]);
  },
  function websocketsWithoutCable(ctx) {
    if (!ctx.websockets || gte(ctx.a.rails, '5.0')) return null;
    return W('websockets-before-action-cable', 'info', { rails: ctx.a.rails }, [SRC.actionCable]);
  },
  // A deploy (deploy.sh) boots the app beside the running plan: the preflight `bin/rails runner` and
  // assets:precompile, one after the other (one more copy of the app). The plan fits the RAM at rest; a warning
  // when it does not fit during a deploy (SRE re-review, issue 23). Unicorn's USR2 handover (a second master with its
  // workers until the old one exits) is in the plan itself (memory-budget.mjs, SRE check 4, D6), and the deploy's
  // boots, which end before the switch, need less than it: nothing to add.
  function deployMemory(ctx) {
    if (!ctx.releases || ctx.memoryOver || !ctx.memory || ctx.handoverPeak) return null;
    const extra = ctx.perWorkerMb;
    const peak = ctx.memoryTotalMb + extra;
    if (peak <= ctx.ramMb) return null;
    const what = t('w.deploy-memory.boot', { mb: extra, server: ctx.server });
    // Half of the budget's 512 MB for the OS and page cache is page cache the kernel gives back under pressure (a
    // minimal Debian server runs in about 200–250 MB): a peak within it is information, beyond it a warning.
    const severe = peak > ctx.ramMb + PAGE_CACHE_MB;
    return W(severe ? 'deploy-memory' : 'deploy-memory-cache', severe ? 'warning' : 'info', { total: ctx.memoryTotalMb, extra, what, peak, ram: ctx.ramMb, cache: PAGE_CACHE_MB }, [SRC.pumaDeploy]);
  },
  // Why the plan counts the server twice (the reason and the evidence for the 'handover' line of the memory plan).
  function handoverMemory(ctx) {
    if (!ctx.handoverPeak || ctx.memoryOver || !(ctx.memorySteadyMb < ctx.memoryTotalMb)) return null;
    return W('handover-memory', 'info', { mb: ctx.memoryTotalMb - ctx.memorySteadyMb, steady: ctx.memorySteadyMb, total: ctx.memoryTotalMb, ram: ctx.ramMb, processes: ctx.processes }, [SRC.unicornSignals, SRC.unicornPreload]);
  },
  function kamalProxyBinary(ctx) {
    if (ctx.proxy !== 'kamal-proxy') return null;
    return W('kamal-proxy-standalone', 'info', {}, [SRC.kamalProxy]);
  },
];
