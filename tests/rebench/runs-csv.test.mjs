// raw-output/ID/runs.csv as a reader audits it (scripts/lib/rebench/runs-csv.mjs, _data/rebench_runs_csv.json):
// the columns keep their places and are all described on the repeat page; rebuilt from published raw output, each
// run says why its tries were repeated, whether it stayed unsteady, and its reading's share of GC; a load run under
// protocol version 5 gives the host-speed probe's figures, and one under version 6 its steadiness figure and verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, tmpDir } from '../tools/util.mjs';
import { RUNS_CSV_COLUMNS, runsCsv } from '../../scripts/lib/rebench/runs-csv.mjs';
import { rebuildFromRaw } from '../../scripts/lib/rebench/runner.mjs';
import { readResults } from '../../scripts/lib/rebench/readback.mjs';
import { parseProtocolFile } from '../../scripts/lib/rebench/protocol.mjs';
import { byName } from '../../scripts/lib/rebench/experiments/index.mjs';

const RAW = path.join(ROOT, 'raw-output');
// Rows of a runs.csv text as objects (no field of these files holds a comma inside quotes but load_before_after's
// spaces, so a split is enough; a quoted field would fail the column count below).
function rows(text) {
  const [head, ...lines] = text.trim().split('\n');
  const names = head.split(',');
  return lines.map((l) => {
    const cells = l.split(',');
    assert.equal(cells.length, names.length, l);
    return Object.fromEntries(names.map((n, i) => [n, cells[i]]));
  });
}

test('the columns keep their places: a published runs.csv header is a prefix of today\'s, and the page describes every one', () => {
  const published = fs.readFileSync(path.join(RAW, 'rebench-2026-interpreters/runs.csv'), 'utf8').split('\n')[0].split(',');
  assert.deepEqual(RUNS_CSV_COLUMNS.slice(0, published.length), published, 'new columns only at the end');
  for (const c of ['repeated_because', 'unsteady', 'slow_host', 'host_slow_windows_pct', 'host_speed_ratio', 'gc_reading_share']) assert.ok(RUNS_CSV_COLUMNS.includes(c), c);
  const doc = JSON.parse(fs.readFileSync(path.join(ROOT, '_data/rebench_runs_csv.json'), 'utf8'));
  for (const c of doc.columns) assert.ok(c.about.length > 10, `${c.name} is described`);
  assert.equal(new Set(RUNS_CSV_COLUMNS).size, RUNS_CSV_COLUMNS.length, 'no column twice');
  // The repeat page prints the table from that file, so a column cannot go undescribed there.
  assert.match(fs.readFileSync(path.join(ROOT, 'repeat.md'), 'utf8'), /\{% for c in rc\.columns %\}\| `\{\{ c\.name \}\}` \| \{\{ c\.about \}\} \|/);
});

test('rebuilt from the published in-process raw output: repeat reasons, unsteady and GC share per run, and the published record of repeats', () => {
  const raw = path.join(RAW, 'rebench-2026-interpreters');
  const { ctx, datasets: [rebuilt], runsCsv: text } = rebuildFromRaw(byName('interpreters'), raw);
  const runs = rows(text);
  assert.equal(runs.length, ctx.results.length);
  for (const r of runs) {
    const p = parseProtocolFile(fs.readFileSync(path.join(raw, r.raw_file.replace(/\.json$/, '.protocol')), 'utf8'));
    const reasons = r.repeated_because ? r.repeated_because.split(' ') : [];
    // One reason per repeated try, and the same counts the run's own protocol record keeps.
    assert.equal(reasons.length, p.tries - 1, r.raw_file);
    assert.equal(reasons.filter((x) => x === 'unsteady').length, p.repeats_unsteady, r.raw_file);
    assert.equal(reasons.filter((x) => x === 'disturbed').length, p.repeats_disturbed, r.raw_file);
    assert.equal(r.unsteady, String(p.unsteady));
    assert.ok(Number(r.gc_reading_share) > 0 && Number(r.gc_reading_share) <= 2, `${r.raw_file}: GC share ${r.gc_reading_share}`);
    assert.equal(r.host_speed_ratio, '', 'no probe beside in-process runs');
  }
  const words = runs.reduce((n, r) => n + (r.repeated_because ? r.repeated_because.split(' ').length : 0), 0);
  assert.equal(words, fs.readdirSync(raw).filter((n) => /\.disturbed-\d+\.protocol$/.test(n)).length, 'every kept try, one reason each');
  assert.equal(runs.filter((r) => r.unsteady === '1').length, ctx.results.filter((x) => x.protocol.unsteady === 1).length);
  // The published dataset's record of repeats is what a rebuild computes from the same raw output, and the same
  // tries as the rows': a published dataset and its raw output do not part.
  const published = JSON.parse(fs.readFileSync(path.join(ROOT, '_data/datasets/rebench-2026-interpreters.json'), 'utf8'));
  assert.deepEqual(published.quality.repeats, rebuilt.quality.repeats);
  for (const [key, n] of Object.entries(published.quality.repeats.by_configuration)) {
    const mine = runs.filter((r) => `${r.cell} / ${r.measurement}` === key).flatMap((r) => (r.repeated_because ? r.repeated_because.split(' ') : []));
    assert.deepEqual([n.disturbed, n.unsteady, n.slow_host], ['disturbed', 'unsteady', 'slow_host'].map((why) => mine.filter((x) => x === why).length), key);
  }
});

