// Words a sentence may use about a measured comparison, checked against the dataset's verdict and
// quality grade. Used by verdicts.test.mjs; run directly to list what fails.
//
// A unit (paragraph or list item) that links or includes a graded dataset is checked sentence by
// sentence against the words below. The grade is the dataset's `quality.grade` (or `grade`); a
// `rebench-2026-*` dataset without one is `smoke` (the re-measurement issue grades them all smoke
// until the re-run, see gradeOf). A smoke dataset allows no verdict word at all. Any other grade
// allows "faster/better/slower/worse…" only if some row's verdict is better or worse, and "within
// the noise / no measurable difference…" only if some row's verdict is "within noise".
import { units } from './numbers-lib.mjs';
import { unitDatasets, withoutQuotes } from './cells-lib.mjs';

/** The dataset's quality grade, or null when it has none and is not a 2026 re-measurement. */
export function gradeOf(d) {
  const g = d?.quality?.grade ?? d?.grade ?? (typeof d?.quality === 'string' ? d.quality : null);
  if (g) return String(g);
  return /^rebench-2026-/.test(d?.id || '') ? 'smoke' : null;
}

// A difference in a direction: needs a better/worse verdict.
const DIRECTION = /\b(faster|slower|quicker|outperform\w*|beat(?:s|ing)?\b|wins?\b|won\b|lost\b|loses\b|ahead\b|behind\b|came out|better|worse|improv\w*|regress\w*|speed-?ups?|slow(?:s|ed)? (?:it |them )?down|peak(?:s|ed)?\b|doubl(?:e|ed|es|ing)\b|halv(?:e|ed|es|ing)\b|(?:cost|gain)(?:s|ed)? (?:\w+ )?throughput|significant\w*|clearly|beyond the noise)/i;
// No difference: needs a within-noise verdict.
const NONE = /\b(within (?:the )?noise|no measurable|not measurabl\w*|neither cost nor gain\w*|no difference|evenly matched|tied|stayed level|made no difference|same speed)/i;

export const sentences = (text) => text.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z*[{(])/);

/** Verdict words in a unit that its graded datasets do not allow: [{where, dataset, grade, words}] */
export function verdictProblems(p, datasets) {
  const out = [];
  const check = (where, md) => {
    const graded = unitDatasets(md).map((id) => datasets.get(id)).filter((d) => d && gradeOf(d));
    if (!graded.length) return;
    // Liquid renders numbers and the grade sentence; the words checked are the article's own.
    const prose = withoutQuotes(md).replace(/\{%[\s\S]*?%\}|\{\{[\s\S]*?\}\}/g, ' ').replace(/`[^`]*`/g, ' ').replace(/\]\([^)]*\)/g, ']');
    for (const s of sentences(prose)) {
      const dir = s.match(DIRECTION); const none = s.match(NONE);
      if (!dir && !none) continue;
      for (const d of graded) {
        const grade = gradeOf(d);
        const vi = d.columns.findIndex((c) => c.key === 'verdict');
        const verdicts = new Set(vi < 0 ? [] : d.rows.map((r) => r[vi]));
        let bad = null;
        if (grade === 'smoke') bad = (dir || none)[0];
        else if (dir && !verdicts.has('better') && !verdicts.has('worse')) bad = dir[0];
        else if (none && !verdicts.has('within noise')) bad = none[0];
        if (bad) out.push({ where, dataset: d.id, grade, words: bad, sentence: s.trim().slice(0, 160) });
      }
    }
  };
  for (const u of units(p.body, p.bodyLine)) check(`${p.file}:${u.line}`, u.text);
  (p.data.do_now || []).forEach((it, i) => check(`${p.file}: do_now[${i}]`, `${it.href || ''} ${it.action || ''}`));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadPosts, loadDatasets } = await import('./lib.mjs');
  const datasets = loadDatasets();
  let n = 0;
  for (const p of loadPosts()) for (const x of verdictProblems(p, datasets)) { n++; console.log(`${x.where}: "${x.words}" about ${x.dataset} (grade ${x.grade}): ${x.sentence}`); }
  console.log(`${n} problem(s)`);
}
