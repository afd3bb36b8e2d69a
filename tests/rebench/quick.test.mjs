// scripts/rebench in the real lab: every experiment at its --quick size (datasets validate, raw outputs
// present, provenance complete), the then-and-now datasets, and an interrupted run that writes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ensureLab } from '../helpers/lab.mjs';
import { ROOT, tmpDir, run, start, processesMatching, waitFor } from '../tools/util.mjs';
import { validate } from '../../scripts/lib/rebench/cli.mjs';
import { EXPERIMENTS } from '../../scripts/lib/rebench/experiments/index.mjs';
import { WORK_ROOT } from '../../scripts/lib/rebench/runner.mjs';

const REBENCH = path.join(ROOT, 'scripts/rebench');

function csv(text) {
  const [head, ...lines] = text.trim().split('\n');
  const keys = head.split(',');
  return lines.map((l) => {
    const cells = [];
    let cur = '';
    let quoted = false;
    for (const ch of l) {
      if (ch === '"') quoted = !quoted;
      else if (ch === ',' && !quoted) { cells.push(cur); cur = ''; } else cur += ch;
    }
    cells.push(cur);
    return Object.fromEntries(keys.map((k, i) => [k, cells[i]]));
  });
}

test('every experiment at --quick size: valid datasets with raw outputs and provenance, plus then-and-now', { timeout: 900000 }, async (t) => {
  const lab = await ensureLab();
  assert.ok(lab === true || (lab && lab.ok !== false), `the lab cannot be built here: ${lab && lab.reason ? lab.reason : lab}`);
  const out = tmpDir('rebench-quick');
  t.after(() => fs.rmSync(out, { recursive: true, force: true }));
  // bundle-vs-defaults is left out to keep this test's time: its pipeline is the same, its own part (the wizard's
  // bundle) is tested in tests/rebench/bundle.test.mjs.
  // jobs and timeouts are left out too: each boots its runners per cell (about 4 minutes at --quick size on this
  // 2-core machine), over this test's budget; their readers are tested in tests/rebench/jobs-timeouts.test.mjs.
  // logging as well: its pipeline is bundle-vs-defaults' (the wizard's bundle, wrk on one page); its own part, the
  // log bytes per request, is tested in tests/rebench/logging.test.mjs against real wrk.
  // replica: a second PostgreSQL per cell (about 3 minutes at --quick size); its reader is tested in
  // tests/rebench/replica-read.test.mjs on a real client report.
  // gc: the same pipeline as allocators (puma-env.mjs's experiment; lab/bench/app.sh's rb_puma_env_cell with other
  // environment variables), which runs here and adds its memory-over-time dataset; gc's own dataset builder is fed
  // known runs in tests/rebench/datasets.test.mjs. Its quick run cost about 50 s of this test.
  const chosen = EXPERIMENTS.filter((e) => !['bundle-vs-defaults', 'jobs', 'timeouts', 'logging', 'replica', 'gc'].includes(e.name));
  const r = await run(REBENCH, [...chosen.map((e) => e.name), '--quick', '--then-and-now', '--seed', '42', '--out', out], { timeoutMs: 840000 });
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  const expected = chosen.flatMap((e) => e.datasetIds());
  for (const id of expected) {
    const file = path.join(out, '_data/datasets', `${id}.json`);
    assert.ok(fs.existsSync(file), `${id} written`);
    assert.deepEqual(await validate(file), [], `${id} validates`);
    const ds = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(ds.year, 2026);
    assert.equal(ds.method.seed, 42);
    assert.equal(ds.method.runs, 2);
    assert.equal(ds.quality.grade, 'smoke', `${id}: a quick run is smoke`);
    assert.ok(ds.quality.reasons.some((x) => /--quick/.test(x)), `${id}: says why`);
    assert.match(ds.hardware, /logical CPUs, .* GiB RAM, virtualisation: .*load average/);
    // Provenance: machine, load before/after, versions as installed, the run order.
    const rawDir = path.join(out, 'raw-output', id);
    const prov = JSON.parse(fs.readFileSync(path.join(rawDir, 'provenance.json'), 'utf8'));
    assert.ok(prov.machine.cpu_model && prov.machine.logical_cpus > 0 && prov.machine.ram_gib > 0, 'machine facts');
    assert.equal(prov.load_average.before.length, 3);
    assert.equal(prov.load_average.after.length, 3);
    assert.ok(prov.order.length > 0 && prov.order.every((o) => o.cell && o.run >= 1), 'run order recorded');
    if (id !== 'rebench-2026-interpreters') {
      const lab33 = prov.versions['lab-3.3'] || [];
      assert.ok(lab33.some((v) => v.name === 'Ruby 3.3' && /^ruby 3\.3\./.test(v.version)), `${id}: lab Ruby version recorded`);
      assert.ok(lab33.some((v) => /YJIT/.test(v.name) && /no/.test(v.version)), `${id}: lab Ruby built without YJIT, recorded`);
    }
    // Raw outputs: every run that produced a number has its tool output beside the dataset.
    const runs = csv(fs.readFileSync(path.join(rawDir, 'runs.csv'), 'utf8'));
    assert.ok(runs.length > 0);
    const measured = runs.filter((x) => !x.error);
    assert.equal(measured.length, runs.length, `${id}: every quick run measured: ${runs.filter((x) => x.error).map((x) => `${x.cell}/${x.measurement}: ${x.error}`).join('; ')}`);
    for (const x of measured) {
      assert.ok(fs.existsSync(path.join(rawDir, x.raw_file)), `${id}: raw file ${x.raw_file}`);
      assert.ok(Number(x.rps) > 0 || Number(x.cpu_s) > 0 || Number(x.cpu_ms) > 0, `${id}: ${x.raw_file} has a reading`);
    }
    assert.ok(fs.existsSync(path.join(rawDir, 'driver.log')));
  }
  // Interpreters: both host Rubies (3.1 with and without YJIT), both packaged lab Rubies and the lab's YJIT build
  // (YJIT off and on) ran, warm; each YJIT row is compared with the same binary without YJIT.
  const interp = JSON.parse(fs.readFileSync(path.join(out, '_data/datasets/rebench-2026-interpreters.json'), 'utf8'));
  assert.equal(interp.rows.filter((row) => typeof row[2] === 'number').length, 6);
  const yjitRow = interp.rows.find((row) => /^Ruby 3\.4 \+ YJIT/.test(row[0]));
  assert.match(yjitRow[interp.columns.findIndex((c) => c.key === 'baseline')], /YJIT off/);
  const warmRuns = csv(fs.readFileSync(path.join(out, 'raw-output/rebench-2026-interpreters/runs.csv'), 'utf8'));
  const yjitRun = JSON.parse(fs.readFileSync(path.join(out, 'raw-output/rebench-2026-interpreters', warmRuns.find((x) => x.cell === 'ruby34-yjit').raw_file), 'utf8'));
  assert.equal(yjitRun.yjit, 'on', 'the 3.4 + YJIT run had YJIT on');
  assert.equal(yjitRun.executable, '/opt/ruby-3.4-yjit/bin/ruby');
  // Then and now: derived from the quick datasets and the research's, each era against its own baseline.
  for (const name of ['static', 'patterns']) {
    const file = path.join(out, '_data/datasets', `rebench-2026-then-now-${name}.json`);
    assert.ok(fs.existsSync(file), `then-and-now ${name}`);
    const ds = JSON.parse(fs.readFileSync(file, 'utf8'));
    const eras = new Set(ds.rows.map((row) => row[0].slice(0, 4)));
    assert.ok(eras.has('2026') && eras.size === 2, `${name}: two eras, ${[...eras]}`);
    assert.match(ds.charts[0].caption, /Hardware differs/);
  }
  assert.deepEqual(fs.readdirSync(WORK_ROOT).filter((n) => n.includes(`-${r.pid}-`)), [], 'work directories removed');
});

