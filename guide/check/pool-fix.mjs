// The fix for a production pool too small for the threads that share it, derived from the app's own files:
// Puma's threads as puma.rb computes them (the same ENV variable and default), the threads of a job runner
// embedded in the same process (Sidekiq's configure_embed, GoodJob async, Solid Queue's async Puma plugin) and
// load_async's executor when production.rb turns it on; never a wizard number. The line is written in
// database.yml's own syntax (ERB only when a term reads ENV) where production takes its pool from: the line
// that sets it, else the anchor production merges (`<<: *default`), else production's own section.
import { effective } from './crossfile.mjs';
import { replaceLine, insertAfter } from './diff.mjs';
import { embeddedRunner } from './jobs.mjs';
import { pumaThreads } from './problems.mjs';

const num = (v) => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));

/** Rails' configuring guide: with the global executor, pool ≥ (threads + 1) + global_executor_concurrency (default 4). */
export const ASYNC_EVIDENCE = { label: 'Rails guide: config.active_record.global_executor_concurrency (pool ≥ threads + 1 + concurrency)', url: 'https://guides.rubyonrails.org/configuring.html#config-active-record-global-executor-concurrency' };

/** A term of the sum: {label, value, env?, dflt?, comma?} — env terms are written ENV.fetch("X") { dflt }. */
function envTerm(arg, value, label, text, env) {
  if (!arg?.env) return { label, value };
  const off = num(arg.offset) || 0;
  // The default as the app writes it (its production arm when the default depends on RAILS_ENV), else the value an env file gives.
  const dflt = num(value) !== null && !env.has(arg.env) ? num(value) - off : num(arg.value) !== null ? num(arg.value) - off : num(effective(arg, env)) - off;
  const comma = new RegExp(`ENV\\.fetch\\(\\s*["']${arg.env}["']\\s*,`).test(text || arg.text || '');
  return { label, value, env: arg.env, dflt, off, comma };
}

/** Puma's threads as a term: the local or argument puma.rb uses for the maximum. */
export function threadsTerm(puma, t, env) {
  const arg = t.s.args?.[1] || t.s.args?.[0];
  const assign = arg?.local && (puma.assigns || []).find((a) => a.name === arg.local);
  return envTerm(arg, t.max, `${t.max} Puma threads (${puma.path}:${t.s.line})`, assign?.value?.text || arg?.text, env);
}

/** Threads the web process runs besides Puma's: an embedded job runner, load_async's executor. */
export function extraTerms(files, puma, env) {
  const out = [];
  const emb = puma ? embeddedRunner(files, puma, env) : null;
  if (emb) out.push(emb.arg?.env ? envTerm(emb.arg, emb.n, `${emb.n} threads of ${emb.what} (${emb.file}:${emb.line})`, emb.arg.text, env) : { label: `${emb.n} threads of ${emb.what} (${emb.file}:${emb.line})`, value: emb.n });
  const prod = files.find((f) => f.kind === 'rails-env' && !f.problem);
  const ex = prod?.settings.find((s) => s.name === 'config.active_record.async_query_executor' && !s.conditional);
  if (ex && /global_thread_pool/.test(String(ex.value))) {
    const c = prod.settings.find((s) => s.name === 'config.active_record.global_executor_concurrency' && !s.conditional);
    const n = (c && num(effective(c.args?.[0], env))) ?? 4;
    out.push({ label: `${n} load_async executor threads + 1 (${prod.path}:${(c || ex).line}, Rails' configuring guide)`, value: n + 1 });
  }
  return out;
}

/** The sum as Ruby: the app's ENV expressions (`.to_i` where they are added or compared) and the literal rest. */
function rubySum(terms, forceInt) {
  const envs = terms.filter((x) => x.env);
  const lit = terms.filter((x) => !x.env).reduce((n, x) => n + x.value, 0) + envs.reduce((n, x) => n + x.off, 0);
  const toI = forceInt || envs.length > 1 || lit ? '.to_i' : '';
  const fetch = (x) => (x.comma ? `ENV.fetch("${x.env}", ${x.dflt})${toI}` : `ENV.fetch("${x.env}") { ${x.dflt} }${toI}`);
  return [...envs.map(fetch), ...(lit ? [String(lit)] : [])].join(' + ');
}

/** The sum as it is written in database.yml: a number, or ERB around the app's ENV expressions. */
export function render(terms) {
  const total = terms.reduce((n, x) => n + x.value, 0);
  if (!terms.some((x) => x.env)) return { total, text: String(total) };
  return { total, text: `<%= ${rubySum(terms, false)} %>` };
}

/**
 * A pool line that serves the web process and a job process (Sidekiq, Solid Queue) alike: the larger of the two
 * needs, `[<the web's expression>, N].max` when the web's reads ENV (read back by read-yaml.mjs).
 */
