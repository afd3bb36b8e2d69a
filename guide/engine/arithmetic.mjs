// Connection arithmetic in words: every product a message shows carries all its factors, and every sum its terms,
// so "2 host(s) × 4 process(es) × 21 connections = 168" can be checked by reading it (tests/wizard/arithmetic.test.mjs
// evaluates every such line in the sweep's bundles). Numbers come from derive.mjs; words from the catalog ("sum.*").
import { t } from './text.mjs';

/** "pool 3 thread(s) + 4 Action Cable workers = 7" ("pool 3 thread(s) = 3" when threads are the only term). */
export function poolSum(ctx) {
  const terms = [t('sum.threads', { n: ctx.threads })];
  if (ctx.cableWorkers) terms.push(t('sum.cable', { n: ctx.cableWorkers }));
  if (ctx.asyncThreads) terms.push(t('sum.async', { n: ctx.asyncThreads }));
  if (ctx.inPumaJobThreads) terms.push(t('sum.jobs-in-puma', { n: ctx.inPumaJobThreads }));
  return t('sum.pool', { terms: terms.join(' + '), pool: ctx.pool });
}

/** "per process primary 7 + cache 7 + cable 7 = 21" for more than one database role, else ''. */
export function perProcessSum(ctx) {
  const roles = Object.entries(ctx.webRolePools || {});
  if (roles.length < 2) return '';
  return t('sum.per', { terms: roles.map(([r, n]) => `${r} ${n}`).join(' + '), per: ctx.webConnectionsPerProcess });
}

/** The whole budget: hosts × (processes × per-process connections + job connections) = needed, then its parts. */
export function connectionSum(ctx) {
  const vars = { hosts: ctx.a.app_hosts, processes: ctx.processes, per: ctx.webConnectionsPerProcess, jobs: ctx.jobConnections, needed: ctx.connectionsNeeded };
  const extra = ctx.jobConnections - ctx.jobProcesses * ctx.jobPoolPerProcess;
  const jobs = ctx.jobConnections ? t(extra ? 'sum.jobs.extra' : 'sum.jobs', { n: ctx.jobProcesses, per: ctx.jobPoolPerProcess, extra, jobs: ctx.jobConnections }) : '';
  return [t(ctx.jobConnections ? 'sum.total.jobs' : 'sum.total', vars), perProcessSum(ctx), poolSum(ctx), jobs].filter(Boolean).join('; ');
}

/** Solid Queue inside Puma: "queue pool 10 + 2 for the worker's polling and heartbeat + 6 for … = 18". */
export function queuePoolSum(ctx) {
  return t('sum.queue-in-puma', { pool: ctx.pool, poll: 2, control: ctx.inPumaControl - 2, queue: ctx.rolePools.queue });
}

/**
 * A memory plan in words: "512 MB operating system + … + 512 MB copy of the app in the master + 2 × 384 MB worker(s)
 * = 3904 MB; each worker 75 % × 512 MB = 384 MB (…)" (terms of 0 MB left out): a worker's share after the total, so
 * that every product shows its factors and the sum stays one clause.
 */
export function memorySum(memory) {
  const what = (x) => t(x.kind === 'master' && x.template ? `sum.mem.template.${x.template}` : x.pct ? 'sum.mem.workers.private' : x.jobPct ? 'sum.mem.jobs-forked' : `sum.mem.${x.kind}`, { runner: x.runner });
  const terms = memory.filter((x) => x.mb > 0).map((x) => t(x.n ? 'sum.mem.each' : 'sum.mem', { mb: x.mb, n: x.n, each: x.each, what: what(x) }));
  const total = t('sum.mem.total', { terms: terms.join(' + '), total: memory.reduce((s, x) => s + x.mb, 0) });
  const shared = memory.find((x) => x.pct && x.n);
  const template = memory.find((x) => x.kind === 'master' && x.template)?.template;
  // Solid Queue's workers, forked from its supervisor (memory-budget.mjs): their share after the servers', likewise.
  const jobs = memory.find((x) => x.jobPct && x.n);
  return [total, shared ? t('sum.mem.private', { pct: shared.pct, of: shared.of, each: shared.each, template }) : '',
    jobs ? t('sum.mem.jobs-private', { runner: jobs.runner, pct: jobs.jobPct, of: jobs.of, each: jobs.each }) : ''].filter(Boolean).join('; ');
}
