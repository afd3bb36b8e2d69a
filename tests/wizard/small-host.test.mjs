// Small hosts (issue 23): a plan over RAM on a 1–2 GB host runs Solid Queue inside Puma (SOLID_QUEUE_IN_PUMA, the
// plugin in async mode) instead of rails-jobs; its threads and connections count in the Puma process's pools; the
// finding shows both plans' memory sums; the command line exits 3 only when even the smaller plan does not fit.
// The lab half (the 1 GB bundle's measured PSS within its budget) is faults-small-host.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generate } from '../../guide/engine/index.mjs';
import { evaluate, equations } from '../helpers/arithmetic.mjs';

const DATE = '2026-11-25';
const CLI = new URL('../../guide/cli.mjs', import.meta.url).pathname;
const gen = (answers) => generate(answers, { date: DATE });
const file = (r, path) => r.files.find((f) => f.path === path)?.content;
const cli = (answers) => spawnSync(process.execPath, [CLI, '--answers', '-', '--format', 'json', '--date', DATE], { input: JSON.stringify(answers), encoding: 'utf8' });

/** Every "… = N" in the text adds up, and there is at least one. */
function sumsAddUp(text, where) {
  const eqs = equations(text).filter((e) => evaluate(e.expr) !== null);
  assert.ok(eqs.length > 0, `${where}: no sum in ${text}`);
  for (const e of eqs) assert.equal(evaluate(e.expr), e.value, `${where}: "${e.expr} = ${e.value}"`);
  return eqs.map((e) => e.value);
}

