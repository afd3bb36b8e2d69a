// Memory gets the same verdict rules as the primary figure: the whole-server PSS peak of each good run compared
// with the baseline's (stats.mjs compare: percentile bootstrap interval of the ratio of medians and a Mann-Whitney
// test, both at 0.05; lower is better), as columns after a summaryRows table and a summary sentence from the same
// wording as the primary verdict. Failed runs are left out: their memory is not a reading of a working server.
import { compare, spread, METHOD_TEXT } from './stats.mjs';
import { minGoodRuns } from './protocol.mjs';
import { verdictSentence } from './experiments/common.mjs';

const r = (v, d) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 10 ** d) / 10 ** d);

/** The keys this module adds, in order (scripts/lib/rebench/backfill.mjs copies exactly these). */
export const PSS_KEYS = ['pss_runs', 'pss_min_mib', 'pss_max_mib', 'pss_ratio', 'pss_ci_low', 'pss_ci_high', 'pss_p_value', 'pss_verdict'];

export function pssColumns() {
  return [
    { key: 'pss_runs', label: 'PSS: runs with a reading', type: 'integer', unit: 'count', description: 'Good runs whose PSS sampler recorded the server tree (failed runs are left out).' },
    { key: 'pss_min_mib', label: 'PSS, whole server (lowest run peak)', type: 'number', unit: 'MiB', decimals: 1 },
    { key: 'pss_max_mib', label: 'PSS, whole server (highest run peak)', type: 'number', unit: 'MiB', decimals: 1 },
    { key: 'pss_ratio', label: 'PSS: ratio of medians', type: 'number', unit: 'ratio', decimals: 3, description: 'Median whole-server PSS peak of this configuration divided by the baseline\'s; below 1 uses less memory.' },
    { key: 'pss_ci_low', label: 'PSS: 95% CI low', type: 'number', unit: 'ratio', decimals: 3, description: 'Percentile bootstrap interval of the PSS ratio of medians.' },
    { key: 'pss_ci_high', label: 'PSS: 95% CI high', type: 'number', unit: 'ratio', decimals: 3 },
    { key: 'pss_p_value', label: 'PSS: Mann-Whitney p', type: 'number', unit: 'ratio', decimals: 4 },
    { key: 'pss_verdict', label: 'PSS verdict (lower is better)', type: 'string', description: `Whole-server PSS against the same baseline as the verdict column, lower is better. ${METHOD_TEXT}` },
  ];
}

/** The PSS peaks (MiB) of a group's good runs. */
export const pssPeaks = (group) => group.results
  .filter((x) => !x.metrics.error && x.memory && Number.isFinite(x.memory.peak_total_mib))
  .map((x) => x.memory.peak_total_mib);

/**
 * PSS comparison of every summaryRows record with its baseline. Returns { columns, rows, sentence }: the table
 * with PSS_KEYS appended, and a summary sentence (verdictSentence's rules: a lowest median is named only where a
 * verdict backs it). spec: the summaryRows spec (its labels); nameOf(record) names a row in the sentence.
 */
export function addPssVerdict({ columns, rows, records }, ctx, spec, nameOf) {
  const pseudo = records.map((rec) => {
    const peaks = pssPeaks(rec.group);
    const s = spread(peaks);
    const isBase = rec.baseGroup === rec.group;
    const cmp = rec.baseGroup && !isBase
      ? compare(pssPeaks(rec.baseGroup), peaks, { higherIsBetter: false, seed: ctx.seed, minRuns: minGoodRuns(ctx.runs) })
      : null;
    const values = [
      peaks.length, r(s.min, 1), r(s.max, 1),
      cmp ? r(cmp.ratio, 3) : isBase ? 1 : null,
      cmp ? r(cmp.ci_low, 3) : null,
      cmp ? r(cmp.ci_high, 3) : null,
      cmp ? r(cmp.p, 4) : null,
      cmp ? cmp.verdict : isBase ? 'baseline' : 'not compared',
    ];
    const labels = rec.row.slice(0, spec.labels.length);
    return { values, record: { ...rec, row: [...labels, peaks.length, r(s.median, 1)], cmp, values: peaks } };
  });
  const sentence = verdictSentence(pseudo.map((p) => p.record), { labels: spec.labels, primary: 'pss_mib' }, 'whole-server PSS', nameOf);
  return {
    columns: [...columns, ...pssColumns()],
    rows: rows.map((row, i) => [...row, ...pseudo[i].values]),
    sentence,
  };
}
