// hyperfine --export-json → dataset with every timing sample kept (one row per sample) plus
// hyperfine's own summary statistics (mean, stddev, median, min, max, user, system) as rows.
import { col, skeleton, toolVersion, fmt, round } from './common.mjs';

export function parse(text) {
  let data;
  try { data = JSON.parse(text); } catch (e) { throw new Error(`hyperfine: expected the JSON written by hyperfine --export-json (${e.message})`); }
  if (!data || !Array.isArray(data.results)) throw new Error('hyperfine: no "results" array; use the file written by hyperfine --export-json');
  return data.results.map((r) => ({
    command: r.command,
    parameters: r.parameters && Object.keys(r.parameters).length ? Object.entries(r.parameters).map(([k, v]) => `${k}=${v}`).join(', ') : null,
    stats: { mean: r.mean, stddev: r.stddev ?? null, median: r.median ?? null, min: r.min, max: r.max, user: r.user ?? null, system: r.system ?? null },
    times: r.times || [],
    exitCodes: r.exit_codes || [],
  }));
}

const STATS = ['mean', 'stddev', 'median', 'min', 'max', 'user', 'system'];

export function toDataset(inputs, opts) {
  const results = inputs.flatMap((i) => parse(i.text).map((r) => ({ ...r, run: i.label })));
  const multi = inputs.length > 1;
  const hasParams = results.some((r) => r.parameters);
  const columns = [
    ...(multi ? [col('run', 'Run', 'string', null, 'Label of the hyperfine export the row comes from.')] : []),
    col('command', 'Command', 'string'),
    ...(hasParams ? [col('parameters', 'Parameters', 'string', null, 'hyperfine --parameter-scan / --parameter-list values.')] : []),
    col('statistic', 'Statistic', 'string', null, '"sample" for one timed run; otherwise the summary statistic hyperfine computed (mean, stddev, median, min, max; user and system are mean CPU times).'),
    col('sample', 'Sample', 'integer', 'count', 'Number of the timed run (1-based); empty for summary rows.'),
    col('time_s', 'Time', 'number', 's', 'Wall-clock time (or CPU time for user/system).'),
    col('exit_code', 'Exit code', 'integer', 'none', 'Exit status of that run; non-zero means the command failed (hyperfine -i kept it).'),
  ];
  const rows = [];
  const push = (r, cells) => rows.push(columns.map((c) => (cells[c.key] === undefined ? null : cells[c.key])));
  for (const r of results) {
    const base = { run: r.run, command: r.command, parameters: r.parameters };
    r.times.forEach((t, i) => push(r, { ...base, statistic: 'sample', sample: i + 1, time_s: t, exit_code: r.exitCodes[i] ?? null }));
    for (const s of STATS) push(r, { ...base, statistic: s, sample: null, time_s: r.stats[s], exit_code: null });
  }
  const label = (r) => (multi ? `${r.run}: ` : '') + r.command + (r.parameters && !r.command.includes(r.parameters) ? ` (${r.parameters})` : '');
  const fastest = results.reduce((a, b) => (b.stats.mean < a.stats.mean ? b : a));
  const slowest = results.reduce((a, b) => (b.stats.mean > a.stats.mean ? b : a));
  const failedRuns = results.reduce((s, r) => s + r.exitCodes.filter((c) => c !== 0).length, 0);
  const counts = [...new Set(results.map((r) => r.times.length))];
  const all = results.flatMap((r) => r.times).filter((t) => t > 0);
  const log = all.length > 0 && Math.max(...all) / Math.min(...all) > 20;
  const yLabel = multi
    ? { calculate: "datum.run + ': ' + datum.command", as: 'benchmark' }
    : { calculate: 'datum.command', as: 'benchmark' };
  const chart = {
    id: 'samples',
    title: 'Every timed run per command',
    caption: 'Each dot is one timed run; the vertical tick is hyperfine\'s mean and the line spans its min to max. Crosses are runs that exited with a non-zero status.',
    alt: `Timing samples from hyperfine for ${results.length} command(s). Fastest mean: ${label(fastest)} at ${fmt(fastest.stats.mean * 1000, 3)} ms; slowest mean: ${label(slowest)} at ${fmt(slowest.stats.mean * 1000, 3)} ms.${failedRuns ? ` ${failedRuns} run(s) exited non-zero.` : ''}`,
    columns: columns.map((c) => c.key),
    spec: {
      width: 480,
      height: { step: 36 },
      transform: [yLabel],
      layer: [
        {
          transform: [{ filter: "datum.statistic === 'min' || datum.statistic === 'max'" }],
          mark: { type: 'rule' },
          encoding: {
            y: { field: 'benchmark', type: 'nominal', sort: null, title: 'Command', axis: { labelLimit: 220 } },
            x: { aggregate: 'min', field: 'time_s', type: 'quantitative' },
            x2: { aggregate: 'max', field: 'time_s' },
          },
        },
        {
          transform: [{ filter: "datum.statistic === 'sample'" }, { calculate: "datum.exit_code === 0 ? 'exit 0' : 'non-zero exit'", as: 'outcome' }],
          mark: { type: 'point', opacity: 0.7 },
          encoding: {
            y: { field: 'benchmark', type: 'nominal', sort: null, title: 'Command', axis: { labelLimit: 220 } },
            x: { field: 'time_s', type: 'quantitative', title: 'Time (s)', ...(log ? { scale: { type: 'log' } } : {}) },
            shape: { field: 'outcome', type: 'nominal', title: 'Run', scale: { domain: ['exit 0', 'non-zero exit'], range: ['circle', 'cross'] } },
          },
        },
        {
          transform: [{ filter: "datum.statistic === 'mean'" }],
          mark: { type: 'tick', thickness: 2, size: 18 },
          encoding: { y: { field: 'benchmark', type: 'nominal', sort: null }, x: { field: 'time_s', type: 'quantitative' } },
        },
      ],
    },
  };
  const version = toolVersion('hyperfine', ['--version'], /hyperfine (\S+)/);
  const ratio = slowest.stats.mean / fastest.stats.mean;
  return skeleton(opts, {
    toolName: 'hyperfine',
    remote: false,
    titleWhat: `run time of ${results.map((r) => r.command).slice(0, 3).join(' vs ')}${results.length > 3 ? ` and ${results.length - 3} more` : ''} (hyperfine)`,
    title: `hyperfine: ${results.map((r) => r.command).slice(0, 3).join(' vs ')}${results.length > 3 ? ' …' : ''}`,
    summary: results.length > 1
      ? `${label(fastest)} had the lowest mean time (${fmt(fastest.stats.mean * 1000, 3)} ms), ${fmt(ratio, 2)} times faster than ${label(slowest)} (${fmt(slowest.stats.mean * 1000, 3)} ms)${failedRuns ? `; ${failedRuns} run(s) exited non-zero` : ''}.`
      : `${label(fastest)} took ${fmt(fastest.stats.mean * 1000, 3)} ms on average (± ${fmt((fastest.stats.stddev ?? 0) * 1000, 3)} ms) over ${fastest.times.length} runs${failedRuns ? `; ${failedRuns} run(s) exited non-zero` : ''}.`,
    location: inputs.map((i) => i.rawPath || i.file).join(', '),
    rawOutput: inputs.map((i) => i.rawPath || i.file).join(', '),
    measured: `Wall-clock time of ${results.length === 1 ? 'one command' : `${results.length} commands`} measured by hyperfine, every timed run kept, with the exit status of each run.`,
    software: [{ name: 'hyperfine', version: version || 'not stated' }],
    method: {
      tool: 'hyperfine',
      description: `hyperfine --export-json; ${counts.length === 1 ? `${counts[0]} timed runs per command` : `between ${Math.min(...counts)} and ${Math.max(...counts)} timed runs per command`}. Rows with statistic "sample" are the runs; the other rows are hyperfine's summary.`,
      requests: null,
      concurrency: null,
      duration_s: null,
      runs: counts.length === 1 && counts[0] > 0 ? counts[0] : null,
      aggregation: 'raw samples',
      warmup: opts.warmup || 'not stated',
    },
    columns, rows,
    failures: {
      markers: [],
      meaning: 'A failed run is data: exit_code holds its exit status (non-zero means the command failed and hyperfine was told to ignore it with -i); its time is still kept. A run killed by a signal has an empty exit code. The chart draws failed runs as crosses.',
    },
    caveats: failedRuns ? [`${failedRuns} timed run(s) exited with a non-zero status; their times may measure an error path, not the work.`] : [],
    charts: [chart],
  });
}
