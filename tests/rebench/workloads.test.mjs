// The concurrency sweep's routes measure what they are named for, proven in process in the lab's reference app
// on PostgreSQL (lab/bench/route-proof.rb): /cpu is on a CPU or queued for one for nearly all of its
// wall time, so it is CPU-bound even when other programs stretch that time; /io spends nearly all of it off the
// CPU, waiting on a real database call (pg_sleep), not in Ruby's sleep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureLab, runLabCommand } from '../helpers/lab.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test('/cpu is CPU-bound and /io waits on PostgreSQL, measured in process', { timeout: 900000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab === true || (lab && lab.ok !== false), `the lab cannot be built here: ${lab && lab.reason ? lab.reason : lab}`);
  const script = 'lab-app prepare --db postgresql --dir /srv/app >/dev/null 2>&1 || { tail -20 /srv/app/log/prepare.log; exit 1; }; '
    + 'eval "$(lab-app env --dir /srv/app)"; cd /srv/app && bin/rails runner /repo/lab/bench/route-proof.rb 5 200000 100 2>/dev/null';
  const r = await runLabCommand(['run', '--timeout', '540', '--', 'bash', '-c', script], { timeout: 540 });
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  const rows = r.stdout.split('\n').filter((l) => /^(cpu|io)\t/.test(l)).map((l) => {
    const [route, status, cpu, runnable, wall, wait] = l.split('\t');
    return { route, status: Number(status), cpu: Number(cpu), runnable: Number(runnable), wall: Number(wall), wait };
  });
  const cpu = rows.filter((x) => x.route === 'cpu');
  const io = rows.filter((x) => x.route === 'io');
  assert.equal(cpu.length, 5, r.stdout);
  assert.equal(io.length, 5, r.stdout);
  for (const x of rows) assert.equal(x.status, 200);
  assert.ok(cpu.every((x) => x.cpu > 5), `the CPU route computes (CPU ms: ${cpu.map((x) => x.cpu)})`);
  // Runnable time can only be at least the thread's CPU time, yet on some hosts schedstat reads low (a full run on
  // 2026-11-27: CPU 9.2 ms of 9.2 ms wall, runnable 6.6): the larger of the two is the truer runnable time.
  const cpuShare = median(cpu.map((x) => Math.max(x.cpu, x.runnable) / x.wall));
  assert.ok(cpuShare >= 0.8, `/cpu runnable for ${Math.round(cpuShare * 100)} % of its wall time: ${JSON.stringify(cpu)}`);
  const ioShare = median(io.map((x) => x.runnable / x.wall));
  assert.ok(ioShare <= 0.2, `/io runnable for ${Math.round(ioShare * 100)} % of its wall time: ${JSON.stringify(io)}`);
  assert.ok(io.every((x) => x.wall >= 100), 'the wait lasted the 100 ms asked for');
  assert.ok(io.every((x) => x.wait === 'PostgreSQL pg_sleep'), `a database wait, not Ruby's sleep: ${io.map((x) => x.wait)}`);
});
