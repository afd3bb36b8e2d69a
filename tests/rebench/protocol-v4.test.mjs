// Protocol version 4's in-process refinements: repeats counted by reason and per configuration, every try kept,
// verdicts checked against the repeated runs' first tries (a repeat chosen by its outcome must not make a verdict),
// and the garbage collections of the blocks a reading comes from held to their share of the run's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { gcInReading, readWarm } from '../../scripts/lib/rebench/warm.mjs';
import { gradeRun, parseProtocolFile, PROTOCOL } from '../../scripts/lib/rebench/protocol.mjs';
import { readFirstTry } from '../../scripts/lib/rebench/readback.mjs';
import { summaryRows } from '../../scripts/lib/rebench/dataset.mjs';
import { driverShell } from '../helpers/driver-shell.mjs';

const IP = PROTOCOL.in_process;

test('the driver keeps every try (text, protocol and JSON) and counts repeats by reason', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'protocol-v4-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const counter = path.join(dir, 'n');
  // Off the plateau on the first try (writing its JSON, as workload.rb does), on it on the second.
  const flaky = `n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n + 1)); echo $n > ${counter}; echo "{\\"try\\":$n}" > ${path.join(dir, 'run.json')}; [ $n -lt 2 ] && echo plateau=1.2 || echo plateau=1.01`;
  const r = await driverShell(dir, `rb_measured "$RAW/run" bash -c '${flaky}'`, { RB_PLATEAU_MAX: IP.max_plateau_ratio, RB_TRIES: 3, RB_MONITOR_S: '', RB_GATE_WINDOW_S: '' });
  assert.equal(r.code, 0, r.stderr);
  const p = parseProtocolFile(fs.readFileSync(path.join(dir, 'run.protocol'), 'utf8'));
  assert.deepEqual([p.tries, p.repeats_unsteady, p.repeats_disturbed, p.unsteady], [2, 1, 0, 0]);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'run.disturbed-1.json'), 'utf8')), { try: 1 }, 'the first try\'s JSON survives the second');
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8')), { try: 2 });
  assert.equal(parseProtocolFile(fs.readFileSync(path.join(dir, 'run.disturbed-1.protocol'), 'utf8')).repeated_because, 'unsteady');
  // The readback finds the first try beside the one that counted.
  const first = readFirstTry({ tool: 'hyperfine', ext: 'json' }, dir, 'run', p);
  assert.ok(first && first.protocol.repeated_because === 'unsteady', JSON.stringify(first));
  assert.equal(readFirstTry({ tool: 'hyperfine', ext: 'json' }, dir, 'run', { tries: 1 }), null, 'a run tried once has no first try apart');
  // The quality record counts the repeats per configuration.
  const cell = { id: 'ruby-3.4' };
  const grade = gradeRun({ quick: false, runs: 10, params: { RB_TRIES: 3 }, raw: null, results: [{ cell, measurement: { id: 'warm' }, metrics: { errors: 0 }, protocol: { ...p, foreign_pct: 0, gate_ok: 1 } }] });
  assert.deepEqual(grade.repeats, { disturbed: 0, unsteady: 1, by_configuration: { 'ruby-3.4:warm': 1 } });
  assert.equal(grade.runs_unsteady, 0);
  assert.equal(gradeRun({ quick: false, runs: 10, params: {}, raw: null, results: [{ cell, measurement: { id: 'warm' }, metrics: { errors: 0 }, protocol: { tries: 1, disturbed: 0 } }] }).repeats, undefined, 'output from before version 4 has no repeat counts');
});

