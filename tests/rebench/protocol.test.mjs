// The measurement protocol (scripts/lib/rebench/protocol.mjs, lab/bench/protocol.sh, lab/bench/monitor.rb):
// the idle gate and the disturbance check see a CPU burner this test starts outside the experiment (and count
// one started inside it as the experiment's own); a zero-request run is a failed run left out of the median;
// the grade is enforced by the schema and the validator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, tmpDir, run } from '../tools/util.mjs';
import { readMeasurement, readResults } from '../../scripts/lib/rebench/readback.mjs';
import { summaryRows } from '../../scripts/lib/rebench/dataset.mjs';
import { gradeRun, parseProtocolFile, PROTOCOL } from '../../scripts/lib/rebench/protocol.mjs';
import { validateDataset, knownDatasetIds } from '../../scripts/lib/dataset-validate.mjs';
import { driverShell } from '../helpers/driver-shell.mjs';

const BENCH = path.join(ROOT, 'lab/bench');
const ticks = (pid) => {
  const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
};

/** A CPU burner outside this test's process tree (setsid + detached), stopped by its PID. */
function burner(t) {
  const child = spawn('sh', ['-c', 'while :; do :; done'], { detached: true, stdio: 'ignore' });
  t.after(() => { try { process.kill(child.pid, 'SIGKILL'); } catch { /* already gone */ } });
  return child;
}


const GATE = { RB_MONITOR_S: 1, RB_GATE_WINDOW_S: 2, RB_GATE_POLL_S: 1, RB_GATE_MAX_WAIT_S: 2, RB_GATE_MAX_FOREIGN: PROTOCOL.idle_gate.max_foreign_cpu_pct, RB_GATE_MAX_STEAL: 100, RB_DISTURB_MAX_FOREIGN: PROTOCOL.disturbance.max_foreign_cpu_pct, RB_DISTURB_MAX_STEAL: 100, RB_TRIES: 2 };