export function sharedPoolFix(files, yml, pool, puma, env, job) {
  const ts = puma ? pumaThreads(puma, env) : [];
  const t = ts.reduce((a, b) => (b.max > a.max ? b : a), ts[0]);
  const web = t ? [threadsTerm(puma, t, env), ...extraTerms(files, puma, env)] : [];
  const w = web.reduce((n, x) => n + x.value, 0);
  const total = Math.max(w, job.value);
  const text = web.some((x) => x.env) && !pool.url ? `<%= [${rubySum(web, true)}, ${job.value}].max %>` : String(total);
  const at = poolDiff(yml, pool, text);
  const terms = w > 0 ? [{ label: `the larger of ${w} for the web process (${web.map((x) => x.label).join(' + ')}) and ${job.label}` }] : [{ label: job.label }];
  return { text, total, terms, diff: at?.diff || null, where: at?.where || null };
}

const indentOf = (l) => /^\s*/.exec(l || '')[0];

/** Production's primary keys (two- or three-tier database.yml). */
function primaryKeys(yml) {
  const prod = yml.settings.filter((s) => s.path?.[0] === 'production');
  const threeTier = prod.some((s) => s.path[1] === 'primary');
  return prod.filter((s) => (threeTier ? s.path.length === 3 && s.path[1] === 'primary' : s.path.length === 2));
}

/** The first line of production's section (and of its primary: sub-section) and the section's last line. */
function productionRange(lines) {
  const start = lines.findIndex((l) => /^production:\s*(#.*)?$/.test(l));
  if (start < 0) return null;
  let end = start;
  for (let k = start + 1; k < lines.length; k++) {
    if (/^\S/.test(lines[k]) && !/^#/.test(lines[k])) break;
    if (lines[k].trim()) end = k;
  }
  return { start: start + 1, end: end + 1 };
}

/** After line `at` (1-based), past the lines nested below it (a map value, a continued scalar). */
function pastNested(lines, at) {
  const ind = indentOf(lines[at - 1]).length;
  let k = at;
  while (k < lines.length && lines[k].trim() && indentOf(lines[k]).length > ind) k++;
  return k;
}

/**
 * Where production's pool is (or would be) written and the diff that sets it: {diff, where, line} or null.
 * pool: the productionPool() of problems.mjs; value: the rendered text.
 */
export function poolDiff(yml, pool, value) {
  // A pool from DATABASE_URL's ?pool= is changed in that URL, wherever the platform keeps it: no database.yml diff.
  if (pool.url) return { line: pool.line, where: `${pool.url}'s ?pool= (${pool.file}:${pool.line}), which wins over database.yml`, diff: null };
  if (!yml?.text) return null;
  const lines = yml.text.split('\n');
  if (!pool.implicit) {
    const old = lines[pool.line - 1] || '';
    const m = /^(\s*)([\w]+):/.exec(old);
    if (!m) return null;
    const range = productionRange(lines);
    const inherited = range && (pool.line < range.start || pool.line > range.end);
    return { line: pool.line, where: inherited ? `the anchor production merges (${yml.path}:${pool.line})` : `production (${yml.path}:${pool.line})`, diff: replaceLine(yml.path, yml.text, pool.line, `${m[2]}: ${value}`) };
  }
  const keys = primaryKeys(yml);
  if (!keys.length) return null;
  const range = productionRange(lines);
  const inherited = range ? keys.filter((s) => s.line < range.start || s.line > range.end) : [];
  const own = range ? keys.filter((s) => s.line >= range.start && s.line <= range.end) : keys;
  // Rails merges the anchor into production: the anchor is where the pool for production (and what else merges it) goes.
  const group = inherited.length ? inherited : own;
  const last = group.reduce((a, b) => (b.line > a.line ? b : a));
  const after = pastNested(lines, last.line);
  // The block holding those keys: the nearest line above with less indentation (`default: &default`).
  const header = lines.slice(0, last.line - 1).reverse().find((l) => l.trim() && !/^\s*#/.test(l) && indentOf(l).length < indentOf(lines[last.line - 1]).length);
  const anchor = inherited.length && header && /&[\w-]+/.test(header) ? header : null;
  return {
    line: after, where: anchor ? `the anchor production merges (\`${anchor.trim()}\`, ${yml.path})` : `production's section (${yml.path})`,
    diff: insertAfter(yml.path, yml.text, after, [`pool: ${value}`], indentOf(lines[last.line - 1])),
  };
}

/** The whole fix for the web process: {text, total, terms, diff, where} or null. */
export function webPoolFix(files, yml, pool, puma, t, env) {
  const terms = [threadsTerm(puma, t, env), ...extraTerms(files, puma, env)];
  const r = render(terms);
  // A URL's query holds a number, not ERB.
  const { text, total } = pool.url ? { text: String(r.total), total: r.total } : r;
  const at = poolDiff(yml, pool, text);
  return { text, total, terms, diff: at?.diff || null, where: at?.where || null };
}

/** "pool: <%= … %> (= 15: 10 Puma threads (…) + 5 GoodJob threads (…)), in the anchor …" */
export function describeFix(key, fix) {
  return `${key}: ${fix.text} (= ${fix.total}: ${fix.terms.map((x) => x.label).join(' + ')})${fix.where ? `, in ${fix.where}` : ''}`;
}
