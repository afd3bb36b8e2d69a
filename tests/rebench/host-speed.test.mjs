// Protocol version 5's host-speed probe (lab/bench/speed-probe.rb, started by monitor.rb; scripts/lib/rebench/
// host-speed.mjs): its window arithmetic on synthetic spins, the readback and grade of synthetic raw output (a run
// still slow is left out, repeats are counted per configuration, output from before version 5 is smoke), a short
// real run on the host's Ruby that must print plausible figures, the driver repeating a run on a host it finds
// slow, and wrk's responses per window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, tmpDir, run } from '../tools/util.mjs';
import { readResults } from '../../scripts/lib/rebench/readback.mjs';
import { summaryRows } from '../../scripts/lib/rebench/dataset.mjs';
import { gradeRun, parseProtocolFile, isDisturbed, driverParams, PROTOCOL } from '../../scripts/lib/rebench/protocol.mjs';
import { parse as parseWrk } from '../../scripts/lib/importers/wrk.mjs';
import { validateDataset, knownDatasetIds } from '../../scripts/lib/dataset-validate.mjs';
import { driverShell } from '../helpers/driver-shell.mjs';

const PROBE = path.join(ROOT, 'lab/bench/speed-probe.rb');
const H = PROTOCOL.http.host_speed_probe;
const withDir = (t, name) => { const d = tmpDir(name); t.after(() => fs.rmSync(d, { recursive: true, force: true })); return d; };

test('the probe\'s windows: median uninterrupted spin over the calibrated time, a short tail joined, too few spins unmeasured', async (t) => {
  const dir = withDir(t, 'speed-sum');
  fs.writeFileSync(path.join(dir, 'cal.txt'), 'window_s=1\nslow_ratio=1.2\nmin_spins=3\ncpus=0 1\ncpu0_ns=100000\ncpu1_ns=200000\n');
  // Run from t = 1000 to 1003.4: three windows, the last 1.4 s long. A spin before the start or after the end is
  // not the run's; one whose wall time ran 400 µs past its CPU time (another task ran meanwhile) is not read. CPU 0:
  // ratios 1.0/1.1/0.9, then 2.5/2.0/1.5 (slow), then 1.0 ×3. CPU 1: two spins only (not measured), then 1.4 ×3
  // (slow), then 1.0 ×3. Each spinner's last line is its own CPU time over its life.
  fs.writeFileSync(path.join(dir, 'c0'), ['# sched_idle', '999.9,100000', '1000.1,100000,105000', '1000.4,110000', '1000.7,90000', '1001.2,250000', '1001.5,200000',
    '1001.8,150000', '1002.2,100000', '1002.6,100000', '1002.9,500000,900000', '1003.3,100000', '1003.5,900000', 'cost,0.05,5'].join('\n'));
  fs.writeFileSync(path.join(dir, 'c1'), ['1000.2,200000', '1000.6,200000', '1001.1,280000', '1001.4,280000', '1001.7,280000',
    '1002.1,200000', '1002.5,200000', '1003.1,200000', 'cost,0.1,5'].join('\n'));
  const r = await run('ruby', [PROBE, 'summary', path.join(dir, 'cal.txt'), '1000', '1003.4', path.join(dir, 'w.csv'), `0=${path.join(dir, 'c0')}`, `1=${path.join(dir, 'c1')}`], { timeoutMs: 30000 });
  assert.equal(r.code, 0, r.stderr);
  const p = parseProtocolFile(r.stdout);
  assert.equal(p.speed_windows, 3);
  assert.equal(p.speed_slow_pct, 50, 'the worst CPU: 1 slow of CPU 1\'s 2 measured windows (CPU 0: 1 of 3)');
  assert.equal(p.speed_measured_pct, 66.667, 'CPU 1 measured 2 of 3 windows');
  assert.equal(p.speed_ratio_worst_window, 2);
  assert.equal(p.speed_cpu0_ratio_median, 1, 'the median of the nine uninterrupted spins inside the run');
  assert.equal(p.speed_cpu0_interrupted_pct, 10, 'one spin of ten interrupted');
  assert.deepEqual([p.speed_cpu0_windows_slow, p.speed_cpu1_windows_measured, p.speed_cpu1_interrupted_pct], [1, 2, 0]);
  assert.equal(p.speed_probe_cpu_pct, 2, 'the costlier spinner: 0.1 s of CPU in 5 s');
  assert.deepEqual(fs.readFileSync(path.join(dir, 'w.csv'), 'utf8').trim().split('\n'), ['cpu,window_start_s,spins,interrupted,ratio,slow',
    '0,0.0,3,0,1.0,0', '0,1.0,3,0,2.0,1', '0,2.0,3,1,1.0,0', '1,0.0,2,0,1.0,', '1,1.0,3,0,1.4,1', '1,2.0,3,0,1.0,0']);
});

