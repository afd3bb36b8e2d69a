#!/usr/bin/env node
// Benchmark (not a test): what the measurement protocol costs. Prints two tables:
//  1. the overhead per measured run on this machine: a run of `sleep 1` bare, and through rb_measured with and
//     without the idle gate (lab/bench/protocol.sh), and the monitor's own CPU share while it samples;
//  2. the time a full re-run takes under the protocol, per experiment, from its plan (cells × runs × measurements)
//     at the best case (gate opens at once, warm-up stable after two windows, no repeats) and the worst case.
// Usage: node scripts/bench-protocol.mjs [--reps N]   (default 3; bounded: about 20 s per rep)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './lib/measure/common.mjs';
import { EXPERIMENTS } from './lib/rebench/experiments/index.mjs';
import { PROTOCOL, driverParams, protocolSize, parseProtocolFile } from './lib/rebench/protocol.mjs';

const reps = Number((process.argv.find((a) => a.startsWith('--reps=')) || '--reps=3').split('=')[1]);
const BENCH = path.join(REPO_ROOT, 'lab/bench');
const raw = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-protocol-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(script, params) {
  const env = Object.entries(params).map(([k, v]) => `${k}='${v}'; `).join('');
  const t0 = process.hrtime.bigint();
  execFileSync('bash', ['-c', `RAW='${raw}'; BENCH='${BENCH}'; ${env} source "$BENCH/lib.sh"; ${script}`], { timeout: 120000, stdio: ['ignore', 'ignore', 'inherit'] });
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

try {
  const full = { ...driverParams({ quick: false }), RB_GATE_MAX_WAIT_S: 0, RB_TRIES: 1 };
  const quick = { ...driverParams({ quick: true }), RB_QUICK: 1 };
  const rows = { bare: [], quick: [], full: [], monitorPct: [] };
  for (let i = 0; i < reps; i += 1) {
    rows.bare.push(timed('sleep 1', {}));
    rows.quick.push(timed('rb_measured "$RAW/q" sleep 1', quick));
    rows.full.push(timed('rb_measured "$RAW/f" sleep 1', full));
    // While `sleep 1` runs, the experiment's CPU is the monitor's own (and the shell's).
    rows.monitorPct.push(parseProtocolFile(fs.readFileSync(path.join(raw, 'f.protocol'), 'utf8')).experiment_pct);
  }
  const bare = median(rows.bare);
  process.stdout.write(`Protocol overhead per measured run (median of ${reps}; ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)})\n\n`);
  process.stdout.write('| Run of `sleep 1` | Wall time (s) | Added (s) |\n|---|---:|---:|\n');
  for (const [name, key] of [['bare', 'bare'], ['rb_measured, --quick (monitor, no gate)', 'quick'], [`rb_measured, full (gate window ${PROTOCOL.idle_gate.window_s} s, monitor)`, 'full']]) {
    const m = median(rows[key]);
    process.stdout.write(`| ${name} | ${m.toFixed(2)} | ${key === 'bare' ? '–' : (m - bare).toFixed(2)} |\n`);
  }
  process.stdout.write(`\nMonitor and shell CPU while sampling: ${median(rows.monitorPct)} % of the machine (median).\n\n`);

  // Full re-run time from the plans.
  process.stdout.write(`Full re-run under the protocol (${PROTOCOL.runs.min_runs} runs, HTTP runs of at least ${PROTOCOL.runs.min_duration_s} s), estimated from each experiment's plan\n\n`);
  process.stdout.write('| Experiment | Measured runs | Best case (min) | Worst case (h) |\n|---|---:|---:|---:|\n');
  let best = 0;
  let worst = 0;
  for (const exp of EXPERIMENTS) {
    const sized = protocolSize(exp.full.params, 0, { quick: false });
    const n = exp.cells(exp.full).reduce((s, c) => s + Math.max(1, c.measurements.length), 0) * sized.runs;
    const d = Number(sized.params.RB_DURATION_S || 0);
    const warm = sized.params.RB_WARMUP_S ? 2 * PROTOCOL.warmup.window_s : 0;
    const b = n * (PROTOCOL.idle_gate.window_s + warm + d + 1) + sized.runs * 20; // + about 20 s of boot per cell run
    const w = n * (PROTOCOL.warmup.max_s + PROTOCOL.disturbance.tries * (PROTOCOL.idle_gate.max_wait_s + PROTOCOL.idle_gate.window_s + d + 1)) + sized.runs * 20;
    best += b;
    worst += w;
    process.stdout.write(`| ${exp.name} | ${n} | ${(b / 60).toFixed(0)} | ${(w / 3600).toFixed(1)} |\n`);
  }
  process.stdout.write(`| all | | ${(best / 60).toFixed(0)} | ${(worst / 3600).toFixed(1)} |\n`);
} finally {
  fs.rmSync(raw, { recursive: true, force: true });
}
