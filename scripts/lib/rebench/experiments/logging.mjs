// Logging (the Observability article; no research table): what Rails' own request log costs, on the reference app
// served by Puma as the wizard's bundle runs it, on the lab's Ruby 3.4 with YJIT (Rails 8.1 turns YJIT on). Log level
// (info, Rails' production default; debug; warn) and where the app's STDOUT logger writes (a file, /dev/null). Lab
// side: lab/bench/exp/logging.sh; log bytes per request come from the file's growth during each measured run
// (logbytes-read.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { verdictSentence, dbName } from './common.mjs';
import { medianPerRequest } from '../logbytes-read.mjs';
import { writeBundle, wizardAnswers } from './bundle.mjs';

const RUBY = '3.4-yjit';
/** The wizard is asked for the server's share of the machine: the protocol pins the server (and its database) to one
 *  CPU and gives the other to wrk, so a bundle planned for both cores would run a worker on a CPU it never gets. */
export const loggingAnswers = () => ({ ...wizardAnswers(), cores: 1, ruby_version: '3.4' });

// Cell ids are LEVEL-DEST: lab/bench/exp/logging.sh reads the level and the destination from them.
const CELLS = [
  { id: 'info-file', level: 'info', dest: 'a file', label: "info (Rails' production default), log to a file" },
  { id: 'debug-file', level: 'debug', dest: 'a file', label: 'debug, log to a file' },
  { id: 'warn-file', level: 'warn', dest: 'a file', label: 'warn, log to a file' },
  { id: 'info-null', level: 'info', dest: '/dev/null', label: 'info, log to /dev/null' },
];
const PAGE = { id: 'regular', label: 'Regular page' };

