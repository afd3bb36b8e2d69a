// The claims ledger (_data/claims.yml) stays in step with the articles: every entry quotes its
// article verbatim (whitespace aside), names what it was checked against (a dataset that exists, or a
// source), says what the check found and has a known status; every part has entries. An edited
// sentence therefore fails here until its entry is re-checked and updated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { ROOT, loadPosts, loadDatasets } from './lib.mjs';

const ledger = yaml.load(readFileSync(join(ROOT, '_data/claims.yml'), 'utf8'));
const posts = new Map(loadPosts().map((p) => [p.slug, p]));
const datasets = loadDatasets();
const STATUS = new Set(['confirmed', 'corrected', 'no-conclusion', 'documented']);
const norm = (s) => String(s).replace(/\s+/g, ' ').trim();

export function ledgerProblems(entries, postsBySlug, known) {
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
  });
  return out;
}

test('every ledger entry quotes its article, names its evidence and has a result', () => {
  assert.deepEqual(ledgerProblems(ledger, posts, datasets), []);
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
