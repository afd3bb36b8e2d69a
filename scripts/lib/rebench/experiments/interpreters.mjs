// Experiment 4a: interpreters (thesis Tables 5.10–5.13, the Rails Ruby Bench posts). The host's Ruby 3.1
// with and without YJIT beside the lab's 3.3 and 3.4 (Debian builds them without YJIT) and the lab's Ruby 3.4
// built from Debian's source package with YJIT (scripts/lib/lab/build-ruby-yjit.sh), YJIT off and on. Measured
// warm and in-process (lab/bench/workload.rb --warm): a cold process would time YJIT's compiler, not the code.
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { verdictSentence } from './common.mjs';
import { PROTOCOL } from '../protocol.mjs';

// yjit: the state the run must report (workload.rb records it); a run in any other state is a failed run.
const RUBIES = [
  { id: 'ruby31', label: 'Ruby 3.1 (host, Debian 12)', host: true, yjit: 'off' },
  { id: 'ruby31-yjit', label: 'Ruby 3.1 + YJIT (host, Debian 12)', host: true, yjit: 'on' },
  { id: 'ruby33', label: 'Ruby 3.3 (lab, Debian 13, no YJIT)', ruby: '3.3', yjit: 'not built in' },
  { id: 'ruby34', label: 'Ruby 3.4 (lab, Debian experimental package, no YJIT)', ruby: '3.4', yjit: 'not built in' },
  { id: 'ruby34-src', label: 'Ruby 3.4 built from Debian\'s source with YJIT, YJIT off', ruby: '3.4-yjit', yjit: 'off' },
  { id: 'ruby34-yjit', label: 'Ruby 3.4 + YJIT (built from Debian\'s source)', ruby: '3.4-yjit', yjit: 'on' },
];

/**
 * How far runs of one configuration lay apart. Each run is one process with one reading (the 10th percentile of its
 * blocks of iterations), so what spreads is process against process (memory layout, the host's speed), and that
 * spread, not the iterations', is what the verdicts weigh.
 */
function spreadCaveat(records) {
  const widest = records.filter((r) => r.spread.n > 1 && r.spread.min > 0).map((r) => ({ label: r.group.cell.label, x: r.spread.max / r.spread.min })).sort((a, b) => b.x - a.x)[0];
  if (!widest) return 'No configuration had two good runs, so the spread between processes is not known.';
  return `Runs of one configuration lay far apart: the slowest run of ${widest.label} took ${widest.x.toFixed(1)} times the CPU per iteration of its fastest. Each run is a separate process with one reading; where the quality record says the machine did not hold its fast speed, a reading says more about the machine than about the Ruby.`;
}

/** What one run timed and read, for the measured text: version 3's blocks, or the median of older raw output. */
function readingText(p) {
  if (!('RB_TIMED_S' in p)) return `${p.RB_ITERATIONS} iterations one by one; its reading is the median of those (this raw output predates protocol version 3, whose reading is a low quantile of blocks of iterations)`;
  const IP = PROTOCOL.in_process;
  return `at least ${p.RB_ITERATIONS} iterations${Number(p.RB_TIMED_S) > 0 ? ` and at least ${p.RB_TIMED_S} s of them` : ''}, one by one; its reading is the ${Math.round(IP.reading_quantile * 100)}th percentile of the means of consecutive ${IP.block_iterations}-iteration blocks (noise from outside only adds time; a block keeps its share of garbage collection; the median of each run is in runs.csv's raw files)`;
}