export default {
  name: 'logging',
  title: "Logging: Rails' log level (info, debug, warn) and the cost of writing the log",
  mirrors: 'the Observability article (no research table)',
  full: { params: { RB_CONNECTIONS: 8, RB_DURATION_S: 10, RB_WARMUP_S: 3 }, timeoutPerCellS: 150, setupS: 300 },
  quick: { params: { RB_DB: 'sqlite', RB_CONNECTIONS: 4, RB_DURATION_S: 1, RB_WARMUP_S: 0 }, timeoutPerCellS: 120, setupS: 300, only: ['info-file', 'debug-file'] },
  cells(size) {
    return CELLS.filter((c) => !size || !size.only || size.only.includes(c.id))
      .map((c) => ({ id: c.id, label: c.label, ruby: RUBY, measurements: [{ id: PAGE.id, tool: 'wrk' }] }));
  },
  // The wizard's bundle, written by guide/cli.mjs as bundle-vs-defaults writes it; the lab side points it at the lab.
  async prepare({ work, raw }) {
    const answers = writeBundle(path.join(work, 'bundle'), loggingAnswers());
    fs.writeFileSync(path.join(raw, 'wizard-answers.json'), `${JSON.stringify(answers, null, 2)}\n`);
    fs.copyFileSync(path.join(work, 'bundle', 'config/puma.rb'), path.join(raw, 'wizard-bundle-puma.rb.txt'));
    fs.copyFileSync(path.join(work, 'bundle', 'config/ruby.env'), path.join(raw, 'wizard-bundle-ruby.env'));
  },
  datasetIds: () => ['rebench-2026-logging'],
  datasets(ctx) {
    const p = ctx.params;
    const cellOf = (c) => CELLS.find((x) => x.id === c.id);
    const spec = {
      labels: [
        { key: 'level', label: 'Log level (config.log_level)', of: (c) => cellOf(c).level },
        { key: 'destination', label: 'Rails log (STDOUT) written to', of: (c) => cellOf(c).dest },
      ],
      primary: 'rps', latency: true, memory: false,
      extra: [
        { key: 'log_bytes_per_request', label: 'Log bytes per request (median of runs)', unit: 'B', decimals: 1, description: 'How much the log file grew during the measured run, divided by the requests wrk completed in it; median over the runs. Not measured where the log went to /dev/null (nothing is kept to count): the same level written to a file shows what is formatted.', of: (ok) => medianPerRequest(ctx.raw, ok, 'bytes') },
        { key: 'log_lines_per_request', label: 'Log lines per request (median of runs)', unit: 'count', decimals: 2, description: 'Lines the log file grew by during the measured run, divided by the requests wrk completed; median over the runs.', of: (ok) => medianPerRequest(ctx.raw, ok, 'lines') },
      ],
      baseline: (c, m) => ({ cell: 'info-file', measurement: m.id }),
      baselineLabel: () => 'info, log to a file (the generated production setting)',
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    const col = (k) => columns.findIndex((c) => c.key === k);
    const answers = readJson(path.join(ctx.raw, 'wizard-answers.json'));
    const env = readText(path.join(ctx.raw, 'wizard-ruby.env')).split('\n').filter(Boolean);
    const say = (r) => (typeof r.row[col('rps_median')] === 'number' ? `${Math.round(r.row[col('rps_median')])} requests per second` : r.row[col('rps_median')]);
    return [base(ctx, {
      id: 'rebench-2026-logging',
      title: "Rails logging in 2026: log level and log destination on the reference app, throughput, latency and log bytes per request",
      topic: 'profiling',
      summary: verdictSentence(records, spec, 'requests per second', (r) => `Level ${r.row[0]} with the log written to ${r.row[1]}`),
      measured: `Requests per second, p50 and p99 latency of the reference app's ${PAGE.label.toLowerCase()} (/regular; Rails 8.1, ${dbName(p)}) and how many bytes and lines its log grew by per request, with the app's generated production logger (ActiveSupport::TaggedLogging on STDOUT, log_tags [:request_id]) at config.log_level info, debug and warn (RAILS_LOG_LEVEL), and STDOUT appended to a file or sent to /dev/null. Puma runs on the lab's Ruby 3.4 built with YJIT, with YJIT on as Rails 8.1 sets it, and with the config/puma.rb and config/ruby.env the wizard (guide/cli.mjs) generates for the server's one CPU (answers: ${answers ? Object.entries(answers).map(([k, v]) => `${k}=${v}`).join(', ') : 'not recorded'}; environment: ${env.length ? env.join(' ') : 'none recorded'}); wrk with ${p.RB_CONNECTIONS} connections for ${p.RB_DURATION_S} s.`,
      software: softwareOf(ctx, [`lab-${RUBY}`]),
      method: methodOf(ctx, {
        tool: 'rebench',
        description: "Every run boots Puma fresh with the cell's log level (LAB_YJIT=on, so that every response names the Ruby and YJIT state of the process that served it; a run whose server was not the YJIT build with YJIT on is a failed run), its standard output appended to an emptied file in the app's log/ folder (on the lab's overlay file system; Rails does not fsync, so a write lands in the page cache) or to /dev/null, then measures the page with wrk; for a file, the file's size is read just before wrk starts and half a second after it ends.",
        concurrency: p.RB_CONNECTIONS,
        duration: p.RB_DURATION_S,
        warmup: p.RB_WARMUP_S ? 'wrk windows until throughput is stable (the protocol\'s warm-up), not recorded' : 'none (quick run)',
      }),
      columns, rows, markers,
      caveats: [
        'Log bytes and lines per request count what the log file grew by while wrk ran, including the lines of the few requests still in flight when wrk stopped, divided by the requests wrk completed: they are slightly high, by at most the connections over the requests.',
        'Only Rails\' own logger is measured: no log shipping (journald, a container runtime, an agent) reads the file, and the disk is not forced; the write cost in production depends on what reads STDOUT.',
        "Every cell keeps the generated log_tags [:request_id]. Rails 8.1's structured event reporter (Rails.event) is not a cell: its framework subscribers stay silent while the reporter has no subscriber (ActiveSupport::StructuredEventSubscriber#silenced? in activesupport 8.1.4), and the lab's app subscribes none, so it emits nothing here.",
      ],
      related: ['rebench-2026-bundle-vs-defaults'],
      charts: [medianChart({
        id: 'rps', title: 'Requests per second by log level and log destination',
        caption: 'Bars: median of the runs; lines: slowest to fastest run. Read a difference only where the verdict says better or worse, and the grade under the chart first.',
        alt: records.map((r) => `level ${r.row[0]}, log written to ${r.row[1]}: ${say(r)}`).join('; ') + '.',
        yField: 'configuration', yTitle: 'Log level and destination', key: 'rps', xTitle: 'Requests per second (median)',
        columns: ['level', 'destination', 'rps_median', 'rps_min', 'rps_max', 'p99_ms', 'log_bytes_per_request', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
      })].map((c) => { c.spec.transform = [{ calculate: "datum.level + ', ' + datum.destination", as: 'configuration' }]; return c; }),
    })];
  },
};

function readText(file) {
  try { return fs.readFileSync(file, 'utf8'); } catch { return ''; }
}
function readJson(file) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return null; }
}
