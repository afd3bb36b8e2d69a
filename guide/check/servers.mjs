// Problems of the app server's process layout, across files: Puma workers against the cores (only when the
// cores are given: no file says how many the host has), the Solid Queue plugin in a cluster that does not
// preload, and Unicorn's fork and timeout rules. Severity as in problems.mjs (README "Severity").
import { effective, envOf } from './crossfile.mjs';
import { inDevBranch, together } from './problems.mjs';
import { SRC } from '../engine/evidence.mjs';
import { versionOf } from './assumed.mjs';

const PUMA_SIZING = { label: 'Puma docs: deployment ("CPU-core-to-worker ratios should be around 1")', url: 'https://github.com/puma/puma/blob/master/docs/deployment.md' };
const PUMA_WEB_CONCURRENCY = { label: 'Puma lib/puma/configuration.rb: workers default from WEB_CONCURRENCY', url: 'https://github.com/puma/puma/blob/master/lib/puma/configuration.rb' };
const SQ_PLUGIN_77 = { label: 'solid_queue issue #77: plugin :solid_queue with workers and no preload (SolidQueue not loaded in the master)', url: 'https://github.com/rails/solid_queue/issues/77' };
const SQ_PLUGIN_563 = { label: 'solid_queue issue #563: the plugin assumes a preloaded app and stops Puma on phased restarts', url: 'https://github.com/rails/solid_queue/issues/563' };
const PUMA_7_PRELOAD = { label: 'Puma docs: 7.0 upgrade (preload_app! is the default in cluster mode)', url: 'https://github.com/puma/puma/blob/master/docs/7.0-Upgrade.md' };
const UNICORN_EXAMPLE = { label: 'Unicorn examples/unicorn.conf.rb: after_fork establish_connection, "required for Rails + preload_app true"', url: 'https://yhbt.net/unicorn.git/tree/examples/unicorn.conf.rb' };
const RAILS_4_POOL = { label: 'Rails 4.0 ConnectionHandler: pools keyed by Process.pid (3.2 shares the parent\'s connection)', url: 'https://github.com/rails/rails/blob/v4.0.0/activerecord/lib/active_record/connection_adapters/abstract/connection_pool.rb' };
const UNICORN_TIMEOUT = { label: 'Unicorn::Configurator#timeout (workers busy longer are killed)', url: 'https://yhbt.net/unicorn/Unicorn/Configurator.html#method-i-timeout' };
const NGINX_READ_TIMEOUT = { label: 'nginx: proxy_read_timeout (default 60s)', url: 'https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_read_timeout' };

const num = (v) => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));
const major = (v) => (v ? Number(String(v).split('.')[0]) : null);
const TRUE = (v) => v !== undefined && v !== null && !/^(false|0|no|)$/i.test(String(v));

/** Puma's worker count in production: {n, line, from} from `workers`, else WEB_CONCURRENCY (Puma's default). */
export function pumaWorkers(puma, env, procEnv = {}) {
  const w = puma.settings.filter((s) => s.name === 'workers' && !inDevBranch(s));
  if (w.length) {
    const s = w[w.length - 1];
    const a = s.args?.[0];
    if (a?.env && procEnv[a.env] !== undefined) return { n: num(procEnv[a.env]), line: s.line, s, from: `${a.env}=${procEnv[a.env]} (Procfile)` };
    const v = effective(a, env);
    if (v === ':auto' || v === 'auto') return null;
    return num(v) === null ? null : { n: num(v), line: s.line, s, from: a?.env && env.has(a.env) ? `${a.env}=${env.get(a.env).value} (${env.get(a.env).file}:${env.get(a.env).line})` : `workers ${v}` };
  }
  const wc = procEnv.WEB_CONCURRENCY ?? env.get('WEB_CONCURRENCY')?.value;
  if (wc === undefined || num(wc) === null) return null;
  const at = env.get('WEB_CONCURRENCY');
  return { n: num(wc), line: 1, s: null, viaEnv: true, from: procEnv.WEB_CONCURRENCY !== undefined ? `WEB_CONCURRENCY=${wc} (Procfile)` : `WEB_CONCURRENCY=${wc} (${at.file}:${at.line})`, file: at?.file, envLine: at?.line };
}

