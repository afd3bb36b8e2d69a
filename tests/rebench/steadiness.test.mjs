// Protocol version 6's throughput steadiness check (lab/bench/steadiness.rb, run by protocol.sh; its Node mirror
// scripts/lib/rebench/steadiness.mjs): constructed windows (a 2 s dip at half speed is caught where the responses
// allow; Poisson noise alone at 30 and 500 requests per second is not, beyond the stated rate), the Ruby and the Node
// judgement agreeing on every case, and real wrk runs through the driver against a local server (a steady one, and
// one that halves its speed for 2 s), including a repeat and runs without windows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, tmpDir, run } from '../tools/util.mjs';
import { judgeWindows, steadinessParams } from '../../scripts/lib/rebench/steadiness.mjs';
import { readResults } from '../../scripts/lib/rebench/readback.mjs';
import { parseProtocolFile, PROTOCOL } from '../../scripts/lib/rebench/protocol.mjs';
import { parse as parseWrk } from '../../scripts/lib/importers/wrk.mjs';
import { driverShell } from '../helpers/driver-shell.mjs';

const S = PROTOCOL.http.steadiness;
const SCRIPT = path.join(ROOT, 'lab/bench/steadiness.rb');
const ARGS = [`min_expected=${S.min_expected_per_window}`, `min_windows=${S.min_windows}`, `slow_ratio=${S.slow_ratio}`, `sigmas=${S.sigmas}`, `max_off_pct=${S.max_off_pct}`,
  `min_block_expected=${S.min_block_expected}`, `trend_min_pct=${S.trend_min_pct}`, `trend_sigmas=${S.trend_sigmas}`, `dispersion=${S.dispersion}`, `window_cv=${S.window_cv}`];
const PARAMS = steadinessParams(PROTOCOL, { quick: false });
const withDir = (t, name) => { const d = tmpDir(name); t.after(() => fs.rmSync(d, { recursive: true, force: true })); return d; };
const windowsLine = (counts) => `WRK_WINDOWS {"window_s":1,"first_epoch_s":1764200000,"counts":[${counts.join(',')}]}`;

/** steadiness.rb on a file holding COUNTS' WRK_WINDOWS line (or TEXT), parsed like a .protocol file. */
async function judgeRuby(dir, name, { counts, text }) {
  const file = path.join(dir, `${name}.txt`);
  fs.writeFileSync(file, text ?? `Running 10s test @ http://127.0.0.1/\n${windowsLine(counts)}\n`);
  const r = await run('ruby', [SCRIPT, file, ...ARGS], { timeoutMs: 20000 });
  assert.equal(r.code, 0, r.stderr);
  return parseProtocolFile(r.stdout);
}
// The driver's steady_* keys without the prefix, as judgeWindows names them.
const unprefixed = (p) => Object.fromEntries(Object.entries(p).filter(([k]) => k.startsWith('steady_')).map(([k, v]) => [k.slice(7), v]));

// A 10 s run at RATE: partial first and last windows, nine whole ones; DIP maps a whole window's index to a factor.
const constant = (rate, dip = {}) => [Math.round(rate * 0.4), ...Array.from({ length: 9 }, (_, i) => Math.round(rate * (dip[i] ?? 1))), Math.round(rate * 0.6)];

