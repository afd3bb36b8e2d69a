// Active Job's adapter where the doctor reads no Ruby otherwise: config/initializers/*.rb that set it (baw-server:
// `Rails.application.config.active_job.queue_adapter = :resque` in initializers/active_job.rb) and the app's job
// classes (app/jobs). Both are read line by line for that one assignment: nothing else in them is parsed or run.
// Without any such line, Rails 5.0 and later run jobs on the :async adapter (ActiveJob::Base's default), in the
// memory of the process that enqueued them: the seventh blind trial's metasmoke (job-loss.mjs implicitAsyncFindings).

// `config.active_job.queue_adapter = :x` (also as Rails.application.config…), `self.queue_adapter = :x`,
// `ActiveJob::Base.queue_adapter = :x`; a trailing modifier (`… if ENV["X"]`) makes it conditional.
const ASSIGN = /^\s*((?:Rails\.application\.)?config\.active_job\.queue_adapter|self\.queue_adapter|(?:::)?ActiveJob::Base\.queue_adapter)\s*=\s*(.+?)\s*$/;
const BRANCH = /^\s*(if|unless|case|when|elsif|else|begin|rescue)\b/;

/** Reader for kinds 'initializer' and 'job-class': each queue_adapter assignment, its value and whether a branch holds it. */
export function readAdapterLines(src) {
  const settings = [];
  let branch = false;
  src.split('\n').forEach((text, k) => {
    if (/^\s*#/.test(text)) return;
    if (BRANCH.test(text)) branch = true;
    const m = ASSIGN.exec(text.replace(/\s#.*$/, ''));
    if (!m) return;
    const modifier = /\s(if|unless)\s/.exec(m[2]);
    const value = (modifier ? m[2].slice(0, modifier.index) : m[2]).trim();
    settings.push({ name: 'config.active_job.queue_adapter', value, line: k + 1, ...(branch || modifier ? { conditional: true } : {}), via: m[1] });
  });
  return { settings, notes: [] };
}

/** The initializers' unconditional literal adapter (`:resque`, "sidekiq"), last one read: {f, s, value} or null. */
export function initializerAdapter(files) {
  const hits = files.filter((f) => f.kind === 'initializer' && !f.problem)
    .flatMap((f) => f.settings.filter((s) => !s.conditional && /^:?["']?\w+["']?$/.test(s.value)).map((s) => ({ f, s, value: s.value.replace(/^:|["']/g, '') })));
  return hits[hits.length - 1] || null;
}

const JOB_CLASS = /^\s*class\s+[A-Z]\w*(?:::\w+)*\s*<\s*(?:::)?(?:ApplicationJob|ActiveJob::Base)\b/m;
const major = (v) => Number(/^(\d+)/.exec(String(v ?? ''))?.[1] ?? NaN);

/**
 * Jobs on the implicit :async adapter: job classes in app/jobs (other than the generator's ApplicationJob), Rails 5 or
 * later, and no queue_adapter in production.rb, application.rb, an initializer or a job class. The collector adds job
 * classes only after it has scanned every config/initializers/*.rb (collect.mjs), so "none in an initializer" is read,
 * not assumed; files handed in without job classes (the page, single files) get null. → {jobs, env, job, line} or null.
 * Used by the jobs-lost warning (job-loss.mjs) and by detection (the jobs answer is then none, not an assumed backend).
 */
export function implicitAsync(files, rails) {
  const ok = (k) => files.filter((f) => f.kind === k && !f.problem);
  const jobs = ok('job-class').filter((f) => !/(^|\/)application_job\.rb$/.test(f.path) && JOB_CLASS.test(f.text || ''));
  const env = ok('rails-env')[0];
  if (!jobs.length || !env || !ok('rails-app').length) return null;
  if (!(major(rails) >= 5)) return null;
  const setsAdapter = (f) => f.settings.some((s) => s.name === 'config.active_job.queue_adapter' || /queue_adapter/.test(s.name));
  if ([...ok('rails-env'), ...ok('rails-app'), ...ok('initializer'), ...ok('job-class')].some(setsAdapter)) return null;
  // A queue_adapter the Ruby reader could not place (inside a block it does not follow) still names one.
  if ([...ok('rails-env'), ...ok('rails-app')].some((f) => /\bqueue_adapter\s*=/.test(f.text || ''))) return null;
  const job = jobs[0];
  return { jobs, env, job, line: (job.text.split('\n').findIndex((l) => JOB_CLASS.test(l)) + 1) || 1 };
}
