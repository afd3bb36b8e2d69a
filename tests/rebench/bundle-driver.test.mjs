// The lab driver's parts of bundle-vs-defaults, run by bash against a real HTTP server this test starts on
// 127.0.0.1 (lab/bench/lib.sh and app.sh, with real wrk, curl and the open-loop generator): the calibration
// measures a page once and its rate becomes the open-loop basis of every configuration, not each run's own
// throughput; a page without a good calibration fails its open-loop runs with a reason; a server that reports
// another Ruby or YJIT state than the run needs is a failed run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, run, tmpDir } from '../tools/util.mjs';
import { parseReport } from '../../scripts/lib/measure/openloop-report.mjs';
import { readCalibration } from '../../scripts/lib/rebench/openloop.mjs';

const YJIT_ON = '/opt/ruby-3.4-yjit/bin/ruby; YJIT on';

/**
 * /api answers after 10 ms (so wrk's rate stays small); /bad answers its first request (the page check) and then
 * only errors, as an app that breaks under load; /up names the Ruby it was told to.
 */
function server(ruby) {
  let bad = 0;
  const s = http.createServer((req, res) => {
    if (req.url === '/up') { res.setHeader('x-lab-ruby', ruby); res.end('up\n'); return; }
    if (req.url === '/bad') { bad += 1; res.statusCode = bad === 1 ? 200 : 500; res.end('bad\n'); return; }
    setTimeout(() => res.end('{"ok":true}\n'), 10);
  });
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve({ s, port: s.address().port })));
}
const stop = ({ s }) => { s.closeAllConnections(); return new Promise((resolve) => s.close(resolve)); };

/** bash with the driver's libraries sourced, as driver.sh does, and SCRIPT run after them. */
function driver(raw, port, script) {
  const text = `set -uo pipefail
BENCH=${ROOT}/lab/bench WORK=${raw} RAW=${raw}
source "$BENCH/lib.sh"; source "$BENCH/app.sh"
APP_PORT=${port}
declare -A PAGES=([api]=/api [bad]=/bad [regular]=/regular)
RB_CONNECTIONS=2 RB_DURATION_S=1 RB_WARMUP_S=0 RB_QUICK=1 RB_CALIBRATE_S=1 RB_MAX_ERROR_PCT=1
RB_OPEN_FRACTIONS="0.5" RB_OPEN_DURATION_S=1 RB_OPEN_TIMEOUT_MS=2000
${script}`;
  return run('bash', ['-c', text], { timeoutMs: 60000 });
}

test('the calibration sets one open-loop rate per page for every configuration; no basis is a failed run', { timeout: 120000 }, async () => {
  const raw = tmpDir('bundle-driver');
  const srv = await server(YJIT_ON);
  try {
    const base = `http://127.0.0.1:${srv.port}`;
    const r = await driver(raw, srv.port, `
rb_calibrate "${base}" api bad
# A configuration's own closed-loop run of the page, much slower than the calibration:
printf 'Requests/sec:     40.00\\n' > "$RAW/001-wizard-r1-api.txt"
RB_OPEN_BASIS=calibrated rb_openloop "$RAW/001-wizard-r1-api" "${base}/api" api
RB_OPEN_BASIS=calibrated rb_openloop "$RAW/001-wizard-r1-regular" "${base}/regular" regular
rb_openloop "$RAW/001-wizard-r1-api-own" "${base}/api" api < /dev/null
`);
    const log = () => `${r.stderr}\n${fs.existsSync(path.join(raw, 'driver.log')) ? fs.readFileSync(path.join(raw, 'driver.log'), 'utf8').split('\n').slice(-15).join('\n') : 'no driver.log'}`;
    assert.equal(r.code, 0, log());
    // The calibration ran under the protocol's wrapper and its rate is the basis.
    const basis = Number(fs.readFileSync(path.join(raw, 'open-basis-api.txt'), 'utf8'));
    assert.ok(basis > 40 && basis < 400, `calibrated ${basis} req/s for 2 connections at 10 ms: ${log()}`);
    assert.match(fs.readFileSync(path.join(raw, 'calibrate-api.txt'), 'utf8'), /Requests\/sec:/);
    assert.match(fs.readFileSync(path.join(raw, 'calibrate-api.protocol'), 'utf8'), /^exit=0$/m);
    // A page answering errors under load gives no basis (its wrk run is kept).
    assert.match(fs.readFileSync(path.join(raw, 'calibrate-bad.txt'), 'utf8'), /Non-2xx or 3xx responses: \d+/);
    assert.equal(fs.existsSync(path.join(raw, 'open-basis-bad.txt')), false, 'no basis from error responses');
    const cal = readCalibration(raw, ['api', 'bad', 'regular']);
    assert.equal(cal.api.rps, basis);
    assert.match(cal.bad.error, /no good reading/);
    assert.match(cal.regular.error, /not calibrated/);
    // The open loop offered half the calibrated rate, not half of this run's own 40 req/s.
    const report = parseReport(fs.readFileSync(path.join(raw, '001-wizard-r1-api-open50.txt'), 'utf8'));
    assert.ok(Math.abs(report.target_rate - basis * 0.5) < 0.01, `target ${report.target_rate} for a basis of ${basis}`);
    assert.ok(report.ok > 0, 'the generator reached the server');
    // No calibrated rate for the page: a failed run with the reason, never a fallback to the run's own rate.
    assert.match(fs.readFileSync(path.join(raw, '001-wizard-r1-regular-open50.failed'), 'utf8'), /no calibrated throughput for page regular/);
    assert.equal(fs.existsSync(path.join(raw, '001-wizard-r1-regular-open50.txt')), false);
    // Without RB_OPEN_BASIS the other experiments' behaviour: the run's own rate (none here, so a failed run).
    assert.match(fs.readFileSync(path.join(raw, '001-wizard-r1-api-own-open50.failed'), 'utf8'), /no closed-loop throughput/);
  } finally {
    await stop(srv);
    fs.rmSync(raw, { recursive: true, force: true });
  }
});

test('the server is asked what it runs: another Ruby or YJIT state fails the run, with what it said', { timeout: 60000 }, async () => {
  const raw = tmpDir('bundle-ruby-check');
  const off = await server('/opt/ruby-3.4-yjit/bin/ruby; YJIT off');
  try {
    const r = await driver(raw, off.port, `
rb_server_ruby "$RAW/001-wizard-r1" "${YJIT_ON}"; echo "wrong=$?"
rb_server_ruby "$RAW/002-wizard-r2"; echo "unchecked=$?"
rb_server_ruby "$RAW/003-wizard-r3" "/opt/ruby-3.4-yjit/bin/ruby; YJIT off"; echo "right=$?"
`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^wrong=1$/m);
    assert.match(r.stdout, /^unchecked=0$/m);
    assert.match(r.stdout, /^right=0$/m);
    assert.equal(fs.readFileSync(path.join(raw, '001-wizard-r1.ruby'), 'utf8'), '/opt/ruby-3.4-yjit/bin/ruby; YJIT off\n');
    assert.match(fs.readFileSync(path.join(raw, '001-wizard-r1.failed'), 'utf8'), /did not run \/opt\/ruby-3\.4-yjit\/bin\/ruby; YJIT on: \/opt\/ruby-3\.4-yjit\/bin\/ruby; YJIT off/);
    assert.equal(fs.existsSync(path.join(raw, '003-wizard-r3.failed')), false);
  } finally {
    await stop(off);
    fs.rmSync(raw, { recursive: true, force: true });
  }
});
