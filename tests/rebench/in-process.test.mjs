// Protocol version 3's in-process reading (scripts/lib/rebench/warm.mjs) and its grade (protocol.mjs): a host that
// runs this guest at two speeds in turn must not decide the reading, a run that never held its fast speed must grade
// the dataset smoke, and output from before version 3 keeps its median and version 2's rule. The workload's time
// budget is proven on the host's real Ruby (a third of a second).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inProcessReading, readWarm } from '../../scripts/lib/rebench/warm.mjs';
import { gradeRun, protocolSize, parseProtocolFile, isDisturbed, PROTOCOL } from '../../scripts/lib/rebench/protocol.mjs';
import { driverShell } from '../helpers/driver-shell.mjs';

const IP = PROTOCOL.in_process;
// A seeded generator, so the synthetic runs are the same on every machine.
function rng(seed) {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** 400 iterations of code costing `fast` ms, with stretches at half speed taking about `slowShare` of the blocks. */
function twoSpeedRun(seed, fast, slowShare) {
  const r = rng(seed);
  const out = [];
  for (let b = 0; b < 40; b++) {
    const slow = r() < slowShare;
    // Every fifth iteration also collects garbage: the same code allocates the same, so collections come regularly.
    for (let i = 0; i < 10; i++) out.push((slow ? 2 * fast : fast) * (1 + 0.04 * r() + (i % 5 === 4 ? 0.3 : 0)));
  }
  return out;
}

test('a host at two speeds: the reading is the fast speed, the same in every run, where the median is not', () => {
  const readings = [];
  const medians = [];
  for (const [seed, slowShare] of [[1, 0.2], [2, 0.5], [3, 0.7]]) {
    const values = twoSpeedRun(seed, 3, slowShare);
    const { reading, plateau, blocks } = inProcessReading(values);
    assert.equal(blocks, 40);
    assert.ok(plateau <= IP.max_plateau_ratio, `run ${seed}: plateau ${plateau} passes when a tenth of the blocks ran fast`);
    readings.push(reading);
    medians.push([...values].sort((a, b) => a - b)[200]);
  }
  const spreadOf = (xs) => Math.max(...xs) / Math.min(...xs);
  assert.ok(spreadOf(readings) < 1.05, `readings ${readings.map((x) => x.toFixed(2))} agree within 5 %`);
  assert.ok(spreadOf(medians) > 1.5, `medians ${medians.map((x) => x.toFixed(2))} follow the host's speed`);
  // Garbage collection every fifth iteration stays in the reading: it is a block mean, not the fastest iteration.
  assert.ok(readings.every((x) => x > 3 * 1.05), 'the reading keeps the blocks\' share of the slow iterations');
});

test('a run that never held its fast speed fails the plateau check and grades the dataset smoke', () => {
  // Two blocks of forty at full speed, the rest at half: the 10th percentile lands on a slow block.
  const drifting = Array.from({ length: 400 }, (_, i) => (i < 20 ? 3 : 6) * (1 + 0.01 * (i % 3)));
  const { plateau } = inProcessReading(drifting);
  assert.ok(plateau > IP.max_plateau_ratio, `plateau ${plateau}`);
  const run = (values, timed = 12) => ({ metrics: { ...readWarm(JSON.stringify({ yjit: 'off', timed_s: timed, cpu_ms: values, wall_ms: values })) }, protocol: { foreign_pct: 0, gate_ok: 1, disturbed: 0, tries: 1 } });
  const ctx = (results) => ({ quick: false, runs: 10, params: { RB_TIMED_S: 10 }, raw: null, results });
  const steady = gradeRun(ctx([run(twoSpeedRun(5, 3, 0.6)), run(twoSpeedRun(6, 3, 0.3))])).reasons;
  assert.ok(!steady.some((x) => /fast speed|timed less|changed speed/.test(x)), steady.join(' | '));
  const bad = gradeRun(ctx([run(twoSpeedRun(5, 3, 0.6)), run(drifting)]));
  assert.equal(bad.grade, 'smoke');
  assert.ok(bad.reasons.some((x) => /did not hold its fast speed in 1 of 2 runs/.test(x)), bad.reasons.join(' | '));
  const short = gradeRun(ctx([run(twoSpeedRun(5, 3, 0.6), 4)])).reasons;
  assert.ok(short.some((x) => new RegExp(`1 of 1 in-process runs timed less than ${IP.min_timed_s} s`).test(x)), short.join(' | '));
  // Fewer than ten blocks cannot show a plateau: said, not passed.
  const few = gradeRun(ctx([run(twoSpeedRun(5, 3, 0.6).slice(0, 50))])).reasons;
  assert.ok(few.some((x) => /too few blocks for the plateau check/.test(x)), few.join(' | '));
});

test('output from before version 3 keeps its median reading and is held to version 2\'s spread rule', () => {
  const values = twoSpeedRun(7, 3, 0.5);
  const m = readWarm(JSON.stringify({ yjit: 'off', cpu_ms: values, wall_ms: values }));
  assert.equal(m.cpu_ms, [...values].sort((a, b) => a - b).slice(199, 201).reduce((a, b) => a + b) / 2);
  assert.equal(m.plateau, null);
  assert.equal(m.timed_s, null);
  const grade = gradeRun({ quick: false, runs: 10, params: {}, raw: null, results: [{ metrics: m, protocol: { foreign_pct: 0, gate_ok: 1, disturbed: 0, tries: 1 } }] });
  assert.ok(grade.reasons.some((x) => /changed speed within 1 of 1 runs.*the median, before protocol version 3/.test(x)), grade.reasons.join(' | '));
});

test('a full run times each process for the protocol\'s minimum, and the workload keeps timing until it has', (t) => {
  assert.equal(protocolSize({ RB_TIMED_S: 2 }, 0, { quick: false }).params.RB_TIMED_S, IP.min_timed_s);
  assert.equal(protocolSize({ RB_TIMED_S: 0 }, 0, { quick: true }).params.RB_TIMED_S, 0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'in-process-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'warm.json');
  const workload = path.join(import.meta.dirname, '../../lab/bench/workload.rb');
  const stdout = execFileSync('ruby3.1', [workload, '--warm', '2', '5', out, '0.3', '1', '0.1'], { timeout: 60_000 }).toString();
  const d = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.ok(d.timed_s >= 0.3, `timed ${d.timed_s} s`);
  assert.ok(d.cpu_ms.length > 5, `${d.cpu_ms.length} iterations: more than the minimum count, to fill the time`);
  assert.match(stdout, new RegExp(`^warm: 2 \\+ ${d.cpu_ms.length} iterations`, 'm'));
  // The workload's own plateau (printed for the driver) is the figure warm.mjs computes from the same iterations.
  const printed = Number(/^plateau=([\d.]+)$/m.exec(stdout)[1]);
  const { plateau } = inProcessReading(d.cpu_ms, { ...IP, block_iterations: 1 });
  assert.ok(Math.abs(printed - plateau) < 1e-3, `workload.rb ${printed} vs warm.mjs ${plateau}`);
});

/** lab/bench/protocol.sh's rb_measured on the host, without the monitor, with the protocol's plateau limit. */
const measured = (dir, script) => driverShell(dir, script, { RB_PLATEAU_MAX: IP.max_plateau_ratio, RB_TRIES: 3, RB_MONITOR_S: '', RB_GATE_WINDOW_S: '' });

test('the driver repeats a run that did not hold its fast speed, and records one that never did as unsteady', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'in-process-repeat-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // Off the plateau twice, then on it: the third try counts.
  const counter = path.join(dir, 'n');
  const flaky = `n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n + 1)); echo $n > ${counter}; [ $n -lt 3 ] && echo plateau=1.4 || echo plateau=1.02`;
  let r = await measured(dir, `rb_measured "$RAW/flaky" bash -c '${flaky}'`);
  assert.equal(r.code, 0, r.stderr);
  const p = parseProtocolFile(fs.readFileSync(path.join(dir, 'flaky.protocol'), 'utf8'));
  assert.deepEqual([p.tries, p.unsteady, p.disturbed], [3, 0, 0]);
  assert.ok(fs.existsSync(path.join(dir, 'flaky.disturbed-2.txt')), 'the unsteady tries are kept');
  assert.match(fs.readFileSync(path.join(dir, 'driver.log'), 'utf8'), new RegExp(`did not hold its fast speed \\(plateau 1\\.4 above ${IP.max_plateau_ratio}\\), try 1 of 3`));
  assert.equal(isDisturbed({ protocol: p }), false);
  // Never on it: recorded unsteady after the last try, and left out like a disturbed run.
  r = await measured(dir, `rb_measured "$RAW/never" echo plateau=1.3`);
  assert.equal(r.code, 0, r.stderr);
  const q = parseProtocolFile(fs.readFileSync(path.join(dir, 'never.protocol'), 'utf8'));
  assert.deepEqual([q.tries, q.unsteady, q.disturbed], [3, 1, 0]);
  assert.equal(isDisturbed({ protocol: q }), true);
  const values = Array.from({ length: 400 }, (_, i) => (i < 20 ? 3 : 6));
  const m = readWarm(JSON.stringify({ yjit: 'off', timed_s: 12, cpu_ms: values, wall_ms: values }));
  const grade = gradeRun({ quick: false, runs: 10, params: { RB_TRIES: 3 }, raw: null, results: [{ metrics: m, protocol: { ...q, foreign_pct: 0, gate_ok: 1 } }] });
  assert.ok(grade.reasons.some((x) => /did not hold its fast speed in 1 of 1 runs.*still so after 3 tries, they are left out/.test(x)), grade.reasons.join(' | '));
  assert.ok(!grade.reasons.some((x) => /runs were disturbed \(other programs/.test(x)), 'an unsteady run is not blamed on other programs');
});
