// scripts/import: turn a benchmark tool's raw output into _data/datasets/<id>.json.
import { RAW_EXTENSIONS } from '../raw-output.mjs';
import { readFileSync, writeFileSync, existsSync, mkdirSync, copyFileSync } from 'node:fs';
import { basename, extname, join, resolve, relative, dirname } from 'node:path';
import { importDataset, IMPORTERS } from './index.mjs';
import { previousImport, mergeReimport, fieldDiff } from './reimport.mjs';
import { diffRows, diffText, isEmptyDiff } from '../dataset-diff.mjs';

const HELP = `Usage: scripts/import --tool TOOL --id ID [options] FILE [FILE…]

Turns raw benchmark output into a dataset file, _data/datasets/ID.json.
One FILE per run; each becomes one row (hyperfine, ab -g: one row per sample). Label a
run with LABEL=FILE (default label: the file name without extension).

Tools: ${Object.keys(IMPORTERS).join(', ')}
  ab             ApacheBench text output (ab -n N -c C URL > out.txt 2>&1), or the
                 per-request file of ab -g FILE (one row per request)
  wrk            wrk text output; use --latency for percentiles, and optionally
                 -s scripts/lib/importers/wrk-report.lua for exact counts and p99.9/p99.99
  hyperfine      hyperfine --export-json out.json
  benchmark-ips  benchmark-ips text output, or the JSON of x.json!("out.json")
  httperf        httperf text output

Options (anything not given and not detectable is left as "TODO: …" for you to fill in):
  --software NAME=VERSION   a program that mattered, e.g. --software puma=8.0.0 --software rails=8.1.4
                    (repeatable). Web benchmarks keep a TODO for the app server and Rails until named.
  --command TEXT    the exact command line you ran (default: rebuilt from the tool's output
                    where it shows enough: wrk, ab, httperf)
  --title TEXT      dataset title (default: from the software, URL and load, e.g.
                    "Puma 8.0.0, Rails 8.1.4: throughput and latency of / on host:3000 at 8 connections (wrk)")
  --topic TOPIC     one of _data/vocabulary.json topics
  --summary TEXT    one sentence: what it shows (default: generated from the numbers)
  --author NAME     who measured (default: git config user.name)
  --warmup TEXT     what warm-up was done (default: "not stated")
  --hardware TEXT   CPU, cores, RAM, disk (default: detected on this machine)
  --measured TEXT   what was measured (default: generated)
  --document TEXT   source document title     --url URL   where the raw output or write-up lives
  --year YEAR       (default: this year)       --license ID (default: CC-BY-4.0)
  --root DIR        repository to write into (default: this repository)
  --no-copy-raw     do not copy the raw output to raw-output/ID/
  --force           re-import into an existing dataset: the data (columns, rows, failures, counts)
                    is replaced; fields edited by hand since the last import (title, summary,
                    caveats, errata, charts…) are kept. When the earlier raw output is not in
                    raw-output/ID/, hand edits cannot be told apart and the import stops with a
                    diff; then add --keep-edits (keep the file's values) or --discard-edits.
  --stdout          print the dataset instead of writing it`;

const REPEATABLE = new Set(['software']);
const FLAGS = new Set(['software', 'command', 'title', 'topic', 'summary', 'author', 'warmup', 'hardware', 'measured', 'document', 'url', 'year', 'license', 'root', 'tool', 'id']);

export function parseArgs(argv) {
  const opts = { files: [], copyRaw: true, force: false, stdout: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') opts.help = true;
    else if (a === '--force') opts.force = true;
    else if (a === '--keep-edits') opts.keepEdits = true;
    else if (a === '--discard-edits') opts.discardEdits = true;
    else if (a === '--stdout') opts.stdout = true;
    else if (a === '--no-copy-raw') opts.copyRaw = false;
    else if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split(/=(.*)/s);
      if (!FLAGS.has(name)) throw new Error(`unknown option ${a} (see --help)`);
      const v = inline !== undefined ? inline : argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      if (REPEATABLE.has(name)) (opts[name] ||= []).push(v);
      else opts[name] = v;
    } else opts.files.push(a);
  }
  return opts;
}

function inputOf(arg) {
  let label = null;
  let file = arg;
  const eq = arg.indexOf('=');
  if (!existsSync(arg) && eq > 0 && existsSync(arg.slice(eq + 1))) { label = arg.slice(0, eq); file = arg.slice(eq + 1); }
  if (!existsSync(file)) throw new Error(`no such file: ${file}${existsSync(dirname(resolve(file))) ? '' : ' (its directory does not exist either)'}`);
  return { file, label: label || basename(file, extname(file)), text: readFileSync(file, 'utf8') };
}

