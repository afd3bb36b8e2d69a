// The memory budget of an app host: fixed items (OS, proxy, database, job runner, Redis) and the app server's
// processes, counted as a PSS budget (capabilities/memory.mjs): a server that forks its workers from a booted copy
// of the app holds that copy once, in its template process, and each worker adds its private share. Fills
// ctx.memory (lines whose products carry their factors), ctx.memoryTotalMb, ctx.memoryOver and, where the RAM caps
// the process count, ctx.memoryLimited; `resize` re-derives what depends on the process count (derive.mjs).
import { FORK_MEMORY } from './caps.mjs';
import { yjitMemory } from './yjit-memory.mjs';
import { lt } from './version.mjs';
import { t } from './text.mjs';
import { handoverReload } from './generators/releases.mjs';

/** One booted copy of the app (worker_mb): the reader's measurement, else an estimate whose source ctx.workerMbWhy names. */
export function perWorkerMb(ctx) {
  const { a } = ctx;
  ctx.workerMbMeasured = a.worker_mb > 0;
  if (ctx.workerMbMeasured) return a.worker_mb;
  if (a.ruby === 'jruby' || a.ruby === 'truffleruby') { ctx.workerMbWhy = 'jvm'; return 1024; } // JRuby: replaced by heap + 256 in memoryBudget
  if (lt(ctx.lang, '2.0') || lt(a.rails, '3.0')) { ctx.workerMbWhy = 'thesis'; return 100; } // thesis Table 5.19: ≈3000 MB for 30 workers
  ctx.workerMbWhy = 'modern';
  return 512; // Puma docs/deployment.md: "about ~512MB-1GB per worker"
}

/**
 * How the server's processes hold the app: {template, monitorMb, privatePct} where it forks its workers from a
 * booted copy (template: 'master' | 'mold' | 'preloader'), or null (every process a whole copy). privatePct is 100
 * where the Ruby's GC writes to shared pages (CRuby before 2.0).
 */
export function forkSharing(ctx) {
  const row = FORK_MEMORY.servers?.[ctx.server];
  if (!row || !ctx.canFork || ctx.mode !== 'cluster' || (row.mode && row.mode !== ctx.mode)) return null;
  return { template: row.template, monitorMb: row.monitorMb || 0, privatePct: privatePct(ctx) };
}

/** A forked process's own share of the copy in %: 100 where the Ruby's GC writes to shared pages. */
function privatePct(ctx) {
  const since = FORK_MEMORY.copyOnWrite?.[ctx.a.ruby];
  const cow = since !== undefined && !lt(ctx.a.ruby_version, since); // REE: since '0', every release
  return cow ? Math.round(FORK_MEMORY.privateShare * 100) : 100;
}

/**
 * How the job runner's processes hold the app where its supervisor boots it and forks the rest (FORK_MEMORY.jobs:
 * Solid Queue's fork mode): {template, forked, privatePct, sources}, or null (every job process a whole copy).
 */
export function jobForkSharing(ctx) {
  const row = ctx.jobRunner && !ctx.jobsInPuma ? FORK_MEMORY.jobs?.[ctx.jobs] : null;
  if (!row || !ctx.canFork) return null;
  return { template: row.template, forked: ctx.jobProcesses, privatePct: privatePct(ctx), sources: row.sources };
}

