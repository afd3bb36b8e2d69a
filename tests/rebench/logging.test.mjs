// The logging experiment (scripts/rebench logging) without the lab: the lab side's measured command
// (lg_wrk in lab/bench/exp/logging.sh, real wrk) against a server this test starts on 127.0.0.1 that appends a
// known number of bytes and lines to a log file per request, read back through the runner's wrk reader and
// logbytes-read.mjs; then the dataset builder fed such records. A log sent to /dev/null has no byte count (null),
// never a zero. The experiment itself boots Rails in the lab (minutes; not in this test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, run, tmpDir } from '../tools/util.mjs';
import { readLogBytes, perRequest } from '../../scripts/lib/rebench/logbytes-read.mjs';
import { readMeasurement } from '../../scripts/lib/rebench/readback.mjs';
import { drawPlan, rawName } from '../../scripts/lib/rebench/plan.mjs';
import { byName } from '../../scripts/lib/rebench/experiments/index.mjs';
import { loggingAnswers } from '../../scripts/lib/rebench/experiments/logging.mjs';
import { validate } from '../../scripts/lib/rebench/cli.mjs';

const BENCH = path.join(ROOT, 'lab/bench');
// Two lines, 100 bytes, per request: what the server below logs.
const LINES = `${'I, [request] Started GET "/regular"'.padEnd(49, '.')}\n${'I, [request] Completed 200 OK'.padEnd(49, '.')}\n`;

test('readLogBytes: complete records only', () => {
  assert.deepEqual(readLogBytes('bytes=1234\nlines=7\n'), { bytes: 1234, lines: 7 });
  assert.equal(readLogBytes('bytes=1234\n'), null, 'no lines: incomplete');
  assert.equal(readLogBytes('bytes=-5\nlines=1\n'), null, 'a negative size is not a record');
  assert.equal(readLogBytes(''), null);
  assert.equal(perRequest('/nonexistent', { file: 'x.txt', metrics: { requests: 10 } }), null, 'no record: unknown, not zero');
  assert.equal(perRequest('/nonexistent', { file: 'x.txt', metrics: { error: 'failed' } }), null);
});

