// Jobs lost by the way they are run, whatever the pool: Active Job's :async adapter in production (an in-memory queue in
// the web process, dropped on restart) and Sidekiq's shutdown timeout above the deadline after which the platform kills
// the process (a job still running then is lost with basic fetch). Only what the files prove; warnings (README "Severity").
import { inDevBranch } from './problems.mjs';
import { sidekiqTimeoutFindings } from './sidekiq-timeout.mjs';

export const ASYNC_ADAPTER = { label: 'Rails API: ActiveJob::QueueAdapters::AsyncAdapter ("a poor fit for production since it drops pending jobs on restart")', url: 'https://api.rubyonrails.org/classes/ActiveJob/QueueAdapters/AsyncAdapter.html' };

const isAsync = (v) => /^:?["']?async["']?$|\bAsyncAdapter\b/.test(String(v ?? '').trim());

export function jobLossFindings(files, answers) {
  const out = [];
  // production.rb's own line, outside development/test branches and conditionals (a branch on ENV may pick another).
  const set = files.filter((f) => f.kind === 'rails-env' && !f.problem).flatMap((f) => f.settings
    .filter((s) => s.name === 'config.active_job.queue_adapter' && !s.conditional && !inDevBranch(s)).map((s) => ({ f, s })));
  const last = set[set.length - 1];
  if (last && isAsync(last.s.value ?? last.s.args?.[0]?.text)) {
    out.push({
      rule: 'jobs-lost', severity: 'warning', file: last.f.path, line: last.s.line, setting: 'config.active_job.queue_adapter', found: ':async', expected: null,
      message: 'production runs Active Job on the :async adapter: jobs wait in the memory of the web process and every restart or deploy drops those not yet run; they also run on threads of that process and take connections from its pool. Use a queue backed by a store (Solid Queue, Sidekiq, GoodJob…) and a process that runs it',
      evidence: [ASYNC_ADAPTER],
    });
  }
  out.push(...sidekiqTimeoutFindings(files, answers));
  return out;
}
