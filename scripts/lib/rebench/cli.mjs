// scripts/rebench: re-run the research's experiments on today's stack in the lab and write one
// dataset per experiment (plus raw outputs) through the project's importers and validator.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, UsageError, randomSeed } from '../measure/common.mjs';
import { validateDataset, formatProblem, DATASET_DIR } from '../dataset-validate.mjs';
import { chartRenderProblems } from '../importers/render-check.mjs';
import { EXPERIMENTS, byName } from './experiments/index.mjs';
import { runExperiment, rebuildFromRaw } from './runner.mjs';
import { writeThenNow } from './thennow.mjs';
import { backfillPss } from './backfill.mjs';

export const HELP = `Usage: scripts/rebench EXPERIMENT… [--quick] [--runs N] [--out DIR] [--seed N]
       scripts/rebench all [options]      every experiment, in the --list order
       scripts/rebench --list

Runs the research's experiments again on today's software inside the lab (scripts/lab: Debian 13,
Ruby 3.3/3.4, Rails 8.1, Puma 8, PostgreSQL 17, MariaDB 11.8, nginx, Apache, Caddy) and writes one
dataset per experiment, with every raw tool output beside it:
  DIR/_data/datasets/rebench-2026-….json and DIR/raw-output/rebench-2026-…/
With --out . in a checkout the files land where a pull request needs them.

Method (the measurement protocol, _data/measurement_protocol.json; repeat.md states it): server and database
pinned to one CPU, the load generator to the other; an idle gate before and a foreign-load monitor during every
run, disturbed runs repeated; warm-up until throughput is stable; HTTP runs of at least 10 s; each
configuration N times (default 10) in random rounds drawn from --seed (recorded); runs with no completed
request or over 1 % errors are failed runs, never zeros; every dataset carries a grade (benchmark or smoke); the dataset gives the median, the slowest and
fastest run, and a verdict against a baseline only when a bootstrap 95 % interval of the ratio of
medians excludes 1 and a Mann-Whitney test agrees (p < 0.05). Machine facts (CPU, cores, RAM,
virtualisation, kernel, governor, load average before and after) and exact versions are recorded.

Options:
  --list        list the experiments and what they mirror
  --quick       tiny sizes and 2 runs, to test the pipeline (minutes, not conclusions)
  --runs N      runs per configuration (default 10; 2 with --quick; below 10 grades smoke)
  --out DIR     output directory (default ./measurements)
  --seed N      seed for the run order (default random; recorded in the dataset)
  --then-and-now  after the experiments (or alone), write rebench-2026-then-now-EXPERIMENT
                datasets: the research's result beside the 2026 one, each era relative
                to its own baseline (hardware differs, so never value against value)
  --cells A,B   run only these configurations of one experiment (ids in the dataset's raw
                runs.csv); combine with --tag so the result is its own dataset
  --rebuild     recompute the named experiments' datasets from their raw output in DIR
                (raw-output/ID/provenance.json and the tool outputs), without measuring
  --caveat TEXT with --rebuild: add a caveat (repeatable), e.g. what else ran at the time
  --add-pss     add the PSS comparison (pss_* columns: spread, ratio, interval, p, verdict; lower is
                better) and its summary sentence to the named experiments' datasets in DIR, computed
                from their raw output; unlike --rebuild nothing else in the dataset or raw output changes
  --no-wait     measure without waiting for the idle gate and without repeating disturbed runs (a busy
                machine): the monitor still records the foreign load, and the datasets are graded smoke
  --tag NAME    append -NAME to every dataset id (e.g. your machine: --tag hetzner-cx22),
                so that your datasets sit beside the published ones instead of replacing
                them; datasets from different machines are separate series
  --author NAME who measured (default: git config user.name)
  --help        this text

Needs root and the lab (export LAB_DIR to share its cache; scripts/lab build makes it). A run
that is interrupted writes nothing: datasets are renamed into place only when complete.
A full run of every experiment takes about 50 minutes on 2 cores.
`;

const SPEC = {
  list: { type: 'boolean' }, quick: { type: 'boolean' }, help: { type: 'boolean' },
  runs: { type: 'integer', min: 1, max: 50 }, out: { type: 'string' }, seed: { type: 'integer', min: 0 },
  author: { type: 'string' }, tag: { type: 'string' }, cells: { type: 'string' }, rebuild: { type: 'boolean' }, caveat: { type: 'string', multiple: true }, 'keep-work': { type: 'boolean' }, 'then-and-now': { type: 'boolean' }, 'no-wait': { type: 'boolean' }, 'add-pss': { type: 'boolean' },
};

