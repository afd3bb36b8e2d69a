// scripts/measure-memory against real processes: a Ruby program that holds a known amount
// of memory (and forks a child), attach mode, the timeout, and wrong invocations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { tool, tmpDir, run, start, loadDataset, col, processesMatching, killAll, waitFor } from './util.mjs';

const MM = tool('measure-memory');
const MB50 = 50_000_000;

test('measures a Ruby process tree holding a 50 MB string, in bytes', async () => {
  const out = tmpDir('mm');
  // Parent holds 50 MB, forks a child that shares it; both sleep so several samples see them.
  const marker = `mm-test-${process.pid}`;
  const program = `s = "x" * ${MB50}; $0 = "${marker}"; pid = fork { sleep 1.2 }; Process.wait(pid); sleep 0.3; puts s.size`;
  const r = await run(MM, ['--interval', '0.1', '--out', out, '--id', 'mm-ruby-test', '--', 'ruby', '-e', program]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /dataset problem|not validated|could not run the dataset validator/, 'the tool validated its own output');
  const { file, data, problems } = loadDataset(r.stdout);
  assert.equal(path.basename(file), 'mm-ruby-test.json');
  assert.deepEqual(problems, [], JSON.stringify(problems, null, 2));
  assert.equal(data.format, 'scaling-rails/dataset@1');
  assert.equal(data.method.tool, 'measure-memory');
  assert.ok(data.charts.length >= 1);

  // Row 1 is the total; then one row per process (ruby parent and its fork).
  const processes = col(data, 'process');
  assert.equal(processes[0], 'all processes (sum)');
  assert.ok(processes.length >= 3, `expected parent and child rows, got ${processes}`);
  const peak = col(data, 'rss_peak');
  const hwm = col(data, 'rss_hwm');
  for (let i = 1; i < processes.length; i += 1) {
    if (!processes[i].endsWith('ruby')) continue;
    assert.ok(hwm[i] >= MB50, `${processes[i]}: kernel peak RSS ${hwm[i]} B should be at least the 50 MB string`);
  }
  assert.ok(peak[0] >= 2 * MB50, `sum of RSS over parent and fork (${peak[0]} B) counts the shared 50 MB twice`);
  const pss = col(data, 'pss_peak');
  if (pss[0] !== null) {
    assert.ok(pss[0] >= MB50 && pss[0] < peak[0], `PSS total ${pss[0]} should count the shared string about once (RSS total ${peak[0]})`);
  }
  assert.ok(col(data, 'rss_median').every((v) => Number.isInteger(v)), 'byte counts are whole numbers');

  // Raw samples: one row per sample and process, bytes (a 50 MB process is > 50,000,000, not ~50,000 kB).
  const csv = fs.readFileSync(path.join(out, 'raw-output', 'mm-ruby-test', 'samples.csv'), 'utf8').trim().split('\n');
  assert.match(csv[0], /^time_s,sample,pid,ppid,comm,rss_bytes,pss_bytes,vm_size_bytes,vm_peak_bytes,vm_hwm_bytes$/);
  const rss = csv.slice(1).map((line) => Number(line.split(',')[5]));
  assert.ok(Math.max(...rss) >= MB50, 'raw RSS values are bytes');
  const provenance = JSON.parse(fs.readFileSync(path.join(out, 'raw-output', 'mm-ruby-test', 'provenance.json'), 'utf8'));
  assert.equal(provenance.interval_s, 0.1);
  assert.deepEqual(provenance.command.slice(0, 2), ['ruby', '-e']);
  assert.ok(provenance.host.cpu_model && provenance.host.kernel);
  assert.equal(processesMatching(marker).length, 0, 'nothing of the measured tree is left running');
});

test('attach mode (--pid, --duration) follows a running process and its children', async () => {
  const out = tmpDir('mm-attach');
  const marker = `mm-attach-${process.pid}`;
  const target = spawn('ruby', ['-e', `$0 = "${marker}"; s = "y" * 20_000_000; pid = fork { sleep 10 }; sleep 10`], { stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 600));
    const r = await run(MM, ['--no-validate', '--pid', String(target.pid), '--duration', '1.2', '--interval', '0.2', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const { data, problems } = loadDataset(r.stdout);
    assert.deepEqual(problems, []);
    const processes = col(data, 'process');
    assert.ok(processes.some((p) => p.startsWith(`${target.pid} `)), `attached pid listed: ${processes}`);
    assert.ok(processes.length >= 3, 'the forked child is included');
    assert.ok(col(data, 'rss_peak')[0] >= 20_000_000);
    assert.ok(data.method.description.includes(`pid ${target.pid}`));
  } finally {
    killAll([{ pid: target.pid }, ...processesMatching(marker)]);
  }
});

test('--timeout stops a command that runs too long, with its whole process group', async () => {
  const out = tmpDir('mm-timeout');
  const marker = `mm-timeout-${process.pid}`;
  const r = await run(MM, ['--no-validate', '--timeout', '1', '--interval', '0.2', '--out', out, '--', 'sh', '-c', `sleep 120 & exec ruby -e '$0 = "${marker}"; sleep 120'`], { timeoutMs: 90000 });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.ms < 60000, `took ${r.ms} ms, the command would run 120 s`);
  const { data, problems } = loadDataset(r.stdout);
  assert.deepEqual(problems, []);
  assert.ok(data.caveats.some((c) => /stopped by the tool/.test(c)));
  assert.equal(processesMatching(marker).length, 0);
});

test('Ctrl-C (SIGINT) stops the measured command and still writes the dataset', async () => {
  const out = tmpDir('mm-int');
  const marker = `mm-int-${process.pid}`;
  // The marker is assembled inside Ruby so that only the Ruby process (not the tool's own
  // command line) contains it.
  const child = start(MM, ['--no-validate', '--interval', '0.2', '--out', out, '--', 'ruby', '-e', `$0 = "mm-int-" + "${process.pid}"; sleep 60`]);
  try {
    assert.ok(await waitFor(() => processesMatching(marker).length === 1, 15000), 'command started');
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGINT');
    const { code } = await child.done;
    assert.equal(code, 0, child.output);
    const { data, problems } = loadDataset(child.output.split('\n').filter((l) => l.endsWith('.json')).pop());
    assert.deepEqual(problems, []);
    assert.ok(data.caveats.some((c) => /ended by an interrupt/.test(c)));
    assert.equal(processesMatching(marker).length, 0, 'the command was stopped');
  } finally {
    killAll(processesMatching(marker));
  }
});

test('wrong invocations exit non-zero with a clear message', async () => {
  const cases = [
    [[], /nothing to measure/],
    [['--interval', 'soon', '--', 'true'], /--interval must be a number/],
    [['--interval', '0', '--', 'true'], /at least 0.05/],
    [['--pid', '1'], /need --duration/],
    [['--pid', '999999999', '--duration', '1'], /no process with pid/],
    [['--frobnicate'], /unknown option --frobnicate/],
    [['--', 'no-such-command-xyz'], /command not found: no-such-command-xyz/],
    [['--id', 'Bad_Id', '--', 'true'], /--id must be/],
  ];
  for (const [args, re] of cases) {
    const r = await run(MM, args, { timeoutMs: 20000 });
    assert.equal(r.code, 2, `${args.join(' ')} → ${r.code}`);
    assert.match(r.stderr, re);
    assert.match(r.stderr, /--help/);
  }
  const help = await run(MM, ['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage:/);
  assert.match(help.stdout, /--pid PID/);
});
