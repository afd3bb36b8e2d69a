// scripts/bench-ruby-settings: A/B runner for Ruby runtime settings under Puma.
// Each (configuration, run) boots a fresh Puma on 127.0.0.1, warms it up, drives load with
// wrk (or ab) and samples the RSS of the Puma process tree. Runs are interleaved in rounds,
// each round in a seeded random order (the Rails Ruby Bench lesson: a transient slowdown
// should hit random configurations, not a block of one).
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import http from 'node:http';
import { spawn } from 'node:child_process';
import {
  parseArgs, UsageError, REPO_ROOT, hostFacts, hardwareString, baseSoftware, timestampId, checkId, ensureOutDir,
  toCsv, writeDataset, rawDir, rawRef, reportValidation, author, trackGroup, untrackGroup, stopGroup, killGroup, groupAlive,
  which, commandOutput, median, min, max, round, makeRng, shuffle, randomSeed, sleep, FORMAT,
  COMMON_SPEC, COMMON_HELP, applyCommon,
} from './common.mjs';
import { readSettings, findJemalloc, envString } from './settings-file.mjs';
import { TreeSampler } from './sampler.mjs';
import { parse as parseWrk } from '../importers/wrk.mjs';
import { parse as parseAb } from '../importers/ab.mjs';

const TOOL = 'bench-ruby-settings';
const WRK_LUA = path.join(REPO_ROOT, 'scripts/lib/importers/wrk-report.lua');

export const HELP = `Usage: scripts/bench-ruby-settings --app FILE.ru --settings FILE.yml [options]

Boots FILE.ru under Puma (bundle exec puma; see --gemfile) once per
configuration and run, on 127.0.0.1 and a free port; waits until it answers, warms it
up, drives load with wrk (default) or ab, and samples the RSS of the whole Puma process
tree. Runs are interleaved: in every round each configuration runs once, in an order
drawn from --seed. The server's process group is always stopped afterwards.

Settings file (YAML):
  defaults:                 # optional, applies to every configuration
    threads: 3              # puma -t N:N
    workers: 0              # puma -w N (0 = single mode)
  configurations:
    - name: baseline
    - name: yjit
      env: { RUBY_YJIT_ENABLE: "1" }
    - name: gc-growth-1.2
      env: { RUBY_GC_HEAP_GROWTH_FACTOR: "1.2" }
    - name: arena-2
      env: { MALLOC_ARENA_MAX: "2" }
    - name: jemalloc
      jemalloc: true        # LD_PRELOAD of libjemalloc.so.2; marked SKIPPED if not installed
    - name: 2x2
      workers: 2
      threads: 2
      preload: true         # puma --preload
See scripts/examples/settings.yml.

Options:
  --app FILE.ru        Rack app to serve (required)
  --settings FILE.yml  configurations to compare (required)
  --gemfile FILE       Gemfile for bundle exec (default: the app directory's Gemfile if
                       there is one, else this project's, which has puma and rack)
  --runs N             runs per configuration (default 3; 1..50)
  --tool wrk|ab        load generator (default wrk; ab when --requests is given)
  --duration S         wrk: seconds of measured load per run (default 10)
  --requests N         ab: requests per run (default 5000)
  --connections N      concurrent connections (default 4)
  --warmup N           warm-up requests per run before measuring (default 200; 0 = none)
  --path /PATH         request path (default /)
  --seed N             seed for the run order (default random; always recorded)
  --out DIR            output directory (default ./measurements)
  --id ID              dataset id (default ruby-settings-<UTC timestamp>)
  --boot-timeout S     seconds to wait for Puma to answer (default 60)
  --max-minutes M      stop starting new runs after M minutes (default 60)
  --license TEXT       licence of the produced dataset (default CC-BY-4.0)
${COMMON_HELP.replace('%TOPIC%', 'ruby')}  --quiet              print only the dataset path
  --help               show this help

Output in DIR (mirrors the repository, so --out . in a checkout puts files in place):
_data/datasets/<id>.json (dataset), raw-output/<id>/runs.csv (one row per run),
raw-output/<id>/<n>-<config>-run<r>.txt (load tool output) and .puma.log (server log),
raw-output/<id>/provenance.json.
`;

