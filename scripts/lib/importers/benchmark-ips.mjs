// Ruby benchmark-ips output → one row per report entry. Reads the text report (any 2.x layout)
// or the JSON written by `x.json! "out.json"`.
import { col, skeleton, metric, toolVersion, fmt, round } from './common.mjs';

const NUM = '([\\d.]+[kMBTQ]?)';
const BODY = new RegExp(`^\\s*${NUM} \\(±\\s*([\\d.]+|Inf)%\\) i\\/s(?:\\s+\\(([\\d.]+) ?(ns|μs|µs|us|ms|s)\\/i\\))?\\s+-\\s+${NUM}(?: in\\s+([\\d.]+)s)?`);
const US = { ns: 1e-3, 'μs': 1, 'µs': 1, us: 1, ms: 1e3, s: 1e6 };

function parseText(text) {
  const ruby = /^(ruby \d\S* .*|jruby .*|truffleruby .*)$/m.exec(text)?.[1] ?? null;
  const entries = [];
  const cycles = {};
  const lines = text.split('\n');
  let section = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^Warming up -+/.test(line)) { section = 'warm'; continue; }
    if (/^Calculating -+/.test(line)) { section = 'calc'; continue; }
    if (/^Comparison:/.test(line)) { section = 'cmp'; continue; }
    if (section === 'warm') {
      const m = new RegExp(`^\\s*(.+?)\\s+${NUM} i\\/100ms\\s*$`).exec(line);
      if (m) cycles[m[1]] = metric(m[2]);
      else if (line.trim() && i + 1 < lines.length && new RegExp(`^\\s+${NUM} i\\/100ms`).test(lines[i + 1])) {
        cycles[line.trim()] = metric(/([\d.]+[kMBTQ]?) i\/100ms/.exec(lines[i + 1])[1]); i++;
      }
    } else if (section === 'calc') {
      // "  label  112.945k (±27.7%) i/s  (8.85 μs/i) -  73.580k in  0.651468s"; a long label may stand on its own line.
      let name = null;
      let body = null;
      const m = /^(\s*\S.*?)\s+([\d.]+[kMBTQ]? \(±.*)$/.exec(line);
      if (m && BODY.test(m[2])) { name = m[1].trim(); body = BODY.exec(m[2]); }
      else if (line.trim() && i + 1 < lines.length && BODY.test(lines[i + 1])) { name = line.trim(); body = BODY.exec(lines[i + 1]); i++; }
      if (!name) continue;
      const ips = metric(body[1]);
      const errPct = body[2] === 'Inf' ? null : Number(body[2]);
      entries.push({
        name,
        ips,
        error: errPct === null ? null : round((ips * errPct) / 100, 6),
        errorPct: errPct,
        errorInf: body[2] === 'Inf',
        perIterUs: body[3] ? round(Number(body[3]) * US[body[4]], 6) : round(1e6 / ips, 6),
        iterations: metric(body[5]),
        timeS: body[6] ? Number(body[6]) : null,
        cycles: null,
      });
    } else if (section === 'cmp') {
      const m = /^\s*(.+?):\s+([\d.]+) i\/s(?: - (?:(same-ish)|([\d.]+)x\s+(?:\(± ([\d.]+)\)\s+)?slower))?/.exec(line);
      if (!m) continue;
      const e = entries.find((x) => x.name === m[1].trim());
      if (!e) continue;
      e.comparison = m[3] ? 'same-ish: difference falls within error' : m[4] ? 'slower' : 'fastest';
      e.slower = m[4] ? Number(m[4]) : m[3] ? null : 1;
    }
  }
  for (const e of entries) e.cycles = cycles[e.name] ?? null;
  if (!entries.length) throw new Error('benchmark-ips: no report lines found (expected "NAME  1.234k (± 1.2%) i/s - …" under "Calculating")');
  return { ruby, entries, compared: entries.some((e) => e.comparison) };
}

