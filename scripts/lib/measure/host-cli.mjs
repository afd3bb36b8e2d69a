// scripts/bench-host: the thesis's "generic benchmarking script" (section 5.1.1), rebuilt:
// cached sequential read, gzip, gunzip, a CPU-bound encode (xz) and all of them at once,
// each timed with GNU time, N runs in a seeded random order, with host provenance.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import {
  parseArgs, UsageError, hostFacts, hardwareString, baseSoftware, timestampId, checkId, ensureOutDir, toCsv,
  writeDataset, rawDir, rawRef, reportValidation, author, trackGroup, untrackGroup, killGroup, which, commandOutput,
  median, min, max, round, makeRng, shuffle, randomSeed, FORMAT,
  COMMON_SPEC, COMMON_HELP, applyCommon,
} from './common.mjs';

const TOOL = 'bench-host';
const MiB = 1024 * 1024;

export const HELP = `Usage: scripts/bench-host [--quick] [--runs N] [--out DIR] [options]

A small, bounded host benchmark after the thesis's generic OS benchmark (section 5.1.1):
  read     sequential read of a generated file with dd (repeated to at least 1 GiB in
           total). The file was just written and is read once untimed first, so this measures reads from the page cache (memory
           and kernel copy speed), not the disk: dropping caches needs root and is not done.
  gzip     gzip -6 compression of the generated file (writes the .gz next to it)
  gunzip   decompression of that .gz (writes the file back)
  encode   CPU-bound encode: xz -6 single-threaded on a slice of the file
  all      the four above started at the same time (the thesis's concurrent workload)
Each test is run N times; within each run the tests go in a random order from a recorded
seed. Every command runs under GNU time (/usr/bin/time, Debian package "time"), which
gives user+sys CPU seconds, voluntary/involuntary context switches, CPU% and peak RSS.

Output in DIR (mirrors the repository, so --out . in a checkout puts files in place):
_data/datasets/<id>.json (dataset), raw-output/<id>/runs.csv (one row per test and run),
raw-output/<id>/provenance.json. The generated data files are deleted at the end.

Options:
  --quick          small files (32 MiB, encode slice 1 MiB): about half a minute
  --runs N         runs per test (default 3; 1..20)
  --size-mb N      size of the generated file in MiB (default 256, --quick 32)
  --out DIR        output directory (default ./measurements)
  --id ID          dataset id (default bench-host-<UTC timestamp>)
  --seed N         seed for the data and the run order (default: random, recorded)
  --timeout S      per-command time limit in seconds (default 600, --quick 40)
  --license TEXT   licence of the produced dataset (default CC-BY-4.0)
${COMMON_HELP.replace('%TOPIC%', 'hardware')}  --quiet          print only the dataset path
  --help           show this help
`;

const SPEC = {
  ...COMMON_SPEC,
  help: { type: 'boolean' },
  quick: { type: 'boolean' },
  runs: { type: 'integer', min: 1, max: 20 },
  'size-mb': { type: 'integer', min: 1, max: 8192 },
  out: { type: 'string' },
  id: { type: 'string' },
  seed: { type: 'integer', min: 0, max: 2 ** 32 - 1 },
  timeout: { type: 'number', min: 1, max: 7200 },
  license: { type: 'string' },
  quiet: { type: 'boolean' },
};

const TESTS = {
  read: 'Sequential reads of the generated file from the page cache (dd, 1 MiB blocks, repeated to at least 1 GiB)',
  gzip: 'gzip -6 compression of the generated file',
  gunzip: 'gzip decompression of the compressed file',
  encode: 'xz -6 single-threaded compression of a slice (CPU-bound)',
  all: 'read, gzip, gunzip and encode started together',
};