export async function main(argv) {
  // Experiment names and options may come in any order; option values follow their option.
  const names = [];
  const optArgs = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i].startsWith('--')) {
      optArgs.push(argv[i]);
      const def = SPEC[argv[i].slice(2).split('=')[0]];
      if (def && def.type !== 'boolean' && !argv[i].includes('=') && i + 1 < argv.length) optArgs.push(argv[(i += 1)]);
    } else names.push(argv[i]);
  }
  const { opts } = parseArgs(optArgs, SPEC);
  if (opts.help) { process.stdout.write(HELP); return 0; }
  if (opts.list) {
    for (const e of EXPERIMENTS) process.stdout.write(`${e.name.padEnd(12)} ${e.title} (mirrors ${e.mirrors}) -> ${e.datasetIds().join(', ')}\n`);
    return 0;
  }
  if (!names.length && !opts['then-and-now']) throw new UsageError('name at least one experiment (or "all"); --list shows them');
  const chosen = names.includes('all') ? EXPERIMENTS : names.map((n) => {
    const e = byName(n);
    if (!e) throw new UsageError(`unknown experiment "${n}"; known: ${EXPERIMENTS.map((x) => x.name).join(', ')}`);
    return e;
  });
  if (opts.author) process.env.SCALING_RAILS_AUTHOR = opts.author;
  if (opts.rebuild) return rebuild(chosen, path.resolve(opts.out || 'measurements'), opts.caveat || [], opts.tag);
  if (opts['add-pss']) return addPss(chosen, path.resolve(opts.out || 'measurements'));
  if (opts.tag !== undefined && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(opts.tag)) throw new UsageError(`--tag must be lower-case letters, digits and single hyphens (e.g. "hetzner-cx22"), got "${opts.tag}"`);
  if (opts.tag && opts['then-and-now']) throw new UsageError('--then-and-now reads the untagged datasets; run it without --tag');
  const outDir = path.resolve(opts.out || 'measurements');
  fs.mkdirSync(outDir, { recursive: true });
  const seed = opts.seed ?? randomSeed();
  const log = (line) => process.stderr.write(`${line}\n`);
  let problems = 0;
  const t0 = Date.now();
  for (const exp of chosen) {
    const t1 = Date.now();
    log(`rebench: ${exp.name}: ${exp.title} (seed ${seed})`);
    const files = await runExperiment(exp, { quick: opts.quick, runs: opts.runs, outDir, seed, log, keepWork: opts['keep-work'], noWait: opts['no-wait'], tag: opts.tag, cells: opts.cells ? opts.cells.split(',') : null });
    if (files.interrupted) return files.interrupted === 'SIGINT' ? 130 : 143;
    for (const file of files) {
      const found = await validate(file);
      problems += found.length;
      for (const p of found) log(formatProblem(p, `${outDir}/`));
      process.stdout.write(`${path.relative(process.cwd(), file) || file}\n`);
    }
    log(`rebench: ${exp.name}: done in ${Math.round((Date.now() - t1) / 1000)} s`);
  }
  if (opts['then-and-now']) {
    for (const file of writeThenNow(outDir, log)) {
      const found = await validate(file);
      problems += found.length;
      for (const p of found) log(formatProblem(p, `${outDir}/`));
      process.stdout.write(`${path.relative(process.cwd(), file) || file}\n`);
    }
  }
  log(`rebench: all done in ${Math.round((Date.now() - t0) / 1000)} s`);
  return problems ? 1 : 0;
}

/** The project's validator plus the chart render check; ids of the repository's datasets count as known. */
export async function validate(file) {
  const ids = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)) : []);
  const knownIds = new Set([...ids(DATASET_DIR), ...ids(path.dirname(file))]);
  const text = fs.readFileSync(file, 'utf8');
  const problems = validateDataset({ file, text, knownIds });
  if (!problems.length) problems.push(...await chartRenderProblems(file, text));
  return problems;
}

async function addPss(experiments, outDir) {
  let problems = 0;
  for (const exp of experiments) {
    let done;
    try { done = backfillPss(exp, outDir); } catch (err) { throw new UsageError(`--add-pss: ${err.message}`); }
    const found = await validate(done.file);
    problems += found.length;
    for (const p of found) process.stderr.write(`${formatProblem(p, `${outDir}/`)}\n`);
    process.stdout.write(`${path.relative(process.cwd(), done.file) || done.file}${done.changed ? '' : ' (unchanged)'}\n`);
  }
  return problems ? 1 : 0;
}

async function rebuild(experiments, outDir, extraCaveats, tag) {
  let problems = 0;
  for (const exp of experiments) {
    const mainId = `${exp.datasetIds()[0]}${tag ? `-${tag}` : ''}`;
    const rawDir = path.join(outDir, 'raw-output', mainId);
    if (!fs.existsSync(path.join(rawDir, 'provenance.json'))) throw new UsageError(`no ${path.relative(process.cwd(), rawDir)}/provenance.json to rebuild ${exp.name} from`);
    const { datasets, runsCsv } = rebuildFromRaw(exp, rawDir);
    for (let ds of datasets) {
      if (tag) ds = JSON.parse(JSON.stringify(ds).replace(/rebench-2026-[a-z0-9-]+/g, (id) => (id === ds.id || (ds.related || []).includes(id) ? `${id}-${tag}` : id)));
      ds.caveats.push(...extraCaveats);
      const file = path.join(outDir, '_data', 'datasets', `${ds.id}.json`);
      const tmp = `${file}.partial-${process.pid}`;
      fs.writeFileSync(tmp, `${JSON.stringify(ds, null, 2)}\n`);
      fs.renameSync(tmp, file);
      const dsRaw = path.join(outDir, 'raw-output', ds.id);
      if (fs.existsSync(dsRaw)) fs.writeFileSync(path.join(dsRaw, 'runs.csv'), runsCsv);
      const found = await validate(file);
      problems += found.length;
      for (const p of found) process.stderr.write(`${formatProblem(p, `${outDir}/`)}\n`);
      process.stdout.write(`${path.relative(process.cwd(), file) || file}\n`);
    }
  }
  return problems ? 1 : 0;
}