const V5 = { RB_PROTOCOL_VERSION: 5, RB_TRIES: 3, RB_DURATION_S: 10 };
const speedOk = { speed_windows: 10, speed_measured_pct: 100, speed_slow_pct: 0, slow_host: 0, repeats_slow_host: 0 };

test('readback: a run still slow is left out, repeats are counted per configuration, old output grades smoke', () => {
  const cell = { id: 'puma', measurements: [{ id: 'api', tool: 'wrk' }] };
  const other = { id: 'unicorn', measurements: [{ id: 'api', tool: 'wrk' }] };
  const results = [];
  for (let run = 1; run <= 10; run += 1) {
    // puma run 4: still slow after 3 tries (two repeats); run 7: slow twice, then fine (two repeats).
    const protocol = { ...speedOk, foreign_pct: 1, gate_ok: 1, disturbed: 0, ...(run === 4 ? { slow_host: 1, speed_slow_pct: 40, repeats_slow_host: 2 } : run === 7 ? { repeats_slow_host: 2 } : {}) };
    results.push({ cell, measurement: cell.measurements[0], entry: { run }, metrics: { rps: run === 4 ? 50 : 100 + run, errors: 0 }, protocol });
    // unicorn: the busy server CPU starved the probe in run 2 (30 % of the windows measured).
    results.push({ cell: other, measurement: other.measurements[0], entry: { run }, metrics: { rps: 200 + run, errors: 0 }, protocol: { ...speedOk, foreign_pct: 1, gate_ok: 1, disturbed: 0, ...(run === 2 ? { speed_measured_pct: 30 } : {}) } });
  }
  assert.equal(isDisturbed(results[6]), true, 'slow_host=1 is left out like a disturbed run');
  const spec = { labels: [{ key: 'c', label: 'C', of: (c) => c.id }], primary: 'rps', latency: false, baseline: () => ({ cell: 'puma', measurement: 'api' }), baselineLabel: () => 'puma' };
  const { rows, columns } = summaryRows({ results, cells: [cell, other], runs: 10, seed: 1, params: V5 }, spec);
  assert.equal(rows[0][columns.findIndex((c) => c.key === 'runs_ok')], 9);
  assert.equal(rows[0][columns.findIndex((c) => c.key === 'rps_min')], 101, 'the slow run\'s 50 req/s is not counted');
  const q = gradeRun({ quick: false, runs: 10, params: V5, raw: null, results });
  assert.equal(q.runs_slow_host, 1);
  assert.deepEqual(q.repeats.by_configuration, { 'puma / api': { disturbed: 0, unsteady: 0, slow_host: 4 }, 'unicorn / api': { disturbed: 0, unsteady: 0, slow_host: 0 } });
  assert.deepEqual([q.repeats.disturbed, q.repeats.unsteady, q.repeats.slow_host], [0, 0, 4]);
  assert.ok(q.reasons.some((x) => /slow .* in more than 10 % of the windows of 1 of 20 load runs after 3 tries; they are left out/.test(x)), q.reasons.join(' | '));
  assert.ok(q.reasons.some((x) => /fewer than 50 % of the 1 s windows on some CPU in 1 of 20 load runs/.test(x)), q.reasons.join(' | '));
  // A load run without figures under version 5 is said; an in-process run needs none (it has the plateau check).
  const bare = gradeRun({ quick: false, runs: 10, params: V5, raw: null, results: [{ ...results[1], protocol: { foreign_pct: 1, gate_ok: 1 } }, { ...results[0], metrics: { cpu_ms: 3, in_process: true } }] });
  assert.ok(bare.reasons.some((x) => /1 of 1 load runs have no host-speed figure/.test(x)), bare.reasons.join(' | '));
  // Raw output from version 3: read as before, no probe expected of it, and smoke for the want of one.
  const old = results.map((x) => ({ ...x, protocol: { foreign_pct: 1, gate_ok: 1, disturbed: 0, tries: 1 } }));
  const v3 = gradeRun({ quick: false, runs: 10, params: { ...V5, RB_PROTOCOL_VERSION: 3 }, raw: null, results: old });
  assert.equal(v3.grade, 'smoke');
  assert.ok(v3.reasons.some((x) => /protocol version 3, before the host-speed probe: .* for its 20 load runs/.test(x)), v3.reasons.join(' | '));
  assert.deepEqual([v3.runs_slow_host, v3.repeats], [0, undefined], 'no counts before version 4, so no record');
  assert.match(v3.protocol, /^scaling-rails\/rebench-protocol@3 .*load runs from before version 5 graded smoke/);
});

