// Each importer on output produced here by the real tool against a server on 127.0.0.1:
// the parsed numbers must agree with what the server counted, and the dataset must validate.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from './local-server.mjs';
import { runTool, tempDir, allProblems, column, cell, META, ROOT } from './tools.mjs';
import { importDataset } from '../../scripts/lib/importers/index.mjs';

let server;
let dir;
before(async () => { server = await startServer({ slowMs: 2500 }); dir = tempDir(); });
after(async () => { await server.close(); rmSync(dir, { recursive: true, force: true }); });

const input = (label, text) => ({ label, text, file: `${label}.txt` });
const assertValid = async (ds) => assert.deepEqual((await allProblems(ds)).map((p) => `${p.field}: ${p.message}`), []);
const nondecreasing = (xs) => xs.every((x, i) => i === 0 || x >= xs[i - 1]);

test('ab: counts, connection times and percentiles match a real run', async () => {
  server.reset();
  const gOk = join(dir, 'ab-c4.tsv');
  const gErr = join(dir, 'ab-err.tsv');
  const ok = await runTool('ab', ['-n', '200', '-c', '4', '-g', gOk, `${server.url}/`]);
  assert.equal(ok.code, 0, ok.output);
  const served = server.counts.total;
  server.reset();
  const err = await runTool('ab', ['-n', '60', '-c', '3', '-g', gErr, `${server.url}/err`]);
  const errors500 = server.counts.errors;
  const ds = importDataset('ab', [input('c4', ok.output), input('err', err.output)], { id: 'test-ab-real', ...META });
  await assertValid(ds);
  assert.equal(cell(ds, 0, 'complete_requests'), 200);
  assert.equal(served, 200, 'the server answered every request ab reports');
  assert.equal(cell(ds, 0, 'concurrency'), 4);
  assert.equal(cell(ds, 0, 'failed_requests'), 0);
  assert.equal(cell(ds, 0, 'url'), `${server.url}/`);
  const pcts = ['p50_ms', 'p66_ms', 'p75_ms', 'p80_ms', 'p90_ms', 'p95_ms', 'p98_ms', 'p99_ms', 'p100_ms'].map((k) => cell(ds, 0, k));
  assert.ok(nondecreasing(pcts), `percentiles rise: ${pcts}`);
  assert.equal(cell(ds, 0, 'p100_ms'), cell(ds, 0, 'total_max_ms'), 'ab\'s 100% line is its longest request');
  assert.ok(cell(ds, 0, 'requests_per_s') > 0);
  assert.equal(cell(ds, 1, 'non_2xx'), errors500, 'non-2xx responses equal the 500s the server sent');
  assert.ok(errors500 > 0);
  assert.equal(ds.method.tool, 'ab');
  assert.deepEqual(ds.charts.map((c) => c.id), ['latency-spread', 'throughput']);
  // Provenance from ab's own output: the Server header it saw.
  assert.deepEqual(ds.software.find((s) => s.name === 'scaling-rails-test'), { name: 'scaling-rails-test', version: '1.0 (from the Server response header)' });

  // The -g files of the same runs: every request kept, consistent with the text report.
  const { readFileSync } = await import('node:fs');
  const samples = importDataset('ab', [{ label: 'c4', file: gOk, text: readFileSync(gOk, 'utf8') }, { label: 'err', file: gErr, text: readFileSync(gErr, 'utf8') }], { id: 'test-ab-samples', ...META });
  await assertValid(samples);
  const runOf = column(samples, 'run');
  const totals = column(samples, 'total_ms').filter((_, i) => runOf[i] === 'c4');
  assert.equal(totals.length, 200, 'one row per request');
  assert.equal(Math.max(...totals), cell(ds, 0, 'total_max_ms'), 'longest sample = ab\'s Total max');
  assert.equal(Math.min(...totals), cell(ds, 0, 'total_min_ms'), 'shortest sample = ab\'s Total min');
  assert.equal(column(samples, 'run').filter((r) => r === 'err').length, 60);
  assert.equal(samples.method.aggregation, 'raw samples');
  assert.throws(() => importDataset('ab', [input('text', ok.output), { label: 'g', file: gOk, text: readFileSync(gOk, 'utf8') }], { id: 'x', ...META }), /not both/);
});

test('ab: a timeout stops the run and becomes TIMEOUT cells, not missing data', async () => {
  const out = await runTool('ab', ['-n', '6', '-c', '2', '-s', '1', `${server.url}/slow`]);
  assert.notEqual(out.code, 0);
  const ds = importDataset('ab', [input('slow', out.output)], { id: 'test-ab-timeout', ...META });
  await assertValid(ds);
  assert.deepEqual(ds.failures.markers, ['TIMEOUT']);
  assert.equal(cell(ds, 0, 'requests_per_s'), 'TIMEOUT');
  assert.equal(cell(ds, 0, 'complete_requests'), 0);
  assert.match(JSON.stringify(ds.charts[0].spec), /_failure/);
});