const SPEC = {
  ...COMMON_SPEC,
  help: { type: 'boolean' },
  app: { type: 'string' },
  gemfile: { type: 'string' },
  settings: { type: 'string' },
  runs: { type: 'integer', min: 1, max: 50 },
  tool: { type: 'string' },
  duration: { type: 'number', min: 0.5, max: 600 },
  requests: { type: 'integer', min: 1, max: 10_000_000 },
  connections: { type: 'integer', min: 1, max: 1000 },
  warmup: { type: 'integer', min: 0, max: 1_000_000 },
  path: { type: 'string' },
  seed: { type: 'integer', min: 0, max: 2 ** 32 - 1 },
  out: { type: 'string' },
  id: { type: 'string' },
  'boot-timeout': { type: 'number', min: 1, max: 600 },
  'max-minutes': { type: 'number', min: 0.1, max: 24 * 60 },
  license: { type: 'string' },
  quiet: { type: 'boolean' },
};

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function httpGet(url, agent, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
  });
}

async function waitReady(url, child, timeoutS) {
  const deadline = Date.now() + timeoutS * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return `Puma exited during boot (code ${child.exitCode}, signal ${child.signalCode})`;
    const status = await httpGet(url, undefined, 1000);
    if (status !== null) return status < 500 ? null : `the app answered ${status} at boot`;
    await sleep(100);
  }
  return `Puma did not answer within ${timeoutS} s`;
}

/** Warm-up: exactly `count` GET requests over `connections` keep-alive connections. */
async function warmup(url, count, connections) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let left = count;
  let errors = 0;
  const worker = async () => {
    while (left > 0) {
      left -= 1;
      const status = await httpGet(url, agent, 10000);
      if (status === null || status >= 400) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(connections, Math.max(count, 1)) }, worker));
  agent.destroy();
  return errors;
}

function runLoad(argv, timeoutS) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    trackGroup(child.pid);
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; killGroup(child.pid, 'SIGKILL'); }, timeoutS * 1000);
    child.on('error', (err) => { out += `\n${err.message}`; });
    child.on('close', (code) => {
      clearTimeout(timer);
      untrackGroup(child.pid);
      resolve({ code, out, timedOut });
    });
  });
}

function pumaArgs(cfg, port, app) {
  const args = ['exec', 'puma', '--bind', `tcp://127.0.0.1:${port}`, '--threads', `${cfg.threads}:${cfg.threads}`, '--environment', 'production'];
  if (cfg.workers > 0) args.push('--workers', String(cfg.workers));
  if (cfg.preload) args.push('--preload');
  args.push(app);
  return args;
}

/** What a process started with this configuration's environment actually gets. */
function probe(cfg, env) {
  const code = [
    'require "json"',
    'yjit = defined?(RubyVM::YJIT) && RubyVM::YJIT.respond_to?(:enabled?) && RubyVM::YJIT.enabled?',
    'maps = File.read("/proc/self/maps") rescue ""',
    'puts JSON.generate(ruby: RUBY_DESCRIPTION, yjit: !!yjit, jemalloc: maps.include?("jemalloc"))',
  ].join('; ');
  const out = commandOutput('ruby', ['-e', code], { env });
  try {
    return JSON.parse(out.split('\n').pop());
  } catch {
    return { ruby: 'not detected', yjit: null, jemalloc: null };
  }
}