function parseJson(text) {
  const data = JSON.parse(text);
  if (!Array.isArray(data)) throw new Error('benchmark-ips: expected the JSON array written by x.json!');
  const entries = data.map((d) => {
    const ips = d.central_tendency ?? d.ips;
    const error = d.error ?? d.stddev ?? null;
    return { name: d.name, ips, error, errorPct: error === null ? null : round((error / ips) * 100, 1), perIterUs: round(1e6 / ips, 6), iterations: d.iterations ?? null, timeS: d.microseconds !== undefined ? round(d.microseconds / 1e6, 6) : null, cycles: d.cycles ?? null };
  });
  return { ruby: null, entries, compared: false };
}

export function parse(text) {
  return /^\s*\[/.test(text) ? { ...parseJson(text), format: 'json' } : { ...parseText(text), format: 'text' };
}

export function toDataset(inputs, opts) {
  const parsed = inputs.map((i) => ({ ...parse(i.text), label: i.label }));
  const multi = inputs.length > 1;
  const rubies = parsed.some((p) => p.ruby);
  const compared = parsed.some((p) => p.compared);
  const columns = [
    ...(multi ? [col('run', 'Run', 'string', null, 'Label of the output file the row comes from.')] : []),
    ...(rubies ? [col('ruby', 'Ruby', 'string', null, 'RUBY_DESCRIPTION printed by benchmark-ips.')] : []),
    col('name', 'Report', 'string', null, 'Label given to x.report.'),
    col('ips', 'Iterations per second', 'number', 'iter/s', 'benchmark-ips central tendency (mean, or median with bootstrap stats).'),
    col('error', 'Error (±)', 'number', 'iter/s', 'benchmark-ips error: one standard deviation (or half the bootstrap confidence interval). The JSON gives it directly; from text output it is ips × error %.'),
    col('error_pct', 'Error (± %)', 'number', '%', 'Error as a percentage of ips; computed from the JSON, printed in the text report.'),
    col('time_per_iteration_us', 'Time per iteration', 'number', 'us', 'As printed (text, newer versions) or 1 / ips.'),
    col('iterations', 'Iterations', 'integer', 'count', 'Iterations run during the measured time.'),
    col('measured_s', 'Measured time', 'number', 's'),
    col('cycles', 'Iterations per 100 ms (warm-up)', 'integer', 'count'),
    ...(compared ? [
      col('slower', 'Slower than fastest', 'number', 'ratio', 'From compare!: how many times slower than the fastest report (1 for the fastest, empty when same-ish).'),
      col('comparison', 'Comparison', 'string', null, 'compare! verdict: fastest, slower, or same-ish (difference within error).'),
    ] : []),
  ];
  const rows = [];
  for (const p of parsed) for (const e of p.entries) {
    const cells = { run: p.label, ruby: p.ruby, name: e.name, ips: round(e.ips, 6), error: e.error, error_pct: e.errorPct, time_per_iteration_us: e.perIterUs, iterations: e.iterations === null ? null : Math.round(e.iterations), measured_s: e.timeS, cycles: e.cycles === null ? null : Math.round(e.cycles), slower: e.slower ?? null, comparison: e.comparison ?? null };
    rows.push(columns.map((c) => (cells[c.key] === undefined ? null : cells[c.key])));
  }
  const entries = parsed.flatMap((p) => p.entries.map((e) => ({ ...e, label: (multi ? `${p.label}: ` : '') + e.name })));
  const fastest = entries.reduce((a, b) => (b.ips > a.ips ? b : a));
  const slowest = entries.reduce((a, b) => (b.ips < a.ips ? b : a));
  const ipsValues = entries.map((e) => e.ips).filter((v) => v > 0);
  const log = Math.max(...ipsValues) / Math.min(...ipsValues) > 100;
  const chart = {
    id: 'ips',
    title: 'Iterations per second per report',
    caption: `${log ? 'Dots' : 'Bars'} are benchmark-ips\'s iterations per second; the line across each spans ± its error${log ? ' (log scale: the reports differ by more than 100×)' : ''}.`,
    alt: `benchmark-ips results: ${entries.map((e) => `${e.label} ${fmt(e.ips, 1)} i/s${e.errorPct !== null ? ` ± ${e.errorPct}%` : ''}`).join('; ')}.`,
    columns: columns.filter((c) => ['run', 'name', 'ips', 'error', 'error_pct'].includes(c.key)).map((c) => c.key),
    spec: {
      width: 480,
      height: { step: 32 },
      transform: [{ calculate: multi ? "datum.run + ': ' + datum.name" : 'datum.name', as: 'report' }],
      layer: [
        { mark: log ? { type: 'point', filled: true, size: 80 } : { type: 'bar' }, encoding: { y: { field: 'report', type: 'nominal', sort: null, title: 'Report' }, x: { field: 'ips', type: 'quantitative', title: 'Iterations per second', ...(log ? { scale: { type: 'log' } } : {}) } } },
        ...(!entries.some((e) => e.error !== null) ? [] : [{
          transform: [{ filter: 'isValid(datum.error)' }, { calculate: log ? 'max(datum.ips - datum.error, datum.ips / 100)' : 'max(datum.ips - datum.error, 0)', as: 'low' }, { calculate: 'datum.ips + datum.error', as: 'high' }],
          mark: { type: 'rule' },
          encoding: { y: { field: 'report', type: 'nominal', sort: null }, x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } },
        }]),
      ],
    },
  };
  const ruby = parsed.find((p) => p.ruby)?.ruby;
  const version = toolVersion('gem', ['list', '--exact', 'benchmark-ips'], /benchmark-ips \(([^)]+)\)/);
  const caveats = [];
  if (entries.some((e) => e.errorPct !== null && e.errorPct > 10)) caveats.push('Some reports have an error above ±10%; the difference between them may be noise. Run longer (x.config(time: …)) on a quiet machine.');
  if (entries.some((e) => e.errorInf)) caveats.push('benchmark-ips printed an error of ± Inf% for at least one report; its error cells are empty.');
  if (parsed.some((p) => p.format === 'text')) caveats.push('Values read from the text report are rounded as benchmark-ips printed them (e.g. 112.945k); the JSON output keeps full precision.');
  return skeleton(opts, {
    toolName: 'benchmark-ips',
    remote: false,
    titleWhat: `iterations per second of ${entries.map((e) => e.label).slice(0, 3).join(' vs ')}${entries.length > 3 ? ` and ${entries.length - 3} more` : ''} (benchmark-ips)`,
    title: `benchmark-ips: ${entries.map((e) => e.label).slice(0, 3).join(' vs ')}${entries.length > 3 ? ' …' : ''}`,
    summary: entries.length > 1
      ? `${fastest.label} ran fastest at ${fmt(fastest.ips, 1)} iterations per second, ${fmt(fastest.ips / slowest.ips, 2)} times the rate of ${slowest.label} (${fmt(slowest.ips, 1)} i/s).`
      : `${fastest.label} ran at ${fmt(fastest.ips, 1)} iterations per second${fastest.errorPct !== null ? ` (± ${fastest.errorPct}%)` : ''}.`,
    location: inputs.map((i) => i.rawPath || i.file).join(', '),
    rawOutput: inputs.map((i) => i.rawPath || i.file).join(', '),
    measured: `Iterations per second of ${entries.length === 1 ? 'one Ruby code block' : `${entries.length} Ruby code blocks`} measured with benchmark-ips, with its error estimate.`,
    software: [
      { name: 'benchmark-ips', version: version || 'not stated' },
      ...(ruby ? [{ name: 'Ruby (from the report)', version: ruby }] : []),
    ],
    method: {
      tool: 'benchmark-ips',
      description: `benchmark-ips ${parsed.map((p) => p.format).includes('json') ? 'JSON (x.json!)' : 'text report'}; one row per x.report. benchmark-ips runs a timed warm-up, then counts iterations in fixed time cycles.`,
      requests: null,
      concurrency: null,
      duration_s: null,
      runs: 1,
      aggregation: 'mean',
      warmup: opts.warmup || 'benchmark-ips warm-up phase (default 2 s per report unless x.config changed it)',
    },
    columns, rows,
    failures: { markers: [], meaning: 'no failures: benchmark-ips stops with an exception if a report raises, so every row is a completed measurement.' },
    caveats,
    charts: [chart],
  });
}