test('constructed windows: a 2 s dip at half speed is caught at 500 and 100 req/s; at 30 only a longer one inside a block', async (t) => {
  const dir = withDir(t, 'steady-constructed');
  const cases = {
    dip500: constant(500, { 4: 0.5, 5: 0.5 }),
    dip100: constant(100, { 4: 0.5, 5: 0.5 }),
    // 30 req/s: 3 blocks of 3 s (9 windows, never fewer than 3 blocks). A 3 s stretch at half speed filling the second
    // block is caught; a 2 s one inside it loses 30 of 90 responses, within 3.5 standard deviations: the stated limit.
    dip30long: constant(30, { 3: 0.5, 4: 0.5, 5: 0.5 }),
    dip30: constant(30, { 4: 0.5, 5: 0.5 }),
    // The host at two speeds: the last 5 of 9 windows at 1/1.9. The median is slow; the fast stretch stands out.
    twoSpeeds500: constant(500, { 4: 1 / 1.9, 5: 1 / 1.9, 6: 1 / 1.9, 7: 1 / 1.9, 8: 1 / 1.9 }),
    steady500: constant(500),
    shortRun: [200, 500, 480, 300],
    sparse: [0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0],
    // Version 7: a server still warming, its rate rising 40 % over the run: every block within the limits of the
    // median, so only the half-against-half trend sees it (a 25 % rise is within the API page's measured wander).
    ramp500: [200, ...Array.from({ length: 9 }, (_, i) => Math.round(420 + 21 * i)), 300],
    // Counts that vary twice as much as Poisson would, with no dip or trend: judged, and their dispersion reads ~2+.
    noisy100: [40, 100, 114, 88, 109, 91, 112, 86, 103, 97, 60],
    // Version 7's wandering windows: an API-like page at 600/s whose counts wander by 8 to 13 % from one second to the next
    // all run long (the pilot's API runs: about 4 times Poisson) is judged against its own spread and passes; the
    // same run with 2 s at half speed is still caught.
    wander600: [300, 600, 650, 570, 630, 560, 640, 590, 660, 600, 200],
    stall600: [300, 600, 650, 570, 300, 300, 640, 590, 660, 600, 200],
  };
  const js = Object.fromEntries(Object.entries(cases).map(([k, c]) => [k, judgeWindows(c, S)]));
  assert.deepEqual([js.dip500.windows, js.dip500.slow, js.dip500.unsteady, js.dip500.worst_ratio], [9, 2, 1, 0.5]);
  assert.deepEqual([js.dip100.windows, js.dip100.slow, js.dip100.unsteady], [9, 2, 1]);
  assert.deepEqual([js.dip30long.windows, js.dip30long.block_s, js.dip30long.slow, js.dip30long.unsteady], [3, 3, 1, 1]);
  assert.deepEqual([js.dip30.slow, js.dip30.unsteady, js.dip30.worst_ratio], [0, 0, 0.667]);
  assert.deepEqual([js.twoSpeeds500.slow, js.twoSpeeds500.fast, js.twoSpeeds500.unsteady], [0, 4, 1]);
  assert.deepEqual([js.steady500.off_pct, js.steady500.unsteady], [0, 0]);
  assert.deepEqual(js.shortRun, { judged: 0, why: 'too_few_windows', inner_windows: 2 });
  assert.deepEqual([js.sparse.judged, js.sparse.why], [0, 'underpowered'], 'a response every few seconds: no dip could be seen, so not judged');
  assert.deepEqual([js.ramp500.off_pct, js.ramp500.trending, js.ramp500.unsteady], [0, 1, 1], `a steady rise is caught by the trend alone: ${JSON.stringify(js.ramp500)}`);
  assert.ok(js.ramp500.trend_pct > 5 && js.ramp500.trend_z > S.trend_sigmas, JSON.stringify(js.ramp500));
  assert.deepEqual([js.noisy100.unsteady, js.noisy100.trending], [0, 0], JSON.stringify(js.noisy100));
  assert.ok(js.noisy100.dispersion > 1.5, `over-dispersed counts read so: ${js.noisy100.dispersion}`);
  assert.ok(js.steady500.dispersion === 0, 'identical counts have no dispersion');
  assert.deepEqual([js.wander600.slow, js.wander600.fast, js.wander600.unsteady], [0, 0, 0], JSON.stringify(js.wander600));
  assert.deepEqual([js.stall600.slow, js.stall600.unsteady], [2, 1], JSON.stringify(js.stall600));
  // The lab's judgement is the same, figure for figure.
  const ruby = await Promise.all(Object.entries(cases).map(([name, counts]) => judgeRuby(dir, name, { counts })));
  Object.keys(cases).forEach((name, i) => assert.deepEqual(unprefixed(ruby[i]), js[name], name));
  assert.deepEqual(await judgeRuby(dir, 'ab', { text: 'This is ApacheBench, Version 2.3\nRequests per second:    31.20 [#/sec] (mean)\n' }), { steady_judged: 0, steady_why: 'no_windows' });
});

// Poisson counts from a seeded generator (Knuth's method; exp(-500) is still a normal double).
function poissonRuns(rate, runs, seed) {
  let s = seed >>> 0;
  const uniform = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s + 0.5) / 2 ** 32; };
  const poisson = (lambda) => { const l = Math.exp(-lambda); let k = 0; let p = uniform(); while (p > l) { k += 1; p *= uniform(); } return k; };
  return Array.from({ length: runs }, () => {
    const head = uniform();
    return [poisson(rate * head), ...Array.from({ length: 9 }, () => poisson(rate)), poisson(rate * (1 - head))];
  });
}

