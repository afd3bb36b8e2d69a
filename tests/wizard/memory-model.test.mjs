// The memory model of forking servers (issue 24, trial item 8): a server that forks its workers from a booted copy
// of the app (Puma cluster with preload_app!, Unicorn preload_app true, Pitchfork's mold, Passenger's preloader)
// holds that copy once and each worker adds its private share (capabilities/memory.mjs), a PSS budget. Checked
// against the project's own measurements: the cells of rebench-2026-bundle-vs-defaults-2core and rebench-2026-app-servers
// (PSS of one process and of the whole server tree, from /proc/PID/smaps_rollup), read here, never typed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { generate } from '../../guide/engine/index.mjs';
import { FORK_MEMORY } from '../../guide/engine/capabilities/memory.mjs';
import { CATALOG } from '../../guide/engine/catalog.mjs';
import { evaluate, equations } from '../helpers/arithmetic.mjs';

const DATE = '2026-11-25';
const CLI = new URL('../../guide/cli.mjs', import.meta.url).pathname;
const gen = (a) => generate(a, { date: DATE });
const file = (r, p) => r.files.find((f) => f.path === p)?.content;
const mb = (r, kind) => r.model.memory.filter((x) => x.kind === kind).reduce((s, x) => s + x.mb, 0);
// The budget is in MB of 1024 × 1024 bytes (ram_gb × 1024), the datasets in MiB: the same unit.
const SAFETY = 1.35; // the budget may exceed the measured PSS of the default bundle by at most 35 %

/** Rows of a dataset as objects keyed by its column keys. */
function dataset(id) {
  const d = JSON.parse(readFileSync(new URL(`../../_data/datasets/${id}.json`, import.meta.url), 'utf8'));
  return d.rows.map((row) => Object.fromEntries(d.columns.map((c, i) => [c.key, row[i]])));
}

/** Every "… = N" in a text adds up, and there is at least one; returns the values. */
function sumsAddUp(text, where) {
  const eqs = equations(text).filter((e) => evaluate(e.expr) !== null);
  assert.ok(eqs.length > 0, `${where}: no sum in ${text}`);
  for (const e of eqs) assert.equal(evaluate(e.expr), e.value, `${where}: "${e.expr} = ${e.value}"`);
  return eqs.map((e) => e.value);
}

test('(a) the default answers (2 cores, 4 GB, nginx + Puma + Solid Queue + PostgreSQL on one host) get 2 Puma workers; the budget adds up', () => {
  const r = gen({});
  const m = r.model;
  assert.equal(r.answers.cores, 2);
  assert.equal(r.answers.ram_gb, 4);
  assert.equal(m.mode, 'cluster');
  assert.equal(m.processes, 2, 'one Puma worker per core');
  assert.ok(!r.warnings.some((w) => w.id === 'workers-limited-by-memory'), 'the RAM does not cut the workers');
  assert.ok(m.memory_total_mb <= m.ram_mb);
  assert.equal(m.memory_total_mb, m.memory.reduce((s, x) => s + x.mb, 0));
  // The master is one copy of the app (worker_mb), each worker the private share of that copy.
  const copy = mb(r, 'master');
  assert.equal(copy, 512);
  assert.equal(mb(r, 'workers'), 2 * Math.round(copy * FORK_MEMORY.privateShare));
  // The bundle's README shows the whole sum and the worker's share with every factor; both add up.
  const row = /^\| Estimated memory per host \| (.*) \|$/m.exec(file(r, 'README.md'))[1];
  const [total, each] = sumsAddUp(row, 'README memory row');
  assert.equal(total, m.memory_total_mb);
  assert.equal(each, Math.round(copy * FORK_MEMORY.privateShare));
  assert.match(row, /512 MB copy of the app in the master \+ 2 × 384 MB worker\(s\) = \d+ MB; each worker 75 % × 512 MB = 384 MB/);
  // The model is stated with its sources (Puma's preload docs and the project's own measurement).
  const adv = r.advice.find((a) => a.id === 'memory-model');
  assert.ok(adv, 'the memory-model advice');
  assert.deepEqual(sumsAddUp(adv.body, 'memory-model advice'), [each]);
  assert.match(adv.body, /PSS/);
  for (const url of ['https://github.com/puma/puma#clustered-mode', '/datasets/rebench-2026-bundle-vs-defaults-2core/']) {
    assert.ok(adv.evidence.some((e) => e.url === url), url);
  }
  // Before the model: master and workers each a whole copy, 512 + 2 × 512 MB, and Solid Queue's supervisor and
  // worker too; that did not fit these 4 GB.
  const oldJobs = (r.answers.job_processes + 1) * copy;
  const before = m.memory_total_mb - mb(r, 'master') - mb(r, 'workers') - mb(r, 'jobs-template') - mb(r, 'jobs') + 3 * copy + oldJobs;
  assert.ok(before > m.ram_mb, `${before} MB under the old count`);
});