test('the idle gate rejects a run with injected foreign load, and the run is repeated, then recorded disturbed', { timeout: 120000 }, async (t) => {
  const raw = tmpDir('protocol-gate');
  t.after(() => fs.rmSync(raw, { recursive: true, force: true }));
  const burns = [burner(t), burner(t)]; // one per CPU of a 2-core machine
  const before = burns.map((b) => ticks(b.pid));
  const t0 = Date.now();
  const r = await driverShell(raw, `rb_measured "$RAW/run" sleep 2`, GATE);
  assert.equal(r.code, 0, r.stderr);
  const used = burns.reduce((sum, b, i) => sum + ticks(b.pid) - before[i], 0);
  const burnPct = (100 * used) / ((Date.now() - t0) / 10) / 2; // share of both CPUs (100 ticks a second each)
  for (const b of burns) process.kill(b.pid, 'SIGKILL');
  const p = parseProtocolFile(fs.readFileSync(path.join(raw, 'run.protocol'), 'utf8'));
  // The burners are foreign load (the machine's other programs add to it): the monitor sees at least their share,
  // above the thresholds.
  assert.ok(burnPct > 5, `the burners ran (${burnPct.toFixed(1)} % of the machine)`);
  assert.ok(p.foreign_pct >= burnPct * 0.6, `foreign CPU ${p.foreign_pct} % sees the burners' ${burnPct.toFixed(1)} %`);
  assert.ok(p.foreign_pct > PROTOCOL.disturbance.max_foreign_cpu_pct);
  assert.equal(p.gate_ok, 0, 'the gate did not open');
  assert.ok(p.gate_waited_s >= 2, 'the gate waited before giving up');
  assert.equal(p.disturbed, 1);
  assert.equal(p.tries, 2, 'repeated once (RB_TRIES = 2), then recorded');
  assert.ok(fs.existsSync(path.join(raw, 'run.disturbed-1.txt')), 'the first, disturbed try is kept');
  assert.match(fs.readFileSync(path.join(raw, 'driver.log'), 'utf8'), /idle gate: still busy/);
  const grade = gradeRun({ quick: false, runs: 10, params: { RB_PROTOCOL_VERSION: PROTOCOL.version, RB_DURATION_S: 10 }, raw, results: [{ metrics: { rps: 1 }, protocol: p }] });
  assert.equal(grade.grade, 'smoke');
  assert.ok(grade.reasons.some((x) => /idle gate did not open/.test(x)) && grade.reasons.some((x) => /disturbed \(other programs' CPU above/.test(x)), grade.reasons.join('; '));
});

test('CPU used by the experiment\'s own processes is not foreign load', { timeout: 60000 }, async (t) => {
  const raw = tmpDir('protocol-own');
  t.after(() => fs.rmSync(raw, { recursive: true, force: true }));
  // The burner runs as the measured command itself: a descendant of the monitored root.
  const r = await driverShell(raw, `rb_measured "$RAW/run" timeout 3 sh -c 'while :; do :; done'`, { ...GATE, RB_GATE_MAX_FOREIGN: 101, RB_TRIES: 1 });
  assert.equal(r.code, 0, r.stderr);
  const p = parseProtocolFile(fs.readFileSync(path.join(raw, 'run.protocol'), 'utf8'));
  assert.equal(p.gate_ok, 1, 'a gate that cannot be exceeded opens');
  assert.ok(p.experiment_pct >= 5, `the experiment's own burner is counted as the experiment's (${p.experiment_pct} %)`);
  assert.equal(p.exit, 124, 'the command\'s exit status is recorded');
});

test('isolation: the driver pins itself (and what it starts) to the server CPU; no pinning is said and grades smoke', { timeout: 60000 }, async (t) => {
  const raw = tmpDir('protocol-iso');
  t.after(() => fs.rmSync(raw, { recursive: true, force: true }));
  const params = { RB_CPU_SERVER: PROTOCOL.isolation.server_cpu, RB_CPU_LOAD: PROTOCOL.isolation.load_cpu };
  const r = await driverShell(raw, 'RB_PLACE=test; rb_isolate; sh -c \'taskset -pc $$\'; "${RB_LOAD_PIN[@]}" sh -c \'taskset -pc $$\'', params);
  assert.equal(r.code, 0, r.stderr);
  assert.match(fs.readFileSync(path.join(raw, 'isolation-test.txt'), 'utf8'), /^pinned server=0 load=1/);
  const lists = [...r.stdout.matchAll(/current affinity list: (\S+)/g)].map((m) => m[1]);
  assert.deepEqual(lists, [String(PROTOCOL.isolation.server_cpu), String(PROTOCOL.isolation.load_cpu)], r.stdout);
  // taskset refused (a cpuset that forbids it): a clear record, and the grade says why.
  const r2 = await driverShell(raw, 'RB_PLACE=refused; taskset() { return 1; }; rb_isolate', params);
  assert.equal(r2.code, 0, r2.stderr);
  const text = fs.readFileSync(path.join(raw, 'isolation-refused.txt'), 'utf8');
  assert.match(text, /^none taskset could not set the CPU affinity/);
  fs.rmSync(path.join(raw, 'isolation-test.txt'));
  const grade = gradeRun({ quick: false, runs: 10, params: {}, raw, results: [] });
  assert.ok(grade.reasons.some((x) => /no CPU isolation on refused: taskset could not/.test(x)), grade.reasons.join('; '));
});

test('a run that completed no request is failed, left out of the median, and costs the verdict when too few remain', () => {
  const zero = readMeasurement('wrk', path.join(ROOT, 'raw-output/rebench-2026-rails-patterns/007-postgresql-r3-transaction_per_row.txt'));
  assert.match(zero.error, /completed no request/);
  assert.equal(zero.rps, undefined, 'no value at all, not a 0');
  const cell = { id: 'c', measurements: [{ id: 'a' }, { id: 'b' }] };
  const results = [];
  for (let run = 1; run <= 5; run += 1) {
    results.push({ cell, measurement: cell.measurements[0], entry: { run }, metrics: { p50_ms: 100 + run, errors: 0 } });
    results.push({ cell, measurement: cell.measurements[1], entry: { run }, metrics: run === 3 ? zero : { p50_ms: 50 + run, errors: 0 } });
  }
  const spec = { labels: [{ key: 'm', label: 'M', of: (c, m) => m.id }], primary: 'p50_ms', latency: true, baseline: () => ({ cell: 'c', measurement: 'a' }), baselineLabel: () => 'a' };
  const { rows, columns } = summaryRows({ results, cells: [cell], runs: 5, seed: 1 }, spec);
  const at = (row, key) => row[columns.findIndex((c) => c.key === key)];
  assert.equal(at(rows[1], 'runs_ok'), 4);
  assert.equal(at(rows[1], 'p50_ms_median'), 53, 'median of 51, 52, 54, 55: the failed run is not a 0');
  assert.equal(at(rows[1], 'p50_ms_min'), 51);
  assert.equal(at(rows[1], 'verdict'), 'better');
  // Ten planned runs with four good ones: below the protocol's minimum, no verdict.
  const few = summaryRows({ results, cells: [cell], runs: 10, seed: 1 }, spec);
  assert.equal(few.rows[1][few.columns.findIndex((c) => c.key === 'verdict')], 'too few runs');
});

test('a load tool that crashed is a failed run even when its output parses; its log is kept', () => {
  const raw = tmpDir('protocol-crash');
  try {
    const cell = { id: 'c', measurements: [{ id: 'a', tool: 'wrk' }] };
    const plan = [{ idx: 1, cell: 'c', run: 1 }, { idx: 2, cell: 'c', run: 2 }];
    for (const n of ['001-c-r1-a', '002-c-r2-a']) fs.copyFileSync(path.join(ROOT, 'raw-output/rebench-2026-rails-patterns/001-postgresql-r1-eager.txt'), path.join(raw, `${n}.txt`));
    fs.writeFileSync(path.join(raw, '001-c-r1-a.protocol'), 'exit=0\nforeign_pct=3.5\n');
    fs.writeFileSync(path.join(raw, '002-c-r2-a.protocol'), 'exit=139\nforeign_pct=3.5\n');
    const [ok, crashed] = readResults(plan, [cell], raw);
    assert.ok(ok.metrics.rps > 0 && !ok.metrics.error);
    assert.equal(ok.protocol.foreign_pct, 3.5);
    assert.match(crashed.metrics.error, /exited with status 139/);
    assert.equal(crashed.file, '002-c-r2-a.txt', 'the crashed run\'s output stays referenced');
  } finally { fs.rmSync(raw, { recursive: true, force: true }); }
});

test('the quality grade is enforced by the schema and the validator', () => {
  const file = path.join(ROOT, '_data/datasets/rebench-2026-caching.json');
  const good = JSON.parse(fs.readFileSync(file, 'utf8'));
  const knownIds = knownDatasetIds();
  const check = (ds) => validateDataset({ file, text: JSON.stringify(ds, null, 2), knownIds }).map((p) => `${p.field}: ${p.message}`);
  assert.deepEqual(check(good), []);
  assert.equal(good.quality.grade, 'smoke');
  const without = { ...good };
  delete without.quality;
  assert.ok(check(without).some((m) => /\/quality: required/.test(m)), 'a rebench dataset without a grade is rejected');
  const noReason = { ...good, quality: { ...good.quality, reasons: [] } };
  assert.ok(check(noReason).some((m) => /reasons/.test(m)), 'smoke without reasons is rejected');
  const claimed = { ...good, quality: { ...good.quality, grade: 'benchmark', reasons: [], runs_disturbed: 0, foreign_load: { ...good.quality.foreign_load, foreign_cpu_pct_max: 40 } } };
  assert.ok(check(claimed).some((m) => /foreign CPU 40 % is above/.test(m)), 'benchmark with foreign load above the threshold is rejected');
  assert.ok(check(claimed).some((m) => /runs per configuration is below/.test(m)), 'benchmark with 5 runs is rejected');
  const unmeasured = { ...claimed, quality: { ...claimed.quality, foreign_load: { ...claimed.quality.foreign_load, foreign_cpu_pct_max: null } } };
  assert.ok(check(unmeasured).some((m) => /without a measured foreign CPU load/.test(m)));
  assert.ok(check({ ...good, quality: { ...good.quality, grade: 'great' } }).some((m) => /grade/.test(m)));
});

test('every rebench-2026 dataset in the repository carries a grade with its reasons', () => {
  const dir = path.join(ROOT, '_data/datasets');
  const ids = fs.readdirSync(dir).filter((n) => n.startsWith('rebench-2026-'));
  assert.ok(ids.length >= 10);
  for (const n of ids) {
    const q = JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')).quality;
    assert.ok(q && ['smoke', 'benchmark'].includes(q.grade), n);
    if (q.grade === 'smoke') assert.ok(q.reasons.length > 0, n);
  }
  const patterns = JSON.parse(fs.readFileSync(path.join(dir, 'rebench-2026-rails-patterns.json'), 'utf8'));
  assert.equal(patterns.quality.runs_failed, 2, 'the two zero-request runs are recorded failed');
});

test('every figure and dataset page of a graded dataset shows the grade and the measured foreign load', async () => {
  const { figureHtml, datasetPageHtml, qualityBadge } = await import('../../scripts/lib/dataset-html.mjs');
  const vocabulary = JSON.parse(fs.readFileSync(path.join(ROOT, '_data/vocabulary.json'), 'utf8'));
  const ds = JSON.parse(fs.readFileSync(path.join(ROOT, '_data/datasets/rebench-2026-caching.json'), 'utf8'));
  const size = { width: 10, height: 10 };
  const fig = figureHtml(ds, ds.charts[0], { wide: size, narrow: size });
  const load = String(ds.quality.foreign_load.load_average_max).replace('.', '\\.');
  assert.match(fig, new RegExp(`<figcaption>.*Grade: smoke</strong> — did not meet the measurement protocol.*load average up to ${load}.*</figcaption>`, 's'));
  const page = datasetPageHtml(ds, vocabulary);
  assert.match(page, /class="quality-note"/);
  for (const reason of ds.quality.reasons) assert.ok(page.includes(reason.replace(/&/g, '&amp;').replace(/</g, '&lt;')), reason);
  assert.equal(qualityBadge({ ...ds, quality: undefined }), '', 'an old dataset without a grade shows none');
});

test('a run still disturbed after its last try is left out of the medians and verdicts, like a failed run', () => {
  const cell = { id: 'c', measurements: [{ id: 'a' }, { id: 'b' }] };
  const results = [];
  for (let run = 1; run <= 10; run += 1) {
    results.push({ cell, measurement: cell.measurements[0], entry: { run }, metrics: { p50_ms: 100 + run, errors: 0 }, protocol: { disturbed: 0 } });
    // Run 3 of b was disturbed: a stolen CPU made it 10 times slower. It must not move b's median or spread.
    const disturbed = run === 3;
    results.push({ cell, measurement: cell.measurements[1], entry: { run }, metrics: { p50_ms: disturbed ? 900 : 50 + run, errors: 0 }, protocol: { disturbed: disturbed ? 1 : 0 } });
  }
  const spec = { labels: [{ key: 'm', label: 'M', of: (c, m) => m.id }], primary: 'p50_ms', latency: true, baseline: () => ({ cell: 'c', measurement: 'a' }), baselineLabel: () => 'a' };
  const { rows, columns } = summaryRows({ results, cells: [cell], runs: 10, seed: 1 }, spec);
  const at = (row, key) => row[columns.findIndex((c) => c.key === key)];
  assert.equal(at(rows[1], 'runs_ok'), 9, 'nine good runs of ten');
  assert.equal(at(rows[1], 'p50_ms_max'), 60, 'the disturbed 900 ms is not the slowest run counted');
  assert.equal(at(rows[1], 'p50_ms_median'), 56);
  assert.equal(at(rows[1], 'verdict'), 'better');
  assert.match(columns.find((c) => c.key === 'runs_ok').description, /disturbed .* left out too/);
  // Every run of a configuration disturbed: a DISTURBED marker, not a number and not "FAILED".
  const all = results.map((x) => (x.measurement.id === 'b' ? { ...x, protocol: { disturbed: 1 } } : x));
  const none = summaryRows({ results: all, cells: [cell], runs: 10, seed: 1 }, spec);
  assert.equal(none.rows[1][none.columns.findIndex((c) => c.key === 'p50_ms_median')], 'DISTURBED');
  assert.deepEqual(none.markers, ['DISTURBED']);
  // Measured now: today's driver records its protocol version (parameters without one predate the protocol).
  const grade = gradeRun({ quick: false, runs: 10, params: { RB_PROTOCOL_VERSION: PROTOCOL.version, RB_DURATION_S: 10, RB_TRIES: 3 }, raw: null, results: all });
  assert.equal(grade.runs_disturbed, 10);
  assert.ok(grade.reasons.some((x) => /10 of 20 runs were disturbed .*on any CPU.* after 3 tries; they are left out of the medians/.test(x)), grade.reasons.join('; '));
});

test('the monitor reports steal on the worst single CPU and the worst interval, not only the machine-wide average', async (t) => {
  const dir = tmpDir('protocol-steal');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // Three samples a second apart on a 2-CPU machine (100 ticks per CPU per second). CPU 0 loses 30 ticks to the
  // hypervisor in the first second and 2 in the second; CPU 1 none: machine-wide 8 %, CPU 0 alone 16 %.
  const csv = ['t_s,total,busy,steal,experiment,load1,per_cpu',
    '0,1000,100,0,50,0.1,500:0 500:0',
    '1,1200,150,30,100,0.1,600:30 600:0',
    '2,1400,200,32,150,0.1,700:32 700:0'].join('\n') + '\n';
  fs.writeFileSync(path.join(dir, 'new.csv'), csv);
  const r = await run('ruby', [path.join(BENCH, 'monitor.rb'), 'summary', path.join(dir, 'new.csv')], { timeoutMs: 30000 });
  assert.equal(r.code, 0, r.stderr);
  const p = parseProtocolFile(r.stdout);
  assert.equal(p.steal_pct, 8, 'machine-wide: 32 of 400 ticks');
  assert.equal(p.steal_pct_cpu_max, 16, 'CPU 0: 32 of 200 ticks');
  assert.equal(p.steal_pct_worst_interval, 30, 'CPU 0 in the first second: 30 of 100 ticks');
  // Foreign time in % of one CPU: 40 foreign ticks of a 2-CPU second read 40 % of one CPU (20 % of the machine).
  // A sample 0.1 s after the last (a run's final sample) is merged into the interval before it, not read alone.
  fs.writeFileSync(path.join(dir, 'tail.csv'), ['t_s,total,busy,steal,experiment,load1,per_cpu',
    '0,1000,100,0,50,0.1,500:0 500:0', '1,1200,190,0,50,0.1,600:0 600:0', '1.1,1220,210,0,50,0.1,610:0 610:0'].join('\n') + '\n');
  const tail = parseProtocolFile((await run('ruby', [path.join(BENCH, 'monitor.rb'), 'summary', path.join(dir, 'tail.csv')], { timeoutMs: 30000 })).stdout);
  assert.equal(tail.foreign_pct_worst_interval, 50, 'one interval of 1.1 s: 110 foreign ticks of 220');
  assert.equal(tail.foreign_cpu_pct_worst_interval, 100, 'the same as 100 % of one CPU, not the 0.1 s tail alone');
  // A file written before the per-CPU column: the machine's figures stand in, nothing breaks.
  fs.writeFileSync(path.join(dir, 'old.csv'), csv.split('\n').map((l) => l.split(',').slice(0, 6).join(',')).join('\n'));
  const old = parseProtocolFile((await run('ruby', [path.join(BENCH, 'monitor.rb'), 'summary', path.join(dir, 'old.csv')], { timeoutMs: 30000 })).stdout);
  assert.equal(old.steal_pct_cpu_max, 8);
  // The live machine: one window has a per-CPU figure at least the machine-wide one.
  const live = parseProtocolFile((await run('ruby', [path.join(BENCH, 'monitor.rb'), 'window', String(process.pid), '1'], { timeoutMs: 30000 })).stdout);
  assert.ok(Number.isFinite(live.steal_pct_cpu_max) && live.steal_pct_cpu_max >= live.steal_pct, JSON.stringify(live));
});

test('a one-second burst above the cap makes a run disturbed even when the whole run stays under the averages', { timeout: 120000 }, async (t) => {
  const raw = tmpDir('protocol-burst');
  t.after(() => fs.rmSync(raw, { recursive: true, force: true }));
  // The whole-run limits cannot trip (101 %); only the burst cap can. A burner outside the experiment takes one
  // CPU (100 % of one CPU, 50 % of the machine) for about two seconds of a six-second run.
  const params = { ...GATE, RB_GATE_WINDOW_S: '', RB_DISTURB_MAX_FOREIGN: 101, RB_DISTURB_MAX_STEAL: 101, RB_TRIES: 1 };
  const burst = `sh -c 'sleep 1; ( setsid sh -c "timeout 2 sh -c \\"while :; do :; done\\"" & ); sleep 5'`;
  // The production cap (% of one CPU): a burner that takes a whole CPU reads about 100 % in its seconds.
  const cap = PROTOCOL.disturbance.max_interval_pct;
  const capped = await driverShell(raw, `rb_measured "$RAW/capped" ${burst}`, { ...params, RB_DISTURB_MAX_INTERVAL: cap });
  assert.equal(capped.code, 0, capped.stderr);
  const p = parseProtocolFile(fs.readFileSync(path.join(raw, 'capped.protocol'), 'utf8'));
  assert.ok(p.foreign_cpu_pct_worst_interval > cap, `the burst shows in one interval above the ${cap} % cap: ${JSON.stringify(p)}`);
  assert.equal(p.disturbed, 1, 'above the cap: disturbed');
  const uncapped = await driverShell(raw, `rb_measured "$RAW/uncapped" ${burst}`, { ...params, RB_DISTURB_MAX_INTERVAL: '' });
  assert.equal(uncapped.code, 0, uncapped.stderr);
  assert.equal(parseProtocolFile(fs.readFileSync(path.join(raw, 'uncapped.protocol'), 'utf8')).disturbed, 0, 'no cap: the averages decide');
});

test('a verdict that leaving the disturbed runs out would decide is "unsettled", not better or worse', () => {
  const cell = { id: 'c', measurements: [{ id: 'a' }, { id: 'b' }] };
  const results = [];
  for (let run = 1; run <= 10; run += 1) {
    results.push({ cell, measurement: cell.measurements[0], entry: { run }, metrics: { p50_ms: 99 + run, errors: 0 }, protocol: { disturbed: 0 } });
    // b's two disturbed runs were three times slower: without them b is better, with them within the noise.
    const disturbed = run > 8;
    results.push({ cell, measurement: cell.measurements[1], entry: { run }, metrics: { p50_ms: disturbed ? 300 : 92 + run, errors: 0 }, protocol: { disturbed: disturbed ? 1 : 0 } });
  }
  const spec = { labels: [{ key: 'm', label: 'M', of: (c, m) => m.id }], primary: 'p50_ms', latency: false, baseline: () => ({ cell: 'c', measurement: 'a' }), baselineLabel: () => 'a' };
  const { rows, columns } = summaryRows({ results, cells: [cell], runs: 10, seed: 1 }, spec);
  const at = (row, key) => row[columns.findIndex((c) => c.key === key)];
  assert.equal(at(rows[1], 'runs_ok'), 8);
  assert.equal(at(rows[1], 'verdict'), 'unsettled');
  assert.match(columns.find((c) => c.key === 'verdict').description, /"unsettled": no verdict/);
  // Disturbed runs that would not change it leave the verdict alone.
  const calm = results.map((x) => (x.protocol.disturbed ? { ...x, metrics: { ...x.metrics, p50_ms: 95 } } : x));
  const settled = summaryRows({ results: calm, cells: [cell], runs: 10, seed: 1 }, spec);
  assert.equal(settled.rows[1][settled.columns.findIndex((c) => c.key === 'verdict')], 'better');
});