test('Poisson noise alone at 30 and at 500 req/s is not flagged beyond the stated rate (2000 seeded 10 s runs each); the lab agrees', async (t) => {
  const dir = withDir(t, 'steady-poisson');
  for (const rate of [30, 500]) {
    const runs = poissonRuns(rate, 2000, rate);
    const judged = runs.map((c) => judgeWindows(c, S));
    assert.ok(judged.every((j) => j.judged === 1), `${rate} req/s: every 10 s run judged`);
    // measurement_protocol.json states about 1 run in 400 at 30 req/s and fewer at 500: a repeat, never a run left out.
    const unsteady = judged.filter((j) => j.unsteady).length;
    assert.ok(unsteady <= 2000 * 0.005, `${rate} req/s: ${unsteady} of 2000 pure-noise runs called unsteady`);
    // The dispersion each run reports is about 1 on Poisson counts: the check of the noise model reads true there.
    const d = judged.map((j) => j.dispersion).sort((a, b) => a - b);
    assert.ok(d[1000] > 0.85 && d[1000] < 1.15, `${rate} req/s: median dispersion ${d[1000]} of Poisson counts`);
    // A few of the same runs through steadiness.rb: the same figures.
    const ruby = await Promise.all(runs.slice(0, 3).map((counts, i) => judgeRuby(dir, `p${rate}-${i}`, { counts })));
    ruby.forEach((p, i) => assert.deepEqual(unprefixed(p), judged[i]));
  }
});

/**
 * A local server that answers at RATE responses a second, or at half that during the DIP (seconds since its first
 * request, [from, to)): each answer is due one interval after the one before was due, on the wall clock, so a late
 * timer or a slow client does not slow the pace (up to 0.2 s behind is caught up). A page at a fixed speed, and one
 * whose host ran it at half speed for a while.
 */
