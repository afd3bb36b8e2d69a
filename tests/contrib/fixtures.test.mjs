// Importers on stored samples of unusual output (errors, timeouts, non-2xx, refused connections).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, allProblems, column, cell, META } from './tools.mjs';
import { importDataset } from '../../scripts/lib/importers/index.mjs';
import * as ab from '../../scripts/lib/importers/ab.mjs';
import * as wrk from '../../scripts/lib/importers/wrk.mjs';
import * as httperf from '../../scripts/lib/importers/httperf.mjs';
import * as ips from '../../scripts/lib/importers/benchmark-ips.mjs';

const imp = (tool, files, id) => importDataset(tool, files.map((f) => ({ label: f.replace(/\.\w+$/, ''), file: f, text: fixture(f) })), { id, ...META });
const assertValid = async (ds) => assert.deepEqual((await allProblems(ds)).map((p) => `${p.field}: ${p.message}`), []);

test('ab non-2xx: failed requests broken down, Length failures separated from real ones', async () => {
  const r = ab.parse(fixture('ab-non2xx.txt'));
  assert.equal(r.complete, 60);
  assert.equal(r.failed, 40);
  assert.deepEqual(r.failedBy, { connect: 0, receive: 0, length: 40, exceptions: 0 });
  assert.equal(r.non2xx, 20);
  assert.equal(r.rps, '1677.71');
  assert.deepEqual(r.times.total, { min: 1, mean: 2, sd: 1.3, median: 1, max: 6 });
  assert.equal(r.percentiles['100'], 6);
  const ds = imp('ab', ['ab-non2xx.txt'], 'fx-ab-non2xx');
  await assertValid(ds);
  assert.ok(ds.caveats.some((c) => /Length/.test(c)), 'explains that Length failures may be harmless');
  assert.match(ds.summary, /20 requests failed or returned non-2xx/);
});

test('ab stopped by a timeout or a refused connection: markers instead of numbers', async () => {
  const ds = imp('ab', ['ab-timeout.txt', 'ab-timeout-partial.txt', 'ab-refused.txt'], 'fx-ab-stopped');
  await assertValid(ds);
  assert.deepEqual(column(ds, 'requests_per_s'), ['TIMEOUT', 'TIMEOUT', 'CONNECT-FAILED']);
  assert.deepEqual(column(ds, 'complete_requests'), [0, 7, 0]);
  assert.deepEqual(ds.failures.markers, ['CONNECT-FAILED', 'TIMEOUT']);
  assert.match(ds.summary, /stopped before finishing/);
  // Both charts plot columns that hold markers, so both must draw the markers.
  for (const c of ds.charts) assert.match(JSON.stringify(c.spec), /requests_per_s_failure|total_min_ms_failure/);
});

test('wrk non-2xx: counted, and flagged as included in requests/sec', async () => {
  const r = wrk.parse(fixture('wrk-non2xx.txt'));
  assert.equal(r.non2xx, 2842);
  assert.equal(r.requests, 8526);
  assert.deepEqual(r.percentiles, { 50: 0.186, 75: 2.01, 90: 4.24, 99: 30.67 });
  assert.equal(r.latency.max, 48.13);
  assert.equal(r.reqSec.mean, 8570);
  const ds = imp('wrk', ['wrk-non2xx.txt'], 'fx-wrk-non2xx');
  await assertValid(ds);
  assert.equal(cell(ds, 0, 'non_2xx_3xx'), 2842);
  assert.equal(cell(ds, 0, 'requests_per_s'), 8474.12);
  assert.ok(ds.caveats.some((c) => /status 400 or higher/.test(c)));
});

test('wrk timeout with the Lua report: -nan% and zero latency become TIMEOUT, exact counts from JSON', async () => {
  const r = wrk.parse(fixture('wrk-timeout-lua.txt'));
  assert.equal(r.latency.withinStdev, null, '-nan% parsed as unknown');
  assert.equal(r.noLatency, true);
  assert.equal(r.lua.errors.timeout, 1);
  assert.equal(r.elapsedS, 3.004823);
  const ds = imp('wrk', ['wrk-timeout-lua.txt'], 'fx-wrk-timeout');
  await assertValid(ds);
  assert.equal(cell(ds, 0, 'socket_timeouts'), 1);
  assert.equal(cell(ds, 0, 'latency_mean_ms'), 'TIMEOUT');
  assert.equal(cell(ds, 0, 'latency_min_ms'), 'TIMEOUT', 'the Lua min (UINT64 max when nothing was recorded) is not a latency');
  assert.equal(cell(ds, 0, 'requests_per_s'), 0.33);
});

test('wrk without --latency: no percentile columns, the chart spreads mean to max', async () => {
  const ds = imp('wrk', ['wrk-no-latency-flag.txt'], 'fx-wrk-plain');
  await assertValid(ds);
  assert.ok(!ds.columns.some((c) => /^p\d/.test(c.key)), 'no percentile columns without --latency');
  assert.equal(cell(ds, 0, 'latency_mean_ms'), 3.4);
  assert.equal(cell(ds, 0, 'latency_max_ms'), 73.37);
  assert.deepEqual(ds.charts[0].columns, ['run', 'latency_mean_ms', 'latency_max_ms']);
  assert.equal(cell(ds, 0, 'duration_s'), 1);
  assert.equal(cell(ds, 0, 'read_mib'), 2.18);
});

