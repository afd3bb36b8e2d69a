// scripts/measure-memory: sample the memory of a process tree and write a dataset.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import {
  parseArgs, UsageError, hostFacts, hardwareString, baseSoftware, timestampId, checkId, ensureOutDir,
  toCsv, writeDataset, rawDir, rawRef, reportValidation, author, trackGroup, stopGroup, groupAlive, onInterrupt, killGroup, sleep, formatBytes, which, FORMAT,
  COMMON_SPEC, COMMON_HELP, applyCommon,
} from './common.mjs';
import { TreeSampler, nameRoots, summarise } from './sampler.mjs';
import { smapsRollupAvailable } from './procfs.mjs';

const TOOL = 'measure-memory';

export const HELP = `Usage:
  scripts/measure-memory [options] -- COMMAND [ARGS...]
  scripts/measure-memory [options] --pid PID [--pid PID...] --duration SECONDS
  scripts/measure-memory [options] --name NAME [--name NAME...] --duration SECONDS

Samples the memory of a whole process tree (the command and everything it starts,
or the given processes and their children) and writes, into the output directory:
  _data/datasets/<id>.json       a Scaling Rails dataset (scaling-rails/dataset@1) with
                                 per-process and total summaries (median, peak) and a chart
  raw-output/<id>/samples.csv    one row per sample and process, memory values in bytes
  raw-output/<id>/provenance.json  host facts, command, interval, timings (machine-readable)
The layout mirrors the repository: --out . in a checkout puts the files in place.

Values read per process: VmRSS, VmHWM (kernel's peak RSS), VmSize, VmPeak from
/proc/PID/status and Pss from /proc/PID/smaps_rollup (Linux 4.14+). The kernel prints
these in kB (= 1024 bytes); they are converted to bytes when read.

Options:
  --interval SECONDS   time between samples (default 1; fractions allowed, min 0.05)
  --out DIR            output directory (default ./measurements)
  --id ID              dataset id (default measure-memory-<UTC timestamp>)
  --title TEXT         dataset title
  --timeout SECONDS    command mode: stop the command (whole process group) after this
                       long (default 600)
  --pid PID            attach to a running process and its children (repeatable)
  --name NAME          attach to processes whose name (comm or argv[0]) is NAME, re-scanned
                       on every sample, plus their children (repeatable)
  --duration SECONDS   attach mode: how long to sample (required, max 86400)
  --license TEXT       licence of the produced dataset (default CC-BY-4.0)
${COMMON_HELP.replace('%TOPIC%', 'gc')}  --quiet              print only the dataset path
  --help               show this help

Exit status: 0 when the dataset was written (the command's own exit status is recorded
in the dataset), 1 on errors, 2 on a wrong invocation.
`;

const SPEC = {
  ...COMMON_SPEC,
  help: { type: 'boolean' },
  interval: { type: 'number', min: 0.05, max: 3600 },
  out: { type: 'string' },
  id: { type: 'string' },
  title: { type: 'string' },
  timeout: { type: 'number', min: 0.1, max: 86400 },
  pid: { type: 'integer', multiple: true, min: 1 },
  name: { type: 'string', multiple: true },
  duration: { type: 'number', min: 0.1, max: 86400 },
  license: { type: 'string' },
  quiet: { type: 'boolean' },
};

