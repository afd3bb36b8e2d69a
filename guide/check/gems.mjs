// Adapters whose gem is not in Gemfile.lock: database.yml's production adapter (and every production database's)
// and Active Job's queue_adapter. Such an app boots nowhere: Rails loads the adapter's gem at boot or first
// connection and raises (Gem::LoadError "pg is not part of the bundle", LoadError for the job gem). Judged only
// when a Gemfile.lock was read: without it the bundle is unknown. Gem names per adapter are capability data.
import { DATABASE_ADAPTER_GEMS, QUEUE_ADAPTER_GEMS } from '../engine/capabilities/adapter-gems.mjs';
import { inDevBranch } from './problems.mjs';

const AR_ADAPTERS = { label: 'Rails: Active Record adapters load their gem (connection_adapters/*_adapter.rb, `gem "pg"`)', url: 'https://github.com/rails/rails/tree/main/activerecord/lib/active_record/connection_adapters' };
const AJ_ADAPTERS = { label: 'Rails: Active Job adapters (queue_adapters/*.rb require the backend gem)', url: 'https://github.com/rails/rails/tree/main/activejob/lib/active_job/queue_adapters' };

export function gemFindings(files) {
  const out = [];
  const lock = files.find((f) => f.kind === 'gemfile-lock' && !f.problem);
  if (!lock) return out;
  const inLock = new Set(lock.settings.map((s) => s.name));
  const missing = (gems) => gems && !gems.some((g) => inLock.has(g));
  const needs = (gems) => gems.map((g) => `\`${g}\``).join(' or ');

  // database.yml: each production database's adapter (anchors already merged by the reader).
  const yml = files.find((f) => f.kind === 'database-yml' && !f.problem);
  const seen = new Set();
  for (const s of yml?.settings || []) {
    if (s.path?.[0] !== 'production' || s.key !== 'adapter' || !s.known || s.env || typeof s.value !== 'string') continue;
    const gems = DATABASE_ADAPTER_GEMS[s.value];
    if (!missing(gems) || seen.has(s.value)) continue;
    seen.add(s.value);
    out.push({
      rule: 'gem-missing', severity: 'error', file: yml.path, line: s.line, setting: 'adapter', found: s.value, expected: gems[0],
      message: `production's adapter is ${s.value}, but ${lock.path} has no ${needs(gems)} gem: Rails cannot load the adapter and the app does not boot (Gem::LoadError). Add ${needs(gems)} to the Gemfile and run bundle install, or use the adapter of the database the app runs on`,
      evidence: [AR_ADAPTERS], related: [{ file: lock.path, line: 1 }],
    });
  }

  // config/environments/production.rb: config.active_job.queue_adapter = :name.
  for (const f of files.filter((x) => x.kind === 'rails-env' && !x.problem)) {
    for (const s of f.settings) {
      if (s.name !== 'config.active_job.queue_adapter' || s.conditional || inDevBranch(s)) continue;
      const name = String(s.value ?? '').replace(/^:/, '').replace(/^["']|["']$/g, '');
      const gems = QUEUE_ADAPTER_GEMS[name];
      if (!missing(gems)) continue;
      out.push({
        rule: 'gem-missing', severity: 'error', file: f.path, line: s.line, setting: 'config.active_job.queue_adapter', found: `:${name}`, expected: gems[0],
        message: `the queue adapter is :${name}, but ${lock.path} has no ${needs(gems)} gem: Active Job cannot load the adapter and the app does not boot. Add ${needs(gems)} to the Gemfile and run bundle install, or set the adapter of the job backend the app runs`,
        evidence: [AJ_ADAPTERS], related: [{ file: lock.path, line: 1 }],
      });
    }
  }
  return out;
}