function fixedItems(ctx, ramMb) {
  const { a } = ctx;
  const fixed = [];
  fixed.push({ label: t('mem.os'), mb: 512, kind: 'os' });
  if (ctx.proxy === 'nginx' || ctx.proxy === 'caddy') fixed.push({ label: t('mem.proxy', { proxy: ctx.proxy }), mb: 64, kind: 'proxy' });
  if (ctx.proxy === 'apache') fixed.push({ label: t('mem.proxy', { proxy: 'Apache httpd' }), mb: 128, kind: 'proxy' });
  if (a.db_host === 'same' && a.database !== 'sqlite') {
    fixed.push({ label: t('mem.database', { db: a.database === 'postgresql' ? 'PostgreSQL' : a.database === 'mysql' ? 'MySQL' : 'MariaDB' }), mb: ctx.dbRamMb, kind: 'database' });
  }
  if (ctx.pooler === 'pgbouncer' && a.db_host === 'same') fixed.push({ label: t('mem.pooler'), mb: 16, kind: 'pooler' });
  if (ctx.proxy === 'thruster' || ctx.proxy === 'kamal-proxy') fixed.push({ label: t('mem.proxy', { proxy: ctx.proxy }), mb: 32, kind: 'proxy' });
  // Redis for Sidekiq (generators/redis.mjs): its maxmemory, 5 % of the RAM within 128 MB–1 GB, is in the budget.
  ctx.redisMb = ctx.jobs === 'sidekiq' ? Math.min(1024, Math.max(128, Math.round(ramMb / 20))) : 0;
  if (ctx.redisMb) fixed.push({ label: 'Redis', mb: ctx.redisMb, kind: 'redis' });
  ctx.jobForkSharing = jobForkSharing(ctx);
  if (ctx.jobsInPuma) {
    // Threads of the Puma process (async mode): no process, no booted copy of the app of their own.
    ctx.jobMemoryProcesses = 0;
    fixed.push({ label: t('mem.jobs.puma', { runner: ctx.jobRunner.label }), mb: 0, kind: 'jobs' });
  } else if (ctx.jobForkSharing) {
    // Solid Queue: one booted copy in the supervisor (with its dispatcher and scheduler), then each worker's own pages.
    const share = ctx.jobForkSharing;
    const copy = ctx.perWorkerMb;
    const each = Math.round((copy * share.privatePct) / 100);
    ctx.jobMemoryProcesses = 1 + share.forked;
    fixed.push({ label: t('mem.jobs.template', { runner: ctx.jobRunner.label, mb: copy }), mb: copy, kind: 'jobs-template', runner: ctx.jobRunner.label });
    fixed.push({ label: t('mem.jobs.forked', { n: share.forked, workers: ctx.jobProcesses, runner: ctx.jobRunner.label, each, pct: share.privatePct, mb: copy }), mb: share.forked * each, kind: 'jobs', n: share.forked, each, jobPct: share.privatePct, of: copy, workers: ctx.jobProcesses, runner: ctx.jobRunner.label });
  } else if (ctx.jobRunner) {
    // Job processes that load the app themselves (Sidekiq, GoodJob, Delayed Job; Solid Queue where nothing forks).
    ctx.jobMemoryProcesses = ctx.jobProcesses + ctx.jobRunner.extraProcesses;
    fixed.push({ label: t('mem.jobs', { n: ctx.jobMemoryProcesses, runner: ctx.jobRunner.label, mb: ctx.perWorkerMb }), mb: ctx.jobMemoryProcesses * ctx.perWorkerMb, kind: 'jobs', n: ctx.jobMemoryProcesses, each: ctx.perWorkerMb });
  }
  return fixed;
}

/** The app server's lines for a process count: template (and monitor) once, then the workers and their YJIT. */
function serverLines(ctx, processes) {
  const lines = [];
  const share = ctx.forkSharing;
  const copy = ctx.perWorkerMb;
  if (share) {
    if (share.monitorMb) lines.push({ label: t('mem.monitor', { server: ctx.server }), mb: share.monitorMb, kind: 'monitor' });
    lines.push({ label: t(`mem.template.${share.template}`, { server: ctx.server, mb: copy }), mb: copy, kind: 'master', template: share.template });
  } else if (ctx.hasMaster) {
    lines.push({ label: t('mem.master', { server: ctx.server }), mb: copy, kind: 'master' });
  }
  const each = share ? Math.round((copy * share.privatePct) / 100) : copy;
  ctx.workerPrivateMb = each;
  const label = share ? t('mem.workers.private', { n: processes, server: ctx.server, each, pct: share.privatePct, mb: copy, template: share.template }) : t('mem.workers', { n: processes, server: ctx.server, mb: copy });
  lines.push({ label, mb: processes * each, kind: 'workers', n: processes, each, ...(share ? { pct: share.privatePct, of: copy } : {}) });
  if (ctx.yjitMbPerProcess) lines.push({ label: t('mem.jit', { n: processes, mb: ctx.yjitMbPerProcess }), mb: processes * ctx.yjitMbPerProcess, kind: 'jit', n: processes, each: ctx.yjitMbPerProcess });
  // A reload that hands over to a new master (Unicorn's USR2: capabilities/process.mjs) runs a second master with its
  // workers beside the old ones: the new master boots a copy of its own (a new exec shares nothing with the old one),
  // and the old workers finish their requests (up to the server's timeout) while the new ones already write their own
  // pages. The plan holds that peak, the whole server once more (SRE check 4, D6), not the steady state alone.
  if (ctx.handoverPeak) {
    const server = lines.reduce((s, x) => s + x.mb, 0);
    lines.push({ label: t('mem.handover', { server: ctx.server, mb: server }), mb: server, kind: 'handover' });
  }
  return lines;
}

