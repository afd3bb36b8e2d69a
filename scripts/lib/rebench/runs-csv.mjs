// raw-output/ID/runs.csv: one line per measured run, for a reader who audits the dataset run by run. The columns,
// their order and what each means live in _data/rebench_runs_csv.json (the repeat page prints them); this module
// has how each is read from a result record (readback.mjs), and refuses a column without a reader or a reader
// without a column, so the file and its description cannot part.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../measure/common.mjs';

export const RUNS_CSV_FILE = path.join(REPO_ROOT, '_data', 'rebench_runs_csv.json');
export const RUNS_CSV_COLUMNS = JSON.parse(fs.readFileSync(RUNS_CSV_FILE, 'utf8')).columns.map((c) => c.name);

const pr = (k) => (r) => (r.protocol ? r.protocol[k] : null);
const metric = (k) => (r) => r.metrics[k];

// The worst CPU's median spin over its calibrated time (host-speed probe, speed_cpuN_ratio_median per CPU).
function hostSpeedRatio(r) {
  const ratios = Object.entries(r.protocol || {}).filter(([k, v]) => /^speed_cpu\d+_ratio_median$/.test(k) && Number.isFinite(v)).map(([, v]) => v);
  return ratios.length ? Math.max(...ratios) : null;
}

const READERS = {
  order: (r) => r.entry.idx,
  cell: (r) => r.cell.id,
  run: (r) => r.entry.run,
  measurement: (r) => r.measurement.id,
  rps: metric('rps'),
  jps: metric('jps'),
  p50_ms: metric('p50_ms'),
  p99_ms: metric('p99_ms'),
  time_s: metric('time_s'),
  cpu_s: metric('cpu_s'),
  cpu_ms: metric('cpu_ms'),
  warmup_drift: metric('warmup_drift'),
  plateau: metric('plateau'),
  errors: metric('errors'),
  pss_peak_mib: (r) => (r.memory ? r.memory.peak_total_mib.toFixed(1) : null),
  processes: (r) => (r.memory ? r.memory.processes : null),
  load_before_after: (r) => r.load,
  foreign_cpu_pct: pr('foreign_pct'),
  steal_pct: pr('steal_pct'),
  tries: pr('tries'),
  disturbed: pr('disturbed'),
  raw_file: (r) => r.file,
  error: (r) => r.metrics.error,
  repeated_because: (r) => (r.repeatedBecause && r.repeatedBecause.length ? r.repeatedBecause.join(' ') : null),
  unsteady: pr('unsteady'),
  slow_host: pr('slow_host'),
  host_slow_windows_pct: pr('speed_slow_pct'),
  host_speed_ratio: hostSpeedRatio,
  gc_reading_share: (r) => (r.metrics.gc ? r.metrics.gc.reading_share : null),
  steady_off_pct: pr('steady_off_pct'),
  unsteady_throughput: pr('unsteady_throughput'),
};

const unread = RUNS_CSV_COLUMNS.filter((c) => !READERS[c]);
const undescribed = Object.keys(READERS).filter((c) => !RUNS_CSV_COLUMNS.includes(c));
if (unread.length || undescribed.length) throw new Error(`runs.csv: columns without a reader (${unread.join(', ') || 'none'}) or readers without a column in ${path.relative(REPO_ROOT, RUNS_CSV_FILE)} (${undescribed.join(', ') || 'none'})`);

const quote = (v) => (v === null || v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

/** The text of runs.csv for a run's result records. */
export function runsCsv(results) {
  const lines = results.map((r) => RUNS_CSV_COLUMNS.map((c) => quote(READERS[c](r))).join(','));
  return `${RUNS_CSV_COLUMNS.join(',')}\n${lines.join('\n')}\n`;
}
