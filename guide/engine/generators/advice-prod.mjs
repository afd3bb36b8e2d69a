// Advice for the Rails side of the production edge: HTTPS settings that match the proxy's X-Forwarded-Proto,
// the health check, Action Cable and the job backend, and the memory model of forking servers. Words: "a.<id>…" in catalog-prod.mjs.
import { SRC, ART, DS } from '../evidence.mjs';
import { gte } from '../version.mjs';
import { t } from '../text.mjs';
import { cableEnabled, HEALTH_PATH } from './edge.mjs';

export const id = 'advice-prod';

const A = (id, body, vars, evidence) => ({ id, title: t(`a.${id}.title`, vars), body, evidence });

export function generate(ctx) {
  const r = ctx.a.rails;
  const vars = { rails: r, domain: ctx.domain, proxy: ctx.proxy, up: HEALTH_PATH };
  const advice = [];
  // HTTPS: what Rails must be told so cookies are Secure, URLs are https and there is no redirect loop.
  let ssl;
  if (ctx.tls === 'none') ssl = 'ssl.none';
  else if (!gte(r, '3.1')) ssl = 'ssl.old';
  else if (gte(r, '7.1')) ssl = `ssl.${ctx.tls}`;
  else ssl = `ssl.${ctx.tls}-pre71`;
  advice.push(A('rails-https', [t(`a.${ssl}`, vars), gte(r, '7.1') && ctx.tls !== 'none' ? t('a.ssl.up-exclude', vars) : ''].filter(Boolean).join(' '), vars, [SRC.railsSsl, SRC.hsts]));
  if (gte(r, '7.1')) {
    advice.push(A('rails-health', t(gte(r, '8.0') ? 'a.health.silence' : 'a.health.route', vars), vars, [SRC.railsHealth]));
  }
  if (cableEnabled(ctx)) {
    advice.push(A('action-cable', [t('a.cable.origins', vars), gte(r, '8.0') ? t('a.cable.solid', vars) : t('a.cable.adapter', vars)].join(' '), vars, [SRC.actionCable, SRC.solidCable]));
  }
  if (ctx.jobRunner) {
    advice.push(A('job-runner', t(`a.jobs.${ctx.jobs}${ctx.jobsInPuma ? '.puma' : ''}`, { ...vars, n: ctx.jobProcesses, threads: ctx.jobThreads, conn: ctx.jobConnections }), vars, [{ solid_queue: SRC.solidQueue, sidekiq: SRC.sidekiq, good_job: SRC.goodJob, delayed_job: SRC.delayedJob }[ctx.jobs], SRC.railsPool, ART.jobs]));
  }
  // The memory model of a server that forks its workers from a booted copy (memory-budget.mjs): its reasons and sources.
  const share = ctx.forkSharing;
  if (share) {
    const m = { server: t(`q.server.o.${ctx.server}`), template: share.template, mb: ctx.perWorkerMb, n: ctx.processes, pct: share.privatePct, each: ctx.workerPrivateMb };
    const own = { puma: SRC.pumaPreload, unicorn: SRC.unicornPreload, pitchfork: SRC.pitchforkRefork, passenger: SRC.passengerSpawn }[ctx.server];
    const body = share.privatePct < 100 ? t('a.memory-model', m) : t('a.memory-model.nocow', m);
    advice.push(A('memory-model', body, m, [own, DS.bundleVsDefaults, DS.appServers2026, SRC.pitchforkRefork, SRC.pumaDeploy].filter((e, i, all) => all.indexOf(e) === i)));
  }
  // Solid Queue's supervisor boots the app and forks its workers, dispatcher and scheduler: the same model (memory-budget.mjs).
  const jobs = ctx.jobForkSharing;
  if (jobs) {
    const m = { runner: ctx.jobRunner.label, mb: ctx.perWorkerMb, n: jobs.forked, workers: ctx.jobProcesses, pct: jobs.privatePct, each: Math.round((ctx.perWorkerMb * jobs.privatePct) / 100) };
    advice.push(A('job-memory', t(jobs.privatePct < 100 ? 'a.job-memory' : 'a.job-memory.nocow', m), m, [...jobs.sources.map((k) => SRC[k]), SRC.solidQueue, DS.bundleVsDefaults]));
  }
  return { advice };
}
