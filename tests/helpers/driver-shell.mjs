// lab/bench/lib.sh (with protocol.sh) sourced on the host in bash, RAW and BENCH set, the given RB_* parameters
// assigned first: how the rebench tests run the driver's shell functions (rb_measured, rb_isolate) without the lab.
import path from 'node:path';
import { ROOT, run } from '../tools/util.mjs';

const BENCH = path.join(ROOT, 'lab/bench');

/** Runs SCRIPT after sourcing lib.sh; resolves to run()'s { code, stdout, stderr }. */
export function driverShell(raw, script, params) {
  const env = Object.entries(params).map(([k, v]) => `${k}='${v}'`).join(' ');
  return run('bash', ['-c', `set -u; RAW='${raw}'; BENCH='${BENCH}'; ${env}; source "$BENCH/lib.sh"; ${script}`], { timeoutMs: 90000 });
}
