// The page's lazy generator registry (guide/ui/generators.mjs) against the engine's full one: the page fetches an
// optional generator only when generators/applies.mjs says the answers need it, so for every answer set of the
// sweep matrix the page's output must equal the command line's, starting from a page that has fetched nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';
import { generateWith } from '../../guide/engine/pipeline.mjs';
import { GENERATORS } from '../../guide/engine/generators/index.mjs';
import { ORDER } from '../../guide/engine/generators/order.mjs';
import { APPLIES } from '../../guide/engine/generators/applies.mjs';
import { buildMatrix } from './matrix.mjs';

const REGISTRY = new URL('../../guide/ui/generators.mjs', import.meta.url).href;
// A fresh module instance: a page that has loaded only its first-load generators.
let instance = 0;
const freshRegistry = () => import(`${REGISTRY}?page=${instance++}`);
const OPTIONS = { date: '2026-11-25', permalink: 'https://example.com/guide/' };

test('the engine registry follows order.mjs; the page registry holds every generator, eager or lazy', async () => {
  assert.deepEqual(GENERATORS.map((g) => g.id), ORDER);
  const page = await freshRegistry();
  const eager = page.current().map((g) => g.id);
  const lazy = Object.keys(page.LOADERS);
  assert.deepEqual([...eager, ...lazy].sort(), [...ORDER].sort(), 'eager + lazy = every generator, none twice');
  assert.deepEqual(lazy.sort(), Object.keys(APPLIES).sort(), 'every lazy generator has a predicate, and only those');
  assert.ok(eager.length >= 10 && lazy.length >= 10, `${eager.length} eager, ${lazy.length} lazy`);
});

test('default answers need no chunk', async () => {
  const page = await freshRegistry();
  assert.deepEqual(page.missingFor({}), []);
});

test('each lazy generator module is silent when its predicate is false (the guard is the predicate)', async () => {
  const page = await freshRegistry();
  await page.load();
  const byId = new Map(page.current().map((g) => [g.id, g]));
  const { derive } = await import('../../guide/engine/derive.mjs');
  const { parseAnswers } = await import('../../guide/engine/answers.mjs');
  let silent = 0;
  for (const answers of buildMatrix().slice(0, 200)) {
    const ctx = derive(parseAnswers(answers).answers, OPTIONS);
    for (const id of Object.keys(APPLIES)) {
      if (APPLIES[id](ctx)) continue;
      const out = byId.get(id).generate(ctx) || {};
      assert.deepEqual([out.files || [], out.advice || [], out.warnings || []].map((x) => x.length), [0, 0, 0], `${id} spoke for answers its predicate rejects`);
      silent++;
    }
  }
  assert.ok(silent > 1000, `${silent} silent calls checked`);
});

test('for every answer set of the sweep, the page (fetching only what the answers need) generates what the CLI does', async () => {
  const matrix = buildMatrix();
  const fetched = new Map();
  for (const answers of matrix) {
    const page = await freshRegistry();
    const missing = page.missingFor(answers);
    await page.load(missing);
    for (const id of missing) fetched.set(id, (fetched.get(id) || 0) + 1);
    const mine = generateWith(page.current(), answers, OPTIONS);
    const cli = generate(answers, OPTIONS);
    assert.deepEqual(mine, cli, `page and CLI differ for ${JSON.stringify(answers)}`);
  }
  // Every lazy generator was needed by some answer set, so each predicate was exercised both ways.
  assert.deepEqual([...fetched.keys()].sort(), Object.keys(APPLIES).sort(), JSON.stringify(Object.fromEntries(fetched)));
});
