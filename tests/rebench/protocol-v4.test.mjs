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
import { repeatRecord } from '../../scripts/lib/rebench/repeats.mjs';
import { derivedQuality } from '../../scripts/lib/rebench/thennow.mjs';
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
  assert.deepEqual(grade.repeats, { disturbed: 0, unsteady: 1, slow_host: 0, by_configuration: { 'ruby-3.4 / warm': { disturbed: 0, unsteady: 1, slow_host: 0 } } });
  assert.equal(grade.runs_unsteady, 0);
  assert.equal(gradeRun({ quick: false, runs: 10, params: {}, raw: null, results: [{ cell, measurement: { id: 'warm' }, metrics: { errors: 0 }, protocol: { tries: 1, disturbed: 0 } }] }).repeats, undefined, 'output from before version 4 has no repeat counts');
});

test('one record of repeats: by reason per configuration, open-loop runs with their page, and a benchmark grade needs it', (t) => {
  const raw = fs.mkdtempSync(path.join(os.tmpdir(), 'protocol-v4-repeats-'));
  t.after(() => fs.rmSync(raw, { recursive: true, force: true }));
  fs.writeFileSync(path.join(raw, 'isolation-lab.txt'), 'pinned server=0 load=1\n');
  const clean = { foreign_pct: 0, steal_pct: 0, gate_ok: 1, disturbed: 0, unsteady: 0, tries: 1 };
  const counts = (d, u, s) => ({ repeats_disturbed: d, repeats_unsteady: u, repeats_slow_host: s, tries: 1 + d + u + s });
  const warm = (cell, run, p) => ({ cell: { id: cell }, measurement: { id: 'warm' }, entry: { run }, metrics: { in_process: true, cpu_ms: 3, timed_s: 12, plateau: 1.01, errors: 0 }, protocol: { ...clean, ...p } });
  const results = [];
  for (let run = 1; run <= 10; run += 1) results.push(warm('ruby34', run, counts(run === 3 ? 1 : 0, run === 5 ? 2 : 0, 0)), warm('ruby33', run, counts(0, 0, 0)));
  const ctx = { quick: false, runs: 10, params: { RB_PROTOCOL_VERSION: 4, RB_TRIES: 3, RB_TIMED_S: 10 }, raw, results };
  const q = gradeRun(ctx);
  assert.deepEqual(q.reasons, [], 'clean in-process output under version 4');
  assert.equal(q.grade, 'benchmark');
  assert.deepEqual(q.repeats, { disturbed: 1, unsteady: 2, slow_host: 0, by_configuration: { 'ruby34 / warm': { disturbed: 1, unsteady: 2, slow_host: 0 }, 'ruby33 / warm': { disturbed: 0, unsteady: 0, slow_host: 0 } } });
  // The same output with no counts (before version 4): smoke, since the validator refuses a benchmark without them.
  const uncounted = gradeRun({ ...ctx, params: { ...ctx.params, RB_PROTOCOL_VERSION: 3 }, results: results.map((r) => ({ ...r, protocol: clean })) });
  assert.equal(uncounted.grade, 'smoke');
  assert.deepEqual(uncounted.reasons, ['no record of the tries the driver repeated and why (the driver counts them from protocol version 4)']);
  // An open-loop run is tried on its own and counts with its page.
  const page = { cell: { id: 'bundle' }, measurement: { id: 'heavy' }, metrics: { rps: 10, errors: 0 }, protocol: { ...clean, ...counts(0, 0, 1) }, openLoop: { open50: { protocol: counts(1, 0, 2) }, open90: { protocol: counts(0, 0, 0) } } };
  const open = repeatRecord([page]);
  assert.deepEqual(open, { disturbed: 1, unsteady: 0, slow_host: 3, by_configuration: { 'bundle / heavy': { disturbed: 1, unsteady: 0, slow_host: 3 } } });
  // A then-and-now dataset derived from a benchmark one keeps the record its grade rests on.
  const derived = derivedQuality({ id: 'rebench-2026-x', quality: q });
  assert.deepEqual([derived.grade, derived.repeats, derived.runs_slow_host], ['benchmark', q.repeats, 0]);
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