async function pacedServer(t, rate, dip = null) {
  let first = null;
  let due = 0;
  const server = http.createServer((req, res) => {
    const now = Date.now();
    if (first === null) [first, due] = [now, now];
    const s = (now - first) / 1000;
    due = Math.max(due, now - 200) + (dip && s >= dip[0] && s < dip[1] ? 2000 : 1000) / rate;
    setTimeout(() => res.end('ok'), due - now);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return `http://127.0.0.1:${server.address().port}/`;
}
const DRIVER = { RB_MONITOR_S: '', RB_GATE_WINDOW_S: '', RB_DISTURB_MAX_FOREIGN: 101, RB_DISTURB_MAX_STEAL: 101, RB_WRK_WINDOW_S: 1, ...PARAMS };

test('real wrk runs through the driver: a steady page passes, a 2 s stretch at half speed is unsteady; the readback agrees', { timeout: 60000 }, async (t) => {
  const dir = withDir(t, 'steady-wrk');
  // One connection each: 30 req/s, a heavy page's rate, for 10 s (9 whole windows, 3 blocks of 90 expected: judged); and 150 req/s for 8 s, halved from 2 to 4 s (one
  // whole window at half speed at least, at most three touched of seven, so the median stays at full speed). Both at
  // once: they are paced, not CPU-bound.
  const [steadyUrl, dipUrl] = [await pacedServer(t, 30), await pacedServer(t, 150, [2, 4])];
  const [a, b] = await Promise.all([
    driverShell(dir, `rb_wrk "$RAW/001-steady-r1-page" '${steadyUrl}' 1 10`, { ...DRIVER, RB_TRIES: 1 }),
    driverShell(dir, `rb_wrk "$RAW/002-dip-r1-page" '${dipUrl}' 1 8`, { ...DRIVER, RB_TRIES: 1 }),
  ]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  const steady = parseProtocolFile(fs.readFileSync(path.join(dir, '001-steady-r1-page.protocol'), 'utf8'));
  assert.deepEqual([steady.steady_judged, steady.steady_unsteady, steady.unsteady_throughput, steady.repeats_unsteady_throughput, steady.tries], [1, 0, 0, 0, 1], JSON.stringify(steady));
  const dip = parseProtocolFile(fs.readFileSync(path.join(dir, '002-dip-r1-page.protocol'), 'utf8'));
  assert.ok(dip.steady_slow >= 1 && dip.steady_worst_ratio < 0.65, `a 2 s stretch at half speed: ${dip.steady_slow} slow windows (${JSON.stringify(dip)})`);
  assert.deepEqual([dip.steady_unsteady, dip.unsteady_throughput], [1, 1], 'one try only: still unsteady, left out');
  t.diagnostic(`windows: steady ${JSON.stringify(parseWrk(fs.readFileSync(path.join(dir, '001-steady-r1-page.txt'), 'utf8')).windows.counts)}, dip ${JSON.stringify(parseWrk(fs.readFileSync(path.join(dir, '002-dip-r1-page.txt'), 'utf8')).windows.counts)}`);
  // The Node side reads the same windows to the same judgement, and leaves the unsteady run out.
  const cells = [{ id: 'steady', measurements: [{ id: 'page', tool: 'wrk' }] }, { id: 'dip', measurements: [{ id: 'page', tool: 'wrk' }] }];
  const results = readResults([{ idx: 1, cell: 'steady', run: 1 }, { idx: 2, cell: 'dip', run: 1 }], cells, dir);
  for (const [r, p] of [[results[0], steady], [results[1], dip]]) {
    assert.deepEqual(r.metrics.steadiness, unprefixed(p), r.cell.id);
    const w = parseWrk(fs.readFileSync(path.join(dir, r.file), 'utf8')).windows;
    assert.equal(w.counts.reduce((x, y) => x + y, 0), parseWrk(fs.readFileSync(path.join(dir, r.file), 'utf8')).requests);
  }
  assert.ok(results[0].metrics.steadiness.median_per_window >= 20, `about 30 req/s: ${results[0].metrics.steadiness.median_per_window} a second`);
});

test('the driver repeats an unsteady run (reason unsteady_throughput), keeps the try, and runs without windows are not judged', { timeout: 30000 }, async (t) => {
  const dir = withDir(t, 'steady-repeat');
  // A stand-in load tool: the first try prints a 2 s dip at half speed, the next a steady run.
  fs.writeFileSync(path.join(dir, 'dip.txt'), `${windowsLine(constant(500, { 3: 0.5, 4: 0.5 }))}\n`);
  fs.writeFileSync(path.join(dir, 'flat.txt'), `${windowsLine(constant(500))}\n`);
  const tool = `tool() { if [ -e "$RAW/tried" ]; then cat "$RAW/flat.txt"; else touch "$RAW/tried"; cat "$RAW/dip.txt"; fi; }`;
  const r = await driverShell(dir, `${tool}; rb_measured "$RAW/run" tool; rb_measured "$RAW/ab" echo 'Requests per second: 1'`, { ...DRIVER, RB_TRIES: 3 });
  assert.equal(r.code, 0, r.stderr);
  const p = parseProtocolFile(fs.readFileSync(path.join(dir, 'run.protocol'), 'utf8'));
  assert.deepEqual([p.tries, p.unsteady_throughput, p.repeats_unsteady_throughput, p.steady_unsteady, p.disturbed], [2, 0, 1, 0, 0]);
  const first = parseProtocolFile(fs.readFileSync(path.join(dir, 'run.disturbed-1.protocol'), 'utf8'));
  assert.deepEqual([first.steady_slow, first.repeated_because], [2, 'unsteady_throughput']);
  assert.match(fs.readFileSync(path.join(dir, 'driver.log'), 'utf8'), /run: unsteady throughput \(22\.2 % of 9 blocks off the run's median, above 10 %\), try 1 of 3; repeating/);
  const ab = parseProtocolFile(fs.readFileSync(path.join(dir, 'ab.protocol'), 'utf8'));
  assert.deepEqual([ab.steady_judged, ab.steady_why, ab.unsteady_throughput, ab.tries], [0, 'no_windows', 0, 1]);
  // Without the parameters (a --quick run, or a driver before version 6) nothing is judged or recorded.
  const off = await driverShell(dir, `rb_measured "$RAW/off" cat "$RAW/dip.txt"`, { ...DRIVER, RB_STEADY_MAX_OFF_PCT: '', RB_TRIES: 2 });
  assert.equal(off.code, 0, off.stderr);
  const o = parseProtocolFile(fs.readFileSync(path.join(dir, 'off.protocol'), 'utf8'));
  assert.deepEqual([o.steady_judged, o.unsteady_throughput, o.tries], [undefined, undefined, 1]);
});