test('an interrupted run writes no dataset and leaves no servers or staging behind', { timeout: 300000 }, async (t) => {
  const out = tmpDir('rebench-stop');
  t.after(() => fs.rmSync(out, { recursive: true, force: true }));
  const child = start(REBENCH, ['static', '--quick', '--out', out]);
  // Wait until the lab is measuring (a raw output file exists in the work directory), then stop it.
  const measuring = () => fs.existsSync(WORK_ROOT) && fs.readdirSync(WORK_ROOT).filter((d) => d.startsWith(`static-${child.pid}-`)).some((d) => {
    const raw = path.join(WORK_ROOT, d, 'raw');
    return fs.existsSync(raw) && fs.readdirSync(raw).some((f) => /-(ab|wrk)\.(txt|load)$/.test(f));
  });
  assert.ok(await waitFor(measuring, 240000), 'the run reached its first measurement');
  child.kill('SIGTERM');
  const { code, signal } = await child.done;
  assert.ok(code === 143 || signal === 'SIGTERM', `exit ${code} ${signal}: ${child.output}`);
  assert.match(child.output, /no dataset is written/);
  const all = fs.readdirSync(out, { recursive: true }).map(String);
  assert.ok(!all.some((f) => f.endsWith('.json')), `no dataset file: ${all}`);
  assert.ok(!all.some((f) => f.includes('.partial-')), `no staging left: ${all}`);
  // scripts/lab finishes its own teardown (TERM, grace, KILL inside, unmount) within its grace period.
  const gone = () => processesMatching(`static-${child.pid}-`).length === 0;
  assert.ok(await waitFor(gone, 30000), `lab run still there: ${JSON.stringify(processesMatching(`static-${child.pid}-`))}`);
  assert.deepEqual(fs.readdirSync(WORK_ROOT).filter((d) => d.startsWith(`static-${child.pid}-`)), [], 'work directory removed');
});