test('a verdict that exists only with the repeated tries is "unsettled"', () => {
  const cell = { id: 'c', measurements: [{ id: 'a' }, { id: 'b' }] };
  const spec = { labels: [{ key: 'm', label: 'M', of: (c, m) => m.id }], primary: 'cpu_ms', latency: false, higherIsBetter: false, baseline: () => ({ cell: 'c', measurement: 'a' }), baselineLabel: () => 'a' };
  const build = (firstOf) => {
    const results = [];
    for (let run = 1; run <= 10; run += 1) {
      results.push({ cell, measurement: cell.measurements[0], entry: { run }, metrics: { cpu_ms: 100 + run, errors: 0 }, protocol: { disturbed: 0, tries: 1 } });
      // b's last four runs were repeated; their counted tries are fast, their first tries whatever firstOf says.
      const repeated = run > 6;
      results.push({ cell, measurement: cell.measurements[1], entry: { run }, metrics: { cpu_ms: repeated ? 90 + run : 99 + run, errors: 0 }, protocol: { disturbed: 0, tries: repeated ? 2 : 1 }, firstTry: repeated ? { metrics: { cpu_ms: firstOf(run), errors: 0 }, protocol: {} } : null });
    }
    const { rows, columns } = summaryRows({ results, cells: [cell], runs: 10, seed: 1 }, spec);
    return rows[1][columns.findIndex((c) => c.key === 'verdict')];
  };
  // With the first tries (slow: 140 ms) b is no faster than a; only the repeats made it look so.
  assert.equal(build(() => 140), 'unsettled');
  // First tries that were as fast as the repeats leave the verdict alone.
  assert.equal(build((run) => 91 + run), build((run) => 90 + run));
  assert.notEqual(build((run) => 90 + run), 'unsettled');
});

test('the reading\'s blocks must have run their share of garbage collection', () => {
  // 400 iterations; a collection every other iteration costs 2 ms on top of 3 ms, except in a few blocks that were
  // fast because they ran none: their low quantile would leave GC out.
  const cpu = [];
  const minor = [];
  for (let b = 0; b < 40; b++) {
    for (let i = 0; i < 10; i++) {
      const collects = b >= 5 && i % 2 === 0;
      minor.push(collects ? 1 : 0);
      cpu.push(3 + (collects ? 2 : 0) + 0.001 * i);
    }
  }
  const major = cpu.map(() => 0);
  const skipped = gcInReading(cpu, minor, major);
  assert.equal(skipped.reading_share, 0);
  const m = readWarm(JSON.stringify({ yjit: 'off', timed_s: 12, cpu_ms: cpu, wall_ms: cpu, gc_minor: minor, gc_major: major }));
  const grade = gradeRun({ quick: false, runs: 10, params: { RB_TIMED_S: 10 }, raw: null, results: [{ metrics: m, protocol: { foreign_pct: 0, gate_ok: 1, disturbed: 0, tries: 1 } }] });
  assert.equal(grade.gc_reading_share_min, 0);
  assert.ok(grade.reasons.some((x) => new RegExp(`ran fewer garbage collections.*asks for ${IP.min_gc_reading_share}`).test(x)), grade.reasons.join(' | '));
  // Collections spread evenly: every block pays its share.
  const even = gcInReading(cpu.map((_, i) => 4 + 0.001 * (i % 7)), cpu.map((_, i) => i % 2), major);
  assert.ok(even.reading_share >= IP.min_gc_reading_share, JSON.stringify(even));
  assert.equal(even.per_iteration, 0.5);
  assert.equal(gcInReading(cpu, null, null), null, 'output from before version 4 has no GC counts');
});

test('the workload counts each iteration\'s collections on the host\'s real Ruby', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'protocol-v4-gc-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'warm.json');
  execFileSync('ruby3.1', [path.join(import.meta.dirname, '../../lab/bench/workload.rb'), '--warm', '2', '20', out, '0', '10', '0.1'], { timeout: 60_000 });
  const d = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(d.gc_minor.length, d.cpu_ms.length);
  assert.ok(d.gc_minor.reduce((a, b) => a + b, 0) + d.gc_major.reduce((a, b) => a + b, 0) > 0, 'the workload allocates enough to collect');
  const m = readWarm(fs.readFileSync(out, 'utf8'));
  assert.ok(m.gc.per_iteration > 0, JSON.stringify(m.gc));
});