test('2 GB: the plan with rails-jobs is over RAM, the bundle runs Solid Queue inside Puma and fits (exit 0)', () => {
  const r = gen({ ram_gb: 2 });
  const m = r.model;
  assert.equal(m.jobs_in_puma, true);
  assert.ok(m.memory_total_mb <= m.ram_mb, `${m.memory_total_mb} MB in ${m.ram_mb} MB`);
  assert.ok(!r.warnings.some((w) => w.severity === 'error'));
  // The memory line of the jobs is the Puma process's: no process, no MB of its own.
  assert.deepEqual(m.memory.filter((x) => x.kind === 'jobs').map((x) => x.mb), [0]);
  assert.equal(m.job_workers, 0);
  assert.equal(m.job_connections, 0);
  // Files: no jobs unit, no jobs.env; the web unit sets the variable; puma.rb loads the plugin in async mode.
  assert.ok(!r.files.some((f) => /rails-jobs|jobs\.env/.test(f.path)), r.files.map((f) => f.path).join(' '));
  assert.match(file(r, 'etc/systemd/system/rails-app.service'), /^Environment=SOLID_QUEUE_IN_PUMA=1$/m);
  const puma = file(r, 'config/puma.rb');
  assert.match(puma, /^plugin :solid_queue if ENV\["SOLID_QUEUE_IN_PUMA"\]\n# Async mode[^]*\nsolid_queue_mode :async if ENV\["SOLID_QUEUE_IN_PUMA"\]$/m, 'the mode line follows the plugin that defines it');
  assert.match(puma, /github\.com\/rails\/solid_queue#puma-plugin/, 'the lines cite the README');
  assert.doesNotMatch(file(r, 'config/queue.yml'), /processes:/, 'async mode ignores processes');
  const readme = file(r, 'README.md');
  assert.match(readme, /^systemctl enable --now rails-app\.service$/m);
  assert.doesNotMatch(readme, /systemctl restart rails-jobs/);
  assert.match(readme, /Solid Queue inside Puma: 3 worker thread\(s\)/);
  // The finding shows both plans, each sum adding up, the first over RAM and the second within it.
  const w = r.warnings.find((x) => x.id === 'jobs-in-puma');
  assert.equal(w?.severity, 'info');
  // [separate plan, its Solid Queue worker's share, the plan generated]
  const sums = sumsAddUp(w.message, 'jobs-in-puma');
  const [separate, plan] = [sums[0], sums.at(-1)];
  assert.ok(separate > m.ram_mb && plan === m.memory_total_mb, w.message);
  // The separate plan counts Solid Queue's supervisor as one copy and its forked worker's own pages (memory-model.test.mjs).
  assert.match(w.message, /512 MB copy of the app in the Solid Queue supervisor \+ 1 × 384 MB Solid Queue worker\(s\) forked from it/, 'every factor of the separate plan');
  assert.match(w.message, /each Solid Queue worker 75 % × 512 MB = 384 MB/);
  assert.ok(w.evidence.some((e) => e.url === 'https://github.com/rails/solid_queue#puma-plugin'));
  assert.equal(cli({ ram_gb: 2 }).status, 0);
});

test('inside Puma the job threads count in the Puma process\'s pools and the connection budget', () => {
  const r = gen({ ram_gb: 2, job_threads: 5 });
  const m = r.model;
  assert.equal(m.threads, 3);
  assert.equal(m.pool, 3 + 4 + 5, 'request threads + Action Cable workers + Solid Queue worker threads');
  const yml = file(r, 'config/database.yml').replace(/\n\s*#\s*/g, ' ');
  assert.match(yml, /pool 3 thread\(s\) \+ 4 Action Cable workers \+ 5 Solid Queue worker thread\(s\) = 12/);
  assert.match(yml, /max_connections: <%= ENV\.fetch\("RAILS_MAX_THREADS"\) \{ 3 \}\.to_i \+ 9 %>/);
  // Queue: the process's pool + 2 (worker polling, heartbeat) + 6 (supervisor, dispatcher, scheduler) = 20.
  assert.match(yml, /queue pool 12 \+ 2 for the Solid Queue worker's polling and heartbeat \+ 6 for its supervisor and dispatcher and scheduler = 20/);
  assert.match(yml, /max_connections: <%= ENV\.fetch\("RAILS_MAX_THREADS"\) \{ 3 \}\.to_i \+ 17 %>/);
  sumsAddUp(yml, 'database.yml');
  // Per process primary 12 + cache 12 + queue 20 + cable 12 = 56; the host needs 1 × 1 × 56, no job runner term.
  assert.equal(m.web_connections_per_process, 12 + 12 + 20 + 12);
  assert.equal(m.connections_needed, m.web_connections_per_process);
});

test('1 GB: even the smaller plan is over RAM with the 512 MB estimate: error with its whole sum, exit 3; a measured worker_mb fits', () => {
  const r = gen({ ram_gb: 1 });
  assert.equal(r.model.jobs_in_puma, true, 'the bundle is the smaller plan');
  const w = r.warnings.find((x) => x.id === 'memory-over-budget');
  assert.equal(w?.severity, 'error');
  assert.deepEqual(sumsAddUp(w.message, 'memory-over-budget'), [r.model.memory_total_mb]);
  assert.match(w.message, /1 × 512 MB app server process\(es\)/);
  assert.match(w.suggestion, /Even with Solid Queue inside Puma \(SOLID_QUEUE_IN_PUMA=1/);
  assert.match(w.suggestion, /worker_mb/);
  assert.equal(cli({ ram_gb: 1 }).status, 3);
  const measured = gen({ ram_gb: 1, worker_mb: 192 });
  assert.ok(measured.model.jobs_in_puma && measured.model.memory_total_mb <= 1024);
  assert.equal(cli({ ram_gb: 1, worker_mb: 192 }).status, 0);
  assert.equal(cli({ ram_gb: 1, worker_mb: 193 }).status, 3, '193 MB no longer fits 1024 MB');
});

test('the smaller plan only where it applies: larger hosts, plans that fit, Rails 7, other runners keep rails-jobs', () => {
  for (const answers of [{ ram_gb: 4 }, { ram_gb: 2, db_host: 'separate', worker_mb: 400 }, { ram_gb: 2, rails: '7.2' }, { ram_gb: 2, jobs: 'sidekiq' }, { ram_gb: 2, init: 'other' }, { ram_gb: 4, worker_mb: 2048 }]) {
    const r = gen(answers);
    assert.equal(r.model.jobs_in_puma, false, JSON.stringify(answers));
    assert.ok(!r.warnings.some((w) => w.id === 'jobs-in-puma'), JSON.stringify(answers));
    assert.doesNotMatch(file(r, 'config/puma.rb') || '', /solid_queue_mode/, JSON.stringify(answers));
    if (r.answers.init === 'systemd') assert.ok(r.files.some((f) => /^etc\/systemd\/system\/rails-jobs/.test(f.path)), JSON.stringify(answers));
  }
  // Rails 7.2 over RAM on 2 GB: still the error, with the in-Puma advice as words for the reader.
  const old = gen({ ram_gb: 2, rails: '7.2' });
  const w = old.warnings.find((x) => x.id === 'memory-over-budget');
  assert.equal(w?.severity, 'error');
  assert.match(w.suggestion, /SOLID_QUEUE_IN_PUMA=1/);
});
