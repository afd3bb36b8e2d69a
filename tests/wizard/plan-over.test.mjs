// A memory plan above the host's RAM is an error (CLI exit 3) also where only Unicorn's USR2 handover puts it there
// (issue 23; SRE review 6, D3: a Unicorn + MySQL bundle on 4 GB planned 4,624 MB and exited 0 with a warning, and
// every deploy's second master ran past RAM). Each way out the suggestion names is generated here and fits.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generate } from '../../guide/engine/index.mjs';

const DATE = '2026-11-27';
const CLI = new URL('../../guide/cli.mjs', import.meta.url).pathname;
const gen = (answers) => generate(answers, { date: DATE });
const cli = (answers) => spawnSync(process.execPath, [CLI, '--answers', '-', '--format', 'json', '--date', DATE], { input: JSON.stringify(answers), encoding: 'utf8' });
const over = (r) => r.warnings.find((w) => w.id === 'memory-over-budget');
const handoverMb = (m) => m.memory.filter((x) => x.kind === 'handover').reduce((s, x) => s + x.mb, 0);

// The review's bundle b5: Ubuntu 24.04, 4 GB, Unicorn (6.1, the default), MySQL on the host, Solid Queue in its own service.
const b5 = { distro: 'ubuntu-24.04', ram_gb: 4, server: 'unicorn', database: 'mysql', db_host: 'same', jobs: 'solid_queue' };

test('b5: over RAM only through the handover is an error, and the CLI exits 3 as README\'s exit-code table says', () => {
  const r = gen(b5);
  const m = r.model;
  const steady = m.memory_total_mb - handoverMb(m);
  assert.ok(handoverMb(m) > 0, 'the plan holds the handover');
  assert.ok(steady <= m.ram_mb && m.memory_total_mb > m.ram_mb, `steady ${steady} MB fits, with the handover ${m.memory_total_mb} MB of ${m.ram_mb} does not`);
  const w = over(r);
  assert.equal(w?.severity, 'error');
  assert.ok(w.message.includes(`(${m.memory_total_mb} MB) exceeds the host's RAM (${m.ram_mb} MB)`), w.message);
  assert.match(w.suggestion, /every deploy would run the host out of memory/);
  assert.match(w.suggestion, /server: puma/);
  assert.ok(!r.warnings.some((x) => x.id === 'handover-memory'), 'no "fits with the handover" info beside the error');
  const run = cli(b5);
  assert.equal(run.status, 3, run.stderr);
  assert.match(run.stderr, /error \[memory-over-budget\]/);
  const allowed = spawnSync(process.execPath, [CLI, '--answers', '-', '--format', 'json', '--date', DATE, '--allow-errors'], { input: JSON.stringify(b5), encoding: 'utf8' });
  assert.equal(allowed.status, 0, '--allow-errors still writes it');
});

test('each way out the suggestion names gives a plan that fits and exits 0', () => {
  const ways = {
    'Puma (hot restart in the same process)': { server: 'puma' },
    'a bigger host': { ram_gb: 5 },
    'the database on its own host': { db_host: 'separate' },
    'a measured worker_mb': { worker_mb: 300 },
  };
  for (const [why, change] of Object.entries(ways)) {
    const answers = { ...b5, ...change };
    const r = gen(answers);
    assert.ok(!over(r), `${why}: ${r.model.memory_total_mb} MB of ${r.model.ram_mb}`);
    assert.ok(r.model.memory_total_mb <= r.model.ram_mb, why);
    assert.ok(!r.warnings.some((w) => w.severity === 'error'), `${why}: ${r.warnings.filter((w) => w.severity === 'error').map((w) => w.id)}`);
  }
  // Puma's reload re-executes in place: no handover line, so nothing doubles on a deploy.
  assert.equal(handoverMb(gen({ ...b5, server: 'puma' }).model), 0);
});

test('the defaults, the lab-proven Unicorn bundle and Unicorn where the handover fits still exit 0', () => {
  const def = cli({});
  assert.equal(def.status, 0, def.stderr);
  // reload-new-code.test.mjs boots this one (Unicorn 6.1, no job service, default 4 GB host) and reloads it in the lab.
  const lab = gen({ server: 'unicorn', server_version: '6.1', jobs: 'none', cores: 2, tls: 'none' });
  assert.ok(!over(lab), `${lab.model.memory_total_mb} of ${lab.model.ram_mb}`);
  assert.ok(handoverMb(lab.model) > 0 && lab.model.memory_total_mb <= lab.model.ram_mb, 'the handover is planned and fits');
  assert.ok(lab.warnings.some((w) => w.id === 'handover-memory' && w.severity === 'info'));
  const bigger = cli({ ...b5, ram_gb: 8 });
  assert.equal(bigger.status, 0, bigger.stderr);
});
