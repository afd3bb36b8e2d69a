// The doctor on the corpus of public Rails apps (tests/fixtures/real-apps): every app is checked as the
// CLI would, and its warning-or-above findings are matched with the problems judged by hand in
// expected.json. Precision = findings at warning or above that match a judged problem; recall = judged
// problems found. Shared by tests/doctor/corpus.test.mjs and scripts/doctor-corpus.mjs (README table).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../../guide/engine/index.mjs'; // registers every generator, as the CLI does
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';

export const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'fixtures', 'real-apps');
const LEVELS = ['error', 'warning', 'note'];

export function loadExpected() {
  return JSON.parse(readFileSync(join(CORPUS, 'expected.json'), 'utf8'));
}

export function apps() {
  return readdirSync(CORPUS).filter((n) => statSync(join(CORPUS, n)).isDirectory()).sort();
}

/** One app: {app, report, counts, matched: [judged problem], missed, falsePositives, inputProblems, unexpectedProblems} */
export function runApp(app, judged) {
  const dir = join(CORPUS, app);
  const report = check(collect([dir], undefined, dir));
  const counts = Object.fromEntries(LEVELS.map((l) => [l, report.findings.filter((f) => f.severity === l).length]));
  const strong = report.findings.filter((f) => f.severity !== 'note');
  const problems = judged?.problems || [];
  const hit = (p, f) => f.rule === p.rule && f.file === p.file;
  const matched = problems.filter((p) => strong.some((f) => hit(p, f)));
  const falsePositives = strong.filter((f) => !problems.some((p) => hit(p, f)));
  const allowed = new Set((judged?.inputProblems || []).map((p) => `${p.code} ${p.file}`));
  const inputProblems = report.problems.map((p) => `${p.code} ${p.file}`);
  return {
    app, report, counts, strong: strong.length, judged: problems.length, matched, missed: problems.filter((p) => !matched.includes(p)),
    falsePositives, inputProblems, unexpectedProblems: inputProblems.filter((p) => !allowed.has(p)),
  };
}

export function runCorpus() {
  const expected = loadExpected();
  const rows = apps().map((a) => runApp(a, expected.apps[a]));
  const strong = rows.reduce((n, r) => n + r.strong, 0);
  const tp = strong - rows.reduce((n, r) => n + r.falsePositives.length, 0);
  const judged = rows.reduce((n, r) => n + r.judged, 0);
  const found = rows.reduce((n, r) => n + r.matched.length, 0);
  return {
    rows, expected, strong, tp, judged, found,
    precision: strong ? tp / strong : 1,
    recall: judged ? found / judged : 1,
  };
}

const pct = (x) => `${(x * 100).toFixed(0)} %`;

/** The README table: one row per app, then the totals, precision and recall. */
export function table(result) {
  const { rows, expected } = result;
  const lines = ['| app | shape | errors | warnings | notes | judged problems | found |', '|---|---|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    const src = JSON.parse(readFileSync(join(CORPUS, r.app, 'SOURCE.json'), 'utf8'));
    const name = src.repository.replace('https://github.com/', '');
    lines.push(`| [${name}](${src.repository}/tree/${src.commit.slice(0, 12)}) | ${expected.apps[r.app]?.shape ?? ''}${r.inputProblems.length ? ` (refused: ${r.inputProblems.join(', ')})` : ''} | ${r.counts.error} | ${r.counts.warning} | ${r.counts.note} | ${r.judged} | ${r.matched.length} |`);
  }
  const sum = (l) => rows.reduce((n, r) => n + r.counts[l], 0);
  lines.push(`| **${rows.length} apps** | | ${sum('error')} | ${sum('warning')} | ${sum('note')} | ${result.judged} | ${result.found} |`);
  lines.push('');
  lines.push(`Precision (warnings and errors that are judged problems): ${result.tp}/${result.strong} = ${pct(result.precision)}. Recall (judged problems found): ${result.found}/${result.judged} = ${pct(result.recall)}.`);
  return lines.join('\n');
}