function jemallocInServer(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/maps`, 'utf8').includes('jemalloc');
  } catch {
    return null;
  }
}

function versions(env) {
  const code = 'require "puma/const"; require "rack"; puts Puma::Const::PUMA_VERSION; puts Rack.release';
  const out = commandOutput('bundle', ['exec', 'ruby', '-e', code], { env, cwd: path.dirname(env.BUNDLE_GEMFILE), timeout: 60000 }) || '';
  const [puma, rack] = out.split('\n').slice(-2);
  return { puma: puma || 'not detected', rack: rack || 'not detected' };
}

export async function main(argv) {
  const { opts, rest } = parseArgs(argv, SPEC);
  if (opts.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (rest.length) throw new UsageError(`unexpected arguments after --: ${rest.join(' ')}`);
  const topic = applyCommon(opts, 'ruby');
  if (!opts.app) throw new UsageError('--app FILE.ru is required (a Rack app, e.g. scripts/examples/hello.ru)');
  if (!opts.settings) throw new UsageError('--settings FILE.yml is required (see scripts/examples/settings.yml)');
  const app = path.resolve(opts.app);
  if (!fs.existsSync(app) || !fs.statSync(app).isFile()) throw new UsageError(`app file not found: ${opts.app}`);
  if (!app.endsWith('.ru')) throw new UsageError(`--app must be a Rack config file ending in .ru, got ${opts.app}`);
  const configs = readSettings(opts.settings);
  // The app's own Gemfile when it has one (a Rails app), else this project's (puma, rack).
  const gemfile = path.resolve(opts.gemfile ?? (fs.existsSync(path.join(path.dirname(app), 'Gemfile')) ? path.join(path.dirname(app), 'Gemfile') : path.join(REPO_ROOT, 'Gemfile')));
  if (!fs.existsSync(gemfile)) throw new UsageError(`Gemfile not found: ${gemfile}`);
  const toolName = opts.tool ?? (opts.requests !== undefined ? 'ab' : 'wrk');
  if (!['wrk', 'ab'].includes(toolName)) throw new UsageError(`--tool must be wrk or ab, got "${opts.tool}"`);
  if (toolName === 'wrk' && opts.requests !== undefined) throw new UsageError('wrk runs for a duration: use --duration with wrk, or --tool ab with --requests');
  if (toolName === 'ab' && opts.duration !== undefined) throw new UsageError('ab sends a number of requests: use --requests with ab, or --tool wrk with --duration');
  if (!which(toolName)) throw new UsageError(`${toolName} is not installed (Debian: apt-get install ${toolName === 'ab' ? 'apache2-utils' : 'wrk'})`);
  if (!which('bundle')) throw new UsageError('bundle (Bundler) is not installed; run scripts/setup');
  const reqPath = opts.path ?? '/';
  if (!reqPath.startsWith('/')) throw new UsageError('--path must start with /');
  const runs = opts.runs ?? 3;
  const duration = opts.duration ?? 10;
  const requests = opts.requests ?? 5000;
  const connections = opts.connections ?? 4;
  const warmupCount = opts.warmup ?? 200;
  if (toolName === 'ab' && requests < connections) throw new UsageError(`ab needs at least as many requests (${requests}) as connections (${connections})`);
  const bootTimeout = opts['boot-timeout'] ?? 60;
  const maxMinutes = opts['max-minutes'] ?? 60;
  const seed = opts.seed ?? randomSeed();
  const started = new Date();
  const id = checkId(opts.id ?? `ruby-settings-${timestampId(started)}`);
  const outDir = ensureOutDir(opts.out ?? 'measurements');
  const log = (msg) => { if (!opts.quiet) process.stderr.write(`${TOOL}: ${msg}\n`); };
  const raw = rawDir(outDir, id);
  const facts = hostFacts(outDir);
  const baseEnv = { ...process.env, BUNDLE_GEMFILE: gemfile, RACK_ENV: 'production' };
  delete baseEnv.LD_PRELOAD; // only a configuration may preload something
  const jemallocPath = findJemalloc();

  // Resolve each configuration's environment and check what it really does.
  const resolved = configs.map((cfg) => {
    const env = { ...baseEnv, ...cfg.env };
    let skipped = null;
    if (cfg.jemalloc) {
      if (jemallocPath) env.LD_PRELOAD = env.LD_PRELOAD ? `${jemallocPath}:${env.LD_PRELOAD}` : jemallocPath;
      else skipped = 'jemalloc requested but libjemalloc.so.2 was not found (Debian: apt-get install libjemalloc2)';
    }
    const effective = skipped ? { ruby: null, yjit: null, jemalloc: null } : probe(cfg, env);
    return { ...cfg, runEnv: env, skipped, effective };
  });
  const vers = versions(baseEnv);
  log(`${configs.length} configuration(s) x ${runs} run(s), ${toolName}, seed ${seed}; Puma ${vers.puma}`);

  // Rounds: each configuration once per round, order shuffled per round.
  const rng = makeRng(seed);
  const schedule = [];
  for (let r = 1; r <= runs; r += 1) {
    for (const i of shuffle(resolved.map((_, k) => k), rng)) schedule.push({ cfgIndex: i, run: r });
  }
  const deadline = Date.now() + maxMinutes * 60 * 1000;
  // Hard stop: whatever happens, nothing outlives the budget by more than two minutes.
  const watchdog = setTimeout(() => {
    process.stderr.write(`${TOOL}: time budget exceeded by 2 minutes; stopping everything\n`);
    process.exit(1);
  }, maxMinutes * 60 * 1000 + 120000);
  watchdog.unref();

  const results = [];
  let n = 0;
  for (const step of schedule) {
    n += 1;
    const cfg = resolved[step.cfgIndex];
    const base = `${String(n).padStart(3, '0')}-${cfg.name.replace(/[^A-Za-z0-9._-]/g, '_')}-run${step.run}`;
    const result = { n, config: cfg.name, run: step.run, ok: false, failure: null };
    results.push(result);
    if (cfg.skipped) {
      result.failure = 'SKIPPED';
      result.reason = cfg.skipped;
      continue;
    }
    if (Date.now() > deadline) {
      result.failure = 'NOT RUN';
      result.reason = `time budget of ${maxMinutes} min used up`;
      continue;
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}${reqPath}`;
    const logFile = path.join(raw, `${base}.puma.log`);
    const logFd = fs.openSync(logFile, 'w');
    const server = spawn('bundle', pumaArgs(cfg, port, app), { cwd: path.dirname(app), env: cfg.runEnv, detached: true, stdio: ['ignore', logFd, logFd] });
    fs.closeSync(logFd);
    trackGroup(server.pid);
    try {
      const bootStart = performance.now();
      const bootError = await waitReady(url, server, bootTimeout);
      result.boot_s = (performance.now() - bootStart) / 1000;
      if (bootError) {
        result.failure = 'FAIL';
        result.reason = `${bootError}; see ${path.basename(logFile)}`;
        log(`run ${n}/${schedule.length} ${cfg.name} #${step.run}: ${result.reason}`);
        continue;
      }
      result.jemalloc_loaded = jemallocInServer(server.pid);
      result.warmup_errors = warmupCount ? await warmup(url, warmupCount, connections) : 0;
      const sampler = new TreeSampler({ roots: () => [server.pid], intervalMs: 250 });
      sampler.start();
      const argv = toolName === 'wrk'
        ? ['wrk', '--threads', String(Math.min(2, connections)), '--connections', String(connections), '--duration', `${duration}s`, '--timeout', '10s', '--latency', '--script', WRK_LUA, url]
        : ['ab', '-k', '-n', String(requests), '-c', String(connections), '-s', '10', url];
      const load = await runLoad(argv, (toolName === 'wrk' ? duration : 600) + 60);
      sampler.stop();
      fs.writeFileSync(path.join(raw, `${base}.txt`), `$ ${argv.join(' ')}\n${load.out}`);
      const summary = summariseRss(sampler);
      Object.assign(result, summary);
      let parsed;
      try {
        parsed = toolName === 'wrk' ? fromWrk(parseWrk(load.out)) : fromAb(parseAb(load.out));
      } catch (err) {
        parsed = { error: `could not read ${toolName} output: ${err.message}` };
      }
      if (load.timedOut) parsed.error = `${toolName} did not finish in time`;
      Object.assign(result, parsed);
      const errorShare = result.requests ? result.errors / result.requests : 1;
      if (parsed.error || !result.rps) {
        result.failure = 'FAIL';
        result.reason = parsed.error || 'no requests completed';
      } else if (errorShare > 0.01) {
        result.failure = 'FAIL';
        result.reason = `${result.errors} of ${result.requests} requests failed (more than 1%)`;
      } else {
        result.ok = true;
      }
      log(`run ${n}/${schedule.length} ${cfg.name} #${step.run}: ${result.ok ? `${result.rps.toFixed(1)} req/s, p99 ${result.p99_ms} ms, peak RSS ${(result.rss_peak / 1024 ** 2).toFixed(1)} MiB` : `FAILED: ${result.reason}`}`);
    } finally {
      await stopGroup(server.pid, 5000);
      if (groupAlive(server.pid)) killGroup(server.pid, 'SIGKILL');
    }
  }
  clearTimeout(watchdog);
  const elapsedS = (Date.now() - started.getTime()) / 1000;

  fs.writeFileSync(path.join(raw, 'runs.csv'), toCsv(
    ['order', 'config', 'run', 'ok', 'failure', 'reason', 'requests_per_s', 'requests', 'errors', 'latency_p50_ms', 'latency_p90_ms', 'latency_p99_ms', 'latency_mean_ms', 'rss_peak_bytes', 'rss_end_bytes', 'puma_processes', 'boot_s', 'warmup_errors', 'jemalloc_loaded'],
    results.map((r) => [r.n, r.config, r.run, r.ok, r.failure, r.reason, r.rps, r.requests, r.errors, r.p50_ms, r.p90_ms, r.p99_ms, r.mean_ms, r.rss_peak, r.rss_end, r.processes, r.boot_s === undefined ? null : round(r.boot_s, 3), r.warmup_errors, r.jemalloc_loaded]),
  ));
  const analysis = analyse(resolved, results);
  const toolVersion = toolName === 'wrk'
    ? (commandOutput('sh', ['-c', 'wrk -v 2>&1; true']) || '').match(/wrk (\S+)/)?.[1] || 'not detected'
    : (commandOutput('sh', ['-c', 'ab -V 2>&1; true']) || '').match(/Version (\S+)/)?.[1] || 'not detected';
  const rubyVersion = commandOutput('ruby', ['-v']) || 'not detected';
  const dataset = buildDataset({
    id, started, facts, resolved, results, analysis, runs, seed, schedule, toolName, toolVersion, vers, rubyVersion,
    duration, requests, connections, warmupCount, reqPath, app, jemallocPath, elapsedS, opts, topic,
  });
  const file = writeDataset(outDir, dataset, {
    tool: TOOL, started: started.toISOString(), elapsed_s: elapsedS, seed,
    order: schedule.map((s) => `${resolved[s.cfgIndex].name}#${s.run}`),
    app, gemfile, settings_file: path.resolve(opts.settings), load_tool: toolName, load_tool_version: toolVersion,
    duration_s: toolName === 'wrk' ? duration : null, requests: toolName === 'ab' ? requests : null, connections,
    warmup_requests: warmupCount, path: reqPath, ruby: rubyVersion, puma: vers.puma, rack: vers.rack, jemalloc_path: jemallocPath,
    configurations: resolved.map((c) => ({ name: c.name, env: c.env, workers: c.workers, threads: c.threads, jemalloc: c.jemalloc, preload: c.preload, skipped: c.skipped, effective: c.effective })),
    analysis, host: facts, results,
  });
  log(analysis.sentence);
  const problems = await reportValidation(TOOL, file, opts);
  process.stdout.write(`${file}\n`);
  return problems ? 1 : 0;
}

