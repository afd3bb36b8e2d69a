// Problems with evidence, whatever the wizard would write: the pool below the threads that share it
// (Rails' implicit pool of 5 included; job runners in jobs.mjs), settings Puma ignores, a puma.rb
// that boots the app in the master, two Ruby versions. Severity policy (README "Severity"): error = the
// app will fail or lose work; warning = measurable harm; note = cannot be told from the files alone.
import { effective, envOf } from './crossfile.mjs';
import { SRC } from '../engine/evidence.mjs';
import { webPoolFix, describeFix, ASYNC_EVIDENCE } from './pool-fix.mjs';
import { commandSetsThreads } from './implicit-threads.mjs';
import { satisfies } from './read-gems.mjs';

const PUMA_LAUNCHER = { label: 'Puma lib/puma/launcher.rb (prune_bundler? is false with preload_app!)', url: 'https://github.com/puma/puma/blob/master/lib/puma/launcher.rb' };
const PUMA_RESTART = { label: 'Puma docs: restart (prune_bundler, preload_app!)', url: 'https://github.com/puma/puma/blob/master/docs/restart.md' };
const PUMA_FORK = { label: 'Puma docs: deployment (preloading, fork hooks)', url: 'https://github.com/puma/puma/blob/master/docs/deployment.md' };
const RAILS_DEFAULT_POOL = { label: 'Rails HashConfig#max_connections: fetch(:pool, 5)', url: 'https://github.com/rails/rails/blob/main/activerecord/lib/active_record/database_configurations/hash_config.rb' };
const BUNDLER_RUBY = { label: 'Bundler: gemfile(5), the ruby directive', url: 'https://bundler.io/man/gemfile.5.html#RUBY' };
const BUNDLER_RUBY_GUIDE = { label: 'Bundler guide: Specifying a Ruby Version (Bundler raises when the running Ruby does not match the Gemfile)', url: 'https://bundler.io/guides/gemfile_ruby.html' };
const HEROKU_LOCK_RUBY = { label: 'Heroku: with Bundler 2.4+ the Ruby installed is the one in Gemfile.lock\'s RUBY VERSION', url: 'https://devcenter.heroku.com/changelog-items/2809' };

const RUBY_COMPARABLE = { label: 'Ruby: Array#max compares elements with <=>; String#<=> compares text, and String <=> Integer is nil (ArgumentError)', url: 'https://docs.ruby-lang.org/en/3.4/Array.html#method-i-max' };
const num = (v) => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));
const DEV_BRANCH = /\b(development|test)\b/;
const branchName = (s) => (s?.branch?.length ? s.branch.map((b) => `\`${b.cond}\` (line ${b.line})`).join(' › ') : '');
export const inDevBranch = (s) => (s?.branch || []).some((b) => DEV_BRANCH.test(b.cond) && !/production/.test(b.cond) && !/^(else|unless)\b/.test(b.cond));

/** Two settings can be in effect together unless they sit in different arms of the same if/case. */
export function together(a, b) {
  for (const x of a.branch || []) for (const y of b.branch || []) if (x.id === y.id && x.arm !== y.arm) return false;
  return true;
}

/**
 * The production pool of the primary database: {value, env, line, implicit, from} or null when the
 * files cannot tell (no production section: DATABASE_URL decides; a URL from ENV may carry ?pool=).
 */
export function productionPool(yml, env) {
  // DATABASE_URL's ?pool= wins over database.yml's keys (Rails merges the URL's query over production's primary).
  const fromUrl = envUrlPool(yml, env);
  if (fromUrl) return fromUrl;
  if (!yml) return null;
  const prod = yml.settings.filter((s) => s.path?.[0] === 'production');
  if (!prod.length) return null;
  const primary = (s) => s.path.length === 2 || s.path[1] === 'primary';
  const p = prod.find((s) => primary(s) && (s.key === 'max_connections' || s.key === 'pool'));
  if (p) {
    const v = num(effective(p, env));
    return v === null ? null : { value: v, env: p.env && !env.has(p.env) ? p.env : null, offset: num(p.offset) || 0, file: yml.path, line: p.line, implicit: false, key: p.key, from: `${p.key}: ${p.known ? p.value : p.text}` };
  }
  const url = prod.find((s) => primary(s) && s.key === 'url');
  if (url) {
    if (!url.known || url.env || typeof url.value !== 'string') return null;
    const q = /[?&](?:pool|max_connections)=(\d+)/.exec(url.value);
    if (q) return { value: Number(q[1]), env: null, offset: 0, file: yml.path, line: url.line, implicit: false, key: 'pool', from: 'url: …?pool=' };
  }
  const at = prod.find((s) => primary(s) && s.key === 'database') || prod.find((s) => primary(s));
  return { value: 5, env: null, offset: 0, file: yml.path, line: (at || prod[0]).line, implicit: true, key: 'pool', from: 'no pool: (Rails’ default, 5)' };
}