test('(b) the budget for the default bundle stays within the measured PSS × the stated safety margin (dataset cells)', () => {
  const rows = dataset('rebench-2026-bundle-vs-defaults-2core');
  const pages = [...new Set(rows.map((x) => x.page))];
  assert.ok(pages.length >= 3);
  const shares = [];
  for (const page of pages) {
    const single = rows.find((x) => x.page === page && x.processes === 1);
    const bundle = rows.find((x) => x.page === page && x.processes > 1);
    const workers = bundle.processes - 1; // a master and its workers
    assert.equal(workers, 2, 'the dataset measured the wizard bundle of a 2-core host: master + 2 workers');
    // One process alone is one booted copy of the app: worker_mb as the reader would measure it.
    const r = gen({ worker_mb: Math.ceil(single.pss_total_mib), ram_gb: 23 });
    assert.equal(r.model.processes, workers, 'the same plan as the one measured');
    const budget = mb(r, 'master') + mb(r, 'workers');
    const measured = bundle.pss_total_mib;
    assert.ok(budget >= measured, `${page}: budget ${budget} MB below the measured ${measured} MiB`);
    assert.ok(budget <= measured * SAFETY, `${page}: budget ${budget} MB above ${SAFETY} × the measured ${measured} MiB`);
    shares.push((measured - single.pss_total_mib) / workers / single.pss_total_mib);
  }
  // What the lab saw per worker (about half a copy) is below the share the budget counts, with room for ageing.
  for (const s of shares) assert.ok(s > 0.3 && s < FORK_MEMORY.privateShare, `measured private share ${s.toFixed(2)}`);
  // The advice quotes the two measured figures it rests on (rounded to whole MiB).
  const body = gen({}).advice.find((a) => a.id === 'memory-model').body;
  const regular = (n) => Math.round(rows.find((x) => x.page === 'Regular page' && x.processes === n).pss_total_mib);
  assert.match(body, new RegExp(`about ${regular(1)} MiB as one process and about ${regular(3)} MiB as a master with 2 workers`));
  // The estimate (512 MB, Puma's guide for a typical app) never plans below the small reference app either.
  const d = gen({});
  assert.ok(mb(d, 'master') + mb(d, 'workers') >= Math.max(...rows.map((x) => x.pss_total_mib)));
});

test('(b) every forking server of the app-servers dataset: the budget at one measured copy covers the measured tree', () => {
  const rows = dataset('rebench-2026-app-servers');
  const servers = { 'Puma 8, clustered': 'puma', Unicorn: 'unicorn', Pitchfork: 'pitchfork' };
  let checked = 0;
  for (const [name, server] of Object.entries(servers)) {
    for (const row of rows.filter((x) => x.server === name && typeof x.pss_total_mib === 'number')) {
      const single = rows.find((x) => x.server === 'Puma 8, single process' && x.page === row.page);
      // 2 workers, as measured; Pitchfork's tree also has its master and the mold (4 processes).
      const r = gen({ server, worker_mb: Math.ceil(single.pss_total_mib), ram_gb: 23, cores: 2, workload: 'cpu' });
      assert.equal(r.model.processes, 2, `${name}: 2 workers as in the dataset`);
      const budget = ['monitor', 'master', 'workers'].reduce((s, k) => s + mb(r, k), 0);
      assert.ok(budget >= row.pss_total_mib, `${name}, ${row.page}: budget ${budget} MB below the measured ${row.pss_total_mib} MiB`);
      checked++;
    }
  }
  assert.equal(checked, 9);
});