test('lg_wrk (the lab side): the log\'s growth during the measured wrk run, per completed request', { timeout: 60000 }, async (t) => {
  assert.equal(LINES.length, 100);
  const work = tmpDir('logging');
  t.after(() => fs.rmSync(work, { recursive: true, force: true }));
  const log = path.join(work, 'app.log');
  fs.writeFileSync(log, 'Puma starting in cluster mode...\n');
  const server = http.createServer((req, res) => { fs.appendFileSync(log, LINES); res.end('ok\n'); });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${server.address().port}/regular`;
  const script = [
    'set -uo pipefail', 'BENCH=$1 WORK=$2 RAW=$2/raw', 'mkdir -p "$RAW"',
    'source "$BENCH/lib.sh"', 'source "$BENCH/exp/logging.sh"', 'RB_CONNECTIONS=2 RB_DURATION_S=1',
    'lg_wrk "$RAW/001-info-file-r1-regular" "$3" "$4" > "$RAW/001-info-file-r1-regular.txt"; echo "file rc=$?"',
    'lg_wrk "$RAW/002-info-null-r1-regular" "" "$4" > "$RAW/002-info-null-r1-regular.txt"; echo "null rc=$?"',
  ].join('\n');
  const r = await run('bash', ['-c', script, 'lg-test', BENCH, work, log, url], { timeoutMs: 45000 });
  assert.equal(r.stdout.trim(), 'file rc=0\nnull rc=0', `${r.stdout}\n${r.stderr}`);
  const raw = path.join(work, 'raw');
  const fileRun = readMeasurement('wrk', path.join(raw, '001-info-file-r1-regular.txt'));
  assert.equal(fileRun.error, undefined, JSON.stringify(fileRun));
  assert.ok(fileRun.requests > 50, `wrk completed ${fileRun.requests} requests`);
  const per = perRequest(raw, { file: '001-info-file-r1-regular.txt', metrics: fileRun });
  // Boot lines before the run are not counted; requests still in flight when wrk stopped (at most the 2
  // connections) are: per request it is 100 bytes and 2 lines, a little over at most.
  assert.ok(per.bytes >= 100 && per.bytes <= 100 * (1 + 2 / fileRun.requests) + 0.01, `bytes per request ${per.bytes} (${fileRun.requests} requests)`);
  assert.ok(per.lines >= 2 && per.lines <= 2 * (1 + 2 / fileRun.requests) + 0.001, `lines per request ${per.lines}`);
  const sample = fs.readFileSync(path.join(raw, '001-info-file-r1-regular.logsample'), 'utf8').split('\n').filter(Boolean);
  assert.equal(sample.length, 12, 'the first 12 lines of the run\'s log are kept');
  assert.ok(sample.every((l) => /^I, \[request\] (Started|Completed)/.test(l)), 'the sample starts at the run, not at boot');
  // /dev/null: measured the same way, nothing counted.
  const nullRun = readMeasurement('wrk', path.join(raw, '002-info-null-r1-regular.txt'));
  assert.ok(nullRun.requests > 50);
  assert.equal(fs.existsSync(path.join(raw, '002-info-null-r1-regular.logbytes')), false);
  assert.equal(perRequest(raw, { file: '002-info-null-r1-regular.txt', metrics: nullRun }), null);
});

test('the logging dataset: cells the lab side can parse, bytes per request from the records, none for /dev/null', { timeout: 60000 }, async (t) => {
  const exp = byName('logging');
  const cells = exp.cells(exp.full);
  // lab/bench/exp/logging.sh takes the level and the destination from the cell id.
  for (const c of cells) assert.match(c.id, /^(info|debug|warn)-(file|null)$/);
  // On the lab's Ruby 3.4 YJIT build, with the wizard asked for the server's one CPU (the protocol's isolation).
  assert.ok(cells.every((c) => c.ruby === '3.4-yjit'));
  assert.equal(loggingAnswers().cores, 1);
  assert.deepEqual(cells.map((c) => c.id), ['info-file', 'debug-file', 'warn-file', 'info-null']);
  assert.ok(exp.cells(exp.quick).every((c) => c.id.endsWith('-file')), 'the quick run counts bytes in both its cells');
  const out = tmpDir('logging-ds');
  t.after(() => fs.rmSync(out, { recursive: true, force: true }));
  const raw = path.join(out, 'raw');
  fs.mkdirSync(raw);
  const bytesPer = { 'info-file': 900, 'debug-file': 5400, 'warn-file': 0 };
  const plan = drawPlan(cells, 4, 3);
  const results = plan.map((entry) => {
    const cell = cells.find((c) => c.id === entry.cell);
    const m = cell.measurements[0];
    const file = `${rawName(entry, m.id)}.txt`;
    const requests = 1000 + entry.run;
    if (bytesPer[cell.id] !== undefined) fs.writeFileSync(path.join(raw, file.replace(/\.txt$/, '.logbytes')), `bytes=${bytesPer[cell.id] * requests}\nlines=${(cell.id === 'warn-file' ? 0 : 4) * requests}\n`);
    const rps = (cell.id === 'warn-file' ? 200 : 100) * [0.98, 1, 1.02, 0.99][entry.run - 1];
    return { entry, cell, measurement: m, metrics: { rps, p50_ms: 20, p99_ms: 60, requests, errors: 0 }, memory: null, load: '1.00 1.00 1.00 -> 1.00 1.00 1.00', file };
  });
  const ctx = {
    exp, quick: false, runs: 4, seed: 3, plan, cells, results,
    machine: { cpu_model: 'Test CPU', logical_cpus: 2, ram_gib: 8, virtualisation: 'kvm', kernel: '6.1.0', distribution: 'Debian GNU/Linux 12 (bookworm)', cpu_governor: 'performance', node: 'v20.0.0' },
    started: new Date('2026-11-26T08:00:00Z'), finished: new Date('2026-11-26T08:20:00Z'), load: { before: [1, 1, 1], after: [1, 1, 1] },
    invocations: [], params: exp.full.params, raw, versions: { 'lab-3.4-yjit': [{ name: 'Ruby 3.4 + YJIT', version: 'ruby 3.4.5 +YJIT' }] },
  };
  const [ds] = exp.datasets(ctx);
  const col = (k) => ds.columns.findIndex((c) => c.key === k);
  const row = (level, dest) => ds.rows.find((r) => r[0] === level && r[1] === dest);
  assert.equal(row('info', 'a file')[col('log_bytes_per_request')], 900);
  assert.equal(row('debug', 'a file')[col('log_bytes_per_request')], 5400);
  assert.equal(row('debug', 'a file')[col('log_lines_per_request')], 4);
  assert.equal(row('warn', 'a file')[col('log_bytes_per_request')], 0, 'warn wrote nothing: a measured zero');
  assert.equal(row('info', '/dev/null')[col('log_bytes_per_request')], null, '/dev/null: not measured, not zero');
  assert.equal(row('info', 'a file')[col('verdict')], 'baseline');
  assert.equal(row('info', '/dev/null')[col('verdict')], 'within noise');
  // Four runs are fewer than the protocol's minimum: a smoke dataset, which validates and renders.
  assert.equal(ds.quality.grade, 'smoke');
  const dir = path.join(out, '_data', 'datasets');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${ds.id}.json`);
  fs.writeFileSync(file, `${JSON.stringify(ds, null, 2)}\n`);
  assert.deepEqual(await validate(file), []);
});
