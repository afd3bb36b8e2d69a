// The run order of scripts/rebench: rounds in which every configuration runs once, a seeded shuffle that
// repeats with the same seed, one invocation per place per round; and the experiment definitions' shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawPlan, batches, rawName } from '../../scripts/lib/rebench/plan.mjs';
import { EXPERIMENTS } from '../../scripts/lib/rebench/experiments/index.mjs';

const cells = [
  { id: 'a', host: true, measurements: [{ id: 'x' }, { id: 'y' }] },
  { id: 'b', host: true, measurements: [{ id: 'x' }, { id: 'y' }] },
  { id: 'c', ruby: '3.3', measurements: [{ id: 'x' }, { id: 'y' }] },
  { id: 'd', ruby: '3.3', measurements: [{ id: 'x' }, { id: 'y' }] },
];

test('every cell once per round, places grouped, same seed same order', () => {
  const plan = drawPlan(cells, 5, 99);
  assert.equal(plan.length, 20);
  for (let r = 1; r <= 5; r += 1) assert.deepEqual(plan.filter((e) => e.run === r).map((e) => e.cell).sort(), ['a', 'b', 'c', 'd']);
  assert.deepEqual(plan.map((e) => e.idx), plan.map((_, i) => i + 1));
  assert.deepEqual(drawPlan(cells, 5, 99), plan, 'repeatable from the seed');
  assert.notDeepEqual(drawPlan(cells, 5, 100).map((e) => e.cell), plan.map((e) => e.cell), 'another seed, another order');
  // Two places per round → at most 2 invocations per round.
  const bs = batches(plan);
  assert.ok(bs.length <= 10 && bs.length >= 5, `${bs.length} batches`);
  for (const b of bs) assert.ok(b.entries.every((e) => e.place === b.place));
  // The measurement order inside a cell is shuffled too, and complete.
  for (const e of plan) assert.deepEqual([...e.measurements].sort(), ['x', 'y']);
  assert.ok(plan.some((e) => e.measurements[0] === 'y') && plan.some((e) => e.measurements[0] === 'x'));
  assert.equal(rawName(plan[0], 'x'), `001-${plan[0].cell}-r1-x`);
});

test('experiments: unique dataset ids starting rebench-2026-, quick is a subset of full', () => {
  const ids = EXPERIMENTS.flatMap((e) => e.datasetIds());
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(ids.length >= 7);
  for (const id of ids) assert.match(id, /^rebench-2026-[a-z0-9-]+$/);
  for (const e of EXPERIMENTS) {
    const full = e.cells(e.full);
    const quick = e.cells(e.quick);
    const m = (cs) => cs.reduce((s, c) => s + c.measurements.length, 0);
    assert.ok(m(quick) >= 2 && quick.length <= full.length, `${e.name}: quick compares at least two configurations`);
    assert.ok(m(quick) <= m(full));
    assert.ok((e.quick.params.RB_DURATION_S ?? 0) <= (e.full.params.RB_DURATION_S ?? 0));
    // Letters, digits, dot, hyphen and underscore: safe in file names and shell words (raw-output/ID/NNN-CELL-rR-…).
    for (const c of full) assert.match(c.id, /^[a-z0-9._-]+$/, `${e.name}: cell id ${c.id} is safe in file names`);
  }
});
