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