test('readback of raw files: the probe\'s figures from .protocol, wrk\'s responses per window from its output', (t) => {
  const raw = withDir(t, 'speed-raw');
  const wrk = fs.readFileSync(path.join(ROOT, 'raw-output/rebench-2026-rails-patterns/001-postgresql-r1-eager.txt'), 'utf8');
  fs.writeFileSync(path.join(raw, '001-c-r1-a.txt'), `${wrk.trimEnd()}\nWRK_WINDOWS {"window_s":1,"first_epoch_s":1764200000,"counts":[40,98,102,61]}\n`);
  fs.writeFileSync(path.join(raw, '001-c-r1-a.protocol'), 'exit=0\nforeign_pct=1.2\nspeed_probe=pinned-sched_idle\nspeed_windows=10\nspeed_measured_pct=100.0\nspeed_slow_pct=20.0\nspeed_probe_cpu_pct=0.41\ndisturbed=0\nunsteady=0\nslow_host=1\nrepeats_slow_host=2\ntries=3\n');
  const [r] = readResults([{ idx: 1, cell: 'c', run: 1 }], [{ id: 'c', measurements: [{ id: 'a', tool: 'wrk' }] }], raw);
  assert.deepEqual(r.metrics.rps_windows, [40, 98, 102, 61]);
  assert.equal(r.protocol.speed_probe, 'pinned-sched_idle');
  assert.deepEqual([r.protocol.slow_host, r.protocol.repeats_slow_host, r.protocol.speed_slow_pct], [1, 2, 20]);
  assert.equal(isDisturbed(r), true);
  assert.equal(parseWrk(wrk).windows, null, 'output without the line has no windows');
  // A calibration taken with the gate closed, or spins that ran well under their reference (the calibration caught
  // the host slow): both said, as the probe would undercount slow windows.
  fs.writeFileSync(path.join(raw, 'speed-calibration-lab-3.3.txt'), 'cpus=0 1\ncpu0_ns=250000\ngate_ok=0\n');
  const q = gradeRun({ quick: false, runs: 10, params: V5, raw, results: [{ ...r, protocol: { ...r.protocol, speed_cpu1_ratio_median: 0.6 } }] });
  assert.ok(q.reasons.some((x) => /calibrated on lab-3\.3 while the idle gate was closed/.test(x)), q.reasons.join(' | '));
  assert.ok(q.reasons.some((x) => /in 1 of 1 load runs the probe's spins ran well under their calibrated time/.test(x)), q.reasons.join(' | '));
});

test('the schema and the validator: one record of repeats by reason, and a benchmark grade needs it', async () => {
  const file = path.join(ROOT, '_data/datasets/rebench-2026-caching.json');
  // Without its charts: rendering them (seconds) is the dataset tests' business, not the quality record's.
  const good = { ...JSON.parse(fs.readFileSync(file, 'utf8')), charts: [] };
  const knownIds = knownDatasetIds();
  const check = (ds) => validateDataset({ file, text: JSON.stringify(ds, null, 2), knownIds }).map((p) => `${p.field}: ${p.message}`);
  const reps = (puma) => ({ disturbed: puma.disturbed, unsteady: 0, slow_host: puma.slow_host, by_configuration: { 'puma / api': { unsteady: 0, ...puma }, 'unicorn / api': { disturbed: 0, unsteady: 0, slow_host: 0 } } });
  assert.deepEqual(check({ ...good, quality: { ...good.quality, runs_slow_host: 2, repeats: reps({ disturbed: 1, slow_host: 3 }) } }), []);
  // The shape is one: counts by reason per configuration, keyed "cell / measurement"; the two old tallies are refused.
  const refused = (repeats, extra = {}) => check({ ...good, quality: { ...good.quality, repeats, ...extra } });
  assert.ok(refused({ disturbed: 0, unsteady: 1, by_configuration: { 'ruby-3.4:warm': 1 } }).length >= 2, 'version 4\'s tally: no slow_host, a count for a configuration, a colon key');
  assert.ok(refused(reps({ disturbed: 0, slow_host: 1 }), { repeats_slow_host: { 'puma / api': 1 } }).some((m) => /repeats_slow_host/.test(m)), 'the separate slow-host tally is gone');
  assert.ok(refused({ ...reps({ disturbed: 0, slow_host: 1 }), by_configuration: { 'puma:api': { disturbed: 0, unsteady: 0, slow_host: 1 } } }).length, 'a key in the other format');
  assert.ok(refused({ ...reps({ disturbed: 0, slow_host: 1 }), by_configuration: { 'puma / api': { disturbed: 0, slow_host: 1 } } }).length, 'a configuration without every reason');
  const claimed = { ...good, method: { ...good.method, runs: 10 }, quality: { ...good.quality, grade: 'benchmark', reasons: [], runs_disturbed: 0, foreign_load: { ...good.quality.foreign_load, foreign_cpu_pct_max: 2 } } };
  assert.ok(check(claimed).some((m) => /without the record of repeated tries/.test(m)), check(claimed).join(' | '));
  const probed = { ...claimed, quality: { ...claimed.quality, runs_slow_host: 0, repeats: reps({ disturbed: 2, slow_host: 1 }) } };
  assert.deepEqual(check(probed), []);
  assert.ok(check({ ...probed, quality: { ...probed.quality, runs_slow_host: 1 } }).some((m) => /runs_slow_host/.test(m)), 'benchmark with a run left out for a slow host is rejected');
  // The dataset page states them, by reason, where there were any.
  const { qualityHtml } = await import('../../scripts/lib/dataset-html.mjs');
  assert.match(qualityHtml(probed), /Tries repeated: 2 disturbed, 1 slow host in all; puma \/ api \(2 disturbed, 1 slow host\)\. Runs left out for a slow host: 0\./);
  const unprobed = { ...probed.quality };
  delete unprobed.runs_slow_host;
  assert.match(qualityHtml({ ...probed, quality: { ...unprobed, repeats: reps({ disturbed: 0, slow_host: 0 }) } }), /Tries repeated: none\.$/, 'graded before the probe: no left-out count');
  assert.doesNotMatch(qualityHtml(good), /Tries repeated/, 'a dataset from before version 4 has no such record');
  // The driver gets the probe's parameters from the protocol file, and none in a --quick run; from version 6 no
  // slow-host limit (the probe only records: protocol-v6.test.mjs).
  assert.equal(driverParams({ quick: false }).RB_SPEED_CALIBRATE_S, H.calibrate_s);
  assert.equal(driverParams({ quick: false }).RB_SPEED_MAX_SLOW_PCT, H.judges_runs === false ? '' : H.max_slow_pct);
  assert.equal(driverParams({ quick: true }).RB_SPEED_CALIBRATE_S, '');
});

const calibrate = (dir, seconds) => run('ruby', [PROBE, 'calibrate', `seconds=${seconds}`, `spin_ms=${H.spin_ms}`, `period_ms=${H.period_ms}`, `window_s=${H.window_s}`,
  `slow_ratio=${H.slow_ratio}`, `min_spins=${H.min_spins_per_window}`, `quantile=${H.calibration_quantile}`], { timeoutMs: 30000 }).then((r) => {
  assert.equal(r.code, 0, r.stderr);
  fs.writeFileSync(path.join(dir, 'cal.txt'), r.stdout);
  return parseProtocolFile(r.stdout);
});
const probeParams = { RB_MONITOR_S: 1, RB_GATE_WINDOW_S: '', RB_DISTURB_MAX_FOREIGN: 101, RB_DISTURB_MAX_STEAL: 101, RB_SPEED_MAX_SLOW_PCT: H.max_slow_pct };

test('a real run on the host\'s Ruby: the probe calibrates, spins through a run and prints plausible figures', { timeout: 60000 }, async (t) => {
  const dir = withDir(t, 'speed-live');
  const cal = await calibrate(dir, 0.5);
  const cpus = String(cal.cpus).split(' ');
  assert.ok(cpus.length >= 1);
  for (const c of cpus) {
    const ns = cal[`cpu${c}_ns`];
    assert.ok(ns > H.spin_ms * 1e6 * 0.5 && ns < H.spin_ms * 1e6 * 3, `CPU ${c}: a spin of ${ns} ns for a ${H.spin_ms} ms target`);
    assert.ok(cal[`cpu${c}_spins`] >= 5, `CPU ${c}: ${cal[`cpu${c}_spins`]} calibration spins`);
  }
  const r = await driverShell(dir, `RB_SPEED_CAL="$RAW/cal.txt"; rb_measured "$RAW/run" sleep 1.5`, { ...probeParams, RB_TRIES: 1 });
  assert.equal(r.code, 0, r.stderr);
  const p = parseProtocolFile(fs.readFileSync(path.join(dir, 'run.protocol'), 'utf8'));
  assert.match(p.speed_probe, /^(pinned|unpinned)-(sched_idle|nice19)$/);
  assert.equal(p.speed_windows, 1);
  assert.equal(p.speed_measured_pct, 100, JSON.stringify(p));
  for (const c of cpus) {
    const ratio = p[`speed_cpu${c}_ratio_median`];
    assert.ok(ratio > 0.5 && ratio < 3, `CPU ${c}: spins at ${ratio}× their calibrated time`);
  }
  assert.ok(p.speed_probe_cpu_pct > 0 && p.speed_probe_cpu_pct < 5, `the probe's own CPU: ${p.speed_probe_cpu_pct} %`);
  assert.ok(Number.isFinite(p.speed_slow_pct) && Number.isFinite(p.slow_host) && p.tries === 1);
  const rows = fs.readFileSync(path.join(dir, 'run.speed.csv'), 'utf8').trim().split('\n');
  assert.equal(rows.length, 1 + cpus.length, 'one window per CPU');
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.endsWith('.spins')), [], 'the per-spin files are summarised, then removed');
});

