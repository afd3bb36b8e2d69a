// A dataset's summary sentence names the best median only where a verdict backs it (issue 22 review: summaries
// named "the highest median" while every verdict said "within noise"). Records as summaryRows builds them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { verdictSentence } from '../../scripts/lib/rebench/experiments/common.mjs';

const spec = { labels: [{ key: 'c' }], primary: 'rps' };
const base = { id: 'base', results: [] };
// Ten good runs spread ±2 % around the median (summaryRows' records carry their readings as values; the runner-up
// test needs them).
const runsAround = (m) => Array.from({ length: 10 }, (_, i) => ({ metrics: { rps: m * (0.98 + 0.004 * i) } }));
const valuesOf = (results) => results.map((x) => x.metrics.rps);
const rec = (name, rps, verdict, group = { id: name }) => { const results = runsAround(rps); return { group: { ...group, results }, row: [name, 10, rps], cmp: verdict ? { verdict } : null, baseGroup: verdict ? base : null, values: valuesOf(results) }; };
const name = (r) => r.row[0];
const recBase = (rps) => { base.results = runsAround(rps); return { group: base, row: ['base', 10, rps], cmp: null, baseGroup: null, values: valuesOf(base.results) }; };

test('the best median is named only when it beat its baseline beyond the noise, or every rival fell behind it', () => {
  const noise = verdictSentence([recBase(100), rec('b', 104, 'within noise'), rec('c', 98, 'within noise')], spec, 'requests per second', name);
  assert.match(noise, /^The medians of requests per second ranged from 98 to 104 req\/s, and no configuration is ranked first/);
  assert.doesNotMatch(noise, /highest/);
  assert.match(noise, /0 came out better, 0 worse and 2 within the noise/);
  const better = verdictSentence([recBase(100), rec('b', 130, 'better'), rec('c', 98, 'within noise')], spec, 'requests per second', name);
  assert.match(better, /^b had the highest median requests per second \(130 req\/s\), a difference beyond the noise/);
  // The baseline itself leads: named only when every configuration compared with it came out worse.
  const lead = verdictSentence([recBase(140), rec('b', 100, 'worse'), rec('c', 90, 'worse')], spec, 'requests per second', name);
  assert.match(lead, /^base had the highest median/);
  const unclear = verdictSentence([recBase(140), rec('b', 100, 'worse'), rec('c', 138, 'within noise')], spec, 'requests per second', name);
  assert.match(unclear, /no configuration is ranked first/);
  // Beating a slow baseline is not enough: the best must also beat the runner-up directly (perf review, stop 32).
  const tie = verdictSentence([recBase(100), rec('b', 130, 'better'), rec('c', 129.5, 'better')], spec, 'requests per second', name);
  assert.match(tie, /no configuration is ranked first/, tie);
  assert.match(tie, /2 came out better/);
});