export function memoryBudget(ctx, resize) {
  const { a } = ctx;
  const ramMb = Math.round(a.ram_gb * 1024);
  ctx.ramMb = ramMb;
  ctx.yjitEnabled = ctx.yjitProduction && ctx.a.ruby === 'cruby';
  // Per process: the option's limit where the bundle bounds YJIT (small hosts), else the version's default ceiling
  // (yjit-memory.mjs; yjit.md: 3–4× --yjit-exec-mem-size before 3.4). A ceiling, not a typical figure: the lab
  // measured 11–13 MiB more PSS per Puma process on the small reference app (rebench-2026-app-servers-yjit, v7 re-run, smoke;
  // averaged over the master and both workers, so a worker's own share is somewhat higher).
  // YJIT compiles in each worker after the fork, so it is private to every worker.
  ctx.yjit = yjitMemory(ctx);
  ctx.yjitMbPerProcess = ctx.yjit.mbPerProcess;
  const fixed = fixedItems(ctx, ramMb);
  if (a.ruby === 'jruby') {
    // One JVM process: its heap is most of what the host has left (64 MB steps, ≤ 31 GB for compressed pointers).
    const free = ramMb - fixed.reduce((s, x) => s + x.mb, 0);
    ctx.jvmHeapMb = ctx.workerMbMeasured ? Math.max(64, a.worker_mb - 256) : Math.min(31744, Math.max(256, Math.floor((free * 0.75) / 64) * 64));
    ctx.jvmFreeMb = free;
    ctx.perWorkerMb = ctx.workerMbMeasured ? a.worker_mb : ctx.jvmHeapMb + 256;
  }
  ctx.hasMaster = ctx.mode === 'cluster' && ctx.server !== 'mongrel' && ctx.server !== 'thin';
  ctx.forkSharing = forkSharing(ctx);
  ctx.handoverPeak = Boolean(handoverReload(ctx));
  // What fits: the fixed items and the server's once-only lines, then as many workers as the rest holds (twice each
  // where a handover runs two servers for a while: serverLines' 'handover' line doubles the once-only part itself).
  const once = serverLines(ctx, 0).reduce((s, x) => s + x.mb, 0);
  const per = (ctx.workerPrivateMb + ctx.yjitMbPerProcess) * (ctx.handoverPeak ? 2 : 1);
  const fit = Math.floor((ramMb - fixed.reduce((s, x) => s + x.mb, 0) - once) / per);
  ctx.processesByMemory = Math.max(0, fit);
  if (ctx.mode === 'cluster' && fit < ctx.processes) {
    ctx.memoryLimited = true;
    ctx.processes = Math.max(ctx.processFloor || 1, fit);
    if (ctx.server === 'puma' && ctx.processes < 2) { ctx.processes = 1; ctx.mode = 'single'; }
    ctx.hasMaster = ctx.mode === 'cluster' && ctx.server !== 'mongrel' && ctx.server !== 'thin';
    ctx.forkSharing = forkSharing(ctx);
    resize(ctx); // bindings and connections follow the count
  }
  ctx.memory = [...fixed, ...serverLines(ctx, ctx.processes)];
  ctx.memoryTotalMb = ctx.memory.reduce((s, x) => s + x.mb, 0);
  // The plan at rest: without the reload's second server (the 'handover' line), for the rules that tell them apart.
  ctx.memorySteadyMb = ctx.memoryTotalMb - ctx.memory.filter((x) => x.kind === 'handover').reduce((s, x) => s + x.mb, 0);
  ctx.memoryOver = ctx.memoryTotalMb > ramMb;
}
