// The warm, in-process reading of the interpreters experiment (scripts/lib/rebench/warm.mjs) on real output of
// lab/bench/workload.rb --warm, run here by the host's Ruby 3.1 with and without YJIT (a few iterations: seconds).
// A run whose YJIT state is not the one its configuration names is a failed run, never a reading.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readWarm } from '../../scripts/lib/rebench/warm.mjs';
import { readMeasurement } from '../../scripts/lib/rebench/readback.mjs';

const WORKLOAD = path.join(import.meta.dirname, '../../lab/bench/workload.rb');

function warmRun(args) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warm-'));
  const out = path.join(dir, 'warm.json');
  try {
    const stdout = execFileSync('ruby3.1', [...args, WORKLOAD, '--warm', '3', '5', out], { timeout: 60_000 }).toString();
    return { stdout, text: fs.readFileSync(out, 'utf8'), file: out, dir };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

test('a YJIT run is read as the low quantile of its blocks (one block when short), with its YJIT state and warm-up drift', (t) => {
  const r = warmRun(['--yjit']);
  t.after(() => fs.rmSync(r.dir, { recursive: true, force: true }));
  assert.match(r.stdout, /^warm: 3 \+ 5 iterations, checksum=\d+ ruby=3\.1\.\d+ yjit=on$/m);
  const raw = JSON.parse(r.text);
  assert.equal(raw.cpu_ms.length, 5);
  assert.equal(raw.warmup_cpu_ms.length, 3);
  const m = readWarm(r.text, { yjit: 'on' });
  assert.equal(m.error, undefined);
  // Five iterations are fewer than one 10-iteration block: the reading is their mean, with no plateau to judge.
  const mean = raw.cpu_ms.reduce((a, b) => a + b, 0) / raw.cpu_ms.length;
  assert.ok(Math.abs(m.cpu_ms - mean) < 1e-9, 'a run shorter than a block reads as one block');
  assert.equal(m.plateau, null);
  assert.ok(Number.isFinite(raw.timed_s) && m.timed_s === raw.timed_s, 'protocol version 3 output records how long it timed');
  assert.ok(m.cpu_ms > 0 && m.wall_ms > 0);
  assert.equal(m.iterations, 5);
  assert.equal(m.yjit, 'on');
  assert.ok(Number.isFinite(m.warmup_drift));
  // Through the runner's reader, as the experiment uses it.
  assert.equal(readMeasurement('warm', r.file, { yjit: 'on' }).cpu_ms, m.cpu_ms);
  // The same file claimed for a YJIT-off configuration is a failed run.
  assert.match(readWarm(r.text, { yjit: 'off' }).error, /YJIT was on in this run, not off/);
});

test('a run without YJIT, a truncated file and a file without timings are failures with a reason', (t) => {
  const r = warmRun([]);
  t.after(() => fs.rmSync(r.dir, { recursive: true, force: true }));
  assert.equal(readWarm(r.text, { yjit: 'off' }).yjit, 'off');
  assert.match(readWarm(r.text, { yjit: 'on' }).error, /YJIT was off/);
  assert.match(readWarm(r.text.slice(0, 40), { yjit: 'off' }).error, /unreadable workload output/);
  assert.match(readWarm(JSON.stringify({ yjit: 'off', cpu_ms: [], wall_ms: [] })).error, /no per-iteration times/);
  assert.match(readWarm(JSON.stringify({ yjit: 'off', cpu_ms: [1, -2], wall_ms: [1, 2] })).error, /no per-iteration times/);
  assert.match(readMeasurement('warm', path.join(r.dir, 'missing.json')).error, /no output/);
});