export async function main(argv) {
  const opts = parseArgs(argv);
  if (opts.help || argv.length === 0) { console.log(HELP); return 0; }
  if (!opts.tool) throw new Error('--tool is required (one of: ' + Object.keys(IMPORTERS).join(', ') + ')');
  if (!opts.id || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(opts.id)) throw new Error('--id is required: lowercase letters, digits and single hyphens, e.g. puma-hello-wrk-2026');
  const root = resolve(opts.root || new URL('../../../', import.meta.url).pathname);
  const inputs = opts.files.map(inputOf);
  const target = join(root, '_data/datasets', `${opts.id}.json`);
  const shown = relative(process.cwd(), target) || target;
  let existing = null;
  if (!opts.stdout && existsSync(target)) {
    if (!opts.force) throw new Error(`${shown} exists. To re-import new output into it, add --force: the data is replaced and fields you edited by hand are kept (see --help). For a separate dataset, choose another --id.`);
    try { existing = JSON.parse(readFileSync(target, 'utf8')); } catch (e) { throw new Error(`${shown} exists but is not valid JSON (${e.message}); run scripts/validate on it, fix it, then re-import`); }
  }
  // Before the raw output is overwritten: what the last import wrote, to recognise hand edits.
  const previous = existing ? previousImport(existing, opts.tool, opts, root) : null;
  if (opts.copyRaw && !opts.stdout) {
    const dir = join(root, 'raw-output', opts.id);
    // Only plain-data files are published (scripts/lib/raw-output.mjs): say so before copying anything.
    const refused = inputs.filter((inp) => !RAW_EXTENSIONS.some((ext) => basename(inp.file).endsWith(ext)));
    if (refused.length) throw new Error(`${refused.map((inp) => inp.file).join(', ')}: raw output is published as plain data only; rename the file to end in one of ${RAW_EXTENSIONS.join(' ')} (e.g. .txt), or import with --no-copy-raw`);
    mkdirSync(dir, { recursive: true });
    for (const inp of inputs) {
      const dest = join(dir, basename(inp.file));
      if (resolve(inp.file) !== dest) copyFileSync(inp.file, dest);
      inp.rawPath = `raw-output/${opts.id}/${basename(inp.file)}`;
    }
  }
  const fresh = importDataset(opts.tool, inputs, opts);
  let dataset = fresh;
  const notes = [];
  if (existing) {
    const merged = mergeReimport({ existing, previous, fresh });
    if (merged.dataEdits.length && !opts.discardEdits) {
      throw new Error(`${shown}: the data was edited by hand after the last import, and a re-import would replace it:\n${fieldDiff(merged.dataEdits).join('\n')}\n` +
        'Move such corrections into "errata" (values stay as the tool printed them), or add --discard-edits to replace them. Nothing was written.');
    }
    if (merged.conflicts.length && !opts.keepEdits && !opts.discardEdits) {
      throw new Error(`${shown}: these fields differ from what the import writes, and the earlier raw output is not in raw-output/${opts.id}/, so it cannot tell hand edits from old generated text:\n` +
        `${fieldDiff(merged.conflicts).join('\n')}\nAdd --keep-edits to keep the file's values (- lines) or --discard-edits to take the new ones (+ lines). Nothing was written.`);
    }
    if (!opts.discardEdits) {
      dataset = merged.dataset;
      const kept = [...merged.kept, ...merged.conflicts.map((c) => c.path)];
      if (kept.length) notes.push(`kept your edits to: ${kept.join(', ')}`);
    }
    const d = diffRows(existing, dataset);
    notes.push(isEmptyDiff(d) ? 'data unchanged' : `data changes:\n${diffText(d).map((l) => `  ${l}`).join('\n')}`);
  }
  const json = `${JSON.stringify(dataset, null, 2)}\n`;
  if (opts.stdout) { process.stdout.write(json); return 0; }
  mkdirSync(join(root, '_data/datasets'), { recursive: true });
  writeFileSync(target, json);
  console.log(`wrote ${shown} (${dataset.rows.length} rows, ${(dataset.charts || []).length} charts)`);
  for (const n of notes) console.log(n);
  const { validateFiles, formatProblem } = await import('../dataset-validate.mjs');
  const problems = validateFiles([target], { dir: join(root, '_data/datasets') });
  if (!problems.length) {
    const { chartRenderProblems } = await import('./render-check.mjs');
    problems.push(...await chartRenderProblems(target, json));
  }
  if (problems.length) {
    console.log(`\n${problems.length} thing(s) left to fill in or fix before it can be published:`);
    for (const p of problems) console.log(formatProblem(p, `${root}/`));
    console.log('\nEdit the file, then run scripts/validate.');
  } else {
    console.log('valid: no problems found. Next: scripts/validate, then commit the dataset and raw-output/ with your pull request.');
  }
  return 0;
}
