// Experiment 4a: interpreters (thesis Tables 5.10–5.13, the Rails Ruby Bench posts). The host's Ruby 3.1
// with and without YJIT beside the lab's 3.3 and 3.4 (no YJIT there: Debian builds them without it).
import { summaryRows, base, softwareOf, methodOf, medianChart } from '../dataset.mjs';
import { verdictSentence } from './common.mjs';

const RUBIES = [
  { id: 'ruby31', label: 'Ruby 3.1 (host, Debian 12)', host: true },
  { id: 'ruby31-yjit', label: 'Ruby 3.1 + YJIT (host, Debian 12)', host: true },
  { id: 'ruby33', label: 'Ruby 3.3 (lab, Debian 13, no YJIT)', ruby: '3.3' },
  { id: 'ruby34', label: 'Ruby 3.4 (lab, Debian experimental, no YJIT)', ruby: '3.3' },
];

export default {
  name: 'interpreters',
  title: 'Interpreters: Ruby 3.1 (± YJIT), 3.3, 3.4 on one workload',
  mirrors: 'thesis Tables 5.10–5.13 and the Rails Ruby Bench posts',
  full: { params: { RB_ITERATIONS: 150 }, timeoutPerCellS: 90, setupS: 30 },
  quick: { params: { RB_ITERATIONS: 10 }, timeoutPerCellS: 60, setupS: 30 },
  cells() {
    return RUBIES.map((r) => ({ ...r, measurements: [{ id: 'workload', tool: 'hyperfine', ext: 'json' }] }));
  },
  datasetIds: () => ['rebench-2026-interpreters'],
  datasets(ctx) {
    const p = ctx.params;
    const spec = {
      labels: [{ key: 'ruby', label: 'Ruby', of: (c) => c.label }],
      primary: 'cpu_s', latency: false, memory: false,
      baseline: () => ({ cell: 'ruby31', measurement: 'workload' }),
      baselineLabel: () => 'Ruby 3.1 without YJIT',
    };
    const { columns, rows, markers, records } = summaryRows(ctx, spec);
    return [base(ctx, {
      id: 'rebench-2026-interpreters',
      title: 'Ruby 3.1 (with and without YJIT), 3.3 and 3.4 on the same Rails-shaped workload',
      topic: 'ruby',
      summary: verdictSentence(records, spec, 'CPU time in seconds', (r) => r.group.cell.label),
      measured: `CPU time (user + system, from hyperfine) of one run of lab/bench/workload.rb with ${p.RB_ITERATIONS} iterations: ERB rendering of 500 records, JSON generation and parsing, grouping and sorting, with the standard library only. Lower is better.`,
      software: softwareOf(ctx, ['host', 'lab-3.3']),
      method: methodOf(ctx, {
        tool: 'hyperfine',
        description: 'Rails 8.1 needs Ruby 3.2 or newer, so the host\'s Ruby 3.1 cannot run the reference app: this experiment uses a stdlib-only workload that runs unchanged on all four. Ruby 3.1 runs on the host (Debian 12); 3.3 and 3.4 inside the lab (Debian 13; the same kernel and CPU). Each plan entry is one hyperfine call: one unmeasured execution, then one measured (hyperfine -N --warmup 1 --runs 1). The compared figure is CPU time (user + system), which other programs on the machine disturb less than wall time; wall time is in the raw JSON.',
        warmup: 'one unmeasured execution of the whole workload before each measured one (hyperfine --warmup 1); inside a run the first iterations also warm up YJIT, and they are counted',
      }),
      columns, rows, markers,
      caveats: [
        'Ruby 3.3 and 3.4 here are Debian\'s builds, which have no YJIT: their figures are the interpreter alone. A YJIT figure appears only for Ruby 3.1, where it was measured.',
        'The host Ruby and the lab Rubies come from different Debian releases, with different C library and compiler versions (libc6 is in the software list); the lab runs on the same kernel and CPU.',
      ],
      related: ['thesis-ruby-mri-vs-yarv', 'rsb-rails-overhead-by-ruby'],
      charts: [medianChart({
        id: 'cpu', title: 'CPU time of the same workload by Ruby',
        caption: 'Bars: median of the runs; lines: slowest to fastest run. Lower is faster.',
        alt: records.map((r) => `${r.row[0]}: ${typeof r.row[2] === 'number' ? `${r.row[2]} s` : r.row[2]}`).join('; ') + '.',
        yField: 'ruby', yTitle: 'Ruby', key: 'cpu_s', xTitle: 'CPU seconds (median)',
        columns: ['ruby', 'cpu_s_median', 'cpu_s_min', 'cpu_s_max', 'ratio', 'verdict'], hasFailures: markers.length > 0, hasValues: records.some((r) => r.spread.n > 0),
      })],
    })];
  },
};