test('(c) a 1 GB host still gets the small-host plan and, at the 512 MB estimate, the error (exit 3)', () => {
  const r = gen({ ram_gb: 1 });
  assert.equal(r.model.jobs_in_puma, true);
  assert.equal(r.model.mode, 'single', 'no room for a master and a second copy');
  const w = r.warnings.find((x) => x.id === 'memory-over-budget');
  assert.equal(w?.severity, 'error');
  assert.deepEqual(sumsAddUp(w.message, 'memory-over-budget'), [r.model.memory_total_mb]);
  assert.ok(r.model.memory_total_mb > r.model.ram_mb);
  const cli = (a) => spawnSync(process.execPath, [CLI, '--answers', '-', '--format', 'json', '--date', DATE], { input: JSON.stringify(a), encoding: 'utf8' });
  assert.equal(cli({ ram_gb: 1 }).status, 3);
  // A measured copy small enough fits; a host that cannot hold even that keeps the error.
  const fits = gen({ ram_gb: 1, worker_mb: 192 });
  assert.ok(fits.model.memory_total_mb <= fits.model.ram_mb && !fits.warnings.some((x) => x.severity === 'error'));
  assert.equal(cli({ ram_gb: 1, worker_mb: 192 }).status, 0);
  assert.equal(cli({ ram_gb: 1, worker_mb: 256 }).status, 3);
});

test('Unicorn, Pitchfork and Passenger follow the model; a GC without bitmap marking, Thin and JRuby count whole copies', () => {
  const at = (a) => gen({ cores: 4, ram_gb: 16, ...a });
  const unicorn = at({ server: 'unicorn' });
  assert.match(unicorn.model.memory.find((x) => x.kind === 'master').label, /unicorn master: one booted copy/);
  const pitchfork = at({ server: 'pitchfork' });
  assert.equal(mb(pitchfork, 'monitor'), FORK_MEMORY.servers.pitchfork.monitorMb, 'Pitchfork\'s master does not load the app');
  assert.match(pitchfork.model.memory.find((x) => x.kind === 'master').label, /pitchfork mold/);
  const passenger = at({ server: 'passenger' });
  assert.match(passenger.model.memory.find((x) => x.kind === 'master').label, /passenger preloader/);
  for (const r of [unicorn, pitchfork, passenger]) {
    const n = r.model.processes;
    assert.equal(mb(r, 'workers'), n * Math.round(512 * FORK_MEMORY.privateShare), r.model.server);
    assert.ok(r.advice.some((a) => a.id === 'memory-model'), r.model.server);
    sumsAddUp(/^\| Estimated memory per host \| (.*) \|$/m.exec(file(r, 'README.md'))[1], r.model.server);
  }
  // CRuby 1.9 marks inside the objects: every worker becomes a whole copy again.
  const old = at({ server: 'unicorn', ruby_version: '1.9.3', rails: '3.2', server_version: '4.0' });
  assert.equal(mb(old, 'workers'), old.model.processes * mb(old, 'master'));
  assert.match(old.advice.find((a) => a.id === 'memory-model').body, /counts every worker as a whole copy/);
  // Thin runs separate processes (no template); JRuby one JVM process; single-mode Puma one copy.
  const thin = at({ server: 'thin' });
  assert.equal(mb(thin, 'master'), 0);
  assert.equal(mb(thin, 'workers'), thin.model.processes * 512);
  const jruby = at({ ruby: 'jruby', ruby_version: '10.0', rails: '8.0' });
  assert.equal(jruby.model.mode, 'single');
  assert.ok(!jruby.advice.some((a) => a.id === 'memory-model'));
  assert.equal(mb(jruby, 'master'), 0);
});

test('worker_mb means one copy of the app (a worker\'s RSS): the help text says so, with the share from the capability table', () => {
  const r = gen({ worker_mb: 300 });
  const pct = `${Math.round(FORK_MEMORY.privateShare * 100)} %`;
  const catalogHelp = CATALOG['q.worker_mb.help'];
  assert.match(catalogHelp, /RSS of one app server worker/);
  assert.ok(catalogHelp.includes(pct), `the help text names ${pct}`);
  assert.match(file(r, 'README.md'), /You measured 300 MB for one copy of the app\. A forking server counts it once and 75 % of it per worker/);
  assert.equal(mb(r, 'master'), 300);
});