export async function main(argv) {
  const { opts, rest } = parseArgs(argv, SPEC);
  if (opts.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const topic = applyCommon(opts, 'gc');
  const attach = Boolean(opts.pid || opts.name);
  if (attach && rest.length) throw new UsageError('give either a command after -- or --pid/--name, not both');
  if (!attach && rest.length === 0) throw new UsageError('nothing to measure: give a command after --, or --pid PID / --name NAME with --duration');
  if (attach && opts.duration === undefined) throw new UsageError('--pid/--name need --duration SECONDS (how long to sample)');
  if (!attach && opts.duration !== undefined) throw new UsageError('--duration is for --pid/--name; a command is sampled until it exits (see --timeout)');
  if (opts.pid) {
    for (const pid of opts.pid) {
      if (!fs.existsSync(`/proc/${pid}`)) throw new UsageError(`no process with pid ${pid}`);
    }
  }
  if (!fs.existsSync('/proc/self/status')) throw new UsageError('this tool reads /proc and needs Linux');
  if (!attach && !rest[0].includes('/') && !which(rest[0])) throw new UsageError(`command not found: ${rest[0]}`);
  const intervalS = opts.interval ?? 1;
  const timeoutS = opts.timeout ?? 600;
  const started = new Date();
  const id = checkId(opts.id ?? `measure-memory-${timestampId(started)}`);
  const outDir = ensureOutDir(opts.out ?? 'measurements');
  const facts = hostFacts(outDir);
  const log = (msg) => { if (!opts.quiet) process.stderr.write(`${TOOL}: ${msg}\n`); };

  let roots;
  let child = null;
  let exitInfo = null;
  let stoppedByTimeout = false;
  let target;
  if (attach) {
    const pids = opts.pid || [];
    const byName = opts.name ? nameRoots(opts.name) : () => [];
    roots = () => [...pids, ...byName()];
    target = [
      ...(opts.pid || []).map((p) => `pid ${p}`),
      ...(opts.name || []).map((n) => `processes named "${n}"`),
    ].join(', ');
  } else {
    target = rest.join(' ');
    child = spawn(rest[0], rest.slice(1), { stdio: 'inherit', detached: true });
    const spawnError = await new Promise((resolve) => {
      child.once('error', (err) => resolve(err));
      child.once('spawn', () => resolve(null));
    });
    if (spawnError) {
      throw new UsageError(spawnError.code === 'ENOENT' ? `command not found: ${rest[0]}` : `cannot start ${rest[0]}: ${spawnError.message}`);
    }
    trackGroup(child.pid);
    exitInfo = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    roots = () => [child.pid];
  }

  // First Ctrl-C: stop what is measured and still write the dataset; a second one aborts.
  let interrupted = false;
  onInterrupt((sig) => {
    interrupted = true;
    log(`${sig}: stopping ${child ? 'the command' : 'sampling'} and writing the dataset (again to abort)`);
    if (child) killGroup(child.pid, 'SIGTERM');
  });
  const sampler = new TreeSampler({ roots, intervalMs: intervalS * 1000 });
  log(`sampling ${target} every ${intervalS} s`);
  const t0 = Date.now();
  sampler.start();
  let exit = null;
  if (child) {
    let timerHandle;
    const timer = new Promise((resolve) => { timerHandle = setTimeout(() => resolve('timeout'), timeoutS * 1000); });
    const first = await Promise.race([exitInfo, timer]);
    clearTimeout(timerHandle);
    if (first === 'timeout') {
      stoppedByTimeout = true;
      log(`command still running after ${timeoutS} s; stopping its process group`);
      sampler.stop();
      await stopGroup(child.pid);
      exit = await exitInfo;
    } else {
      exit = first;
      sampler.stop();
      // children that outlived the command are not ours to leave running
      if (groupAlive(child.pid)) await stopGroup(child.pid, 2000);
    }
  } else {
    const deadline = t0 + opts.duration * 1000;
    let emptyTicks = 0;
    while (Date.now() < deadline && !interrupted) {
      await sleep(Math.min(250, Math.max(0, deadline - Date.now())));
      // stop early once every watched pid is gone (name mode keeps waiting for new ones)
      if (!opts.name && sampler.index > 0 && roots().every((p) => !fs.existsSync(`/proc/${p}`))) {
        emptyTicks += 1;
        if (emptyTicks > 1) break;
      }
    }
    sampler.stop();
  }
  const elapsedS = (Date.now() - t0) / 1000;

  const samples = sampler.samples;
  const csvPath = path.join(rawDir(outDir, id), 'samples.csv');
  fs.writeFileSync(csvPath, toCsv(
    ['time_s', 'sample', 'pid', 'ppid', 'comm', 'rss_bytes', 'pss_bytes', 'vm_size_bytes', 'vm_peak_bytes', 'vm_hwm_bytes'],
    samples.map((s) => [s.t.toFixed(3), s.index, s.pid, s.ppid, s.comm, s.rss, s.pss, s.vm_size, s.vm_peak, s.vm_hwm]),
  ));
  if (samples.length === 0) {
    process.stderr.write(`${TOOL}: no samples were taken (the processes ended before the first sample?); raw file ${csvPath}\n`);
    return 1;
  }
  const summary = summarise(samples, sampler.commandLines);
  const dataset = buildDataset({
    id, started, facts, target, intervalS, elapsedS, summary, exit, stoppedByTimeout, timeoutS, attach, opts, topic, interrupted,
    samplesFile: rawRef(id, 'samples.csv'),
  });
  const provenance = {
    tool: TOOL,
    started: started.toISOString(),
    elapsed_s: elapsedS,
    interval_s: intervalS,
    mode: attach ? 'attach' : 'command',
    command: attach ? null : rest,
    attach: attach ? { pids: opts.pid || [], names: opts.name || [], duration_s: opts.duration } : null,
    exit,
    stopped_by_timeout: stoppedByTimeout,
    interrupted,
    host: facts,
    smaps_rollup: smapsRollupAvailable(),
    processes: summary.processes,
    total: summary.total,
    samples_file: rawRef(id, 'samples.csv'),
  };
  const file = writeDataset(outDir, dataset, provenance);
  log(`total RSS of the tree: median ${formatBytes(summary.total.rss_median)}, peak ${formatBytes(summary.total.rss_peak)} (${summary.total.samples} samples)`);
  log(`wrote ${csvPath}`);
  const problems = await reportValidation(TOOL, file, opts);
  process.stdout.write(`${file}\n`);
  return problems ? 1 : 0;
}

function buildDataset({ id, started, facts, target, intervalS, elapsedS, summary, exit, stoppedByTimeout, timeoutS, attach, opts, topic, interrupted, samplesFile }) {
  const { processes, total } = summary;
  const mib = (n) => (n === null ? 'n/a' : `${(n / 1024 ** 2).toFixed(1)} MiB`);
  const shortTarget = target.length > 90 ? `${target.slice(0, 87)}...` : target;
  const columns = [
    { key: 'process', label: 'Process', type: 'string', description: 'pid and name, or the total of the whole tree' },
    { key: 'command', label: 'Command line', type: 'string' },
    { key: 'samples', label: 'Samples', type: 'integer', unit: 'count' },
    { key: 'rss_median', label: 'RSS median', type: 'integer', unit: 'B', description: 'Median of the sampled VmRSS (total row: median over samples of the sum over processes).' },
    { key: 'rss_peak', label: 'RSS peak (sampled)', type: 'integer', unit: 'B', description: 'Largest sampled VmRSS (total row: largest per-sample sum).' },
    { key: 'rss_hwm', label: 'RSS high-water mark', type: 'integer', unit: 'B', description: "Kernel's VmHWM, the peak RSS since the process started, including peaks between samples. Total row: sum of the per-process peaks, an upper bound because they need not coincide." },
    { key: 'pss_median', label: 'PSS median', type: 'integer', unit: 'B', description: 'Proportional set size from smaps_rollup: shared pages divided among the processes sharing them, so sums over processes do not double count.' },
    { key: 'pss_peak', label: 'PSS peak (sampled)', type: 'integer', unit: 'B' },
    { key: 'vm_size_median', label: 'VmSize median', type: 'integer', unit: 'B', description: 'Virtual address space size; reserved, not necessarily used, memory.' },
    { key: 'vm_peak', label: 'VmPeak', type: 'integer', unit: 'B', description: 'Largest virtual size seen by the kernel (total row: sum over processes).' },
  ];
  const int = (v) => (v === null || v === undefined ? null : Math.round(v));
  const trim = (s, n) => (s.length > n ? `${s.slice(0, n - 3)}...` : s);
  const rows = [
    ['all processes (sum)', trim(shortTarget, 120), total.samples, int(total.rss_median), int(total.rss_peak), int(total.rss_hwm), int(total.pss_median), int(total.pss_peak), int(total.vm_size_median), int(total.vm_peak)],
    ...processes.map((p) => [
      `${p.pid} ${p.comm}`, trim(p.cmdline || p.comm, 120), p.samples, int(p.rss_median), int(p.rss_peak), int(p.rss_hwm),
      int(p.pss_median), int(p.pss_peak), int(p.vm_size_median), int(p.vm_peak),
    ]),
  ];
  const errata = [];
  const pssNullCells = [];
  rows.forEach((r, i) => {
    if (r[6] === null) pssNullCells.push({ row: i + 1, column: 'pss_median' }, { row: i + 1, column: 'pss_peak' });
  });
  if (pssNullCells.length) {
    errata.push({
      text: 'PSS could not be read for some processes (no /proc/PID/smaps_rollup on this kernel, or no permission to read it).',
      handling: 'Those PSS cells are empty (null); use the RSS columns, which over-count memory shared between processes.',
      cells: pssNullCells,
    });
  }
  const caveats = [
    `Samples are taken every ${intervalS} s; memory that is allocated and freed between two samples is missed by the sampled columns. The RSS high-water mark column comes from the kernel and does include such peaks.`,
    'Summing RSS over processes counts shared pages (copy-on-write memory after fork, shared libraries) once per process; the PSS columns divide shared pages among the sharers and are the better total.',
    'Processes that start and end between two samples are not seen at all.',
    'All memory values are bytes. The kernel reports kB meaning 1024 bytes; the tool multiplied by 1024 when reading.',
  ];
  if (interrupted) caveats.push(`The measurement was ended by an interrupt (Ctrl-C or SIGTERM) after ${elapsedS.toFixed(1)} s${attach ? '' : '; the command was then sent SIGTERM'}.`);
  if (exit && !stoppedByTimeout && !interrupted && (exit.code !== 0 || exit.signal)) {
    caveats.push(`The measured command did not exit cleanly (exit code ${exit.code}, signal ${exit.signal || 'none'}).`);
  }
  if (stoppedByTimeout) caveats.push(`The command was still running after ${timeoutS} s and was stopped by the tool; the figures cover only that time.`);
  const year = started.getUTCFullYear();
  return {
    format: FORMAT,
    id,
    title: opts.title ?? trim(`Memory of ${shortTarget}`, 160),
    topic,
    year,
    summary: `The process tree of ${shortTarget} used a median of ${mib(total.rss_median)} RSS (peak ${mib(total.rss_peak)} sampled, ${mib(total.rss_hwm)} by the kernel's high-water marks) across ${processes.length} process(es) and ${total.samples} samples.`,
    source: {
      document: 'Contributed measurement made with scripts/measure-memory',
      author: author(),
      location: `run started ${started.toISOString()}`,
      raw_output: samplesFile,
    },
    measured: `Memory of every process in the tree of ${attach ? shortTarget : `the command "${shortTarget}"`}: RSS, VmHWM, VmSize and VmPeak from /proc/PID/status and PSS from /proc/PID/smaps_rollup, sampled every ${intervalS} s for ${elapsedS.toFixed(1)} s; all values in bytes.`,
    hardware: hardwareString(facts),
    software: baseSoftware(facts),
    method: {
      tool: 'measure-memory',
      description: `${attach ? `Attached to ${shortTarget} (and children) for ${opts.duration} s.` : `Started the command in its own process group and sampled until it exited${stoppedByTimeout ? ' or the timeout' : ''}.`} Every ${intervalS} s the tool lists the process tree from /proc/*/stat and reads each process's status and smaps_rollup. Per process it reports the median and the largest sampled value; the total row sums the processes within each sample first.`,
      runs: 1,
      aggregation: 'median',
      warmup: 'none: sampling starts with the command',
      duration_s: Math.max(0.001, Number(elapsedS.toFixed(3))),
      order: 'not applicable (one run)',
    },
    columns,
    rows,
    failures: { markers: [], meaning: 'no failures; a process that exited during the run is summarised over the samples in which it was seen' },
    errata,
    caveats,
    attribution: `Measured by ${author()} with the Scaling Rails measure-memory tool.`,
    license: opts.license ?? 'CC-BY-4.0',
    charts: [
      {
        id: 'rss-by-process',
        title: 'Resident memory per process',
        caption: 'Bars: largest sampled RSS per process and for the whole tree; ticks: the median over the run. Values are bytes (axis labels use SI prefixes).',
        alt: `Bar chart of peak resident memory per process; the whole tree peaked at ${mib(total.rss_peak)} with a median of ${mib(total.rss_median)}.`,
        columns: ['process', 'samples', 'rss_median', 'rss_peak', 'rss_hwm'],
        spec: {
          width: 480,
          height: Math.min(400, 40 + rows.length * 28),
          encoding: {
            y: { field: 'process', type: 'nominal', sort: null, title: 'Process' },
          },
          layer: [
            { mark: { type: 'bar', opacity: 0.5 }, encoding: { x: { field: 'rss_peak', type: 'quantitative', title: 'RSS (bytes)', axis: { format: '~s' } } } },
            { mark: { type: 'tick', thickness: 3 }, encoding: { x: { field: 'rss_median', type: 'quantitative' } } },
          ],
        },
      },
    ],
  };
}