test('the driver repeats a run on a host the probe finds slow, and records one still slow', { timeout: 60000 }, async (t) => {
  const dir = withDir(t, 'speed-slow');
  await calibrate(dir, 0.2);
  // A reference ten times too fast: every window reads about 10× slow, as on a host far below its calibrated speed.
  const text = fs.readFileSync(path.join(dir, 'cal.txt'), 'utf8').replace(/^(cpu\d+_ns)=(\d+)$/gm, (_, k, v) => `${k}=${Math.round(v / 10)}`);
  fs.writeFileSync(path.join(dir, 'cal.txt'), text);
  const r = await driverShell(dir, `RB_SPEED_CAL="$RAW/cal.txt"; rb_measured "$RAW/run" sleep 1.2`, { ...probeParams, RB_TRIES: 2 });
  assert.equal(r.code, 0, r.stderr);
  const p = parseProtocolFile(fs.readFileSync(path.join(dir, 'run.protocol'), 'utf8'));
  assert.ok(p.speed_slow_pct > H.max_slow_pct, JSON.stringify(p));
  assert.deepEqual([p.tries, p.slow_host, p.repeats_slow_host, p.disturbed, p.unsteady], [2, 1, 1, 0, 0]);
  assert.deepEqual([p.repeats_disturbed, p.repeats_unsteady], [0, 0]);
  assert.ok(fs.existsSync(path.join(dir, 'run.disturbed-1.speed.csv')), 'the slow try\'s windows are kept');
  assert.match(fs.readFileSync(path.join(dir, 'driver.log'), 'utf8'), /run: the host ran slow in [\d.]+ % of the probe's windows \(above 10 %\), try 1 of 2; repeating/);
  // A try both disturbed (every foreign figure is above a limit of -1) and slow is repeated for its first reason
  // only, so a run's counts add up to its tries less one and the dataset's record counts each try once.
  const both = await driverShell(dir, `RB_SPEED_CAL="$RAW/cal.txt"; rb_measured "$RAW/both" sleep 1.2`, { ...probeParams, RB_DISTURB_MAX_FOREIGN: -1, RB_DISTURB_MAX_STEAL: -1, RB_TRIES: 2 });
  assert.equal(both.code, 0, both.stderr);
  const b = parseProtocolFile(fs.readFileSync(path.join(dir, 'both.protocol'), 'utf8'));
  assert.deepEqual([b.tries, b.disturbed, b.slow_host, b.repeats_disturbed, b.repeats_unsteady, b.repeats_slow_host], [2, 1, 1, 1, 0, 0], JSON.stringify(b));
  assert.equal(parseProtocolFile(fs.readFileSync(path.join(dir, 'both.disturbed-1.protocol'), 'utf8')).repeated_because, 'disturbed');
  // RB_PROBE=0 (in-process experiments): no probe, no figures.
  const off = await driverShell(dir, `RB_SPEED_CAL="$RAW/cal.txt"; RB_PROBE=0; rb_measured "$RAW/off" true`, { ...probeParams, RB_TRIES: 1 });
  assert.equal(off.code, 0, off.stderr);
  assert.equal(parseProtocolFile(fs.readFileSync(path.join(dir, 'off.protocol'), 'utf8')).speed_windows, undefined);
});

test('wrk with WRK_WINDOW_S prints the responses completed in each window, summing to its requests', { timeout: 30000 }, async (t) => {
  const server = http.createServer((req, res) => res.end('ok'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${server.address().port}/`;
  const lua = path.join(ROOT, 'scripts/lib/importers/wrk-report.lua');
  const r = await run('wrk', ['-t2', '-c4', '-d2s', '-s', lua, url], { timeoutMs: 20000, env: { ...process.env, WRK_WINDOW_S: '1' } });
  assert.equal(r.code, 0, r.stderr);
  const w = parseWrk(r.stdout);
  assert.ok(w.windows && w.windows.window_s === 1, r.stdout);
  assert.ok(w.windows.counts.length >= 2 && w.windows.counts.length <= 4, `${w.windows.counts.length} windows in a 2 s run`);
  assert.equal(w.windows.counts.reduce((a, b) => a + b, 0), w.requests, 'every completed response in some window, once');
  const plain = await run('wrk', ['-t1', '-c1', '-d1s', '-s', lua, url], { timeoutMs: 20000 });
  assert.equal(parseWrk(plain.stdout).windows, null, 'without the variable: no response hook, no windows');
});