/** The Procfile's web process environment (`web: WEB_CONCURRENCY=4 bundle exec puma`). */
export function webProcEnv(files) {
  const out = {};
  for (const f of files.filter((x) => x.kind === 'procfile' && !x.problem)) {
    const web = f.settings.find((s) => s.name === 'web');
    if (web) for (const m of String(web.value).matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=(\S+)(?=\s)/g)) out[m[1]] = m[2];
  }
  return out;
}

/** The body lines of a Ruby hook (after_fork do … end) starting at its line. */
function hookBody(text, line) {
  const lines = String(text || '').split('\n');
  const ind = /^\s*/.exec(lines[line - 1] || '')[0];
  const out = [];
  for (let k = line; k < lines.length && k < line + 200; k++) {
    if (lines[k] === `${ind}end` || lines[k].trim() === '}') break;
    out.push(lines[k]);
  }
  return out.join('\n');
}

export function serverFindings(files, answers) {
  const out = [];
  const env = envOf(files);
  const of = (k) => files.filter((f) => f.kind === k && !f.problem);
  const puma = answers.server === 'puma' || !answers.server ? of('puma')[0] : null;
  const procEnv = webProcEnv(files);

  // 1. More Puma workers than cores (cores only when given: --answers or the page's form).
  if (puma && answers.__given?.includes('cores') && Number(answers.cores) > 0) {
    const w = pumaWorkers(puma, env, procEnv);
    if (w && w.n > Number(answers.cores)) {
      const file = w.viaEnv && w.file ? w.file : puma.path;
      const line = w.viaEnv && w.file ? w.envLine : w.line;
      out.push({
        rule: 'workers-above-cores', severity: 'warning', file, line, setting: 'workers', found: String(w.n), expected: String(answers.cores),
        message: `Puma runs ${w.n} workers (${w.from}) on ${answers.cores} cores: with threads in every worker, processes wait for CPU and latency grows under load while each worker costs its own memory. Set workers (WEB_CONCURRENCY) to the cores, ${answers.cores}, or \`auto\` (Puma 7.2)`,
        evidence: [PUMA_SIZING, PUMA_WEB_CONCURRENCY], related: w.s ? [{ file: puma.path, line: w.line }] : [],
      });
    }
  }

  // 2. plugin :solid_queue in a cluster that does not preload: the master never loads the app (issue #77).
  if (puma) {
    const plugin = puma.settings.find((s) => s.name === 'plugin' && s.args?.some((a) => a.value === ':solid_queue') && !inDevBranch(s));
    const cond = plugin?.branch?.find((b) => /\bENV\b/.test(b.cond));
    const envVar = cond && /ENV(?:\.fetch\(|\[)\s*["']([A-Z0-9_]+)["']/.exec(cond.cond)?.[1];
    const active = plugin && (!plugin.conditional || (envVar && TRUE(env.get(envVar)?.value)));
    const w = plugin && pumaWorkers(puma, env, procEnv);
    const preload = plugin && puma.settings.some((s) => (s.name === 'preload_app!' || (s.name === 'preload_app' && s.args?.[0]?.value !== false)) && !inDevBranch(s) && together(s, plugin));
    const pumaMajor = major(answers.server_version);
    // Puma ≥ 7 preloads in cluster mode by default; 5–6 preload when WEB_CONCURRENCY (not a `workers` line) sets the workers.
    // A puma.rb that requires config/environment has the app in the master (problems.mjs's boots-in-master instead).
    const loadsApp = (puma.requires || []).some((r) => /environment["']/.test(r.text));
    // Puma 5–6 also preload by default whenever WEB_CONCURRENCY is in the environment (configuration.rb):
    // set in the files, no problem; read by the workers line but not set in the files, production may set it.
    const wcSet = env.has('WEB_CONCURRENCY') || procEnv.WEB_CONCURRENCY !== undefined;
    const wcMaybe = w?.s?.args?.[0]?.env === 'WEB_CONCURRENCY';
    // An assumed Puma version (no Gemfile.lock: a lower bound or the wizard's default) may be 7, which preloads: a note.
    const pv = versionOf(answers, 'server_version', 'Puma');
    if (active && w && w.n > 1 && !w.viaEnv && !wcSet && !preload && !loadsApp && pumaMajor !== null && pumaMajor < 7) {
      out.push({
        rule: 'jobs-not-run', severity: wcMaybe || pv.assumed ? 'note' : 'error', ...(wcMaybe ? { assumes: ['WEB_CONCURRENCY unset'] } : {}), file: puma.path, line: plugin.line, setting: 'plugin', found: 'plugin :solid_queue', expected: 'preload_app!',
        message: `plugin :solid_queue runs in Puma's master, but ${w.n} workers (line ${w.line}) without preload_app! on ${pv.text} leave the app unloaded there: the Solid Queue supervisor does not start and jobs are never run. Add preload_app! (Puma 7 preloads by default) or run bin/jobs as its own process`,
        evidence: [SQ_PLUGIN_77, SQ_PLUGIN_563, PUMA_7_PRELOAD], related: [{ file: puma.path, line: w.line }],
      });
    }
  }

  // 3. Unicorn with preload_app true on Rails before 4.0: workers share the master's database connection.
  const rails = String(answers.rails || '');
  for (const f of of('unicorn')) {
    const pre = f.settings.find((s) => s.name === 'preload_app' && s.args?.[0]?.value === true && !inDevBranch(s));
    if (!pre || !rails || major(rails) >= 4) continue;
    const hook = f.settings.find((s) => s.name === 'after_fork');
    if (hook && /establish_connection|reconnect!/.test(hookBody(f.text, hook.line))) continue;
    const rv = versionOf(answers, 'rails', 'Rails');
    out.push({
      rule: 'fork-reconnect', severity: rv.assumed ? 'note' : 'error', file: f.path, line: pre.line, setting: 'after_fork', found: 'preload_app true', expected: 'after_fork { ActiveRecord::Base.establish_connection }',
      message: `preload_app true on ${rv.text} with no after_fork that calls establish_connection: every worker inherits the master's database socket (Rails before 4.0 does not key pools by process), so their queries interleave on one connection and fail or return another worker's results`,
      evidence: [UNICORN_EXAMPLE, RAILS_4_POOL],
    });
  }

  // 4. Unicorn/Pitchfork timeout above the proxy's read timeout: the proxy answers 504 while the worker keeps
  // working, busy for nobody, up to the server's timeout.
  const proxied = of('nginx').filter((f) => f.settings.some((s) => s.name === 'proxy_pass'));
  for (const f of [...of('unicorn'), ...of('pitchfork')]) {
    if (answers.server && answers.server !== f.kind) continue;
    const t = f.settings.find((s) => s.name === 'timeout' && !inDevBranch(s));
    const secs = t && num(effective(t.args?.[0], env));
    if (!secs || !proxied.length) continue;
    const reads = proxied.flatMap((n) => n.settings.filter((s) => s.name === 'proxy_read_timeout').map((s) => ({ n, s, secs: seconds(s.value) }))).filter((x) => x.secs !== null);
    const lowest = reads.length ? reads.reduce((a, b) => (b.secs < a.secs ? b : a)) : { n: proxied[0], s: proxied[0].settings.find((s) => s.name === 'proxy_pass'), secs: 60, dflt: true };
    if (secs <= lowest.secs) continue;
    out.push({
      rule: 'timeout-above-proxy', severity: 'warning', file: f.path, line: t.line, setting: 'timeout', found: String(secs), expected: String(lowest.secs),
      message: `${f.kind === 'unicorn' ? 'Unicorn' : 'Pitchfork'} kills a worker after ${secs} s, but the proxy gives up after ${lowest.secs} s (${lowest.n.path}:${lowest.s.line}${lowest.dflt ? ', nginx\'s default proxy_read_timeout' : ''}): a slow request gets a 504 and still holds its worker for up to ${secs - lowest.secs} s more. Set timeout at or below ${lowest.secs}`,
      evidence: [UNICORN_TIMEOUT, NGINX_READ_TIMEOUT, SRC.unicorn].filter(Boolean), related: [{ file: lowest.n.path, line: lowest.s.line }],
    });
  }
  return out;
}

/** nginx time: 30, 30s, 2m, 1h → seconds, or null. */
function seconds(v) {
  const m = /^(\d+)(ms|s|m|h)?$/.exec(String(v).trim());
  if (!m) return null;
  return Number(m[1]) * ({ ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] || 's']);
}
