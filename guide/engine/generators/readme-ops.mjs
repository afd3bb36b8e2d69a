// The operations part of the bundle README: the commands that take the files to a running, HTTPS-serving app,
// then restart, roll back and read logs. Shell blocks are exact (tests run them in the lab); words are in
// catalog-prod.mjs ("ops.readme.*").
import { SERVER_PROCESS, HARDENING, LAB_PROOFS, RAILS_API } from '../caps.mjs';
import { has } from '../pick.mjs';
import { ACME_WEBROOT, cableEnabled, timeoutChain } from './edge.mjs';
import { SECRETS_FILE } from './systemd.mjs';
import { SERVER_LABEL } from './util.mjs';
import { DEPLOY_SCRIPT, SHARED_BUNDLE, switchMode, upCheck, precompileEnv, handoverReload } from './releases.mjs';
import { familyDestination } from './readme.mjs';
import { commandsOf, packageLines, securityLines, bootEnableLine, fam, mysqlRepoSeries } from './family-steps.mjs';
import { MIGRATE_ENV, migrateEnvApplies } from './database-yml.mjs';
import { pgApply, certLines, restartOnly } from './readme-apply.mjs';
import { pgSettings } from './postgresql.mjs';
import { railsTask, prepareTask, precompiles, bundlerArgs } from './rails-commands.mjs';
import { t } from '../text.mjs';

// Old code runs against the new schema: between the migration and the restart, on the hosts a rolling deploy has not
// switched yet, and after every rollback (which never undoes a migration). How to write migrations that survive that
// (SRE check 4, D8), with where the advice comes from: strong_migrations' README and Rails' ignored_columns.
function expandContract(ctx) {
  const ignore = has(RAILS_API.ignoredColumns, ctx.a.rails) ? t('ops.readme.migrations.ignore') : t('ops.readme.migrations.ignore-old', { rails: ctx.a.rails });
  return { p: t('ops.readme.migrations', { ignore, rollback: railsTask(ctx, 'db:rollback') }) };
}

export function jobUnitNames(ctx) {
  if (!ctx.jobRunner || ctx.jobsInPuma) return []; // inside Puma (small hosts): rails-app runs the jobs
  if (ctx.jobs === 'solid_queue') return ['rails-jobs.service'];
  return Array.from({ length: ctx.jobProcesses }, (_, i) => `rails-jobs@${i + 1}.service`);
}

/**
 * What the lab booted of this bundle, part by part (capabilities/lab-proofs.mjs): the server, the database and the
 * job backend each with the test that booted it, and a part the lab cannot boot (MySQL, Mongrel) named with its reason.
 */
function labProof(ctx, row) {
  const parts = [['server', ctx.server, SERVER_LABEL[ctx.server]], ['database', ctx.a.database, { postgresql: 'PostgreSQL', mysql: 'MySQL', mariadb: 'MariaDB', sqlite: 'SQLite' }[ctx.a.database]],
    ...(ctx.jobRunner ? [['jobs', ctx.jobs, ctx.jobRunner.label]] : [])];
  const booted = [];
  const unbooted = [];
  for (const [kind, id, name] of parts) {
    const what = t(`ops.readme.part.${kind}`);
    const test = LAB_PROOFS[kind]?.[id];
    if (test) booted.push(t('ops.readme.booted.part', { what, name, test }));
    else if (LAB_PROOFS.unbooted?.[id]) unbooted.push(t('ops.readme.unbooted.part', { what, name, family: ctx.family.id, why: t(`ops.readme.unbooted.${LAB_PROOFS.unbooted[id]}`) }));
  }
  return [booted.length ? t('ops.readme.booted.parts', { release: row.booted, booted: booted.join('; ') }) : '', ...unbooted].filter(Boolean).join(' ');
}

/** The variable that gives migrations their own session settings in database.yml (PostgreSQL, MySQL, MariaDB). */
function migrateEnv(ctx) {
  return migrateEnvApplies(ctx) ? `${MIGRATE_ENV}=1 ` : '';
}