test('wrk: --latency percentiles, Lua JSON line and non-2xx counts from real runs', async () => {
  const lua = join(ROOT, 'scripts/lib/importers/wrk-report.lua');
  server.reset();
  const plain = await runTool('wrk', ['-t1', '-c4', '-d1s', '--latency', `${server.url}/`]);
  assert.equal(plain.code, 0, plain.output);
  const servedPlain = server.counts.total;
  server.reset();
  const withLua = await runTool('wrk', ['-t1', '-c4', '-d1s', '--latency', '-s', lua, `${server.url}/err`]);
  assert.equal(withLua.code, 0, withLua.output);
  const errors500 = server.counts.errors;
  const ds = importDataset('wrk', [input('plain', plain.output), input('lua-err', withLua.output)], { id: 'test-wrk-real', ...META });
  await assertValid(ds);
  const reqs = column(ds, 'requests');
  assert.ok(reqs[0] > 0 && reqs[0] <= servedPlain, `wrk counted ${reqs[0]} of ${servedPlain} served`);
  assert.equal(cell(ds, 0, 'connections'), 4);
  assert.equal(cell(ds, 0, 'duration_s'), 1);
  // The Lua line carries exact counts: wrk's status errors are the server's 500s that arrived within the run.
  const non2xx = cell(ds, 1, 'non_2xx_3xx');
  assert.ok(non2xx > 0 && non2xx <= errors500, `non-2xx ${non2xx} vs 500s sent ${errors500}`);
  assert.equal(cell(ds, 0, 'non_2xx_3xx'), 0);
  const luaRow = ['latency_min_ms', 'p50_ms', 'p75_ms', 'p90_ms', 'p99_ms', 'p99_9_ms', 'p99_99_ms', 'latency_max_ms'].map((k) => cell(ds, 1, k));
  assert.ok(luaRow.every((v) => typeof v === 'number'), `Lua run has every statistic: ${luaRow}`);
  assert.ok(nondecreasing(luaRow), `latency statistics rise: ${luaRow}`);
  assert.equal(cell(ds, 0, 'p99_9_ms'), null, 'the plain run has no p99.9 (only the Lua script gives it)');
  assert.ok(ds.summary.includes('req/s'));
});

test('wrk: every request timing out gives TIMEOUT latency cells and a timeout count', async () => {
  // wrk counts timeouts on a 2-second timer, so the run must last longer than that.
  const out = await runTool('wrk', ['-t1', '-c2', '-d3s', '--timeout', '1s', '--latency', `${server.url}/slow`]);
  const ds = importDataset('wrk', [input('slow', out.output)], { id: 'test-wrk-timeout', ...META });
  await assertValid(ds);
  assert.ok(cell(ds, 0, 'socket_timeouts') > 0, out.output);
  assert.equal(cell(ds, 0, 'p99_ms'), 'TIMEOUT');
  assert.deepEqual(ds.failures.markers, ['TIMEOUT']);
});

test('httperf: replies and status counts match the server; timeouts become data', async () => {
  server.reset();
  const ok = await runTool('httperf', ['--server', '127.0.0.1', '--port', String(server.port), '--uri', '/', '--num-conns', '40', '--rate', '80']);
  assert.equal(ok.code, 0, ok.output);
  const served = server.counts.total;
  const slow = await runTool('httperf', ['--server', '127.0.0.1', '--port', String(server.port), '--uri', '/slow', '--num-conns', '3', '--rate', '6', '--timeout', '1']);
  const ds = importDataset('httperf', [input('rate80', ok.output), input('slow', slow.output)], { id: 'test-httperf-real', ...META });
  await assertValid(ds);
  assert.equal(cell(ds, 0, 'replies'), 40);
  assert.equal(served, 40);
  assert.equal(cell(ds, 0, 'status_2xx'), 40);
  assert.equal(cell(ds, 0, 'rate'), 80);
  const [min, median, max] = ['conn_time_min_ms', 'conn_time_median_ms', 'conn_time_max_ms'].map((k) => cell(ds, 0, k));
  assert.ok(min <= max, `min ≤ max: ${min}, ${max}`);
  // httperf takes its median from a histogram of 1 ms bins and prints the bin's centre (k + 0.5 ms), so it can
  // sit just below the exact min (min 0.6, median 0.5): the median's bin must overlap [min, max].
  assert.ok(Number.isInteger(median - 0.5), `median is a bin centre: ${median}`);
  assert.ok(median - 0.5 <= max && median + 0.5 >= min, `median bin [${median - 0.5}, ${median + 0.5}] overlaps [${min}, ${max}]`);
  assert.equal(cell(ds, 1, 'client_timeouts'), 3);
  assert.equal(cell(ds, 1, 'conn_time_median_ms'), 'TIMEOUT');
  assert.deepEqual(ds.failures.markers, ['TIMEOUT']);
});