test('protocol versions 1 and 2 repeated for disturbance alone: their repeated tries read "disturbed"', () => {
  // The wizard's bundle against Rails' defaults, measured under version 1 (2026-11-25), with repeated tries.
  const raw = path.join(RAW, 'rebench-2026-bundle-vs-defaults');
  const runs = rows(rebuildFromRaw(byName('bundle-vs-defaults'), raw).runsCsv);
  const repeated = runs.filter((r) => Number(r.tries) > 1);
  assert.ok(repeated.length > 0);
  for (const r of repeated) assert.equal(r.repeated_because, Array(Number(r.tries) - 1).fill('disturbed').join(' '), r.raw_file);
  assert.ok(runs.filter((r) => r.tries === '1').every((r) => r.repeated_because === ''));
});

test('a load run under version 5: the probe\'s slow share and worst CPU\'s ratio, each try\'s reason in order', (t) => {
  const raw = tmpDir('runs-csv');
  t.after(() => fs.rmSync(raw, { recursive: true, force: true }));
  const wrk = fs.readFileSync(path.join(RAW, 'rebench-2026-rails-patterns/001-postgresql-r1-eager.txt'), 'utf8');
  fs.writeFileSync(path.join(raw, '001-c-r1-a.txt'), wrk);
  fs.writeFileSync(path.join(raw, '001-c-r1-a.protocol'), 'exit=0\nforeign_pct=1.2\nsteal_pct=0.1\nspeed_windows=10\nspeed_measured_pct=100.0\nspeed_slow_pct=20.0\nspeed_cpu0_ratio_median=1.02\nspeed_cpu1_ratio_median=1.31\ndisturbed=0\nunsteady=0\nslow_host=1\ntries=3\nrepeats_disturbed=1\nrepeats_unsteady=0\nrepeats_slow_host=1\n');
  fs.writeFileSync(path.join(raw, '001-c-r1-a.disturbed-1.protocol'), 'exit=0\nrepeated_because=slow_host\n');
  fs.writeFileSync(path.join(raw, '001-c-r1-a.disturbed-2.protocol'), 'exit=0\nrepeated_because=disturbed\n');
  const results = readResults([{ idx: 1, cell: 'c', run: 1 }], [{ id: 'c', measurements: [{ id: 'a', tool: 'wrk' }] }], raw, { RB_PROTOCOL_VERSION: 5 });
  const [r] = rows(runsCsv(results));
  assert.deepEqual([r.repeated_because, r.slow_host, r.host_slow_windows_pct, r.host_speed_ratio, r.tries, r.unsteady, r.gc_reading_share], ['slow_host disturbed', '1', '20', '1.31', '3', '0', '']);
  // A try kept without its reason, under a version whose driver had more than one: said, not guessed.
  fs.rmSync(path.join(raw, '001-c-r1-a.disturbed-2.protocol'));
  const [v3] = rows(runsCsv(readResults([{ idx: 1, cell: 'c', run: 1 }], [{ id: 'c', measurements: [{ id: 'a', tool: 'wrk' }] }], raw, { RB_PROTOCOL_VERSION: 3 })));
  assert.equal(v3.repeated_because, 'slow_host unrecorded');
});

test('a load run under version 6: its steadiness figure and verdict, each try\'s reason in order; older runs leave them empty', (t) => {
  const raw = tmpDir('runs-csv-v6');
  t.after(() => fs.rmSync(raw, { recursive: true, force: true }));
  const wrk = fs.readFileSync(path.join(RAW, 'rebench-2026-rails-patterns/001-postgresql-r1-eager.txt'), 'utf8');
  fs.writeFileSync(path.join(raw, '001-c-r1-a.txt'), wrk);
  fs.writeFileSync(path.join(raw, '001-c-r1-a.protocol'), 'exit=0\nforeign_pct=1.2\nsteal_pct=0.1\nspeed_windows=10\nspeed_slow_pct=100.0\nsteady_judged=1\nsteady_windows=9\nsteady_off_pct=22.2\nsteady_unsteady=1\ndisturbed=0\nunsteady=0\nslow_host=0\nunsteady_throughput=1\nrepeats_unsteady_throughput=2\ntries=3\nrepeats_disturbed=0\nrepeats_unsteady=0\nrepeats_slow_host=0\n');
  for (const n of [1, 2]) fs.writeFileSync(path.join(raw, `001-c-r1-a.disturbed-${n}.protocol`), 'exit=0\nrepeated_because=unsteady_throughput\n');
  const cells = [{ id: 'c', measurements: [{ id: 'a', tool: 'wrk' }] }];
  const [r] = rows(runsCsv(readResults([{ idx: 1, cell: 'c', run: 1 }], cells, raw, { RB_PROTOCOL_VERSION: 6 })));
  assert.deepEqual([r.repeated_because, r.steady_off_pct, r.unsteady_throughput, r.slow_host, r.tries], ['unsteady_throughput unsteady_throughput', '22.2', '1', '0', '3']);
  assert.deepEqual(RUNS_CSV_COLUMNS.slice(-2), ['steady_off_pct', 'unsteady_throughput'], 'the two columns come after the version 5 ones');
  // A version 5 record has neither figure: empty cells, not zeros.
  fs.writeFileSync(path.join(raw, '001-c-r1-a.protocol'), 'exit=0\ndisturbed=0\nunsteady=0\nslow_host=0\ntries=1\nrepeats_disturbed=0\nrepeats_unsteady=0\nrepeats_slow_host=0\n');
  const [v5] = rows(runsCsv(readResults([{ idx: 1, cell: 'c', run: 1 }], cells, raw, { RB_PROTOCOL_VERSION: 5 })));
  assert.deepEqual([v5.steady_off_pct, v5.unsteady_throughput, v5.repeated_because], ['', '', '']);
});