/** `hosts`: what the optional generators left on the summary: {db, lb} blocks and the rolling deploy lines (readme-hosts.mjs), kamal lines. */
export function opsBlocks(ctx, files, hosts = {}) {
  if (!ctx.linux || ctx.a.init !== 'systemd') return [];
  // Every family-specific command comes from the family's table (capabilities/family-commands.mjs); without one, no steps.
  const row = commandsOf(ctx);
  if (!row) return [{ h: 2, text: t('ops.readme.title') }, { p: t('ops.readme.no-table', { family: ctx.family.id }) }];
  const { root, user, rubyBin, domain } = ctx;
  const has = (p) => files.some((f) => f.path === p);
  const proof = row.booted ? labProof(ctx, row) : t('ops.readme.structure', { family: ctx.family.id });
  // Safe to run again (readme-apply.mjs), proven by a second run in the lab where the steps are booted. Not said where
  // a step still restarts a service every time: MySQL/MariaDB on this host, Redis, Apache with Passenger inside, kamal-proxy.
  const restartsAlways = ['mysql', 'mariadb'].includes(ctx.a.database) && ctx.a.db_host === 'same' || (hosts.redis || []).length || ctx.passengerIntegrated || (hosts.kamal || []).length;
  // The second run was proven on the default stack: another stack's README says it was not run on that one.
  const same = ctx.server === 'puma' && ctx.proxy === 'nginx' && ctx.a.database === 'postgresql' ? 'same' : 'other';
  const again = row.booted && !restartsAlways ? ` ${t('ops.readme.idempotent', { test: 'tests/wizard/lab-default-bundle.test.mjs', proxy: ctx.proxy, which: t(`ops.readme.idempotent.${same}`) })}` : '';
  const blocks = [{ h: 2, text: t('ops.readme.title') }, { p: `${t('ops.readme.intro', { family: ctx.family.id })} ${proof}${again}` }, ...(hosts.db || [])];
  const sh = (code) => ({ code, lang: 'sh' });
  // 1. User and directories.
  // Debian 13's ruby3.3 package ships only bundle3.3; the distribution's `bundler` package adds /usr/bin/bundle
  // (packageLines installs it with the rest when ruby_path is /usr/bin).
  const distBundler = rubyBin === '/usr/bin' && ctx.impl.distroRuby;
  blocks.push({ h: 3, text: t('ops.readme.host') }, { p: t(distBundler ? 'ops.readme.host.p.apt' : 'ops.readme.host.p', { bin: rubyBin }) }, sh([
    ...packageLines(ctx),
    ...(distBundler ? [] : [`test -x ${rubyBin}/bundle || echo "no bundle in ${rubyBin}: install Bundler there or answer ruby_path, then go on"`]),
    `id ${user} >/dev/null 2>&1 || ${fam(ctx, 'systemUser', { user, home: root })}`,
    // The app root is created only when missing: an existing directory keeps its owner (install -d would change it).
    `test -d ${root} || install -d -o ${user} -g ${user} ${root}`,
    `install -d -o ${user} -g ${user} ${root}/tmp ${root}/tmp/sockets ${root}/tmp/pids ${root}/log ${root}/storage${ctx.releases ? ` ${root}/releases ${root}/${SHARED_BUNDLE}` : ''}`,
    // Release directories: an app that sits in the app root becomes the first release (deploy.sh init).
    ...(ctx.releases && has(DEPLOY_SCRIPT) ? [`test -e ${ctx.appDir} || sh ${DEPLOY_SCRIPT} init`] : []),
  ].join('\n')));
  if (ctx.releases) blocks.push({ p: t('ops.readme.releases.p') });
  // 2. Secrets. The template goes in only when there is no file yet: a second run keeps the values filled in.
  const secretNames = ctx.a.database === 'sqlite' ? 'RAILS_MASTER_KEY' : 'RAILS_MASTER_KEY, DATABASE_PASSWORD';
  // Passenger inside Apache: its PassengerRuby wrapper reads the file as the app's user (passenger.mjs), so the
  // directory and file are the user's group's too (0750/0640), set again on an existing file; root-only otherwise.
  const wrapper = ctx.passengerEnvWrapper;
  blocks.push({ h: 3, text: t('ops.readme.secrets') }, { p: `${t('ops.readme.secrets.p', { file: SECRETS_FILE, names: secretNames })}${wrapper ? ` ${t('ops.readme.secrets.passenger', { user, wrapper })}` : ''}` }, sh([
    ...(wrapper ? [`install -d -m 0750 -g ${user} /etc/rails-app`, `test -e ${SECRETS_FILE} || install -m 0640 -g ${user} etc/rails-app/secrets.env ${SECRETS_FILE}`, `chown root:${user} ${SECRETS_FILE} && chmod 0640 ${SECRETS_FILE}`, `install -m 0755 ${wrapper.slice(1)} ${wrapper}`]
      : ['install -d -m 0700 /etc/rails-app', `test -e ${SECRETS_FILE} || install -m 0600 etc/rails-app/secrets.env ${SECRETS_FILE}`]),
    fam(ctx, 'edit', { file: SECRETS_FILE }),
  ].join('\n')));
  // 3. System files (everything under etc/ except the secrets template, which step 2 installed).
  // PgBouncer on this host (pgbouncer.mjs finish): its files go in with its auth file in step 4, once the role exists.
  const bouncer = hosts.pgbouncer || { files: [], lines: [] };
  const etc = files.map((f) => f.path).filter((p) => p.startsWith('etc/') && !p.startsWith('etc/rails-app/') && !bouncer.files.includes(p));
  // Chunks' comparisons go first (restart-on-change.mjs: Redis, MySQL/MariaDB restart only when a file changed).
  const sys = [...(hosts.before || []), ...etc.map((p) => `install -D -m 0644 ${p} ${familyDestination(ctx, p) || `/${p}`}`)];
  if (etc.some((p) => p.startsWith('etc/sysctl.d/'))) sys.push('sysctl --system');
  sys.push(...(hosts.redis || []));
  // PostgreSQL reloads, and restarts only when it says a changed setting needs it (readme-apply.mjs).
  const pg = etc.some((p) => p.startsWith('etc/postgresql/'));
  if (pg) sys.push(...fam(ctx, 'pgConfD'), ...pgApply(fam(ctx, 'services.postgresql'), ctx.a.database_version));
  // MySQL/MariaDB on a private address: its network-online drop-in (mysql.mjs) counts from this restart on.
  if (etc.some((p) => /\.service\.d\/network-online\.conf$/.test(p))) sys.push('systemctl daemon-reload');
  sys.push(...(hosts.mysql || []));
  blocks.push({ h: 3, text: t('ops.readme.system') }, { p: `${t('ops.readme.system.p')}${pg ? ` ${t('ops.readme.system.pg', { settings: restartOnly('postgresql').filter((k) => pgSettings(ctx).some((e) => e.key === k)).join(', ') })}` : ''}` }, sh(sys.join('\n')));
  // 4. App configuration and databases.
  const conf = files.map((f) => f.path).filter((p) => /^config\/[^/]+$/.test(p));
  const asUser = (cmd) => `runuser -u ${user} --preserve-environment -- env RAILS_ENV=production ${cmd}`;
  const app = ctx.appDir;
  // Written by the service user, who owns the release tree (deploy.sh copies these files into every new release as
  // that user): a root-owned file there would protect nothing (the owner of the directory can replace it), and root
  // writing into it could follow a link planted there (SRE check 4, D17). Root opens the file (the bundle's directory
  // is usually root's) and hands it over on stdin; mv replaces whatever is at the destination, never follows it.
  // Without release directories the tree belongs to a release tool or was copied by hand, its owner unknown: install.
  const inits = files.map((f) => f.path).filter((p) => p.startsWith('config/initializers/'));
  const db = ctx.releases ? [t('cmd.readme.put', { user }),
    ...conf.map((p) => `put ${p} ${app}/${p} 0640`), ...inits.map((p) => `put ${p} ${app}/${p} 0644`)]
    : [`install -m 0640 -o ${user} -g ${user} ${conf.join(' ')} ${app}/config/`, ...inits.map((p) => `install -D -m 0644 -o ${user} -g ${user} ${p} ${app}/${p}`)];
  // The file goes in on stdin: the shell opens it as root, while the postgres user could not read the bundle's
  // directory (typically under /root).
  if (has('setup/postgresql-roles.sql')) db.push(fam(ctx, 'edit', { file: 'setup/postgresql-roles.sql' }), 'runuser -u postgres -- psql -v ON_ERROR_STOP=1 < setup/postgresql-roles.sql');
  db.push(...bouncer.lines);
  if (has('setup/mysql-grants.sql')) db.push(fam(ctx, 'edit', { file: 'setup/mysql-grants.sql' }), `${ctx.generator('mysql').sqlClient(ctx)} < setup/mysql-grants.sql`);
  // Schema loads and migrations connect as migrations (database.yml: their own timeouts, PgBouncer's session-mode aliases).
  const migrating = migrateEnv(ctx);
  // In a subshell: the secrets stay out of the reader's shell, and its directory stays the bundle's (step 7 runs deploy.sh from it).
  // The task this Rails has (capabilities/rails-commands.mjs): db:prepare from 6.0, db:migrate before (the SQL above made the databases).
  db.push(`(cd ${app} && set -a && . ${SECRETS_FILE} && set +a && exec ${asUser(`${migrating}${rubyBin}/bundle exec ${railsTask(ctx, prepareTask(ctx))}`)})`);
  const appP = t(has('setup/postgresql-roles.sql') ? 'ops.readme.app.pg' : has('setup/mysql-grants.sql') ? 'ops.readme.app.my' : 'ops.readme.app.p', { roles: ctx.dbRoles.join(', '), prepare: railsTask(ctx, prepareTask(ctx)) });
  blocks.push({ h: 3, text: t('ops.readme.app') }, { p: ctx.releases ? `${appP} ${t('ops.readme.app.put', { user })}` : appP }, sh(db.join('\n')));
  // 5. Certificates.
  blocks.push({ h: 3, text: t('ops.readme.certs') });
  const opened = ctx.tls === 'proxy' && (ctx.proxy === 'nginx' || ctx.proxy === 'apache') ? fam(ctx, 'webFirewall') : [];
  if (ctx.tls === 'proxy' && (ctx.proxy === 'nginx' || ctx.proxy === 'apache')) {
    const svc = fam(ctx, `services.${ctx.proxy}`);
    // Apache serves the site only once its modules and the site are enabled (step 6 does it again, harmlessly).
    const site = files.find((f) => f.path.startsWith('etc/apache2/sites-available/'));
    const enable = ctx.proxy === 'apache' ? fam(ctx, 'apacheEnable', { mods: (site?.meta?.modules || []).join(' ') }) : [];
    const check = ctx.proxy === 'apache' ? fam(ctx, 'apacheTest') : 'nginx -t';
    // The family's firewall lets certbot's HTTP-01 challenge in first (RHEL's webFirewall; none on Debian).
    blocks.push({ p: t('ops.readme.certs.certbot', { domain, webroot: ACME_WEBROOT, proxy: ctx.proxy }) }, sh([...opened, ...certLines({ domain, svc, check, enable })].join('\n')));
  } else if (ctx.tls === 'proxy') {
    blocks.push({ p: t(`ops.readme.certs.auto`, { proxy: ctx.proxy, domain }) });
  } else {
    blocks.push({ p: t(`ops.readme.certs.${ctx.tls}`) });
  }
  // 6. Services.
  // Passenger inside Apache has no unit of its own: Apache runs the app.
  const units = [...(ctx.passengerIntegrated ? [] : ['rails-app.service']), ...jobUnitNames(ctx)];
  const start = ['systemctl daemon-reload'];
  // kamal-proxy's user and service (kamal-proxy.mjs leaves them on the summary; its deploy line follows the app's start).
  const kamal = hosts.kamal || [];
  start.push(...kamal.slice(0, -1));
  if (units.length) start.push(`systemctl enable --now ${units.join(' ')}`);
  // Where packages leave their services disabled (RHEL): the proxy, certbot's timer and PgBouncer, before the reload below.
  const boot = bootEnableLine(ctx);
  if (boot) start.push(boot);
  start.push(...securityLines(ctx).filter((l) => !opened.includes(l)));
  if (ctx.proxy === 'nginx') start.push(`nginx -t && systemctl reload ${fam(ctx, 'services.nginx')}`);
  if (ctx.proxy === 'apache') {
    const site = files.find((f) => f.path.startsWith('etc/apache2/sites-available/'));
    // Passenger inside Apache: a restart, so Apache reads its drop-in's environment (limits.mjs) and loads mod_passenger.
    start.push(...fam(ctx, 'apacheEnable', { mods: (site?.meta?.modules || []).join(' ') }), `${fam(ctx, 'apacheTest')} && systemctl ${ctx.passengerIntegrated ? 'restart' : 'reload'} ${fam(ctx, 'services.apache')}`);
  }
  if (ctx.proxy === 'caddy') start.push(`caddy validate --config /etc/caddy/Caddyfile && systemctl reload ${fam(ctx, 'services.caddy')}`);
  start.push(...kamal.slice(-1));
  // Behind a balancer the name points at the balancer (set up last): ask this host's proxy directly, as the balancer does.
  // A reload returns before the new workers run, so the check retries for a few seconds instead of failing on the old ones.
  start.push(upCheck(ctx));
  blocks.push({ h: 3, text: t('ops.readme.start') }, sh(start.join('\n')));
  // 7. Deploy and roll back: deploy.sh (deploy-script.mjs) builds, boots and checks a release before switching to it.
  const mode = switchMode(ctx);
  const p = SERVER_PROCESS[ctx.server] || {};
  const vars = { server: SERVER_LABEL[ctx.server], signal: mode.signal, stop: p.stopSignal, apache: ctx.proxy === 'apache' ? fam(ctx, 'services.apache') : '' };
  const own = ctx.passengerIntegrated ? 'passenger-apache' : ctx.server;
  const restart = t(p.ownWords && mode.reloads === (p.deploy === 'reload') ? `${mode.reloads ? 'ops.readme.deploy.reload' : 'ops.readme.deploy.restart'}.${own}` : mode.reloads ? 'ops.readme.deploy.reload' : 'ops.readme.deploy.restart', vars);
  const many = ctx.a.app_hosts > 1;
  if (!ctx.releases) {
    // The app root is a release tool's own `current` link (Capistrano, Mina): that tool keeps the releases.
    // Gems and assets without the secrets (assets:precompile: a throw-away secret_key_base); the migration gets them in a subshell.
    blocks.push({ h: 3, text: t('ops.readme.deploy') }, { p: restart }, sh([
      `cd ${root}`,
      // Bundler's syntax for the Ruby (2.1+'s config set, or 1.x's install flags); assets only where Rails has the pipeline.
      ...bundlerArgs(ctx, 'readme').map((args) => asUser(`${rubyBin}/bundle ${args}`)),
      ...(precompiles(ctx) ? [asUser(`${precompileEnv(ctx)} ${rubyBin}/bundle exec ${railsTask(ctx, 'assets:precompile')}`)] : []),
      ...(many ? [`# ${t('ops.readme.migrate-once')}`] : []),
      `(set -a && . ${SECRETS_FILE} && set +a && exec ${asUser(`${migrating}${rubyBin}/bundle exec ${railsTask(ctx, 'db:migrate')}`)})`,
      mode.command,
      ...(jobUnitNames(ctx).length ? [`systemctl restart ${jobUnitNames(ctx).join(' ')}`] : []),
    ].join('\n')), expandContract(ctx), { h: 3, text: t('ops.readme.rollback') }, { p: t('ops.readme.rollback.p', { rollback: railsTask(ctx, 'db:rollback') }) });
  } else {
  // Behind the bundle's balancer: one host at a time, drained first (lb-rotation.mjs through readme-hosts, a chunk).
  const rolling = hosts.rolling;
  // Puma's hot restart on a host no balancer drains: what the wait costs, and why not a phased restart.
  const pumaWait = !rolling && ctx.server === 'puma' && mode.reloads ? [{ p: t(`ops.readme.deploy.puma-wait.${ctx.mode === 'cluster' ? 'cluster' : 'single'}`) }] : [];
  blocks.push({ h: 3, text: t('ops.readme.deploy') }, { p: t('ops.readme.deploy.releases', { restart }) }, ...pumaWait,
    ...(rolling ? [{ p: `${t('ops.readme.deploy.rolling', { n: ctx.a.app_hosts })}${ctx.a.lb === 'nginx' && cableEnabled(ctx) ? ` ${t('ops.readme.deploy.rolling.nginx-cable', { s: timeoutChain(ctx).shutdown })}` : ''}` }] : []), sh((rolling ? rolling.deploy : [
    // Once per deploy, on one host (the first app host); Rails' migration lock stops a second run started by mistake.
    ...(many ? [`# ${t('ops.readme.migrate-once')}`] : []),
    `sh ${DEPLOY_SCRIPT} deploy /path/to/checkout`,
    ...(many ? [`sh ${DEPLOY_SCRIPT} deploy /path/to/checkout --no-migrate`] : []),
  ]).join('\n')), expandContract(ctx));
  // How long a rollback takes: the restart's boot (Unicorn: the whole handover, which deploy.sh waits for).
  const h = handoverReload(ctx);
  const duration = h ? t('ops.readme.rollback.duration.handover', { wait: h.handoverWait }) : t('ops.readme.rollback.duration');
  blocks.push({ h: 3, text: t('ops.readme.rollback') }, { p: `${t('ops.readme.rollback.releases', { duration, rollback: railsTask(ctx, 'db:rollback') })}${rolling ? ` ${t('ops.readme.rollback.rolling')}` : ''}` },
    sh(rolling ? rolling.rollback.join('\n') : `sh ${DEPLOY_SCRIPT} rollback`), { p: t('ops.readme.rollback.marks') });
  }
  // 7. Logs and sandbox.
  // Unicorn (stdout_path), Thin and Mongrel (daemons) send the app's output to their own files, not to journald.
  const ownLogs = (SERVER_PROCESS[ctx.server] || {}).ownLogs;
  const logs = ctx.passengerIntegrated ? 'ops.readme.logs.p.passenger-apache' : ownLogs ? 'ops.readme.logs.p.daemon' : 'ops.readme.logs.p';
  // The database on this host: where its own log is, from the family's table (MySQL's community RPM has another path).
  const here = ctx.a.db_host === 'same' && ctx.a.database !== 'sqlite' && commandsOf(ctx) ? ctx.a.database : '';
  const dbWords = here ? ` ${t(`ops.readme.logs.${here}`, { where: fam(ctx, `logs.${(here === 'mysql' && mysqlRepoSeries(ctx)) || (here === 'mariadb' && ctx.generator('mysql').mariadbRepo(ctx)) ? `${here}Repo` : here}`) })}` : '';
  blocks.push({ h: 3, text: t('ops.readme.logs') }, { p: t(logs, { root, logs: fam(ctx, 'logs.apache'), files: ownLogs, server: SERVER_LABEL[ctx.server] }) + dbWords });
  if (units.length) blocks.push({ h: 3, text: t('ops.readme.sandbox') }, { p: t('ops.readme.sandbox.p', { max: HARDENING.maxScore, analyzer: HARDENING.analyzer }) }, sh(`systemd-analyze security ${units.join(' ')}`));
  blocks.push(...(hosts.lb || []));
  return blocks;
}
