// The smaller plan for small hosts (issue 23): when the plan does not fit the host's RAM and the host has at most
// 2 GB, Solid Queue runs inside the Puma process (SOLID_QUEUE_IN_PUMA with the Puma plugin of Rails 8's puma.rb)
// instead of as its own service, so the host keeps one booted copy of the app instead of three or more. Its threads
// and database connections then count in the Puma process's pool (derive.mjs jobSizing). Facts in
// capabilities/jobs.mjs (JOB_RUNNERS.solid_queue.inPuma); derive.mjs re-sizes the plan when this says so.
import { JOB_RUNNERS } from './caps.mjs';
import { gte } from './version.mjs';

/** Solid Queue's in-Puma facts, or null when the runner has none (or before the page has its catalog). */
export function inPumaFacts() {
  return JOB_RUNNERS.solid_queue?.inPuma || null;
}

/**
 * Does the smaller plan apply? Only where the bundle can say how to run it: Puma on CRuby under systemd (the
 * variable goes into the rails-app unit), Solid Queue on Rails 8 (its puma.rb line and a solid_queue with async
 * mode), a host of at most inPuma.maxRamMb, and a plan that is over the host's RAM as it stands.
 */
export function jobsInPumaApplies(ctx) {
  const f = inPumaFacts();
  if (!f || !ctx.memoryOver || ctx.jobsInPuma) return false;
  return canRunInPuma(ctx, f) && ctx.mri && ctx.ramMb <= f.maxRamMb;
}

/** Solid Queue inside Puma from the start: a Ruby that cannot fork (JRuby) cannot run its default fork mode at all. */
export function jobsInPumaForNoFork(ctx) {
  const f = inPumaFacts();
  return f?.noFork && !ctx.canFork && canRunInPuma(ctx, f);
}

const canRunInPuma = (ctx, f) => ctx.jobs === 'solid_queue' && ctx.server === 'puma' && ctx.linux && ctx.a.init === 'systemd'
  && gte(ctx.a.rails, f.railsSince);