test('wrk refused: a run that never connected is one row of CONNECT-FAILED', async () => {
  const r = wrk.parse(fixture('wrk-refused.txt'));
  assert.equal(r.error, 'unable to connect: Connection refused');
  assert.equal(r.url, 'http://127.0.0.1:18099/');
  const ds = imp('wrk', ['wrk-refused.txt', 'wrk-non2xx.txt'], 'fx-wrk-refused');
  await assertValid(ds);
  assert.equal(cell(ds, 0, 'requests'), 'CONNECT-FAILED');
  assert.equal(cell(ds, 0, 'socket_connect_errors'), 1);
  assert.equal(cell(ds, 1, 'requests'), 8526);
});

test('httperf timeout: zero replies, client-timo counted, times are TIMEOUT not 0.0', async () => {
  const r = httperf.parse(fixture('httperf-timeout.txt'));
  assert.equal(r.replies, 0);
  assert.equal(r.errors.clientTimo, 4);
  assert.equal(r.timeout, 1);
  const ds = imp('httperf', ['httperf-timeout.txt'], 'fx-httperf-timeout');
  await assertValid(ds);
  assert.equal(cell(ds, 0, 'conn_time_median_ms'), 'TIMEOUT');
  assert.equal(cell(ds, 0, 'client_timeouts'), 4);
  assert.equal(cell(ds, 0, 'reply_rate_avg'), null, 'no reply-rate samples in a short run');
  assert.ok(ds.caveats.some((c) => /5 seconds/.test(c)));
});

test('hyperfine -i: non-zero exit codes kept per sample', async () => {
  const ds = imp('hyperfine', ['hyperfine-nonzero-exit.json'], 'fx-hyperfine-exit');
  await assertValid(ds);
  const samples = ds.rows.filter((r) => r[ds.columns.findIndex((c) => c.key === 'statistic')] === 'sample');
  const exit = ds.columns.findIndex((c) => c.key === 'exit_code');
  assert.deepEqual(samples.map((r) => r[exit]), [1, 1, 1, 3, 3, 3]);
  assert.equal(ds.rows.length, 6 + 2 * 7, 'six samples and seven statistics per command');
});

test('benchmark-ips: text and JSON of the same run; older text layout', async () => {
  const t = ips.parse(fixture('benchmark-ips-2.15.txt'));
  const j = ips.parse(fixture('benchmark-ips-2.15.json'));
  assert.deepEqual(t.entries.map((e) => e.name), ['Array#map', 'Array#each+push', 'sleep']);
  assert.equal(t.entries[0].ips, 112945);
  assert.equal(t.entries[0].errorPct, 27.7);
  assert.equal(t.entries[0].perIterUs, 8.85);
  assert.equal(t.entries[2].perIterUs, 10250, '10.25 ms/i in microseconds');
  assert.equal(t.entries[0].cycles, 14716);
  assert.equal(t.entries[2].slower, 1157.4);
  assert.equal(t.entries[1].comparison, 'same-ish: difference falls within error');
  assert.equal(j.entries[0].error, 31330);
  assert.equal(j.entries[0].iterations, 73580);
  assert.match(t.ruby, /^ruby 3\./);
  const old = ips.parse(fixture('benchmark-ips-older-layout.txt'));
  assert.deepEqual(old.entries.map((e) => [e.name, e.ips, e.errorPct, e.iterations, e.timeS, e.cycles]), [
    ['String#+ (concat)', 1307000, 4.2, 6620000, 5.073612, 108522],
    ['a label that is longer than twenty characters', 552118, 12.9, 2720000, 5.005001, 52311],
  ]);
  assert.equal(old.entries[1].slower, 2.37);
  for (const [files, id] of [[['benchmark-ips-2.15.txt'], 'fx-ips-text'], [['benchmark-ips-2.15.json'], 'fx-ips-json'], [['benchmark-ips-2.15.txt', 'benchmark-ips-older-layout.txt'], 'fx-ips-two']]) {
    const ds = imp('benchmark-ips', files, id);
    await assertValid(ds);
  }
  // 112945 vs 97.6 i/s: more than 100× apart, so the chart uses a log scale and dots, not bars from zero.
  const ds = imp('benchmark-ips', ['benchmark-ips-2.15.json'], 'fx-ips-log');
  assert.equal(ds.charts[0].spec.layer[0].encoding.x.scale.type, 'log');
});

test('importers refuse output of another tool with a message naming the expected input', async () => {
  assert.throws(() => imp('wrk', ['ab-non2xx.txt'], 'fx-wrong'), /does not look like wrk output/);
  assert.throws(() => imp('ab', ['wrk-non2xx.txt'], 'fx-wrong'), /does not look like ApacheBench output/);
  assert.throws(() => imp('httperf', ['wrk-non2xx.txt'], 'fx-wrong'), /does not look like httperf output/);
  assert.throws(() => imp('hyperfine', ['wrk-non2xx.txt'], 'fx-wrong'), /hyperfine --export-json/);
  assert.throws(() => imp('benchmark-ips', ['wrk-non2xx.txt'], 'fx-wrong'), /no report lines found/);
  assert.throws(() => importDataset('siege', [{ label: 'x', file: 'x', text: '' }], { id: 'x' }), /unknown tool "siege"/);
});
