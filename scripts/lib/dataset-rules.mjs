// Small rules of the dataset validator that need their own data: spelling suggestions,
// licence identifiers and chart widths. Kept apart so dataset-validate.mjs reads as a list of checks.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const PROTOCOL = require('../../_data/measurement_protocol.json');
const parseSpdx = require('spdx-expression-parse');
const SPDX_IDS = require('spdx-license-ids');

// The plot area may be this wide: the text column is 44rem (704 px) and axes, titles and
// legends take the rest. Wider charts are scaled down and their text becomes too small to read.
export const MAX_CHART_WIDTH = 560;

// Third-party figures are not ours to licence: they keep their source's terms, and we quote
// them for commentary. This statement is the one non-SPDX value a dataset may carry.
export const QUOTED_LICENSE = 'Quoted for commentary from the cited source; © the author';

// Edits between two words, a swap of neighbours counting as one ("rsp" → "rps").
function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

// Common spellings of vocabulary words that are not typos of them.
const ALIASES = {
  rps: 'req/s', 'requests/s': 'req/s', 'req/sec': 'req/s', 'requests/sec': 'req/s', ips: 'iter/s', 'i/s': 'iter/s',
  sec: 's', seconds: 's', msec: 'ms', millis: 'ms', 'µs': 'us', 'μs': 'us', usec: 'us', bytes: 'B', percent: '%',
  average: 'mean', avg: 'mean', best: 'best of n', 'apache-bench': 'ab', apachebench: 'ab', unicorn: 'app-server', puma: 'app-server', nginx: 'proxy',
};

export function didYouMean(word, allowed) {
  if (typeof word !== 'string' || !word) return null;
  const alias = ALIASES[word.toLowerCase()];
  if (alias && allowed.includes(alias)) return alias;
  const norm = (s) => s.toLowerCase().replace(/[\s_\-/.]+/g, '');
  const w = norm(word);
  let best = null;
  let bestD = Infinity;
  for (const a of allowed) {
    const d = distance(w, norm(a));
    if (d < bestD) { best = a; bestD = d; }
  }
  return best !== null && best !== word && bestD <= Math.max(1, Math.floor(w.length / 3)) ? best : null;
}

// null when the licence is an SPDX expression (MIT, CC-BY-4.0, CC0-1.0 OR MIT, LicenseRef-…) or
// the statement for quoted third-party figures; otherwise { message, fix }.
export function licenseProblem(license) {
  if (license === QUOTED_LICENSE) return null;
  try {
    parseSpdx(license);
    return null;
  } catch {
    const squashed = String(license).trim().replace(/\s+/g, '-');
    const exact = SPDX_IDS.find((id) => id.toLowerCase() === squashed.toLowerCase());
    const guess = exact || didYouMean(squashed, SPDX_IDS);
    return {
      message: `licence "${license}" is not an SPDX licence identifier`,
      fix: `${guess ? `did you mean "${guess}"? ` : ''}use an id from https://spdx.org/licenses/ (your own measurements: "CC-BY-4.0"), or for figures quoted from someone else's publication exactly "${QUOTED_LICENSE}"`,
    };
  }
}

// Every plot width a Vega-Lite spec asks for, as { pointer, value }: a view's own width, and
// for side-by-side views (hconcat) the sum of theirs. Mark properties named width (bar width) are not views.
export function chartWidths(spec, pointer = '') {
  const out = [];
  if (!spec || typeof spec !== 'object') return out;
  if (typeof spec.width === 'number') out.push({ pointer: `${pointer}/width`, value: spec.width });
  for (const key of ['layer', 'vconcat', 'concat']) {
    (Array.isArray(spec[key]) ? spec[key] : []).forEach((s, i) => out.push(...chartWidths(s, `${pointer}/${key}/${i}`)));
  }
  if (Array.isArray(spec.hconcat)) {
    const inner = spec.hconcat.map((s, i) => chartWidths(s, `${pointer}/hconcat/${i}`));
    inner.forEach((list) => out.push(...list));
    const total = inner.reduce((sum, list) => sum + Math.max(0, ...list.map((w) => w.value)), 0);
    if (spec.hconcat.length > 1 && total) out.push({ pointer: `${pointer}/hconcat`, value: total });
  }
  if (spec.spec) out.push(...chartWidths(spec.spec, `${pointer}/spec`));
  return out;
}

// A "benchmark" grade is a claim that the protocol held: the foreign load it records must be within the
// protocol's disturbance thresholds (_data/measurement_protocol.json), and the load must have been measured.
export function qualityProblems(data) {
  const q = data.quality;
  if (!q || q.grade !== 'benchmark') return [];
  const out = [];
  const f = q.foreign_load;
  const fix = 'grade it "smoke" and say why in quality.reasons, or re-measure under the protocol (scripts/rebench)';
  if (f.foreign_cpu_pct_max === null || f.foreign_cpu_pct_max === undefined) out.push({ pointer: '/quality/foreign_load', message: 'a benchmark grade without a measured foreign CPU load', fix });
  else if (f.foreign_cpu_pct_max > PROTOCOL.disturbance.max_foreign_cpu_pct) out.push({ pointer: '/quality/foreign_load/foreign_cpu_pct_max', message: `foreign CPU ${f.foreign_cpu_pct_max} % is above the protocol's ${PROTOCOL.disturbance.max_foreign_cpu_pct} % for a benchmark grade`, fix });
  if (f.steal_pct_max > PROTOCOL.disturbance.max_steal_pct) out.push({ pointer: '/quality/foreign_load/steal_pct_max', message: `CPU steal ${f.steal_pct_max} % is above the protocol's ${PROTOCOL.disturbance.max_steal_pct} % for a benchmark grade`, fix });
  if (f.steal_pct_cpu_max > PROTOCOL.disturbance.max_steal_pct) out.push({ pointer: '/quality/foreign_load/steal_pct_cpu_max', message: `CPU steal ${f.steal_pct_cpu_max} % on one CPU is above the protocol's ${PROTOCOL.disturbance.max_steal_pct} % for a benchmark grade`, fix });
  if (PROTOCOL.disturbance.max_interval_pct && f.worst_interval_pct_max > PROTOCOL.disturbance.max_interval_pct) out.push({ pointer: '/quality/foreign_load/worst_interval_pct_max', message: `a monitor interval with ${f.worst_interval_pct_max} % foreign CPU or steal is above the protocol's ${PROTOCOL.disturbance.max_interval_pct} % burst cap for a benchmark grade`, fix });
  // The driver's record of the tries it repeated and why (protocol version 4 on; the slow-host count from version 5):
  // without it, a run kept because its last try went well cannot be told from one that held the first time.
  if (!q.repeats) out.push({ pointer: '/quality', message: 'a benchmark grade without the record of repeated tries (quality.repeats: disturbed, unsteady and slow-host repeats per configuration, protocol version 4 on): a run repeated until it looked good cannot be ruled out', fix });
  // Version 6: the load runs' own steadiness is the check, so its record must be there (the probe's is not enough).
  const version = Number((/rebench-protocol@(\d+)/.exec(q.protocol || '') || [])[1]);
  if (version >= 6 && !q.steadiness) out.push({ pointer: '/quality', message: 'a benchmark grade under protocol version 6 without the steadiness record (quality.steadiness): unsteady load runs cannot be ruled out', fix });
  if (data.method && typeof data.method.runs === 'number' && data.method.runs < PROTOCOL.runs.min_runs) out.push({ pointer: '/method/runs', message: `${data.method.runs} runs per configuration is below the protocol's ${PROTOCOL.runs.min_runs} for a benchmark grade`, fix });
  return out;
}
