// Jobs lost by the way they are run, whatever the pool: Active Job's :async adapter in production (an in-memory queue in
// the web process, dropped on restart) and Sidekiq's shutdown timeout above the deadline after which the platform kills
// the process (a job still running then is lost with basic fetch). Only what the files prove; warnings (README "Severity").
import { inDevBranch } from './problems.mjs';
import { sidekiqTimeoutFindings } from './sidekiq-timeout.mjs';
import { initializerAdapter, implicitAsync } from './active-job.mjs';

export const ASYNC_ADAPTER = { label: 'Rails API: ActiveJob::QueueAdapters::AsyncAdapter ("a poor fit for production since it drops pending jobs on restart")', url: 'https://api.rubyonrails.org/classes/ActiveJob/QueueAdapters/AsyncAdapter.html' };

export const SUCKER_PUNCH = { label: 'sucker_punch README: jobs are stored in memory; if the web processes are restarted with jobs remaining in the queue, they will be lost (2 worker threads per job class by default)', url: 'https://github.com/brandonhilkert/sucker_punch#readme' };

const isSuckerPunch = (v) => /^:?["']?sucker_punch["']?$|\bSuckerPunchAdapter\b/.test(String(v ?? '').trim());
const isAsync = (v) => /^:?["']?async["']?$|\bAsyncAdapter\b/.test(String(v ?? '').trim());

/** The jobs-lost warning for Rails' implicit :async adapter (active-job.mjs implicitAsync says when). */
function implicitAsyncFindings(files, answers) {
  const found = implicitAsync(files, answers.rails);
  if (!found) return [];
  const { jobs, env, job, line } = found;
  const named = jobs.slice(0, 3).map((f) => f.path.split('/').pop()).join(', ');
  return [{
    rule: 'jobs-lost', severity: 'warning', file: env.path, line: 1, setting: 'config.active_job.queue_adapter', found: ':async (Rails\' default)', expected: null,
    message: `production runs Active Job on Rails' default :async adapter: no queue_adapter is set in ${env.path}, config/application.rb, config/initializers/*.rb or the job classes, and the app defines jobs (${named}${jobs.length > 3 ? '…' : ''}; ${job.path}:${line}). Jobs wait in the memory of the process that enqueued them, so every restart, deploy or idle shutdown (Passenger stops idle processes) drops those not yet run, and they run on that process's threads and pool. Use a queue backed by a store (Solid Queue, Sidekiq, GoodJob…) and a process that runs it`,
    evidence: [ASYNC_ADAPTER],
  }];
}

export function jobLossFindings(files, answers) {
  const out = [];
  // production.rb's own line, outside development/test branches and conditionals (a branch on ENV may pick another).
  const set = files.filter((f) => f.kind === 'rails-env' && !f.problem).flatMap((f) => f.settings
    .filter((s) => s.name === 'config.active_job.queue_adapter' && !s.conditional && !inDevBranch(s)).map((s) => ({ f, s })));
  // Without a production.rb line, config/application.rb's adapter is production's (helpy: application.rb:25).
  const app = files.filter((f) => f.kind === 'rails-app' && !f.problem).flatMap((f) => f.settings
    .filter((s) => s.name === 'config.active_job.queue_adapter' && !s.conditional && !inDevBranch(s)).map((s) => ({ f, s })));
  // An initializer's adapter is set after production.rb's (Rails loads initializers last) and is the one in effect.
  const init = initializerAdapter(files);
  const last = init ? { f: init.f, s: init.s } : set[set.length - 1] || app[app.length - 1];
  // sucker_punch: the same in-memory queue in the web process, by design ("fast and non-mission critical" jobs, its
  // README): the loss is the library's documented trade-off, which the files cannot weigh, so a note.
  if (last && isSuckerPunch(last.s.value ?? last.s.args?.[0]?.text)) {
    out.push({
      rule: 'jobs-lost', severity: 'note', file: last.f.path, line: last.s.line, setting: 'config.active_job.queue_adapter', found: ':sucker_punch', expected: null,
      message: `production runs Active Job on sucker_punch (${last.f.path}:${last.s.line}): jobs wait in the memory of each web process and run on its threads (2 per job class unless \`workers\` says otherwise), so a restart, deploy or crash drops those still queued (it waits SuckerPunch.shutdown_timeout, 8 s by default, then kills the threads), and they take connections from the web process's pool. Fine for jobs the app can lose (its README: fast and non-mission critical); otherwise use a queue backed by a store (Solid Queue, Sidekiq, GoodJob…) and a process that runs it`,
      evidence: [SUCKER_PUNCH],
    });
  }
  if (last && isAsync(last.s.value ?? last.s.args?.[0]?.text)) {
    out.push({
      rule: 'jobs-lost', severity: 'warning', file: last.f.path, line: last.s.line, setting: 'config.active_job.queue_adapter', found: ':async', expected: null,
      message: 'production runs Active Job on the :async adapter: jobs wait in the memory of the web process and every restart or deploy drops those not yet run; they also run on threads of that process and take connections from its pool. Use a queue backed by a store (Solid Queue, Sidekiq, GoodJob…) and a process that runs it',
      evidence: [ASYNC_ADAPTER],
    });
  }
  // No adapter named anywhere, jobs defined: the implicit default (only when no explicit one above).
  if (!last) out.push(...implicitAsyncFindings(files, answers));
  out.push(...sidekiqTimeoutFindings(files, answers));
  return out;
}
