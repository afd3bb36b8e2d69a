// The open-loop phase inside the lab, as scripts/rebench runs it (lab/bench/lib.sh rb_openloop): the host's node,
// mounted read-only by scripts/lib/lab/enter.sh and not in PATH, runs in Debian 13; after a closed-loop wrk run on a
// server inside the lab, the generator offers each protocol fraction of wrk's throughput, pinned to the load CPU,
// under the gate and monitor; rebench reads the runs back. A wrk run that failed leaves failed open-loop runs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ensureLab, labRun, REPO } from '../helpers/lab.mjs';
import { readOpenLoopRuns, FRACTIONS, suffixOf } from '../../scripts/lib/rebench/openloop.mjs';
import { PROTOCOL } from '../../scripts/lib/rebench/protocol.mjs';

let lab;
before(async () => { lab = await ensureLab(); });

test('rb_openloop in the lab: the host node runs there, each fraction of wrk\'s rate is offered and read back', { timeout: 240000 }, async (t) => {
  assert.ok(lab.ok, `the lab could not be built: ${lab.reason}`);
  fs.mkdirSync(path.join(REPO, 'tmp'), { recursive: true });
  const raw = fs.mkdtempSync(path.join(REPO, 'tmp', 'openloop-lab-'));
  t.after(() => fs.rmSync(raw, { recursive: true, force: true }));
  const inLab = `/repo/${path.relative(REPO, raw)}`;
  // A server inside the lab's own network namespace, answering after 2 ms (node as the server too: Debian 13's
  // lab has no other scriptable HTTP server without the app). Quick-sized runs: 1 s closed loop, 1 s per fraction.
  const script = `
    if command -v node; then exit 3; fi   # not in PATH: only lab/bench uses it, by its full path
    # Read-only: a lab run cannot change the host's node.
    out=$(/opt/host-node/bin/node -e 'require("fs").writeFileSync("/opt/host-node/bin/node", "x")' 2>&1 || true)
    case $out in *EROFS*) ;; *) echo "writable? $out"; exit 5 ;; esac
    /opt/host-node/bin/node -e 'require("http").createServer((q, s) => setTimeout(() => s.end("ok"), 2)).listen(8089, "127.0.0.1")' &
    srv=$!
    for i in $(seq 1 50); do curl -s -o /dev/null http://127.0.0.1:8089/ && break; sleep 0.1; done
    RAW=${inLab}; BENCH=/repo/lab/bench; RB_CPU_SERVER=0; RB_CPU_LOAD=1; RB_MONITOR_S=1; RB_DURATION_S=1; RB_TRIES=1
    RB_DISTURB_MAX_FOREIGN=${PROTOCOL.disturbance.max_foreign_cpu_pct}; RB_DISTURB_MAX_STEAL=${PROTOCOL.disturbance.max_steal_pct}
    RB_OPEN_FRACTIONS='${FRACTIONS.join(' ')}'; RB_OPEN_DURATION_S=1; RB_SEED=5
    source /repo/lab/bench/lib.sh
    rb_isolate
    rb_wrk "$RAW/ok" http://127.0.0.1:8089/ 2 1
    rb_openloop "$RAW/ok" http://127.0.0.1:8089/
    rb_openloop "$RAW/nowrk" http://127.0.0.1:8089/
    kill $srv || exit 4`;
  // As lab/bench/driver.sh runs: set -uo pipefail, no -e.
  const r = await labRun(['bash', '-uo', 'pipefail', '-c', script], { timeout: 180 });
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(fs.readFileSync(path.join(raw, 'isolation-lab-3.3.txt'), 'utf8'), /^pinned server=0 load=1 .*open-loop generator/);
  const wrkRps = Number(/Requests\/sec:\s+([\d.]+)/.exec(fs.readFileSync(path.join(raw, 'ok.txt'), 'utf8'))[1]);
  const runs = readOpenLoopRuns(raw, 'ok');
  for (const f of FRACTIONS) {
    const m = runs[suffixOf(f)];
    assert.equal(m.error, undefined, `${suffixOf(f)}: ${m.error}`);
    assert.ok(Math.abs(m.target_rate - wrkRps * f) < 0.01, `${suffixOf(f)} offered ${m.target_rate} for ${f} × ${wrkRps}`);
    assert.ok(m.p99_ms > 0 && m.p50_ms <= m.p99_ms, `${suffixOf(f)} p50 ${m.p50_ms} p99 ${m.p99_ms}`);
    assert.equal(m.protocol.exit, 0);
    assert.ok(Number.isFinite(m.protocol.foreign_pct), 'the monitor sampled the open-loop run');
  }
  // The generator ran pinned: its output names the load it offered, and the failed closed-loop case is recorded.
  const none = readOpenLoopRuns(raw, 'nowrk');
  for (const f of FRACTIONS) assert.match(none[suffixOf(f)].error, /no closed-loop throughput/);
  t.diagnostic(`wrk ${wrkRps} req/s; open loop p99 ${FRACTIONS.map((f) => `${Math.round(f * 100)} %: ${runs[suffixOf(f)].p99_ms} ms`).join(', ')}`);
});
