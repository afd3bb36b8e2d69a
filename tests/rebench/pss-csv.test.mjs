// scripts/lib/pss-csv.mjs against lab/bench/pss.rb's own output: the sampler run on this machine over a small process
// tree (a shell with two sleeping children), then read back: every process is seen, the tree's peak is the largest
// per-sample sum, each process's peak is its largest sample, and names can be left out (rebench's readMemory and
// the small-host lab proof read it this way).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pssPeak, pssSamples } from '../../scripts/lib/pss-csv.mjs';
import { readMemory } from '../../scripts/lib/rebench/readback.mjs';

const PSS_RB = new URL('../../lab/bench/pss.rb', import.meta.url).pathname;

test('pss.rb samples of a real process tree read back: peak sum, per-process peaks, names left out', { timeout: 30000 }, async () => {
  const tree = spawn('bash', ['-c', 'sleep 5 & sleep 5 & wait'], { stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 300));
    const r = spawnSync('timeout', ['3', 'ruby', PSS_RB, String(tree.pid), '0.2'], { encoding: 'utf8' });
    const samples = pssSamples(r.stdout);
    assert.ok(samples.size >= 2, r.stdout + r.stderr);
    const peak = pssPeak(r.stdout);
    assert.deepEqual([...new Set(peak.per_process.map((p) => p.comm))].sort(), ['bash', 'sleep']);
    assert.equal(peak.per_process.length, 3);
    const sums = [...samples.values()].map((procs) => procs.reduce((s, p) => s + p.pss, 0));
    assert.equal(peak.peak_kib, Math.max(...sums));
    for (const p of peak.per_process) {
      assert.equal(p.peak_kib, Math.max(...[...samples.values()].flat().filter((x) => x.pid === p.pid).map((x) => x.pss)));
      assert.ok(p.peak_kib > 0);
    }
    const noSleep = pssPeak(r.stdout, { except: ['sleep'] });
    assert.deepEqual(noSleep.per_process.map((p) => p.comm), ['bash']);
    // rebench's reader gives the same peak from the file.
    const dir = mkdtempSync(join(tmpdir(), 'pss-csv-'));
    try {
      writeFileSync(join(dir, 'x.pss.csv'), r.stdout);
      const m = readMemory(join(dir, 'x.pss.csv'));
      assert.equal(m.peak_total_mib, peak.peak_kib / 1024);
      assert.equal(m.processes, 3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(pssPeak('t_s,pid,ppid,comm,rss_kib,pss_kib\n'), null);
  } finally {
    tree.kill();
  }
});
