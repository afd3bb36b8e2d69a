// The wizard's own question: does its default bundle beat Rails 8.1's generated production defaults on the same
// machine under the same load? (a) the reference app's generated config/puma.rb (3 threads; WEB_CONCURRENCY unset,
// so one process), (b) the config/puma.rb and config/ruby.env that guide/cli.mjs generates for this machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../../measure/common.mjs';
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { verdictSentence, dbName } from './common.mjs';
import { addOpenLoop, readCalibration, FRACTIONS, OWN_BASIS } from '../openloop.mjs';
import { addPssVerdict } from '../pss-verdict.mjs';

const PAGES = [
  { id: 'api', label: 'API (small JSON)' },
  { id: 'regular', label: 'Regular page' },
  { id: 'heavy', label: 'Heavy page (many records)' },
];
// Both on the lab's Ruby 3.4 built with YJIT: the Ruby most production Rails 8.1 apps run, and Rails 8.1 turns
// YJIT on by default (config.yjit), so neither configuration is measured without it.
// The lab's YJIT build (scripts/lib/lab/build-ruby-yjit.sh) and what its servers must report running: every run's
// server is asked (lab/bench/app.sh rb_server_ruby); one that reports anything else is a failed run.
const YJIT_RUBY_BIN = '/opt/ruby-3.4-yjit/bin';
const SERVER_RUBY = `${YJIT_RUBY_BIN}/ruby; YJIT on`;
const CONFIGS = [
  { id: 'defaults', label: 'Rails 8.1 generated defaults (Puma, 3 threads, one process)', ruby: '3.4-yjit' },
  { id: 'wizard', label: "The wizard's bundle for this machine", ruby: '3.4-yjit' },
];

/** The CPUs the protocol gives the server (and its database): the load generator has the others. */
const SERVER_CPUS = 1;

/** The answers the wizard gets: the cores the server may use under the protocol's isolation (telling it the whole
 *  machine would plan workers for a CPU the load generator owns), this machine's memory, the lab's software, and
 *  the Ruby both configurations run: the lab's YJIT build, not Debian's ruby3.4 package (built without YJIT), so the
 *  wizard plans for YJIT as it runs. */
export function wizardAnswers() {
  return { cores: SERVER_CPUS, ram_gb: Math.max(1, Math.floor(os.totalmem() / 1024 ** 3)), server: 'puma', database: 'postgresql', ruby_version: '3.4', rails: '8.1', ruby_path: YJIT_RUBY_BIN };
}

/** Run guide/cli.mjs and write its bundle into DIR; returns the answers. Throws with the CLI's own message. */
export function writeBundle(dir, answers = wizardAnswers()) {
  const file = path.join(dir, 'answers.json');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(answers, null, 2)}\n`);
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'guide/cli.mjs'), '--answers', file, '--format', 'files', '--out', dir, '--allow-errors'], { encoding: 'utf8', timeout: 120000 });
  if (r.status !== 0) throw new Error(`guide/cli.mjs could not write the bundle (exit ${r.status}): ${(r.stderr || r.stdout || '').slice(0, 400)}`);
  for (const f of ['config/puma.rb', 'config/ruby.env']) if (!fs.existsSync(path.join(dir, f))) throw new Error(`the wizard's bundle has no ${f}`);
  return answers;
}

