// The claims ledger (_data/claims.yml) stays in step with the articles: every entry quotes its
// article verbatim (whitespace aside), names what it was checked against (a dataset that exists, or a
// source), says what the check found and has a known status; every part has entries. An edited
// sentence therefore fails here until its entry is re-checked and updated. An entry checked against a
// dataset may also say what must stay true of it (`holds`: a cell and the value it had when the claim was
// checked), so a re-measured or rebuilt dataset fails here too until the claim is re-read against it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { ROOT, loadPosts, loadDatasets } from './lib.mjs';
import { rowsNamed } from './cells-lib.mjs';

const ledger = yaml.load(readFileSync(join(ROOT, '_data/claims.yml'), 'utf8'));
const posts = new Map(loadPosts().map((p) => [p.slug, p]));
const datasets = loadDatasets();
const STATUS = new Set(['confirmed', 'corrected', 'no-conclusion', 'documented']);
const norm = (s) => String(s).replace(/\s+/g, ' ').trim();

// How a `holds` entry compares the cell with the value recorded when the claim was checked.
const COMPARE = {
  is: (v, x) => v === x,
  at_least: (v, x) => typeof v === 'number' && v >= x,
  at_most: (v, x) => typeof v === 'number' && v <= x,
  one_of: (v, x) => Array.isArray(x) && x.includes(v),
};

/** Problems with an entry's `holds` list against the datasets (a Map of id → dataset). */
export function holdsProblems(at, holds, byId) {
  const out = [];
  if (holds === undefined) return out;
  if (!Array.isArray(holds)) return [`${at}: holds must be a list`];
  for (const h of holds) {
    const d = byId.get(h?.dataset);
    const ops = Object.keys(COMPARE).filter((k) => h && k in h);
    if (!d) { out.push(`${at}: holds names no dataset "${h?.dataset}"`); continue; }
    if (ops.length !== 1) { out.push(`${at}: holds on ${h.dataset} needs exactly one of ${Object.keys(COMPARE).join(', ')}`); continue; }
    const rows = rowsNamed(d, h.row);
    const ci = d.columns.findIndex((c) => c.key === h.col);
    if (rows.length !== 1 || ci < 0) { out.push(`${at}: ${h.dataset} has no single row "${h.row}" with column "${h.col}"`); continue; }
    const v = rows[0][ci];
    if (!COMPARE[ops[0]](v, h[ops[0]])) out.push(`${at}: ${h.dataset} [${h.row}] ${h.col} is ${JSON.stringify(v)}, the claim was checked when it was ${ops[0]} ${JSON.stringify(h[ops[0]])}: re-read the claim against the dataset and update the entry`);
  }
  return out;
}

export function ledgerProblems(entries, postsBySlug, known, byId = new Map()) {
  const out = [];
  entries.forEach((c, i) => {
    const at = `claims[${i}] (${c.article})`;
    const p = postsBySlug.get(c.article);
    if (!p) { out.push(`${at}: no article "${c.article}"`); return; }
    if (!c.claim || norm(c.claim).length < 12) out.push(`${at}: quote a claim of at least a few words`);
    else if (!norm(p.text).includes(norm(c.claim))) out.push(`${at}: "${c.claim}" is not in ${p.file} (re-check the edited claim and update the ledger)`);
    if (!Array.isArray(c.checked) || !c.checked.length) out.push(`${at}: name the dataset(s) or source(s) it was checked against`);
    for (const s of c.checked || []) if (/^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(s) && !known.has(s)) out.push(`${at}: no dataset "${s}"`);
    if (!c.result || norm(c.result).length < 8) out.push(`${at}: say what the check found`);
    if (!STATUS.has(c.status)) out.push(`${at}: status "${c.status}" is not one of ${[...STATUS].join(', ')}`);
    out.push(...holdsProblems(at, c.holds, byId));
  });
  return out;
}

test('every ledger entry quotes its article, names its evidence and has a result', () => {
  assert.deepEqual(ledgerProblems(ledger, posts, datasets, datasets), []);
});

test('every part has entries in the ledger', () => {
  for (const slug of posts.keys()) {
    const n = ledger.filter((c) => c.article === slug).length;
    assert.ok(n >= 2, `${slug}: ${n} ledger entries`);
  }
});

test('the ledger check fails on a claim the article no longer makes', () => {
  const [slug, p] = [...posts.entries()][0];
  const fake = [{ article: slug, claim: 'a sentence this article has never contained', checked: ['thesis-nope-missing'], result: 'x', status: 'maybe' }];
  const bad = ledgerProblems(fake, new Map([[slug, p]]), datasets).join('\n');
  assert.match(bad, /is not in/);
  assert.match(bad, /no dataset "thesis-nope-missing"/);
  assert.match(bad, /say what the check found/);
  assert.match(bad, /status "maybe"/);
});

test('a claim checked against a dataset fails when the dataset no longer holds what was checked', () => {
  const id = 'rebench-2026-rails-patterns';
  const row = 'PostgreSQL 17 | One transaction per row (100 rows)';
  const d = datasets.get(id);
  const ok = [{ dataset: id, row, col: 'runs_ok', is: 4 }, { dataset: id, row, col: 'p50_ms_min', at_least: 1 }];
  assert.deepEqual(holdsProblems('x', ok, datasets), []);
  // The same dataset as it was before the failed runs were excluded: a zero minimum, five runs.
  const ci = d.columns.findIndex((c) => c.key === 'p50_ms_min');
  const before = { ...d, rows: d.rows.map((r) => (r[1] === 'One transaction per row (100 rows)' ? r.map((v, j) => (j === ci ? 0 : j === 2 ? 5 : v)) : r)) };
  const bad = holdsProblems('x', ok, new Map([[id, before]])).join('\n');
  assert.match(bad, /runs_ok is 5, the claim was checked when it was is 4/);
  assert.match(bad, /p50_ms_min is 0, the claim was checked when it was at_least 1/);
  assert.match(holdsProblems('x', [{ dataset: id, row: 'no such row', col: 'runs_ok', is: 1 }], datasets).join(), /no single row/);
  assert.match(holdsProblems('x', [{ dataset: id, row, col: 'runs_ok' }], datasets).join(), /exactly one of/);
});

test('every "Measured again in 2026" paragraph has a ledger entry quoting it', () => {
  const missing = [];
  for (const [slug, p] of posts) {
    for (const para of p.text.split(/\n\s*\n/)) {
      if (!/\{%-?\s*include\s+measured-2026\.html/.test(para)) continue;
      const quoted = ledger.some((c) => c.article === slug && norm(para).includes(norm(c.claim)));
      if (!quoted) missing.push(`${p.file}: ${norm(para).replace(/\{%[\s\S]*?%\}/g, '').trim().slice(0, 90)}…`);
    }
  }
  assert.deepEqual(missing, [], 'a 2026 paragraph whose claims no ledger entry has checked');
});