function summariseRss(sampler) {
  const byIndex = new Map();
  for (const s of sampler.samples) byIndex.set(s.index, (byIndex.get(s.index) || 0) + (s.rss || 0));
  const counts = new Map();
  for (const s of sampler.samples) counts.set(s.index, (counts.get(s.index) || 0) + 1);
  const totals = [...byIndex.values()];
  return {
    rss_peak: totals.length ? max(totals) : null,
    rss_end: totals.length ? totals[totals.length - 1] : null,
    processes: counts.size ? max([...counts.values()]) : null,
  };
}

function fromWrk(w) {
  if (w.error) return { error: w.error };
  const errors = (w.socket ? w.socket.connect + w.socket.read + w.socket.write + w.socket.timeout : 0) + (w.non2xx || 0);
  const pct = (p) => {
    if (w.lua) {
      const v = w.lua.latency_us.percentiles[p];
      return typeof v === 'number' ? v / 1000 : null;
    }
    return w.percentiles[p] ?? null;
  };
  return {
    rps: w.lua ? w.requests / w.elapsedS : w.rps,
    requests: w.requests,
    errors,
    p50_ms: round(pct('50'), 3),
    p90_ms: round(pct('90'), 3),
    p99_ms: round(pct('99'), 3),
    mean_ms: w.lua ? round(w.lua.latency_us.mean / 1000, 3) : w.latency?.mean ?? null,
  };
}