export default {
  name: 'bundle-vs-defaults',
  title: "The wizard's bundle against Rails 8.1's generated defaults",
  mirrors: 'the wizard (no research table)',
  // Open-loop steps of 6 s (three per page): 10 runs of both cells fit in about 45 minutes on 2 cores. The open-loop
  // rates are common to both configurations (RB_OPEN_BASIS=calibrated): fractions of the defaults' throughput per
  // page, from a 5 s wrk run per page after warm-up before the rounds (lab/bench/exp/bundle-vs-defaults.sh).
  full: { params: { RB_CONNECTIONS: 8, RB_DURATION_S: 10, RB_WARMUP_S: 3, RB_OPEN_DURATION_S: 6, RB_OPEN_BASIS: 'calibrated', RB_CALIBRATE_S: 5, RB_SERVER_RUBY: SERVER_RUBY }, timeoutPerCellS: 150, setupS: 600 },
  quick: { params: { RB_DB: 'sqlite', RB_CONNECTIONS: 4, RB_DURATION_S: 1, RB_WARMUP_S: 0, RB_OPEN_BASIS: 'calibrated', RB_CALIBRATE_S: 1, RB_SERVER_RUBY: SERVER_RUBY }, timeoutPerCellS: 120, setupS: 300 },
  cells() {
    return CONFIGS.map((c) => ({ ...c, measurements: PAGES.map((p) => ({ id: p.id, tool: 'wrk', memory: true, openLoop: true })) }));
  },
  async prepare({ work, raw }) {
    const answers = writeBundle(path.join(work, 'bundle'));
    fs.writeFileSync(path.join(raw, 'wizard-answers.json'), `${JSON.stringify(answers, null, 2)}\n`);
    fs.copyFileSync(path.join(work, 'bundle', 'config/puma.rb'), path.join(raw, 'wizard-bundle-puma.rb.txt'));
    fs.copyFileSync(path.join(work, 'bundle', 'config/ruby.env'), path.join(raw, 'wizard-bundle-ruby.env'));
  },
  datasetIds: () => ['rebench-2026-bundle-vs-defaults'],
  datasets(ctx) {
    const p = ctx.params;
    const spec = {
      labels: [
        { key: 'config', label: 'Configuration', of: (c) => c.label },
        { key: 'page', label: 'Page', of: (c, m) => PAGES.find((x) => x.id === m.id).label },
      ],
      primary: 'rps', latency: true, memory: true,
      baseline: (c, m) => ({ cell: 'defaults', measurement: m.id }),
      baselineLabel: (c, m) => `Rails defaults, ${PAGES.find((x) => x.id === m.id).label}`,
    };
    const { markers, records, ...closed } = summaryRows(ctx, spec);
    // Runs before 2026-11-26 offered each configuration fractions of its own throughput; later runs common rates.
    const calibration = p.RB_OPEN_BASIS === 'calibrated' ? readCalibration(ctx.raw, PAGES.map((x) => x.id)) : null;
    const of = calibration ? "the Rails defaults' closed-loop (wrk) throughput on the same page, measured once before the rounds: the same absolute rate for both configurations" : OWN_BASIS;
    const open = addOpenLoop({ ...closed, records }, { of });
    const nameOf = (r) => `${r.row[0]} on the ${r.row[1].toLowerCase()}`;
    const { columns, rows, sentence: pssSentence } = addPssVerdict({ ...open, records }, ctx, spec, nameOf);
    const answers = readJson(path.join(ctx.raw, 'wizard-answers.json'));
    const env = readText(path.join(ctx.raw, 'wizard-ruby.env')).split('\n').filter(Boolean);
    // Runs before the open loop was added (2026-11-25) have no open-loop output: say only what was measured.
    const openIdx = columns.map((c, i) => (/^open\d+_rate$/.test(c.key) ? i : -1)).filter((i) => i >= 0);
    const fractions = FRACTIONS.map((f) => `${Math.round(f * 100)} %`).join(', ');
    const basis = calibration
      ? `of the Rails defaults' closed-loop throughput per page, measured once before the rounds (the calibration: warm-up, then ${p.RB_CALIBRATE_S} s of wrk on each page; ${PAGES.map((x) => `${x.label}: ${calibration[x.id].rps ? `${Math.round(calibration[x.id].rps * 10) / 10} req/s` : calibration[x.id].error}`).join('; ')}), so that both configurations were offered the same absolute rates`
      : "of that run's throughput";
    const openLoop = rows.some((r) => openIdx.some((i) => r[i] !== null && r[i] !== undefined))
      ? `, then an open loop at ${fractions} ${basis}, for ${p.RB_OPEN_DURATION_S || p.RB_DURATION_S} s each, with latency from the scheduled send time`
      : '';
    return [base(ctx, {
      id: 'rebench-2026-bundle-vs-defaults',
      title: "The wizard's bundle against Rails 8.1's generated defaults, same app, same load",
      topic: 'app-server',
      summary: `${verdictSentence(records, spec, 'requests per second', nameOf)} ${pssSentence}`,
      measured: `Requests per second, latency, errors and whole-server PSS of the reference app (Rails 8.1, ${dbName(p)}) on three pages, wrk with ${p.RB_CONNECTIONS} connections for ${p.RB_DURATION_S} s (closed loop)${openLoop}: (a) with the app's generated config/puma.rb and no WEB_CONCURRENCY (one Puma process, 3 threads), (b) with the config/puma.rb and config/ruby.env that the wizard (guide/cli.mjs) generates for this machine (answers: ${answers ? Object.entries(answers).map(([k, v]) => `${k}=${v}`).join(', ') : 'not recorded'}; environment: ${env.length ? env.join(' ') : 'none recorded'}).`,
      software: softwareOf(ctx, ['lab-3.4-yjit']), // both cells run on the lab's Ruby 3.4 YJIT build
      method: methodOf(ctx, {
        tool: 'rebench',
        description: `Every run boots Puma fresh with one of the two configurations (bind address and paths of the wizard's puma.rb pointed at the lab; raw-output has both files as run) and measures the three pages in a random order.${calibration ? ` Before the rounds, one calibration of the Rails defaults per page set the open-loop rates of both configurations: ${fractions} of its requests per second (raw-output calibrate-PAGE.* and open-basis-PAGE.txt; the rates are in the measured text).` : ''}`,
        concurrency: p.RB_CONNECTIONS,
        duration: p.RB_DURATION_S,
        warmup: p.RB_WARMUP_S ? 'wrk windows until throughput is stable (the protocol\'s warm-up), not recorded' : 'none (quick run)',
      }),
      columns, rows, markers,
      caveats: [
        'Only the Puma and Ruby environment parts of the bundle are compared; nginx, PostgreSQL and kernel settings of the bundle are not applied in the lab, so the app server alone is measured.',
        coresCaveat(answers),
        serverCaveat(ctx),
        ...(calibration ? [] : ["The open-loop rates are fractions of each configuration's own closed-loop throughput in the same run, so the two configurations were offered different rates: compare their open-loop latencies only with that in mind (later runs offer both the same rates)."]),
        'Neither configuration has a proxy in front (Rails 8.1 deploys Thruster in its Dockerfile; the wizard, nginx): the load reaches Puma directly in both cells.',
      ],
      // The first run (2026-11-25), kept under its own id for its memory figures (one process, master + 2 workers).
      related: ['rebench-2026-app-servers', 'rebench-2026-bundle-vs-defaults-2core'],
      charts: [medianChart({
        id: 'rps', title: "Requests per second: Rails defaults and the wizard's bundle",
        caption: 'Bars: median of the runs; lines: slowest to fastest run. Read a difference only where the verdict says better or worse, and the grade under the chart first.',
        alt: records.map((r) => `${r.row[0]}, ${r.row[1]}: ${typeof r.row[3] === 'number' ? `${Math.round(r.row[3])} requests per second` : r.row[3]}`).join('; ') + '.',
        yField: 'page', offsetField: 'config', yTitle: 'Page', key: 'rps', xTitle: 'Requests per second (median)',
        columns: ['config', 'page', 'rps_median', 'rps_min', 'rps_max', 'p99_ms', 'pss_total_mib', 'failed_requests', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
      })],
    })];
  },
};

/** What the recorded answers mean for the comparison (runs before 2026-11-26 told the wizard the whole machine). */
function coresCaveat(answers) {
  if (!answers) return 'The wizard\'s answers were not recorded with this run.';
  if (answers.cores === SERVER_CPUS) return `The wizard was answered with ${SERVER_CPUS} core: the protocol pins the server and its database to one CPU and the load generator to the other, so that is the server's machine. On one core the wizard plans one Puma process with 3 threads, as Rails does; the bundle then differs from the defaults only in its config/ruby.env (listed above) and puma.rb details, and this dataset measures that difference, not workers against threads.`;
  return `The wizard was answered with ${answers.cores} cores (the whole machine) while the protocol gave the server one CPU: the bundle's extra workers shared that CPU, so this run compares a bundle planned for more CPUs than the server had with the defaults; later runs answer with the server's one core.`;
}

/** What the runs' servers reported running (NNN-cell-rR.ruby), or that this run predates the record. */
function serverCaveat(ctx) {
  const want = ctx.params.RB_SERVER_RUBY;
  if (!want) return "This run predates the per-run record of the server's Ruby and YJIT state: both configurations ran on the lab's Ruby 3.4 YJIT build, where Rails 8.1's production default (config.yjit) turns YJIT on, but no response of this run shows it.";
  const runs = [...new Map(ctx.results.filter((x) => !x.metrics.skipped).map((x) => [x.entry.idx, x.server])).values()];
  const ok = runs.filter((x) => x === want).length;
  return `Every run's server was asked what it ran (LAB_YJIT=on makes each response name the Ruby and the YJIT state of the process that served it; raw-output NNN-….ruby): ${ok} of ${runs.length} runs reported "${want}"; a run that reported anything else, or nothing, is a failed run.`;
}

function readText(file) {
  try { return fs.readFileSync(file, 'utf8'); } catch { return ''; }
}
function readJson(file) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return null; }
}