test('hyperfine: every sample kept next to hyperfine\'s own statistics, failing runs recorded', async () => {
  const json = join(dir, 'hyperfine.json');
  // Timed commands hit the local server with ab; the second one targets a closed port and fails every run.
  server.reset();
  const out = await runTool('hyperfine', ['-N', '-i', '--runs', '5', '--warmup', '1', '--export-json', json,
    `ab -q -n 20 -c 2 ${server.url}/`, 'ab -q -n 1 http://127.0.0.1:9/']);
  assert.equal(out.code, 0, out.output);
  assert.equal(server.counts.total, 20 * 6, 'one warm-up and five timed runs of 20 requests reached the server');
  const { readFileSync } = await import('node:fs');
  const raw = JSON.parse(readFileSync(json, 'utf8'));
  const ds = importDataset('hyperfine', [{ label: 'hyperfine', file: json, text: JSON.stringify(raw) }], { id: 'test-hyperfine-real', ...META, warmup: 'hyperfine --warmup 1' });
  await assertValid(ds);
  const rows = ds.rows.map((r) => Object.fromEntries(ds.columns.map((c, i) => [c.key, r[i]])));
  for (const res of raw.results) {
    const samples = rows.filter((r) => r.command === res.command && r.statistic === 'sample');
    assert.deepEqual(samples.map((r) => r.time_s), res.times, 'samples kept exactly');
    assert.equal(rows.find((r) => r.command === res.command && r.statistic === 'min').time_s, Math.min(...res.times));
    assert.equal(rows.find((r) => r.command === res.command && r.statistic === 'mean').time_s, res.mean);
  }
  const exits = (cmd) => rows.filter((r) => r.command.startsWith(cmd) && r.statistic === 'sample').map((r) => r.exit_code);
  assert.deepEqual(exits(`ab -q -n 20 -c 2 ${server.url}`), [0, 0, 0, 0, 0]);
  assert.ok(exits('ab -q -n 1 http://127.0.0.1:9/').every((c) => c !== 0), 'refused connection: non-zero exit kept');
  assert.equal(ds.method.runs, 5);
  assert.equal(ds.method.aggregation, 'raw samples');
  assert.ok(ds.caveats.some((c) => /non-zero/.test(c)));
});

test('benchmark-ips: text report and x.json! output of the same run agree', async () => {
  const json = join(dir, 'ips.json');
  const script = join(dir, 'ips.rb');
  writeFileSync(script, `require "benchmark/ips"
require "net/http"
uri = URI(${JSON.stringify(`${server.url}/`)})
http = Net::HTTP.start(uri.host, uri.port)
Benchmark.ips do |x|
  x.config(warmup: 0.2, time: 0.5)
  x.report("GET / keep-alive") { http.get("/") }
  x.report("Array#sum") { (1..100).sum }
  x.compare!
  x.json! ${JSON.stringify(json)}
end
`);
  const out = await runTool('bundle', ['exec', 'ruby', script], { timeoutMs: 120000 });
  assert.equal(out.code, 0, out.output);
  const { readFileSync } = await import('node:fs');
  const fromText = importDataset('benchmark-ips', [input('ips', out.stdout)], { id: 'test-ips-text', ...META });
  const fromJson = importDataset('benchmark-ips', [{ label: 'ips', file: json, text: readFileSync(json, 'utf8') }], { id: 'test-ips-json', ...META });
  await assertValid(fromText);
  await assertValid(fromJson);
  assert.deepEqual(column(fromText, 'name'), ['GET / keep-alive', 'Array#sum']);
  assert.deepEqual(column(fromJson, 'name'), ['GET / keep-alive', 'Array#sum']);
  column(fromJson, 'ips').forEach((ips, i) => {
    const printed = column(fromText, 'ips')[i];
    assert.ok(Math.abs(printed - ips) / ips < 0.001, `text ${printed} ≈ json ${ips}`);
  });
  assert.deepEqual(column(fromJson, 'iterations').map((n, i) => Math.abs(n - column(fromText, 'iterations')[i]) / n < 0.001), [true, true]);
  assert.ok(column(fromText, 'comparison').includes('fastest'));
  assert.match(fromText.software.find((s) => s.name.startsWith('Ruby (')).version, /^ruby \d/);
});
