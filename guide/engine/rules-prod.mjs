// Production rules (TLS, jobs, edge): each returns a warning or null; words "w.<id>.m"/"w.<id>.s" in catalog-prod.mjs.
import { SRC } from './evidence.mjs';
import { gte } from './version.mjs';
import { t } from './text.mjs';

const W = (id, severity, vars, evidence = []) => ({ id, severity, message: t(`w.${id}.m`, vars), suggestion: t(`w.${id}.s`, vars), evidence });
const sub = (ctx, key, reason) => ctx.subs.find((s) => s.key === key && s.reason === reason);

export const PROD_RULES = [
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
  function kamalProxyBinary(ctx) {
    if (ctx.proxy !== 'kamal-proxy') return null;
    return W('kamal-proxy-standalone', 'info', {}, [SRC.kamalProxy]);
  },
];