function fromAb(a) {
  if (a.error && !a.complete) return { error: a.error };
  return {
    rps: a.rps === null ? null : Number(a.rps),
    requests: a.complete,
    errors: (a.failed || 0) + (a.non2xx || 0),
    p50_ms: a.percentiles['50'] ?? null,
    p90_ms: a.percentiles['90'] ?? null,
    p99_ms: a.percentiles['99'] ?? null,
    mean_ms: a.tpr === null ? null : Number(a.tpr),
  };
}

/**
 * Is the run-to-run spread larger than the differences between configurations?
 * For every pair of configurations with successful runs, the difference of their median
 * throughputs is compared with the larger of their two spreads (max - min over runs).
 */
export function analyse(configs, results) {
  const stats = configs.map((c) => {
    const ok = results.filter((r) => r.config === c.name && r.ok);
    const rps = ok.map((r) => r.rps);
    return { name: c.name, n: ok.length, median: median(rps), min: min(rps), max: max(rps), spread: ok.length ? max(rps) - min(rps) : null };
  });
  const measured = stats.filter((s) => s.n > 0);
  const pairs = [];
  for (let i = 0; i < measured.length; i += 1) {
    for (let j = i + 1; j < measured.length; j += 1) {
      const a = measured[i];
      const b = measured[j];
      const diff = Math.abs(a.median - b.median);
      const spread = Math.max(a.spread, b.spread);
      pairs.push({ a: a.name, b: b.name, difference: diff, spread, within_noise: spread >= diff });
    }
  }
  const singleRuns = measured.some((s) => s.n < 2);
  const noisy = pairs.filter((p) => p.within_noise);
  let flag;
  let sentence;
  if (measured.length < 2) {
    flag = null;
    sentence = 'Fewer than two configurations have successful runs, so no comparison can be made.';
  } else if (singleRuns) {
    flag = null;
    sentence = 'At least one configuration has fewer than two successful runs, so its run-to-run spread is unknown; repeat with --runs 3 or more before reading differences.';
  } else if (noisy.length) {
    flag = true;
    sentence = `The spread between runs exceeds the difference between configurations for ${noisy.map((p) => `${p.a} vs ${p.b}`).join(', ')}: those differences are within the noise of this run.`;
  } else {
    flag = false;
    sentence = 'Every difference between configuration medians is larger than the run-to-run spread of the configurations compared.';
  }
  const withinNoiseOf = Object.fromEntries(stats.map((s) => [s.name, noisy.filter((p) => p.a === s.name || p.b === s.name).map((p) => (p.a === s.name ? p.b : p.a))]));
  return { stats, pairs, spread_exceeds_difference: flag, sentence, within_noise_of: withinNoiseOf };
}

