// Operations files: job runner configuration (config/queue.yml, config/sidekiq.yml, config/jobs.env), the
// secrets EnvironmentFile template and log rotation for the app's log/ directory.
import { FREEBSD_SECRETS } from './util.mjs';
import { SRC } from '../evidence.mjs';
import { t } from '../text.mjs';
import { SECRETS_FILE } from './systemd.mjs';
import { queuePoolPlus, jobsTimeoutApplies, JOBS_TIMEOUT_ENV, JOBS_STATEMENT_TIMEOUT } from './database-yml.mjs';

export const id = 'operations';

function jobsEnv(ctx) {
  const out = [
    { comment: t('ops.jobs-env', { runner: ctx.jobRunner.label }) },
    { key: 'RAILS_MAX_THREADS', value: ctx.jobThreads,
      why: t(ctx.jobs === 'sidekiq' ? 'ops.jobs-threads.sidekiq' : ctx.dbRoles.includes('queue') ? 'ops.jobs-threads.queue' : 'ops.jobs-threads', { threads: ctx.jobThreads, plus: queuePoolPlus(ctx), pool: ctx.jobThreads + queuePoolPlus(ctx) }),
      evidence: [SRC.railsPool, ctx.jobs === 'sidekiq' ? SRC.sidekiq : SRC.solidQueue] },
  ];
  if (ctx.jobs === 'solid_queue') out.push({ key: 'JOB_CONCURRENCY', value: ctx.jobProcesses, why: t('ops.job-concurrency', { n: ctx.jobProcesses }), evidence: [SRC.solidQueue, SRC.railsDbTemplate] });
  // database.yml's variables read it: the job process's queries get their own bound, not the web's 30 s.
  if (jobsTimeoutApplies(ctx)) out.push({ key: JOBS_TIMEOUT_ENV, value: JOBS_STATEMENT_TIMEOUT, why: t('ops.jobs-statement-timeout', { v: JOBS_STATEMENT_TIMEOUT }), evidence: [SRC.pgClient, SRC.railsConfiguring] });
  if (ctx.jobs === 'good_job') {
    out.push({ key: 'GOOD_JOB_MAX_THREADS', value: ctx.jobThreads, why: t('ops.good-job-threads'), evidence: [SRC.goodJob] });
    out.push({ key: 'GOOD_JOB_SHUTDOWN_TIMEOUT', value: ctx.jobRunner.stopTimeout, why: t('ops.good-job-shutdown', { s: ctx.jobRunner.stopTimeout, stop: ctx.jobRunner.stopTimeout + 10 }), evidence: [SRC.goodJob] });
  }
  return out;
}

function queueYml(ctx) {
  const worker = [
    { key: 'queues', value: '*' },
    // database.yml's queue pool is RAILS_MAX_THREADS + plus: the job process's threads, or Puma's when jobs run inside it.
    { key: 'threads', value: ctx.jobThreads, why: t('ops.queue-threads', { threads: ctx.jobsInPuma ? ctx.threads : ctx.jobThreads, plus: queuePoolPlus(ctx), pool: (ctx.jobsInPuma ? ctx.threads : ctx.jobThreads) + queuePoolPlus(ctx) }), evidence: [SRC.solidQueue] },
    // Async mode inside Puma ignores processes (Solid Queue README): left out there.
    ...(ctx.jobsInPuma ? [] : [{ key: 'processes', value: { raw: `<%= ENV.fetch("JOB_CONCURRENCY") { ${ctx.jobProcesses} } %>` } }]),
    { key: 'polling_interval', value: 0.1 },
  ];
  return [{
    key: 'production', why: t('ops.queue-yml'), evidence: [SRC.solidQueue],
    children: [
      { key: 'dispatchers', items: [[{ key: 'polling_interval', value: 1 }, { key: 'batch_size', value: 500 }]] },
      { key: 'workers', items: [worker] },
    ],
  }];
}

function sidekiqYml(ctx) {
  return [
    { key: 'concurrency', value: ctx.jobThreads, why: t('ops.sidekiq-concurrency', { n: ctx.jobThreads }), evidence: [SRC.sidekiq, SRC.railsPool] },
    { key: 'timeout', value: 25, why: t('ops.sidekiq-timeout'), evidence: [SRC.sidekiq] },
    { key: 'queues', value: { raw: '[default, mailers]' } },
  ];
}

function secretsEnv(ctx, freebsd = false) {
  const db = ctx.a.database !== 'sqlite';
  return [
    { comment: freebsd ? t('ops.secrets.freebsd', { file: FREEBSD_SECRETS, user: ctx.user }) : t('ops.secrets', { file: SECRETS_FILE }) },
    { key: 'RAILS_MASTER_KEY', value: '', why: t('ops.master-key'), evidence: [SRC.railsConfiguring] },
    ...(db ? [{ key: 'DATABASE_PASSWORD', value: '', why: t('ops.db-password'), evidence: [SRC.railsConfiguring] }] : []),
  ];
}

function logrotate(ctx) {
  return [
    `# ${t('ops.logrotate')}`,
    `# see: ${SRC.logrotate.url}`,
    `${ctx.root}/log/*.log {`,
    '    daily',
    '    rotate 14',
    '    maxsize 100M',
    '    missingok',
    '    notifempty',
    '    compress',
    '    delaycompress',
    `    # ${t('ops.copytruncate')}`,
    '    copytruncate',
    `    su ${ctx.user} ${ctx.user}`,
    '}',
  ];
}

export function generate(ctx) {
  // FreeBSD too: its rc.d scripts read the same job settings and secrets (no logrotate there: newsyslog).
  if (!ctx.linux && ctx.a.os !== 'freebsd') return {};
  const files = [];
  if (ctx.jobRunner) {
    // Inside Puma (small hosts) no unit reads jobs.env: the jobs run with the web process's settings.
    if (!ctx.jobsInPuma) files.push({ path: 'config/jobs.env', format: 'env', body: jobsEnv(ctx) });
    if (ctx.jobs === 'solid_queue') files.push({ path: 'config/queue.yml', format: 'yaml', body: queueYml(ctx) });
    if (ctx.jobs === 'sidekiq') files.push({ path: 'config/sidekiq.yml', format: 'yaml', body: sidekiqYml(ctx) });
  }
  // Passenger inside Apache reads it too, through Apache's unit (limits.mjs's drop-in).
  if (ctx.linux && ctx.a.init === 'systemd') files.push({ path: 'etc/rails-app/secrets.env', format: 'env', body: secretsEnv(ctx) });
  // FreeBSD's rc.d scripts (rc-freebsd.mjs) read theirs after daemon(8) has dropped to the app user.
  if (ctx.a.os === 'freebsd' && !ctx.passengerIntegrated) files.push({ path: 'usr/local/etc/rails-app/secrets.env', format: 'env', body: secretsEnv(ctx, true) });
  if (ctx.linux) files.push({ path: 'etc/logrotate.d/rails-app', format: 'lines', body: logrotate(ctx) });
  return { files };
}