export default {
  name: 'interpreters',
  title: 'Interpreters: Ruby 3.1 (± YJIT), 3.3, 3.4 (± YJIT) on one workload, warm',
  mirrors: 'thesis Tables 5.10–5.13 and the Rails Ruby Bench posts',
  // RB_TIMED_S: each process keeps timing iterations for at least this long (the protocol's in_process.min_timed_s).
  full: { params: { RB_WARMUP: 100, RB_ITERATIONS: 200, RB_TIMED_S: 10 }, timeoutPerCellS: 120, setupS: 30 },
  quick: { params: { RB_WARMUP: 5, RB_ITERATIONS: 10, RB_TIMED_S: 0 }, timeoutPerCellS: 60, setupS: 30 },
  cells() {
    return RUBIES.map((r) => ({ ...r, measurements: [{ id: 'warm', tool: 'warm', ext: 'json', yjit: r.yjit }] }));
  },
  datasetIds: () => ['rebench-2026-interpreters'],
  datasets(ctx) {
    const p = ctx.params;
    const spec = {
      labels: [{ key: 'ruby', label: 'Ruby', of: (c) => c.label }],
      primary: 'cpu_ms', latency: false, memory: false,
      // YJIT rows against the same Ruby without it; every other row against Ruby 3.1 without YJIT.
      baseline: (c) => ({ cell: { 'ruby31-yjit': 'ruby31', 'ruby34-yjit': 'ruby34-src' }[c.id] || 'ruby31', measurement: 'warm' }),
      baselineLabel: (c) => c.label,
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    return [base(ctx, {
      id: 'rebench-2026-interpreters',
      title: 'Ruby 3.1, 3.3 and 3.4, each with YJIT where it has it, on the same Rails-shaped workload, warm',
      topic: 'ruby',
      summary: verdictSentence(records, spec, 'CPU milliseconds per iteration', (r) => r.group.cell.label),
      measured: `CPU time (user + system, this process only: CLOCK_PROCESS_CPUTIME_ID) of one iteration of lab/bench/workload.rb, warm: ERB rendering of 500 records (the template compiled once into a method, as Action View does), JSON generation and parsing, grouping and sorting, with the standard library only. Each run is one process that runs ${p.RB_WARMUP} iterations unmeasured, then times ${readingText(p)}. Lower is better.`,
      software: softwareOf(ctx, ['host', 'lab-3.3']),
      method: methodOf(ctx, {
        tool: 'rebench',
        description: 'Rails 8.1 needs Ruby 3.2 or newer, so the host\'s Ruby 3.1 cannot run the reference app: this experiment uses a stdlib-only workload that runs unchanged on all of them. Ruby 3.1 runs on the host (Debian 12); 3.3, 3.4 and the YJIT build inside the lab (Debian 13; the same kernel and CPU). The YJIT build is Debian\'s ruby3.4 source package (Debian\'s patches and configure options) built with Debian 13\'s rustc and --enable-yjit by scripts/lab build; "YJIT off" is that same binary without --yjit, so the YJIT comparison changes nothing but YJIT. The workload records the YJIT state it ran with; a run in another state than its configuration names is a failed run. The compared figure is CPU time, which other programs on the machine disturb less than wall time; the median wall time per iteration is in the raw JSON and runs.csv.',
        warmup: `${p.RB_WARMUP} iterations in the same process before the timed ones, so that YJIT has compiled the code it runs (it compiles lazily, on the first calls); runs.csv gives each run's warmup_drift, the last 10 warm-up iterations against the timed median`,
      }),
      columns, rows, markers,
      caveats: [
        spreadCaveat(records),
        'Ruby 3.3 and the packaged 3.4 are Debian\'s builds, which have no YJIT: their figures are the interpreter alone. The YJIT build comes from the ruby3.4 source package the mirror serves (3.4.5-1~exp1), while the packaged ruby3.4 is 3.4.11-1~exp1: the packaged 3.4 and the YJIT build with YJIT off differ by those patch releases, which is why YJIT is compared against the same binary with YJIT off.',
        'YJIT compiles lazily: the first iterations of a YJIT run are slower than the timed ones; they are excluded by design (warm measurement), so these figures describe a long-running process such as a Puma worker, not a short script.',
        'The host Ruby and the lab Rubies come from different Debian releases, with different C library and compiler versions (libc6 is in the software list); the lab runs on the same kernel and CPU.',
      ],
      related: ['thesis-ruby-mri-vs-yarv', 'rsb-rails-overhead-by-ruby'],
      charts: [medianChart({
        id: 'cpu', title: 'CPU time per iteration of the same workload by Ruby, warm',
        caption: 'Bars: median of the runs; lines: slowest to fastest run. Lower is faster.',
        alt: records.map((r) => `${r.row[0]}: ${typeof r.row[2] === 'number' ? `${r.row[2]} ms` : r.row[2]}`).join('; ') + '.',
        yField: 'ruby', yTitle: 'Ruby', key: 'cpu_ms', xTitle: 'CPU milliseconds per iteration (median)',
        columns: ['ruby', 'cpu_ms_median', 'cpu_ms_min', 'cpu_ms_max', 'ratio', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
      })],
    })];
  },
};
