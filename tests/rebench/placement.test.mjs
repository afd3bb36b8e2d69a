// A dataset's method and caveats come from what its run measured and recorded, never typed in: where the processes
// ran (the isolation record), and only the servers a --cells subset measured (a performance review found a pinned
// YJIT-only run saying "the same two cores" and explaining Unicorn and Falcon, neither of which it ran).
// The warm-up too: a method said "30 s of wrk (2 connections)" where the run warmed up until stable (v6 review).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXPERIMENTS } from '../../scripts/lib/rebench/experiments/index.mjs';
import { placementCaveat, warmupText } from '../../scripts/lib/rebench/experiments/common.mjs';
import { driverParams, protocolSize, PROTOCOL } from '../../scripts/lib/rebench/protocol.mjs';
import { ROOT } from '../tools/util.mjs';
import { drawPlan } from '../../scripts/lib/rebench/plan.mjs';

const appservers = EXPERIMENTS.find((e) => e.name === 'appservers');

function rawDir(t, isolation) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placement-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  if (isolation) fs.writeFileSync(path.join(dir, 'isolation-lab-3.4-yjit.txt'), `${isolation}\n`);
  return dir;
}

/** The app-servers datasets of a run of CELL_IDS with steady readings, over the raw directory RAW. */
function build(cellIds, raw, params = appservers.full.params) {
  const cells = appservers.cells(appservers.full).filter((c) => cellIds.includes(c.id));
  const plan = drawPlan(cells, 3, 1);
  const results = plan.flatMap((entry) => {
    const cell = cells.find((c) => c.id === entry.cell);
    return cell.measurements.map((m) => ({ entry, cell, measurement: m, metrics: { rps: 100 + entry.run, p50_ms: 10, p99_ms: 20, requests: 1000, errors: 0 }, memory: null, load: null, file: 'x.txt' }));
  });
  const ctx = {
    exp: appservers, quick: false, runs: 3, seed: 1, plan, cells, results, raw,
    machine: { cpu_model: 'Test CPU', logical_cpus: 2, ram_gib: 8, virtualisation: 'kvm', kernel: '6.1.0', distribution: 'Debian', cpu_governor: 'performance', node: 'v20' },
    started: new Date('2026-11-26T18:00:00Z'), finished: new Date('2026-11-26T18:30:00Z'),
    load: { before: [0.1, 0.1, 0.1], after: [2, 1, 1] }, invocations: [], params, versions: {},
  };
  return appservers.datasets(ctx)[0];
}

test('a pinned run says where its processes ran; an unpinned one says they shared the CPUs, and why', (t) => {
  const pinned = placementCaveat({ raw: rawDir(t, 'pinned server=0 load=1 (taskset: …)') });
  assert.match(pinned, /ran on CPU 0 and wrk on CPU 1/);
  assert.doesNotMatch(pinned, /same two cores|shared the machine/);
  const none = placementCaveat({ raw: rawDir(t, 'none taskset is not installed (util-linux)') });
  assert.match(none, /shared the machine's CPUs \(not pinned: taskset is not installed/);
  assert.match(placementCaveat({ raw: rawDir(t, null) }), /predates the isolation record/);
  assert.doesNotMatch(placementCaveat({ raw: rawDir(t, 'pinned server=0 load=1') }, { waits: null }), /waiting/);
});

test('a --cells subset of app servers describes and caveats only the servers it ran', (t) => {
  const raw = rawDir(t, 'pinned server=0 load=1 (taskset)');
  const yjit = build(['puma-34-yjit-off', 'puma-34-yjit'], raw);
  const text = [yjit.method.description, ...yjit.caveats].join('\n');
  for (const absent of [/Unicorn/, /Falcon/, /WEBrick/, /Pitchfork/, /same two cores/, /Ruby 3\.3 rows/, /every other row/]) assert.doesNotMatch(text, absent);
  assert.match(yjit.method.description, /Puma with no config file/);
  assert.match(text, /ran on CPU 0 and wrk on CPU 1/);
  assert.match(text, /Compare the YJIT row with the YJIT-off row/);
  // The full set keeps every server's explanation.
  const all = build(appservers.full.servers, raw);
  const full = [all.method.description, ...all.caveats].join('\n');
  for (const present of [/Unicorn does not keep connections alive/, /Falcon runs each request in a fiber/, /WEBrick through bin\/rails server/, /every other row runs on Debian 13's Ruby 3\.3/]) assert.match(full, present);
});

test('the warm-up a method states is the one the run\'s recorded parameters made lab/bench/lib.sh do', (t) => {
  // Today's full run, with the parameters the runner records: the protocol's warm-up at the measured connections.
  const now = { ...protocolSize(appservers.full.params, 0, { quick: false }).params, ...driverParams({ quick: false }), RB_QUICK: 0 };
  const ds = build(['puma-34-yjit-off', 'puma-34-yjit'], rawDir(t, 'pinned server=0 load=1'), now);
  assert.equal(ds.method.warmup, `wrk at the measured connections (${now.RB_CONNECTIONS}) until throughput is steady (the protocol's warm-up, at most ${PROTOCOL.warmup.max_s} s) on each page right before it is measured, not recorded`);
  assert.doesNotMatch(ds.method.warmup, /2 connections|\d+ s of wrk/);
  assert.match(warmupText(now), /^wrk at 2 connections until throughput is steady/, 'rb_warmup called without connections');
  // Published raw output keeps its own era's words when rebuilt: before version 7 (caching, 2026-11-26) two windows
  // within 5 % at 2 connections; before the protocol (app servers) a fixed second.
  const recorded = (id) => JSON.parse(fs.readFileSync(path.join(ROOT, 'raw-output', id, 'provenance.json'), 'utf8')).parameters;
  assert.equal(warmupText(recorded('rebench-2026-caching'), 6), "wrk at 2 connections until two consecutive 3 s windows were within 5 % (the protocol's warm-up then, at most 30 s)");
  assert.equal(warmupText(recorded('rebench-2026-app-servers'), 10), '1 s of wrk (2 connections)');
  assert.equal(warmupText({ ...now, RB_WARMUP_S: 0 }, 10), null);
});