test('--check uses the same model: a preloading Puma counts its master\'s copy once and 75 % per worker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-model-'));
  try {
    const run = (preload) => {
      const app = join(dir, preload ? 'preload' : 'plain');
      mkdirSync(join(app, 'config'), { recursive: true });
      mkdirSync(join(app, 'etc/postgresql/17/main'), { recursive: true });
      writeFileSync(join(app, 'config/puma.rb'), `threads 3, 3\nworkers 2\n${preload ? 'preload_app!\n' : ''}`);
      writeFileSync(join(app, 'etc/postgresql/17/main/postgresql.conf'), 'shared_buffers = 512MB\n');
      writeFileSync(join(dir, 'answers.json'), JSON.stringify({ ram_gb: 1.5, cores: 2 }));
      const r = spawnSync(process.execPath, [CLI, '--check', app, '--answers', join(dir, 'answers.json'), '--format', 'json'], { encoding: 'utf8', timeout: 60000 });
      return JSON.parse(r.stdout).findings.find((f) => f.setting === 'shared_buffers' && f.rule === 'inconsistent');
    };
    // 512 + 2 × 384 + 512 = 1792 MB > 1536 MB: the master's copy counts; without preload_app! 2 × 512 + 512 fits.
    const w = run(true);
    assert.equal(w?.severity, 'warning');
    assert.deepEqual(sumsAddUp(w.message, 'check memory'), [512 + 2 * Math.round(512 * FORK_MEMORY.privateShare) + 512, Math.round(512 * FORK_MEMORY.privateShare)]);
    assert.ok(w.evidence.some((e) => e.url === 'https://github.com/puma/puma#clustered-mode'));
    assert.equal(run(false), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('where the RAM caps the workers, the finding shows the whole budget with every factor', () => {
  const r = gen({ cores: 8, ram_gb: 4, db_host: 'separate' });
  const w = r.warnings.find((x) => x.id === 'workers-limited-by-memory');
  assert.ok(w, 'the cap is reported');
  const [total, each] = sumsAddUp(w.message, 'workers-limited-by-memory');
  assert.equal(total, r.model.memory_total_mb);
  assert.equal(each, Math.round(512 * FORK_MEMORY.privateShare));
  assert.ok(total <= r.model.ram_mb);
  // One worker more would not fit: the cap is the largest count that does.
  assert.ok(total + each > r.model.ram_mb, `${total} + ${each} MB`);
  assert.match(w.message, new RegExp(`only ${r.model.processes} fit`));
});

// Job runners (issue 24): Solid Queue's bin/jobs requires config/environment before SolidQueue::Cli.start, and its
// supervisor forks the workers from itself (capabilities/memory.mjs cites the template and README); Sidekiq, GoodJob
// and Delayed Job run one process per unit that loads the app itself.
test('Solid Queue: one copy in the supervisor and each worker\'s private share, with the source; the other runners count whole copies', () => {
  const r = gen({ job_processes: 2, ram_gb: 8 });
  const copy = mb(r, 'jobs-template');
  assert.equal(copy, 512);
  assert.equal(mb(r, 'jobs'), 2 * Math.round(copy * FORK_MEMORY.privateShare));
  const row = /^\| Estimated memory per host \| (.*) \|$/m.exec(file(r, 'README.md'))[1];
  const sums = sumsAddUp(row, 'README memory row');
  assert.equal(sums[0], r.model.memory_total_mb);
  assert.match(row, /512 MB copy of the app in the Solid Queue supervisor \+ 2 × 384 MB Solid Queue worker\(s\) forked from it \+/);
  assert.match(row, /; each Solid Queue worker 75 % × 512 MB = 384 MB$/);
  const adv = r.advice.find((a) => a.id === 'job-memory');
  assert.ok(adv, 'the job-memory advice');
  assert.deepEqual(sumsAddUp(adv.body, 'job-memory advice'), [384]);
  assert.match(adv.body, /config\/environment/);
  assert.ok(adv.evidence.some((e) => e.url === 'https://github.com/rails/solid_queue#fork-vs-async-mode'), adv.evidence.map((e) => e.url).join(' '));
  // Whole copies of a measured worker_mb: 2 processes for the runners that fork nothing; on JRuby (no fork) Solid
  // Queue's supervisor and 2 workers are 3 copies, as before.
  for (const [jobs, extra, copies] of [['sidekiq', {}, 2], ['good_job', {}, 2], ['delayed_job', {}, 2], ['solid_queue', { ruby: 'jruby', ruby_version: '9.4', rails: '7.1' }, 3]]) {
    const o = gen({ jobs, job_processes: 2, ram_gb: 32, worker_mb: 600, ...extra });
    assert.equal(mb(o, 'jobs-template'), 0, jobs);
    assert.ok(!o.advice.some((a) => a.id === 'job-memory'), jobs);
    assert.equal(mb(o, 'jobs'), copies * 600, `${jobs}: ${copies} whole copies`);
  }
});
