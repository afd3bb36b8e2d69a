// scripts/new-dataset ID [--topic T] [--tool T]: write _data/datasets/ID.json with every required
// field present. What this machine can tell (CPU, cores, RAM, kernel, OS, Ruby, tool version) is
// filled in; everything else is a "TODO: …" text saying what belongs there. scripts/validate
// rejects every TODO, so the file cannot be published until each one is replaced.
import { existsSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { detectMachine, hardwareText, softwareList } from './machine.mjs';
import { FORMAT, SCHEMA_REF, toolVersion, gitUserName } from './common.mjs';

const ROOT = new URL('../../../', import.meta.url).pathname;
const VERSION_PROBES = {
  ab: ['ab', ['-V'], /Version (\S+)/, 'ApacheBench'],
  wrk: ['wrk', ['-v'], /^wrk (\S+)/m, 'wrk'],
  hyperfine: ['hyperfine', ['--version'], /hyperfine (\S+)/, 'hyperfine'],
  httperf: ['httperf', ['-V'], /httperf-(\S+?)\s/, 'httperf'],
  'benchmark-ips': ['gem', ['list', '--exact', 'benchmark-ips'], /benchmark-ips \(([^)]+)\)/, 'benchmark-ips'],
};

const HELP = `Usage: scripts/new-dataset ID [--topic TOPIC] [--tool TOOL] [--force]

Creates _data/datasets/ID.json with every required field. Machine facts (CPU, cores, RAM,
kernel, OS, Ruby) are detected; every other field says "TODO: …" and fails scripts/validate
until you replace it. If you have raw output of ab, wrk, hyperfine, benchmark-ips or httperf,
scripts/import fills far more of it for you.`;

export function scaffold({ id, topic, tool, vocabulary, machine = detectMachine(), author = gitUserName(), year = new Date().getUTCFullYear() }) {
  const list = (o) => Object.keys(o).join(', ');
  const software = softwareList(machine, []);
  if (tool && VERSION_PROBES[tool]) {
    const [cmd, args, re, name] = VERSION_PROBES[tool];
    const v = toolVersion(cmd, args, re);
    if (v) software.unshift({ name, version: v });
  }
  software.push({ name: 'TODO: each other program that mattered (app server, proxy, database, Rails…)', version: 'TODO: its exact version, or "not stated"' });
  return {
    $schema: SCHEMA_REF,
    format: FORMAT,
    id,
    title: 'TODO: what was measured, on what (e.g. "Puma 6: threads vs processes, hello-world Rails 7.1 app")',
    topic: topic || `TODO: one of: ${list(vocabulary.topics)}`,
    year,
    summary: 'TODO: one sentence saying what the data shows',
    source: {
      document: 'TODO: title of the post, report or thesis; for your own measurement e.g. "Own measurement for Scaling Rails"',
      author: author || 'TODO: who measured (name or handle)',
      location: 'TODO: table, figure or section in the document; for your own measurement the raw output file',
      raw_output: `TODO: raw-output/${id}/<file> (commit the unedited tool output there) or a URL to it`,
    },
    measured: 'TODO: what was measured, in a sentence or two (which requests or code, which metric)',
    hardware: hardwareText(machine),
    software,
    method: {
      tool: tool || `TODO: one of: ${list(vocabulary.tools)}`,
      description: 'TODO: the exact command line(s) and how the system under test was set up',
      requests: null,
      concurrency: null,
      duration_s: null,
      runs: null,
      aggregation: `TODO: one of: ${list(vocabulary.aggregations)}`,
      warmup: 'TODO: what warm-up was done before measuring, or "none"',
    },
    columns: [
      { key: 'label', label: 'TODO: heading of the first column (what each row is, e.g. "Threads")', type: 'string' },
      { key: 'value', label: 'TODO: heading of the measured value (e.g. "Requests per second")', type: 'number', unit: `TODO: one of: ${list(vocabulary.units)}` },
    ],
    rows: [
      ['TODO: one row per measurement; write numbers exactly as the tool printed them', null],
    ],
    failures: {
      markers: [],
      meaning: 'TODO: how failed runs appear (declare markers such as "FAIL" and put them in value cells), or "no failures"',
    },
    errata: [],
    caveats: ['TODO: what limits the numbers (client and server on one machine, a single run, …); delete this entry if nothing does'],
    attribution: 'TODO: how to credit the measurement (e.g. "Measured by Jane Doe for Scaling Rails")',
    license: 'CC-BY-4.0',
    charts: [
      {
        id: 'main',
        title: 'TODO: chart title',
        caption: 'TODO: what to read from the chart',
        alt: 'TODO: the chart\'s finding in words, for readers who cannot see it',
        spec: {
          width: 480,
          mark: { type: 'bar' },
          encoding: {
            y: { field: 'label', type: 'nominal', sort: null, title: 'TODO: axis title' },
            x: { field: 'value', type: 'quantitative', title: 'TODO: axis title with unit' },
          },
        },
      },
    ],
  };
}

export async function main(argv) {
  if (!argv.length || argv.includes('-h') || argv.includes('--help')) { console.log(HELP); return argv.length ? 0 : 2; }
  const opts = { force: false };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--force') opts.force = true;
    else if (a === '--topic' || a === '--tool' || a === '--root') { if (argv[i + 1] === undefined) throw new Error(`${a} needs a value`); opts[a.slice(2)] = argv[++i]; }
    else if (/^--(topic|tool|root)=/.test(a)) { const [k, v] = a.slice(2).split(/=(.*)/s); opts[k] = v; }
    else if (a.startsWith('--')) throw new Error(`unknown option ${a} (see --help)`);
    else rest.push(a);
  }
  const id = rest[0];
  if (!id || rest.length > 1) throw new Error('give exactly one dataset id, e.g. scripts/new-dataset puma-threads-hello-2026');
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id)) throw new Error(`"${id}" is not a valid id: use lowercase letters, digits and single hyphens`);
  const root = opts.root || ROOT;
  const vocabulary = JSON.parse(readFileSync(join(root, '_data/vocabulary.json'), 'utf8'));
  if (opts.topic && !(opts.topic in vocabulary.topics)) throw new Error(`unknown topic "${opts.topic}"; use one of: ${Object.keys(vocabulary.topics).join(', ')}`);
  if (opts.tool && !(opts.tool in vocabulary.tools)) throw new Error(`unknown tool "${opts.tool}"; use one of: ${Object.keys(vocabulary.tools).join(', ')}`);
  const file = join(root, '_data/datasets', `${id}.json`);
  if (existsSync(file) && !opts.force) throw new Error(`${relative(process.cwd(), file)} already exists (use --force to overwrite)`);
  mkdirSync(join(root, '_data/datasets'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(scaffold({ id, topic: opts.topic, tool: opts.tool, vocabulary }), null, 2)}\n`);
  const rel = relative(process.cwd(), file);
  console.log(`wrote ${rel}
Next: replace every "TODO: …" (scripts/validate ${rel} lists them with line numbers),
add your rows and columns, commit the raw tool output under raw-output/${id}/, and open a pull request.
Have ab, wrk, hyperfine, benchmark-ips or httperf output? scripts/import --tool TOOL --id ${id} --force FILE fills most of this in.`);
  return 0;
}