/** Deterministic, gzip-compressible text: random words from a random 4096-word vocabulary. */
export function generateFile(file, bytes, seed) {
  const rng = makeRng(seed);
  const letters = 'etaoinshrdlcumwfgypbvkjxqz';
  const words = [];
  for (let i = 0; i < 4096; i += 1) {
    const len = 2 + Math.floor(rng() * 9);
    let w = '';
    for (let j = 0; j < len; j += 1) w += letters[Math.floor(rng() * rng() * letters.length)];
    words.push(Buffer.from(w + (rng() < 0.08 ? '\n' : ' ')));
  }
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(MiB);
  let written = 0;
  try {
    while (written < bytes) {
      let pos = 0;
      while (pos < chunk.length) {
        const w = words[Math.floor(rng() * 4096)];
        pos += w.copy(chunk, pos, 0, Math.min(w.length, chunk.length - pos));
      }
      const n = Math.min(chunk.length, bytes - written);
      fs.writeSync(fd, chunk, 0, n);
      written += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}

const TIME_FORMAT = 'BENCH_TIME %e %U %S %w %c %P %M %x';

/** Run argv under GNU time in its own process group; resolves with the measurements. */
function timed(argv, { cwd, timeoutS }) {
  return new Promise((resolve) => {
    const outFile = path.join(cwd, `.time-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const t0 = performance.now();
    const child = spawn('/usr/bin/time', ['-f', TIME_FORMAT, '-o', outFile, ...argv], { cwd, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    trackGroup(child.pid);
    let stderr = '';
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGKILL');
    }, timeoutS * 1000);
    child.on('close', (code) => {
      const wall = (performance.now() - t0) / 1000;
      clearTimeout(timer);
      untrackGroup(child.pid);
      let text = '';
      try {
        text = fs.readFileSync(outFile, 'utf8');
        fs.unlinkSync(outFile);
      } catch { /* no report when killed */ }
      const m = text.match(/BENCH_TIME (\S+) (\S+) (\S+) (\d+) (\d+) (\S+)% (\d+) (\d+)/);
      if (!m || timedOut || code !== 0) {
        resolve({ ok: false, reason: timedOut ? `timed out after ${timeoutS} s` : `exit ${code}: ${stderr.trim().split('\n').pop() || 'no output'}` });
        return;
      }
      resolve({
        ok: true,
        wall_s: wall, // measured here: GNU time's %e has only 10 ms resolution
        time_wall_s: Number(m[1]),
        user_s: Number(m[2]),
        sys_s: Number(m[3]),
        voluntary_cs: Number(m[4]),
        involuntary_cs: Number(m[5]),
        cpu_pct: m[6] === '?' ? null : Number(m[6]),
        max_rss_bytes: Number(m[7]) * 1024, // GNU time %M is in KiB
      });
    });
  });
}

function commands(work, sizes) {
  return {
    // read the file several times so the test lasts long enough to time (like hdparm -T's 2 s)
    read: {
      argv: ['sh', '-c', `i=0; while [ $i -lt ${sizes.readLoops} ]; do dd if="$1" of=/dev/null bs=1M 2>/dev/null || exit 1; i=$((i+1)); done`, 'read', work.data],
      bytes: sizes.data * sizes.readLoops,
    },
    gzip: { argv: ['gzip', '-6', '-k', '-f', work.gzipSrc], bytes: sizes.data },
    gunzip: { argv: ['gzip', '-d', '-k', '-f', work.gunzipSrc], bytes: sizes.data },
    encode: { argv: ['xz', '-6', '-T1', '-k', '-f', work.slice], bytes: sizes.slice },
  };
}

async function runTest(test, work, sizes, timeoutS) {
  const cmds = commands(work, sizes);
  if (test !== 'all') {
    const r = await timed(cmds[test].argv, { cwd: work.dir, timeoutS });
    if (r.ok) r.throughput_mb_s = cmds[test].bytes / 1e6 / Math.max(r.wall_s, 0.001);
    return r;
  }
  const t0 = performance.now();
  const parts = await Promise.all(Object.keys(cmds).map((k) => timed(cmds[k].argv, { cwd: work.dir, timeoutS })));
  const wall = (performance.now() - t0) / 1000;
  const bad = parts.find((p) => !p.ok);
  if (bad) return { ok: false, reason: bad.reason };
  const sum = (k) => parts.reduce((a, p) => a + p[k], 0);
  const bytes = Object.values(cmds).reduce((a, c) => a + c.bytes, 0);
  return {
    ok: true,
    wall_s: wall,
    user_s: sum('user_s'),
    sys_s: sum('sys_s'),
    voluntary_cs: sum('voluntary_cs'),
    involuntary_cs: sum('involuntary_cs'),
    cpu_pct: ((sum('user_s') + sum('sys_s')) / wall) * 100,
    max_rss_bytes: sum('max_rss_bytes'),
    throughput_mb_s: bytes / 1e6 / Math.max(wall, 0.001),
  };
}

function versionOf(cmd, args, re) {
  const out = commandOutput(cmd, args, { stderr: true });
  if (!out) return 'not detected';
  const m = out.match(re);
  return m ? m[1] : out.split('\n')[0];
}

export async function main(argv) {
  const { opts, rest } = parseArgs(argv, SPEC);
  if (opts.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (rest.length) throw new UsageError(`unexpected arguments after --: ${rest.join(' ')}`);
  for (const cmd of ['dd', 'gzip', 'xz']) {
    if (!which(cmd)) throw new UsageError(`"${cmd}" is not installed (Debian: coreutils, gzip, xz-utils)`);
  }
  if (!fs.existsSync('/usr/bin/time')) throw new UsageError('GNU time is needed at /usr/bin/time (Debian: apt-get install time)');
  const topic = applyCommon(opts, 'hardware');
  const quick = Boolean(opts.quick);
  const runs = opts.runs ?? 3;
  const sizeMiB = opts['size-mb'] ?? (quick ? 32 : 256);
  const sizes = { data: sizeMiB * MiB, slice: Math.max(1, Math.round(sizeMiB / 32)) * MiB };
  sizes.readLoops = Math.max(1, Math.ceil((1024 * MiB) / sizes.data));
  const timeoutS = opts.timeout ?? (quick ? 40 : 600);
  const seed = opts.seed ?? randomSeed();
  const started = new Date();
  const id = checkId(opts.id ?? `bench-host-${timestampId(started)}`);
  const outDir = ensureOutDir(opts.out ?? 'measurements');
  const log = (msg) => { if (!opts.quiet) process.stderr.write(`${TOOL}: ${msg}\n`); };
  const free = fs.statfsSync ? fs.statfsSync(outDir) : null;
  const needed = sizes.data * 3 + sizes.slice * 2;
  if (free && free.bavail * free.bsize < needed * 1.2) {
    throw new UsageError(`not enough free space in ${outDir}: need about ${Math.ceil(needed / MiB)} MiB (use --size-mb)`);
  }
  const facts = hostFacts(outDir);
  const raw = rawDir(outDir, id);
  const workDir = fs.mkdtempSync(path.join(raw, 'work-'));
  const work = {
    dir: workDir,
    data: path.join(workDir, 'data.txt'),
    gzipSrc: path.join(workDir, 'data.txt'),
    gunzipSrc: path.join(workDir, 'unpack', 'data.txt.gz'),
    slice: path.join(workDir, 'slice.txt'),
  };
  const results = [];
  try {
    log(`generating ${sizeMiB} MiB of test data (seed ${seed})`);
    generateFile(work.data, sizes.data, seed);
    generateFile(work.slice, sizes.slice, seed + 1);
    fs.mkdirSync(path.dirname(work.gunzipSrc));
    const prep = await timed(['gzip', '-6', '-k', '-f', work.data], { cwd: workDir, timeoutS });
    if (!prep.ok) throw new Error(`preparing the .gz failed: ${prep.reason}`);
    fs.renameSync(`${work.data}.gz`, work.gunzipSrc);
    await timed(['dd', `if=${work.data}`, 'of=/dev/null', 'bs=1M'], { cwd: workDir, timeoutS }); // untimed: fill the page cache
    const rng = makeRng(seed);
    const order = [];
    for (let run = 1; run <= runs; run += 1) {
      const tests = shuffle(Object.keys(TESTS), rng);
      order.push(tests);
      for (const test of tests) {
        const r = await runTest(test, work, sizes, timeoutS);
        results.push({ run, test, ...r });
        log(`run ${run}/${runs} ${test}: ${r.ok ? `${r.wall_s.toFixed(2)} s wall, ${(r.user_s + r.sys_s).toFixed(2)} s user+sys` : `FAILED (${r.reason})`}`);
      }
    }
    const elapsedS = (Date.now() - started.getTime()) / 1000;
    fs.writeFileSync(path.join(raw, 'runs.csv'), toCsv(
      ['run', 'test', 'ok', 'wall_s', 'user_s', 'sys_s', 'voluntary_context_switches', 'involuntary_context_switches', 'cpu_percent', 'max_rss_bytes', 'throughput_mb_per_s', 'failure'],
      results.map((r) => [r.run, r.test, r.ok, r.wall_s, r.user_s, r.sys_s, r.voluntary_cs, r.involuntary_cs, r.cpu_pct, r.max_rss_bytes, r.throughput_mb_s === undefined ? null : round(r.throughput_mb_s, 3), r.reason]),
    ));
    const software = [
      ...baseSoftware(facts),
      { name: 'GNU time', version: versionOf('/usr/bin/time', ['--version'], /(\d+\.\d+\S*)/) },
      { name: 'GNU coreutils dd', version: versionOf('dd', ['--version'], /(\d+\.\d+\S*)/) },
      { name: 'gzip', version: versionOf('gzip', ['--version'], /gzip (\S+)/) },
      { name: 'xz', version: versionOf('xz', ['--version'], /xz \(XZ Utils\) (\S+)/) },
    ];
    const dataset = buildDataset({ id, started, facts, software, results, runs, sizes, seed, order, quick, opts, elapsedS, topic });
    const file = writeDataset(outDir, dataset, {
      tool: TOOL, started: started.toISOString(), elapsed_s: elapsedS, seed, runs, order, quick,
      file_bytes: sizes.data, encode_slice_bytes: sizes.slice, read_repeats: sizes.readLoops, per_command_timeout_s: timeoutS,
      commands: Object.fromEntries(Object.entries(commands(work, sizes)).map(([k, c]) => [k, c.argv.map((a) => a.replace(workDir, '$WORK'))])),
      host: facts, results,
    });
    log(`finished in ${elapsedS.toFixed(1)} s`);
    const problems = await reportValidation(TOOL, file, opts);
    process.stdout.write(`${file}\n`);
    return problems ? 1 : 0;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

function buildDataset({ id, started, facts, software, results, runs, sizes, seed, order, quick, opts, elapsedS, topic }) {
  const rows = [];
  const errata = [];
  let anyFail = false;
  const failedRuns = [];
  for (const test of Object.keys(TESTS)) {
    const ok = results.filter((r) => r.test === test && r.ok);
    const failed = results.filter((r) => r.test === test && !r.ok);
    if (failed.length) failedRuns.push(`${test}: ${failed.length} of ${runs} failed (${failed[0].reason})`);
    const cpu = ok.map((r) => r.user_s + r.sys_s);
    const cell = (v, d) => (ok.length ? round(v, d) : 'FAIL');
    if (!ok.length) anyFail = true;
    rows.push([
      test,
      TESTS[test],
      ok.length,
      cell(median(ok.map((r) => r.wall_s)), 3),
      cell(median(cpu), 3),
      cell(min(cpu), 3),
      cell(max(cpu), 3),
      ok.length ? Math.round(median(ok.map((r) => r.voluntary_cs))) : 'FAIL',
      ok.length ? Math.round(median(ok.map((r) => r.involuntary_cs))) : 'FAIL',
      cell(median(ok.map((r) => r.cpu_pct)), 1),
      cell(median(ok.map((r) => r.throughput_mb_s)), 1),
      cell(min(ok.map((r) => r.throughput_mb_s)), 1),
      cell(max(ok.map((r) => r.throughput_mb_s)), 1),
      ok.length ? Math.round(median(ok.map((r) => r.max_rss_bytes))) : 'FAIL',
    ]);
  }
  const columns = [
    { key: 'test', label: 'Test', type: 'string' },
    { key: 'what', label: 'What it does', type: 'string' },
    { key: 'runs_ok', label: 'Successful runs', type: 'integer', unit: 'count' },
    { key: 'wall_median', label: 'Wall time (median)', type: 'number', unit: 's', decimals: 3 },
    { key: 'cpu_median', label: 'User+sys time (median)', type: 'number', unit: 's', decimals: 3, description: 'CPU seconds (user plus system) from GNU time; the thesis\'s main figure. For "all", summed over the four commands.' },
    { key: 'cpu_min', label: 'User+sys time (min)', type: 'number', unit: 's', decimals: 3 },
    { key: 'cpu_max', label: 'User+sys time (max)', type: 'number', unit: 's', decimals: 3 },
    { key: 'voluntary_cs', label: 'Voluntary context switches (median)', type: 'integer', unit: 'count' },
    { key: 'involuntary_cs', label: 'Involuntary context switches (median)', type: 'integer', unit: 'count' },
    { key: 'cpu_pct', label: 'CPU usage (median)', type: 'number', unit: '%', decimals: 1, description: 'User+sys time divided by wall time; above 100% means more than one core was busy.' },
    { key: 'throughput_median', label: 'Throughput (median)', type: 'number', unit: 'MB/s', decimals: 1, description: 'Input megabytes (10^6 bytes) per wall-clock second. For "all", the inputs of all four commands together.' },
    { key: 'throughput_min', label: 'Throughput (min)', type: 'number', unit: 'MB/s', decimals: 1 },
    { key: 'throughput_max', label: 'Throughput (max)', type: 'number', unit: 'MB/s', decimals: 1 },
    { key: 'max_rss', label: 'Peak RSS (median)', type: 'integer', unit: 'B', description: 'GNU time %M (KiB) converted to bytes; for "all" the sum over the four commands.' },
  ];
  const caveats = [
    'The read test reads a file that was just written and read once, so it measures the page cache (memory bandwidth and kernel copying), not the disk. Dropping the cache needs root and is deliberately not done.',
    'The generated text is random words from a seeded vocabulary; compression speed depends on the data, so compare hosts only with the same --size-mb (and, ideally, the same seed).',
    `Each test ran ${runs} time(s), tests shuffled within each run (seed ${seed}); min and max show the spread. Background load on the host adds noise that more runs only partly average out.`,
    'user+sys time does not include time spent waiting for I/O, as in the thesis; wall time does.',
  ];
  if (failedRuns.length) caveats.push(`Failed runs are left out of the medians: ${failedRuns.join('; ')}.`);
  const cpuRow = (t) => rows.find((r) => r[0] === t);
  const fmtS = (v) => (typeof v === 'number' ? `${v.toFixed(2)} s` : 'FAIL');
  const spec = {
    width: 460,
    height: 200,
    encoding: { y: { field: 'test', type: 'nominal', sort: null, title: 'Test' } },
    layer: [
      { mark: 'rule', encoding: { x: { field: 'cpu_min', type: 'quantitative', title: 'User+sys CPU time (s)' }, x2: { field: 'cpu_max' } } },
      { mark: { type: 'point', filled: true, size: 60 }, encoding: { x: { field: 'cpu_median', type: 'quantitative' } } },
      {
        transform: [{ filter: 'datum.cpu_median_failure != null' }],
        mark: { type: 'text', align: 'left', dx: 4 },
        encoding: { x: { value: 0 }, text: { field: 'cpu_median_failure' } },
      },
    ],
  };
  return {
    format: FORMAT,
    id,
    title: `Host benchmark (read, gzip, gunzip, xz, all at once) on ${facts.cpu_model}`.slice(0, 160),
    topic,
    year: started.getUTCFullYear(),
    summary: `With ${Math.round(sizes.data / MiB)} MiB of generated text, gzip took ${fmtS(cpuRow('gzip')[4])} and gunzip ${fmtS(cpuRow('gunzip')[4])} of user+sys CPU time (median of ${runs}), the xz encode ${fmtS(cpuRow('encode')[4])}, and all tests at once ${fmtS(cpuRow('all')[4])}.`,
    source: {
      document: 'Contributed measurement made with scripts/bench-host',
      author: author(),
      location: `run started ${started.toISOString()}${quick ? ' (--quick)' : ''}`,
      raw_output: rawRef(id, 'runs.csv'),
    },
    measured: `CPU time (user+sys), wall time, context switches, CPU% and peak RSS of five tests on a ${Math.round(sizes.data / MiB)} MiB generated text file (xz on a ${Math.round(sizes.slice / MiB)} MiB slice), measured with GNU time.`,
    hardware: hardwareString(facts),
    software,
    method: {
      tool: 'bench-host',
      description: `Generates a text file, compresses it once to have a .gz to decompress, reads it once to fill the page cache, then runs read (dd), gzip, gunzip, encode (xz -6 -T1) and all four at once, each under /usr/bin/time, ${runs} run(s) per test. Medians with min/max over runs. Total time ${elapsedS.toFixed(0)} s.`,
      runs,
      aggregation: 'median',
      warmup: 'one untimed read of the file (fills the page cache); no other warm-up',
      order: `tests shuffled within each run, seed ${seed}: ${order.map((o) => o.join(' ')).join(' | ')}`,
      seed,
    },
    columns,
    rows,
    failures: anyFail
      ? { markers: ['FAIL'], meaning: 'FAIL: every run of that test failed (non-zero exit or time limit); see the raw runs.csv for the reason.' }
      : { markers: [], meaning: 'no failures' },
    errata,
    caveats,
    attribution: `Measured by ${author()} with the Scaling Rails bench-host tool.`,
    license: opts.license ?? 'CC-BY-4.0',
    charts: [
      {
        id: 'cpu-time',
        title: 'CPU time per test',
        caption: 'Dots: median user+sys CPU seconds; lines: from the fastest to the slowest run. "all" sums the CPU time of the four commands running together.',
        alt: `Dot chart of user+sys time per test: read ${fmtS(cpuRow('read')[4])}, gzip ${fmtS(cpuRow('gzip')[4])}, gunzip ${fmtS(cpuRow('gunzip')[4])}, encode ${fmtS(cpuRow('encode')[4])}, all ${fmtS(cpuRow('all')[4])}.`,
        columns: ['test', 'runs_ok', 'cpu_median', 'cpu_min', 'cpu_max', 'cpu_pct'],
        spec,
      },
    ],
  };
}
