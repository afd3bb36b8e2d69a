// Proof in the lab that the wizard's GoodJob and Delayed Job bundles work on the reference app (Rails 8.1, Ruby
// 3.3, good_job and delayed_job_active_record from lab/app/Gemfile.lock): README steps 1–6 run as written
// (helpers/readme-lab.mjs, as lab-sidekiq-bundle.test.mjs does), then a job enqueued by a request is run by the
// process of the bundle's rails-jobs@1 unit (the job records its PID), and the unit's stop signal ends that process
// within the unit's TimeoutStopSec.
//
// GoodJob (PostgreSQL only, so PostgreSQL 17 from the lab through Debian's pg_ctlcluster): the unit is Type=notify
// (GoodJob::SystemdService), so the shim returns from `systemctl enable --now` only once READY=1 arrived, and
// jobs.env's GOOD_JOB_SHUTDOWN_TIMEOUT reaches the process. The app side that the bundle's advice asks for (gem,
// adapter, tables from the gems' install generators) is the reference app's, selected by LAB_JOBS in the secrets
// file (config/application.rb and production.rb; migrations in db/good_job_migrate and db/delayed_job_migrate).
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, writeBundle } from '../helpers/lab.mjs';
import { generate } from '../../guide/engine/index.mjs';
import { readmeScript, runReadmeProof } from '../helpers/readme-lab.mjs';
import { serviceSection } from './unit-file.mjs';

const DOMAIN = 'app.test';

async function jobProof(answers, { command, prefix }) {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const bundle = generate({ domain: DOMAIN, ...answers }, { date: '2026-11-26' });
  const unit = serviceSection(bundle.files.find((f) => f.path === 'etc/systemd/system/rails-jobs@.service').content);
  const jobsEnv = bundle.files.find((f) => f.path === 'config/jobs.env').content;
  const { dir, inLab: B } = writeBundle(bundle, prefix);
  try {
    const script = `${readmeScript(bundle, B, { domain: DOMAIN, secretsExtra: `LAB_JOBS=${answers.jobs}` })}
JOB=$(run_job); echo "$JOB"
# The process that ran the job (its PID is in executed_by), and what it is.
J=$(printf '%s' "$JOB" | sed -n 's/.*"executed_by":"[^"]*:\\([0-9]*\\)".*/\\1/p')
echo "runner-pid=$J user=$(ps -o user= -p $J | tr -d ' ')"
echo "runner-cmd=$(tr '\\0' ' ' < /proc/$J/cmdline)"
echo "runner-env=$(tr '\\0' '\\n' < /proc/$J/environ | grep -E '^(LAB_JOBS|GOOD_JOB_[A-Z_]+)=' | sort | tr '\\n' ' ')"
[ ! -f /run/readme-shims/rails-jobs@1.notify.log ] || echo "notify=$(grep -c '^READY=1' /run/readme-shims/rails-jobs@1.notify.log)"
# The unit's stop: KillSignal to the runner, which must exit within TimeoutStopSec.
t0=$(date +%s%N); kill -${unit.KillSignal[0].replace(/^SIG/, '')} $J; for i in $(seq 1 ${Number(unit.TimeoutStopSec[0]) * 10}); do kill -0 $J 2>/dev/null || break; sleep 0.1; done
kill -0 $J 2>/dev/null && echo "runner-stop=still running" || echo "runner-stop-ms=$(( ($(date +%s%N) - t0) / 1000000 ))"
echo "--- shim calls"; cat /var/log/readme-shims.log
`;
    const { r, out, seconds } = await runReadmeProof(script);
    const pid = /^runner-pid=(\d+) user=deploy$/m.exec(r.stdout)?.[1];
    assert.ok(pid, `the job runner runs as the service user: ${out}`);
    assert.match(r.stdout, new RegExp(`^job=.*"executed_by":"[^"]+:${pid}"`, 'm'), out);
    // Its command line, as the process shows it (GoodJob rewrites its title: no interpreter, padded with spaces).
    assert.match(r.stdout, new RegExp(`^runner-cmd=(\\S*ruby\\S* )?\\S+/${command}\\s*$`, 'm'), `the job ran in the rails-jobs@1 process (its ExecStart): ${out}`);
    assert.ok(unit.ExecStart[0].endsWith(`bundle exec ${command.replace(/^bin\//, '')}`), unit.ExecStart[0]);
    assert.match(r.stdout, /^runner-stop-ms=\d+$/m, `the runner stopped on ${unit.KillSignal} within ${unit.TimeoutStopSec} s: ${out}`);
    assert.match(r.stdout, /^systemctl enable --now rails-app\.service rails-jobs@1\.service$/m, out);
    console.log(r.stdout.split('\n').filter((l) => /^(step\d|up|job|runner|notify)/.test(l)).join('\n'));
    console.log(`lab run: ${seconds()} s`);
    return { r, out, unit, jobsEnv };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('lab: the GoodJob bundle, applied by its README steps 1–6, runs a job in its rails-jobs@1 service (Type=notify)', { timeout: 900_000 }, async () => {
  const { r, out, unit, jobsEnv } = await jobProof({ jobs: 'good_job' }, { command: 'bin/good_job start', prefix: '.wizard-goodjob-' });
  assert.deepEqual(unit.Type, ['notify']);
  assert.match(r.stdout, /^notify=1$/m, `GoodJob sent READY=1 on the unit's notify socket: ${out}`);
  const timeout = /^GOOD_JOB_SHUTDOWN_TIMEOUT=(\d+)$/m.exec(jobsEnv)?.[1];
  assert.ok(Number(timeout) < Number(unit.TimeoutStopSec[0]), 'GoodJob gives up on running jobs before systemd kills it');
  assert.match(r.stdout, new RegExp(`^runner-env=.*GOOD_JOB_SHUTDOWN_TIMEOUT=${timeout} `, 'm'), `jobs.env reached GoodJob: ${out}`);
});

// Delayed Job on SQLite (Active Record, any database): one job at a time per process, `rake jobs:work` (Type=exec:
// it has no readiness protocol); SIGTERM lets the current job finish, then the worker exits.
test('lab: the Delayed Job bundle, applied by its README steps 1–6, runs a job in its rails-jobs@1 service', { timeout: 900_000 }, async () => {
  const { unit } = await jobProof({ jobs: 'delayed_job', database: 'sqlite', adapter: 'sqlite3' }, { command: 'bin/rake jobs:work', prefix: '.wizard-dj-' });
  assert.deepEqual(unit.Type, ['exec']);
  assert.deepEqual(unit.KillSignal, ['SIGTERM']);
});
