// scripts/validate [FILE…]: check datasets and print one line per problem,
//   path:line: field: what is wrong — fix: what to do
// With no FILE it checks the datasets changed against origin/main (or HEAD), including new
// untracked files, and falls back to every dataset when nothing changed.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, resolve, relative, basename } from 'node:path';
import { validateFiles, formatProblem, datasetFiles, DATASET_DIR } from '../dataset-validate.mjs';
import { chartRenderProblems } from './render-check.mjs';
import { parseJsonPositions, positionOf } from '../json-lines.mjs';
import { chartIncludeProblems, pageFiles } from '../chart-includes.mjs';
import { DATASET_LIMITS } from '../dataset-limits.mjs';
import { checkRawOutput } from '../raw-output.mjs';
import { committedSymlinks } from '../source-symlinks.mjs';

// The text of a dataset file, or an error for one past the size limit (reported by the format check).
function readDataset(file) {
  if (statSync(file).size > DATASET_LIMITS.bytes) throw new Error('too large');
  return readFileSync(file, 'utf8');
}

const ROOT = new URL('../../../', import.meta.url).pathname;
const REL_DIR = '_data/datasets';

function git(args, root = ROOT) {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch { return null; }
}

// The commit to compare with: the pull request's base branch on CI, else origin/main, else HEAD.
export function baseRef(root = ROOT) {
  const candidates = [process.env.GITHUB_BASE_REF && `origin/${process.env.GITHUB_BASE_REF}`, 'origin/main', 'HEAD'].filter(Boolean);
  for (const ref of candidates) {
    if (git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root) === null) continue;
    if (ref === 'HEAD') return 'HEAD';
    return git(['merge-base', 'HEAD', ref], root) || ref;
  }
  return null;
}

export function changedDatasets(root = ROOT) {
  const base = baseRef(root);
  const names = new Set();
  if (base) for (const f of (git(['diff', '--name-only', '--diff-filter=ACMR', base, '--', REL_DIR], root) || '').split('\n')) if (f) names.add(f);
  for (const f of (git(['ls-files', '--others', '--exclude-standard', '--', REL_DIR], root) || '').split('\n')) if (f) names.add(f);
  return [...names].filter((f) => f.endsWith('.json') && existsSync(join(root, f))).sort().map((f) => join(root, f));
}

// Checks the importer adds on top of the format: raw output that the dataset says is in the repository must be there.
function rawOutputProblems(file) {
  // Only a file the format check can read (size, depth, JSON) gets here; anything else is already reported.
  let data;
  let positions;
  try { ({ value: data, positions } = parseJsonPositions(readDataset(file))); } catch { return []; }
  const raw = data?.source?.raw_output;
  if (typeof raw !== 'string' || /^https?:\/\//.test(raw)) return [];
  const at = positionOf(positions, '/source/raw_output');
  return raw.split(/,\s*/).filter((p) => p.startsWith('raw-output/') && !existsSync(join(ROOT, p))).map((p) => ({
    file, ...at, field: '/source/raw_output', message: `raw output "${p}" is not in the repository`,
    fix: `add ${p} to your pull request (scripts/import copies it there) or point raw_output at a URL`,
  }));
}

// Chart includes in articles and pages must name charts that exist (after this change).
function includeProblems(files) {
  const byId = new Map();
  for (const f of [...datasetFiles(DATASET_DIR), ...files]) {
    try { byId.set(basename(f, '.json'), JSON.parse(readDataset(f))); } catch { /* reported by the dataset check */ }
  }
  return chartIncludeProblems(pageFiles(ROOT), [...byId.entries()].map(([id, d]) => ({ id, charts: Array.isArray(d?.charts) ? d.charts : [] })));
}

const HELP = `Usage: scripts/validate [--all] [FILE…]

Checks dataset files against schemas/dataset-1.schema.json and the rules the schema cannot
express, every chart include in the site's pages, and raw-output/ (plain-data files only), and
prints one line per problem:
  file:line:column: field: problem — fix: what to do
Without FILE: the datasets changed against origin/main (or HEAD), plus new untracked ones;
every dataset when none changed. --all: every dataset. Exit status 1 when there are problems.`;

export async function main(argv) {
  if (argv.includes('-h') || argv.includes('--help')) { console.log(HELP); return 0; }
  const all = argv.includes('--all');
  let files = argv.filter((a) => !a.startsWith('--')).map((f) => resolve(f));
  let scope;
  if (files.length) scope = 'given';
  else if (!all && (files = changedDatasets()).length) scope = 'changed';
  else { files = datasetFiles(DATASET_DIR); scope = 'all'; }
  for (const f of files) if (!existsSync(f)) throw new Error(`no such file: ${f}`);
  const t0 = Date.now();
  const problems = [...validateFiles(files), ...files.flatMap(rawOutputProblems), ...includeProblems(files)];
  // raw-output/ as a whole (cheap): anything but plain data there stops the build, so it is reported here too.
  const raw = [...checkRawOutput(ROOT).problems, ...committedSymlinks(ROOT)].map((p) => ({ file: join(ROOT, p.file), line: 1, column: 1, field: p.field || 'raw-output', message: p.reason, fix: p.fix }));
  problems.push(...raw);
  // Charts of otherwise valid files are rendered as the build renders them.
  for (const f of files) if (!problems.some((p) => p.file === f)) problems.push(...await chartRenderProblems(f, readFileSync(f, 'utf8')));
  const rel = (p) => relative(process.cwd(), p) || basename(p);
  for (const p of problems) console.log(formatProblem({ ...p, file: rel(p.file) }, '\0'));
  // On GitHub Actions also emit annotations, so each problem shows on the changed line of the pull request.
  if (process.env.GITHUB_ACTIONS === 'true') {
    const esc = (s) => String(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
    const escProp = (s) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
    for (const p of problems) console.log(`::error file=${escProp(relative(ROOT, p.file))},line=${p.line},col=${p.column ?? 1},title=${escProp(p.field)}::${esc(`${p.message} — fix: ${p.fix}`)}`);
  }
  const bad = new Set(problems.filter((p) => !raw.includes(p)).map((p) => p.file)).size;
  const what = scope === 'changed' ? 'changed dataset(s)' : scope === 'all' ? 'dataset(s) (all)' : 'dataset(s)';
  const ms = Date.now() - t0;
  if (problems.length) {
    console.log(`\n${problems.length} problem(s) in ${bad} of ${files.length} ${what}${raw.length ? ` and ${raw.length} in raw-output/` : ''} (${ms} ms). Nothing with problems is published.`);
    return 1;
  }
  console.log(`ok: ${files.length} ${what} valid${scope === 'changed' ? `: ${files.map(rel).join(', ')}` : ''} (${ms} ms)`);
  return 0;
}