/**
 * The pool a DATABASE_URL the files set carries in its query (`postgres://…/app?pool=5` in a Compose service's
 * environment, a Dockerfile ENV, Kamal's env, an env file): Rails merges the URL over production's primary, its
 * query parameters included, so `?pool=` wins over database.yml's `pool:` (ActiveRecord::DatabaseConfigurations
 * merge_db_environment_variables, UrlConfig); with no database.yml the URL is the whole configuration. Not when
 * production's primary has a `url:` of its own other than from that variable (a URL config: Rails reads that URL).
 * PRIMARY_DATABASE_URL before DATABASE_URL, as Rails reads them. → a pool like productionPool()'s, `file` and `line`
 * at the variable, `url` its name; or null.
 */
export function envUrlPool(yml, env) {
  const prod = (yml?.settings || []).filter((s) => s.path?.[0] === 'production' && (s.path.length === 2 || s.path[1] === 'primary'));
  const url = prod.find((s) => s.key === 'url');
  if (url && !url.env) return null;
  const name = url ? url.env : ['PRIMARY_DATABASE_URL', 'DATABASE_URL'].find((n) => env.has(n));
  const v = name && env.get(name);
  const q = v && /[?&](pool|max_connections)=(\d+)(?:&|#|$)/.exec(String(v.value ?? ''));
  if (!q || !v.file) return null;
  return { value: Number(q[2]), env: null, offset: 0, file: v.file, line: v.line, implicit: false, key: 'pool', url: name, from: `${name} …?${q[1]}=${q[2]}` };
}

/**
 * Production's pool when its primary has no pool: and takes `url:` from an ENV variable (`url: <%= ENV.fetch(
 * "DATABASE_URL", "postgres://…") %>`): Rails' default 5 unless the URL the platform sets carries `?pool=`
 * (the URL's query wins over database.yml's keys), which no file tells. → a pool like productionPool()'s with
 * `urlEnv` (judgements on it are notes), or null when there is no such url: or its default names a pool.
 */
export function urlDefaultPool(yml, env) {
  const prod = (yml?.settings || []).filter((s) => s.path?.[0] === 'production' && (s.path.length === 2 || s.path[1] === 'primary'));
  if (prod.some((s) => s.key === 'pool' || s.key === 'max_connections')) return null;
  const url = prod.find((s) => s.key === 'url');
  if (!url?.env || env.has(url.env) || /[?&](?:pool|max_connections)=/.test(String(url.value ?? ''))) return null;
  return { value: 5, env: null, offset: 0, file: yml.path, line: url.line, implicit: true, key: 'pool', urlEnv: url.env, from: `no pool: beside url: from ${url.env}: Rails’ default, 5, unless ${url.env} carries ?pool=` };
}

/** Puma's maximum threads per branch: [{max, env, s}] (threads min, max; or threads n). */
export function pumaThreads(puma, env) {
  return puma.settings.filter((s) => s.name === 'threads').map((s) => {
    const arg = s.args?.[1] || s.args?.[0];
    const e = arg?.env && !env.has(arg.env) ? arg.env : null;
    // A default that depends on the environment (ENV.fetch("X") { if … production … else … end }): the production arm.
    const alt = e && arg.alternatives?.find((a) => /production/.test(a.cond) && !/^else/.test(a.cond));
    if (alt) return { max: num(alt.value), env: e, s, arm: alt.cond };
    return { max: num(effective(arg, env)), env: e, s };
  }).filter((t) => t.max !== null && !inDevBranch(t.s));
}

export function problemFindings(files, answers) {
  const out = [];
  const env = envOf(files);
  const of = (k) => files.filter((f) => f.kind === k && !f.problem);
  const puma = answers.server === 'puma' || !answers.server ? of('puma')[0] : null;
  const yml = of('database-yml')[0];
  const pool = productionPool(yml, env);

  // 1. Every Puma thread needs a connection: the pool (written or Rails' implicit 5) below the threads.
  // A web command's -t/--threads wins over the config file: implicit-threads.mjs judges that one.
  // `url:` from DATABASE_URL with no pool: Rails' 5 unless the URL carries ?pool=: a note (urlDefaultPool).
  const webPool = pool || urlDefaultPool(yml, env);
  if (puma && webPool && !commandSetsThreads(files)) {
    const pool = webPool;
    for (const t of pumaThreads(puma, env)) {
      // One variable for both (RAILS_MAX_THREADS) agrees when production sets it; unset, each file's default counts.
      if (t.max <= pool.value) continue;
      const assume = [...new Set([t.env && `${t.env} unset`, pool.env && `${pool.env} unset`].filter(Boolean))];
      // The fix: the app's own thread expression, plus what else runs in the process (pool-fix.mjs).
      const fix = webPoolFix(files, yml, pool, puma, t, env);
      out.push({
        rule: 'pool-below-threads', severity: pool.urlEnv ? 'note' : 'error', file: pool.file, line: pool.line, setting: pool.key,
        found: String(pool.value), expected: String(fix.total),
        message: `production's ${pool.key} is ${pool.value} (${pool.from}) but Puma runs ${t.max} threads per process (${puma.path}:${t.s.line}${branchName(t.s) ? `, in ${branchName(t.s)}` : ''}${t.arm ? `, default \`${t.arm}\`` : ''})${assume.length ? ` with ${assume.join(' and ')}` : ''}: under load ${pool.urlEnv ? `(if ${pool.urlEnv} has no ?pool=) ` : ''}threads wait for a connection and raise ActiveRecord::ConnectionTimeoutError. Set ${describeFix(pool.key, fix)}`,
        evidence: [SRC.railsPool, RAILS_DEFAULT_POOL, ...(fix.terms.some((x) => /load_async/.test(x.label)) ? [ASYNC_EVIDENCE] : [])], related: [{ file: puma.path, line: t.s.line }],
        diff: fix.diff, replacement: fix.text,
      });
      break;
    }
  }

  // 2. Puma ignores prune_bundler when preload_app! is on (launcher.rb: prune_bundler? && !preload_app).
  if (puma) {
    const prune = puma.settings.filter((s) => s.name === 'prune_bundler' && !inDevBranch(s));
    const preload = puma.settings.filter((s) => s.name === 'preload_app!' || (s.name === 'preload_app' && s.args?.[0]?.value !== false));
    const pair = prune.flatMap((a) => preload.filter((b) => together(a, b)).map((b) => [a, b]))[0];
    if (pair) {
      out.push({
        rule: 'ignored-setting', severity: 'warning', file: puma.path, line: pair[0].line, setting: 'prune_bundler', found: 'prune_bundler', expected: null,
        message: `prune_bundler has no effect together with preload_app! (line ${pair[1].line}): Puma skips pruning when the app is preloaded, so phased restarts keep the old gems. Remove one of the two`,
        evidence: [PUMA_LAUNCHER, PUMA_RESTART], related: [{ file: puma.path, line: pair[1].line }],
      });
    }
  }

  // 3. puma.rb that loads the app: it boots in the master, outside preload_app!/fork hooks.
  if (puma) {
    const req = (puma.requires || []).find((r) => /["'](?:\.\/)?(?:config\/)?environment["']|File\.expand_path\(\s*["'](?:\.\.\/)?(?:config\/)?environment["']/.test(r.text));
    if (req) {
      out.push({
        rule: 'boots-in-master', severity: 'warning', file: puma.path, line: req.line, setting: 'require', found: req.text, expected: null,
        message: `${puma.path} loads config/environment: the whole app boots while Puma reads its config, in the master, before any fork hook runs (connections opened there are shared by forked workers). Use preload_app! and hooks instead`,
        evidence: [PUMA_FORK],
      });
    }
  }

  // 4. ENV Strings compared with Integers in database.yml (env-compare.mjs): fails or picks the wrong value once set.
  for (const s of (yml?.settings || []).filter((x) => x.compare && x.path?.[0] === 'production')) {
    if (out.some((f) => f.rule === 'env-compare' && f.line === s.line)) continue;
    const { op, raw } = s.compare;
    out.push({
      rule: 'env-compare', severity: 'warning', file: yml.path, line: s.line, setting: s.key, found: s.text, expected: null,
      message: `${s.key} takes the .${op} of ${raw.map((v) => `ENV ${v}`).join(' and ')} (a String when set) and Integer defaults: with the variables unset it is ${s.value ?? 'the defaults’ ' + op}, but with one of them set Ruby raises ArgumentError (comparison of String with Integer failed) while Rails reads database.yml and the app does not boot, and with all of them set the Strings compare as text ("10" is less than "5"). Convert each value: ${raw.map((v) => `ENV.fetch("${v}", …).to_i`).join(', ')}`,
      evidence: [RUBY_COMPARABLE, RAILS_DEFAULT_POOL],
    });
  }

  // (Job runners against the pool: jobs.mjs.)

  // 5. Two Rubies. The Gemfile's `ruby` requirement is enforced: Bundler raises when the running Ruby does not meet it
  // ("Your Ruby version is X, but your Gemfile specified Y"). Gemfile.lock's RUBY VERSION only records the Ruby the
  // bundle was resolved with: Bundler does not refuse another, but buildpacks (Heroku, Google Cloud) install it.
  const rvFile = of('ruby-version')[0];
  const rv = rvFile?.ruby;
  const gemfile = of('gemfile')[0];
  const req = gemfile?.ruby?.requirement ? gemfile.ruby : null;
  const lock = of('gemfile-lock')[0];
  // A .ruby-version of "3.3" lets asdf or mise pick any 3.3.x: judged only when it names a full version. .tool-versions
  // picks the Ruby for asdf (before .ruby-version) and mise the same way (sixth blind trial, collections: 3.1.2 there
  // against ruby "~> 3.4.5").
  const fullRuby = (x) => x && x.impl === 'ruby' && x.value.split('.').length >= 3;
  const refuses = fullRuby(rv) && req && satisfies(rv.value, req.requirement) === false;
  for (const f of [rvFile, of('tool-versions')[0]].filter((x) => fullRuby(x?.ruby) && req && satisfies(x.ruby.value, req.requirement) === false)) {
    const name = f.path.split('/').pop();
    out.push({
      rule: 'ruby-mismatch', severity: 'warning', file: f.path, line: f.ruby.line, setting: 'ruby', found: f.ruby.value, expected: req.requirement,
      message: `${name} says Ruby ${f.ruby.value}, but ${gemfile.path} requires ruby "${req.requirement}" (line ${req.line}): wherever ${name} picks the Ruby (${name === '.tool-versions' ? 'asdf, mise' : 'rbenv, asdf, chruby, mise'}, and the images and CI jobs built from it) Bundler refuses to load the bundle ("Your Ruby version is ${f.ruby.value}, but your Gemfile specified ${req.requirement}") and the app does not start. Make them agree${name === '.ruby-version' ? ', or write `ruby file: ".ruby-version"` in the Gemfile' : ''}${lock?.ruby ? ` (Gemfile.lock records Ruby ${lock.ruby.value})` : ''}`,
      evidence: [BUNDLER_RUBY_GUIDE, BUNDLER_RUBY], related: [{ file: gemfile.path, line: req.line }],
    });
  }
  if (!refuses && rv && lock?.ruby && rv.impl === lock.ruby.impl) {
    const a = rv.value.split('.');
    const b = lock.ruby.value.split('.');
    if (a.some((x, k) => b[k] !== undefined && x !== b[k])) {
      const agrees = req && satisfies(rv.value, req.requirement) === true ? `; the Gemfile's ruby "${req.requirement}" (${gemfile.path}:${req.line}) accepts ${rv.value}` : '';
      // Another minor (3.2 against 3.3) runs other language and gem versions: a warning. A patch release apart only
      // fixes bugs within the series, as the image rule judges it (ruby-image.mjs): a note (fifth blind trial, ifme).
      const minor = a[0] !== b[0] || (a[1] !== undefined && b[1] !== undefined && a[1] !== b[1]);
      out.push({
        rule: 'ruby-mismatch', severity: minor ? 'warning' : 'note', file: rvFile.path, line: rv.line, setting: 'ruby', found: rv.value, expected: lock.ruby.value,
        message: `.ruby-version says Ruby ${rv.value}, but Gemfile.lock's RUBY VERSION records ${lock.ruby.value} (${lock.path}:${lock.ruby.line})${agrees}: Bundler does not refuse to run on another Ruby for that line (it records the Ruby the bundle was resolved with), but buildpacks install the Ruby it names (Heroku, Google Cloud), so production can run ${lock.ruby.value} while development and CI run ${rv.value}. Run \`bundle update --ruby\` under Ruby ${rv.value} to record it`,
        evidence: [BUNDLER_RUBY_GUIDE, HEROKU_LOCK_RUBY], related: [{ file: lock.path, line: lock.ruby.line }],
      });
    }
  }
  return out;
}
