// scripts/rebench --no-wait, for a machine known to be busy: the idle gate is still measured before every run, but
// nothing waits for it and no disturbed run is repeated; such a dataset can never grade better than smoke.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { driverParams, gradeRun, PROTOCOL } from '../../scripts/lib/rebench/protocol.mjs';

test('--no-wait keeps the gate window but neither waits nor repeats; a full run keeps the protocol\'s limits', () => {
  const full = driverParams({ quick: false });
  assert.equal(full.RB_GATE_MAX_WAIT_S, PROTOCOL.idle_gate.max_wait_s);
  assert.equal(full.RB_TRIES, PROTOCOL.disturbance.tries);
  const busy = driverParams({ quick: false, noWait: true });
  assert.equal(busy.RB_GATE_WINDOW_S, PROTOCOL.idle_gate.window_s, 'the gate is still measured and recorded');
  assert.equal(busy.RB_GATE_MAX_WAIT_S, 0);
  assert.equal(busy.RB_TRIES, 1);
});

test('a --no-wait dataset is smoke and says why, even when every run met the gate', () => {
  const protocol = { foreign_pct: 2, steal_pct: 0, gate_ok: 1, disturbed: 0, tries: 1, load1: 0.5 };
  const results = Array.from({ length: PROTOCOL.runs.min_runs }, () => ({ metrics: { cpu_ms: 10 }, protocol, load: '0.5 0.4 0.3 -> 0.5 0.4 0.3' }));
  const ctx = { quick: false, runs: PROTOCOL.runs.min_runs, params: {}, results, raw: null, load: { before: [0.5], after: [0.5] } };
  assert.ok(!gradeRun(ctx).reasons.some((r) => /--no-wait/.test(r)));
  const graded = gradeRun({ ...ctx, noWait: true });
  assert.equal(graded.grade, 'smoke');
  assert.ok(graded.reasons.some((r) => /--no-wait: the idle gate was recorded before every run but nothing waited/.test(r)));
});