const MARKER_MEANING = {
  FAIL: 'FAIL: no run of this configuration succeeded (Puma did not boot, the load tool failed, or more than 1% of requests failed).',
  SKIPPED: 'SKIPPED: the configuration needs something not installed on this machine (jemalloc).',
  'NOT RUN': 'NOT RUN: the time budget (--max-minutes) ran out before this configuration ran.',
};

function buildDataset(o) {
  const { resolved, results, analysis, runs, seed, schedule, toolName } = o;
  const markersUsed = new Set();
  const rows = resolved.map((cfg) => {
    const ok = results.filter((r) => r.config === cfg.name && r.ok);
    const failedAll = results.filter((r) => r.config === cfg.name);
    const marker = ok.length ? null : (cfg.skipped ? 'SKIPPED' : (failedAll.every((r) => r.failure === 'NOT RUN') ? 'NOT RUN' : 'FAIL'));
    if (marker) markersUsed.add(marker);
    const val = (v, d) => (marker ? marker : round(v, d));
    const st = analysis.stats.find((s) => s.name === cfg.name);
    const jemallocSeen = ok.map((r) => r.jemalloc_loaded);
    const yjit = cfg.effective.yjit === null ? 'unknown' : cfg.effective.yjit ? 'on' : 'off';
    return [
      cfg.name,
      cfg.workers,
      cfg.threads,
      envString(cfg.runEnv.LD_PRELOAD && cfg.jemalloc ? { ...cfg.env, LD_PRELOAD: cfg.runEnv.LD_PRELOAD } : cfg.env) + (cfg.preload ? ' (puma --preload)' : ''),
      yjit,
      cfg.jemalloc ? (jemallocSeen.length && jemallocSeen.every(Boolean) ? 'loaded' : cfg.skipped ? 'not found' : 'requested, not seen') : (jemallocSeen.some(Boolean) ? 'loaded' : 'no'),
      ok.length,
      val(st.median, 1),
      val(st.min, 1),
      val(st.max, 1),
      val(st.spread, 1),
      val(median(ok.map((r) => r.p50_ms)), 3),
      val(median(ok.map((r) => r.p90_ms)), 3),
      val(median(ok.map((r) => r.p99_ms)), 3),
      marker ? marker : Math.round(median(ok.map((r) => r.rss_peak))),
      marker ? marker : ok.reduce((a, r) => a + (r.errors || 0), 0),
      analysis.within_noise_of[cfg.name].length ? analysis.within_noise_of[cfg.name].join(', ') : (analysis.spread_exceeds_difference === null ? 'unknown' : 'none'),
    ];
  });
  const columns = [
    { key: 'config', label: 'Configuration', type: 'string' },
    { key: 'workers', label: 'Puma workers', type: 'integer', unit: 'workers', description: '0 = Puma single mode (no forked workers).' },
    { key: 'threads', label: 'Puma threads', type: 'integer', unit: 'threads', description: 'Minimum and maximum threads per process.' },
    { key: 'env', label: 'Environment', type: 'string', description: 'Variables this configuration sets (in addition to RACK_ENV=production and BUNDLE_GEMFILE).' },
    { key: 'yjit', label: 'YJIT', type: 'string', description: 'Whether a Ruby started with this environment reports YJIT enabled.' },
    { key: 'jemalloc', label: 'jemalloc', type: 'string', description: 'Whether libjemalloc was mapped into the Puma process (read from /proc/PID/maps).' },
    { key: 'runs_ok', label: 'Successful runs', type: 'integer', unit: 'count' },
    { key: 'rps_median', label: 'Throughput (median)', type: 'number', unit: 'req/s', decimals: 1 },
    { key: 'rps_min', label: 'Throughput (min)', type: 'number', unit: 'req/s', decimals: 1 },
    { key: 'rps_max', label: 'Throughput (max)', type: 'number', unit: 'req/s', decimals: 1 },
    { key: 'rps_spread', label: 'Run-to-run spread', type: 'number', unit: 'req/s', decimals: 1, description: 'Max minus min throughput over the runs of this configuration.' },
    { key: 'p50_ms', label: 'Latency p50 (median of runs)', type: 'number', unit: 'ms', decimals: 3 },
    { key: 'p90_ms', label: 'Latency p90 (median of runs)', type: 'number', unit: 'ms', decimals: 3 },
    { key: 'p99_ms', label: 'Latency p99 (median of runs)', type: 'number', unit: 'ms', decimals: 3 },
    { key: 'rss_peak', label: 'Peak RSS of the Puma tree (median of runs)', type: 'integer', unit: 'B', description: 'Largest per-sample sum of VmRSS over the Puma master and workers, sampled every 0.25 s during the measured load.' },
    { key: 'errors', label: 'Failed requests', type: 'integer', unit: 'count', description: 'Socket errors and non-2xx/3xx responses, summed over the successful runs.' },
    { key: 'within_noise_of', label: 'Within run-to-run noise of', type: 'string', description: 'Configurations whose median throughput differs from this one by less than the larger of the two spreads.' },
  ];
  const flag = analysis.spread_exceeds_difference;
  const caveats = [
    `Spread versus difference: ${analysis.sentence}`,
    `The load generator (${toolName}) runs on the same machine as Puma and competes for the same CPU cores; absolute numbers are lower than with a separate load machine, comparisons between configurations are what this measures.`,
    'Each run boots a fresh Puma, so every run includes the same warm-up but none benefits from a previous run\'s caches.',
    'YJIT and jemalloc columns record what a process with the configuration\'s environment actually got; GC variables are passed as set and are not read back.',
  ];
  if (runs < 3) caveats.push(`Only ${runs} run(s) per configuration: the spread is a rough estimate at best. The Rails Ruby Bench posts used 11 to 90 runs per configuration.`);
  const failed = results.filter((r) => !r.ok);
  if (failed.length) caveats.push(`Runs not counted: ${failed.map((r) => `${r.config} #${r.run} (${r.failure}: ${r.reason})`).join('; ')}.`.slice(0, 2000));
  const best = analysis.stats.filter((s) => s.n).sort((a, b) => b.median - a.median);
  const flagText = flag === null ? 'spread versus difference could not be judged' : flag ? 'the run-to-run spread exceeds the difference between some configurations' : 'the run-to-run spread is smaller than every difference between configurations';
  const summary = best.length === 1
    ? `Only ${best[0].name} completed runs (median ${best[0].median.toFixed(1)} req/s over ${best[0].n} run(s)); spread_exceeds_difference=unknown: nothing to compare it with.`
    : best.length
    ? `Median throughput ranged from ${best[best.length - 1].median.toFixed(1)} req/s (${best[best.length - 1].name}) to ${best[0].median.toFixed(1)} req/s (${best[0].name}) over ${runs} interleaved run(s) each; spread_exceeds_difference=${flag === null ? 'unknown' : flag}: ${flagText}.`
    : `No configuration completed a run; spread_exceeds_difference=unknown.`;
  const loadText = toolName === 'wrk'
    ? `wrk with ${o.connections} connections for ${o.duration} s per run (--latency, percentiles from wrk's Lua report)`
    : `ab -k with ${o.requests} requests at concurrency ${o.connections} per run`;
  const failureLayer = {
    transform: [{ calculate: 'datum.rps_median_failure || datum.rps_min_failure || datum.rps_max_failure', as: 'failure' }, { filter: 'datum.failure != null' }],
    mark: { type: 'text', align: 'left', dx: 4 },
    encoding: { x: { value: 0 }, text: { field: 'failure' } },
  };
  const markers = [...markersUsed];
  return {
    format: FORMAT,
    id: o.id,
    title: `Ruby settings A/B under Puma: ${resolved.map((c) => c.name).join(', ')}`.slice(0, 160),
    topic: o.topic,
    year: o.started.getUTCFullYear(),
    summary,
    source: {
      document: 'Contributed measurement made with scripts/bench-ruby-settings',
      author: author(),
      location: `run started ${o.started.toISOString()}, app ${path.basename(o.app)}`,
      raw_output: rawRef(o.id, 'runs.csv'),
    },
    measured: `Throughput, latency percentiles and peak RSS of the Rack app ${path.basename(o.app)} (path ${o.reqPath}) under Puma, for ${resolved.length} runtime configurations, ${runs} run(s) each, load by ${loadText}.`,
    hardware: hardwareString(o.facts),
    software: [
      ...baseSoftware(o.facts),
      { name: 'Ruby', version: o.rubyVersion },
      { name: 'Puma', version: o.vers.puma },
      { name: 'Rack', version: o.vers.rack },
      { name: toolName, version: o.toolVersion },
      ...(o.jemallocPath ? [{ name: 'jemalloc (LD_PRELOAD)', version: o.jemallocPath }] : []),
    ],
    method: {
      tool: 'bench-ruby-settings',
      description: `For every run: bundle exec puma on 127.0.0.1 and a free port with the configuration's environment, wait until it answers, ${o.warmupCount} warm-up requests (not measured), then ${loadText}, sampling the RSS of the Puma process tree every 0.25 s; then the Puma process group is stopped. A run fails if Puma does not boot, the load tool fails, or more than 1% of requests fail. Total time ${o.elapsedS.toFixed(0)} s.`,
      ...(toolName === 'ab' ? { requests: o.requests } : { duration_s: o.duration }),
      concurrency: o.connections,
      runs,
      aggregation: 'median',
      warmup: o.warmupCount ? `${o.warmupCount} requests after boot, per run` : 'none',
      order: `interleaved rounds, each configuration once per round in a random order, seed ${seed}: ${schedule.map((s) => `${resolved[s.cfgIndex].name}#${s.run}`).join(' ')}`.slice(0, 4000),
      seed,
    },
    columns,
    rows,
    failures: markers.length
      ? { markers, meaning: `${markers.map((m) => MARKER_MEANING[m]).join(' ')} Details per run in the raw runs.csv.` }
      : { markers: [], meaning: 'no failures' },
    errata: [],
    caveats,
    attribution: `Measured by ${author()} with the Scaling Rails bench-ruby-settings tool.`,
    license: o.opts.license ?? 'CC-BY-4.0',
    charts: [
      {
        id: 'throughput',
        title: 'Throughput per configuration',
        caption: `Dots: median requests per second over ${runs} run(s); lines: slowest to fastest run. When the lines of two configurations overlap, the difference between them is within the run-to-run noise.`,
        alt: `Dot chart of median throughput per configuration. ${analysis.sentence}`,
        columns: ['config', 'runs_ok', 'rps_median', 'rps_min', 'rps_max', 'rps_spread', 'within_noise_of'],
        spec: {
          width: 460,
          height: Math.min(360, 40 + rows.length * 30),
          encoding: { y: { field: 'config', type: 'nominal', sort: null, title: 'Configuration' } },
          layer: [
            { mark: 'rule', encoding: { x: { field: 'rps_min', type: 'quantitative', title: 'Requests per second', scale: { zero: false } }, x2: { field: 'rps_max' } } },
            { mark: { type: 'point', filled: true, size: 70 }, encoding: { x: { field: 'rps_median', type: 'quantitative' } } },
            failureLayer,
          ],
        },
      },
      {
        id: 'memory',
        title: 'Peak memory of the Puma process tree',
        caption: 'Median over runs of the largest total RSS of the Puma master and workers during the measured load, in bytes (axis labels use SI prefixes).',
        alt: `Bar chart of peak RSS per configuration, from ${rows.filter((r) => typeof r[14] === 'number').map((r) => `${r[0]} ${(r[14] / 1024 ** 2).toFixed(0)} MiB`).join(', ') || 'no successful runs'}.`,
        columns: ['config', 'workers', 'threads', 'rss_peak'],
        spec: {
          width: 460,
          height: Math.min(360, 40 + rows.length * 30),
          encoding: { y: { field: 'config', type: 'nominal', sort: null, title: 'Configuration' } },
          layer: [
            { mark: 'bar', encoding: { x: { field: 'rss_peak', type: 'quantitative', title: 'Peak RSS (bytes)', axis: { format: '~s' } } } },
            {
              transform: [{ filter: 'datum.rss_peak_failure != null' }],
              mark: { type: 'text', align: 'left', dx: 4 },
              encoding: { x: { value: 0 }, text: { field: 'rss_peak_failure' } },
            },
          ],
        },
      },
    ],
  };
}
