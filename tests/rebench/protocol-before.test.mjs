// Raw output measured before the protocol existed (its recorded parameters carry none of the protocol's keys) is
// version 0 when a dataset is rebuilt from it: graded after the fact under today's rules, without today's probe
// or steadiness records, and smoke for want of a host-speed probe. Only a run with no parameters recorded (one
// being measured now) takes today's version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../tools/util.mjs';
import { protocolVersionOf, PROTOCOL, PROTOCOL_NAME, driverParams } from '../../scripts/lib/rebench/protocol.mjs';
import { rebuildFromRaw } from '../../scripts/lib/rebench/runner.mjs';
import { byName } from '../../scripts/lib/rebench/experiments/index.mjs';

test('the version a run was measured under, from its recorded parameters', () => {
  assert.equal(protocolVersionOf(undefined), PROTOCOL.version, 'no parameters yet: a run being measured now');
  assert.equal(protocolVersionOf(driverParams({ quick: false })), PROTOCOL.version, 'today\'s driver records today\'s version');
  assert.equal(protocolVersionOf({ RB_PROTOCOL_VERSION: 4, RB_DISTURB_MAX_INTERVAL: 25 }), 4);
  assert.equal(protocolVersionOf({ RB_DISTURB_MAX_FOREIGN: 10, RB_DISTURB_MAX_INTERVAL: 25 }), 2);
  assert.equal(protocolVersionOf({ RB_DISTURB_MAX_FOREIGN: 10 }), 1);
  assert.equal(protocolVersionOf({ RB_WORKERS: 2, RB_DURATION_S: 3 }), 0, 'parameters without a protocol key: before the protocol');
  assert.equal(protocolVersionOf({}), 0);
});

test('a dataset measured before the protocol, rebuilt from its published raw output, claims none of today\'s records', () => {
  const raw = path.join(ROOT, 'raw-output/rebench-2026-app-servers');
  const prov = JSON.parse(fs.readFileSync(path.join(raw, 'provenance.json'), 'utf8'));
  assert.equal(protocolVersionOf(prov.parameters), 0, 'the published experiment predates the protocol');
  const published = JSON.parse(fs.readFileSync(path.join(ROOT, '_data/datasets/rebench-2026-app-servers.json'), 'utf8')).quality;
  const { datasets: [rebuilt] } = rebuildFromRaw(byName('appservers'), raw);
  const q = rebuilt.quality;
  assert.equal(q.protocol, `${PROTOCOL_NAME}, graded after the fact from the run's own records (the runs predate the protocol)`);
  // Version 6's records are for runs measured under it: none here, and no reason about a missing steadiness record.
  assert.equal(q.host_speed_probe, undefined);
  assert.equal(q.steadiness, undefined);
  assert.equal(q.repeats, undefined, 'no driver counted repeats');
  assert.ok(!q.reasons.some((r) => /steadiness/.test(r)), q.reasons.join(' | '));
  // Every reason it was graded smoke for still holds, and the load runs also predate the host-speed probe.
  assert.equal(q.grade, 'smoke');
  for (const r of published.reasons) assert.ok(q.reasons.includes(r), r);
  assert.ok(q.reasons.includes('measured before the protocol, before the host-speed probe: a host that ran this machine slow during a run (invisible to the load average and steal) cannot be ruled out for its 90 load runs'), q.reasons.join(' | '));
  assert.deepEqual(q.foreign_load, published.foreign_load);
});
