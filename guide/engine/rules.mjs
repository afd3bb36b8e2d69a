// Compatibility rules: one function per rule, each returns a warning or null. Warnings are never silent
// substitutions: every substitution made in derive.mjs has a rule here that explains it and the alternative.
// Words come from the catalog (ids "w.<id>.m" message, "w.<id>.s" suggestion).
import { SRC, DS } from './evidence.mjs';
import { PUMA_FACTS, LIFECYCLE, FEATURES, SERVER_RAILS, SERVER_RUBY } from './caps.mjs';
import { firstSince, has } from './pick.mjs';
import { gte, lt } from './version.mjs';
import { connectionSum, memorySum } from './arithmetic.mjs';
import { distroRubyMismatch, distroRubyNotImpl, distroVersionMismatches } from './generators/family-steps.mjs';
import { t } from './text.mjs';
import { PROD_RULES } from './rules-prod.mjs';

const SEVERITY = {};
/** A warning (also used by the optional generators for rules about their own server or proxy). */
export const W = (id, severity, vars, evidence = [], m = id, s = id) => {
  SEVERITY[id] = severity;
  return { id, severity, message: t(`w.${m}.m`, vars), suggestion: t(`w.${s}.s`, vars), evidence };
};
const sub = (ctx, key, reason) => ctx.subs.find((s) => s.key === key && (!reason || s.reason === reason));
export const SERVER_NAMES = { puma: 'Puma', unicorn: 'Unicorn', pitchfork: 'Pitchfork', passenger: 'Passenger', thin: 'Thin', falcon: 'Falcon', webrick: 'WEBrick', mongrel: 'Mongrel' };
/** The server's SERVER_RAILS row when it cannot run the answered Rails (capabilities/server-rails.mjs), else null. */
const railsRefused = (ctx) => {
  const row = SERVER_RAILS[ctx.server];
  return row && !lt(ctx.a.rails, row.railsBefore) ? row : null;
};
const DB_NAMES = { postgresql: 'PostgreSQL', mysql: 'MySQL', mariadb: 'MariaDB', sqlite: 'SQLite' };

export const RULES = [
  function forkingServerOnJvm(ctx) {
    const s = sub(ctx, 'server', 'fork');
    if (!s) return null;
    return W('fork-server-without-fork', 'error', { server: SERVER_NAMES[s.from], impl: ctx.impl.label, threads: ctx.threads }, [SRC.pumaDeploy, SRC.unicorn]);
  },
  function legacyMysqlAdapter(ctx) {
    if (ctx.a.adapter !== 'mysql' || ctx.adapter === 'jdbc' || !['mysql', 'mariadb'].includes(ctx.a.database)) return null;
    const removed = ctx.adapter !== 'mysql';
    const k = removed ? 'legacy-mysql-adapter-removed' : 'legacy-mysql-adapter-old';
    return W('legacy-mysql-adapter', removed ? 'error' : 'warning', { rails: ctx.a.rails }, [SRC.railsMysqlRemoved, SRC.railsConfiguring], k, k);
  },
  function trilogyBeforeRails71(ctx) {
    const s = sub(ctx, 'adapter', 'rails');
    if (!s || s.from !== 'trilogy') return null;
    return W('trilogy-before-rails-7-1', 'error', { rails: ctx.a.rails }, [SRC.trilogy]);
  },
  function adapterDatabaseMismatch(ctx) {
    const s = sub(ctx, 'adapter', 'database');
    if (!s) return null;
    return W('adapter-database-mismatch', 'error', { from: s.from, to: s.to, database: DB_NAMES[ctx.a.database] }, [SRC.railsConfiguring]);
  },
  function cExtensionOnJruby(ctx) {
    const s = sub(ctx, 'adapter', 'jruby');
    if (!s) return null;
    return W('c-extension-adapter-on-jruby', 'error', { from: s.from }, [SRC.railsConfiguring]);
  },
  function jdbcWithoutJruby(ctx) {
    const s = sub(ctx, 'adapter', 'not-jruby');
    if (!s) return null;
    return W('jdbc-without-jruby', 'error', { to: s.to }, [SRC.railsConfiguring]);
  },
  function rubyTooOldForRails(ctx) {
    if (!ctx.rubyTooOldForRails) return null;
    const id = ctx.a.ruby === 'ree' ? 'ree-with-new-rails' : 'ruby-too-old-for-rails';
    return W(id, 'error', { rails: ctx.a.rails, min: ctx.railsMinRuby, impl: ctx.impl.label, version: ctx.a.ruby_version, lang: ctx.lang }, [SRC.railsConfiguring]);
  },
  function deadRuby(ctx) {
    if (!ctx.impl.dead) return null;
    return W(`dead-ruby-${ctx.a.ruby}`, 'warning', { impl: ctx.impl.label }, [SRC.reeGc, SRC.rubyNews('3.3.0'), DS.mriVsYarv], 'dead-ruby', 'dead-ruby');
  },
  function rubyTooNewForRails(ctx) {
    const b = ctx.rubyTooNewForRails;
    if (!b) return null;
    return W('ruby-too-new-for-rails', 'error', { rails: ctx.a.rails, ruby: b.ruby, lang: ctx.lang, why: t(`w.ruby-too-new.${b.why}`) }, [SRC.rubyNews(b.news), SRC.railsConfiguring]);
  },
  // End of life and security-only support, from capabilities/lifecycle.mjs and the generation date.
  function endOfLife(ctx) {
    const { a } = ctx;
    const out = [];
    for (const [k, v, name, ev] of [['cruby', a.ruby === 'cruby' && a.ruby_version, 'CRuby', SRC.rubyBranches], ['rails', a.rails, 'Rails', SRC.railsMaintenance],
      [a.database, a.database !== 'sqlite' && a.database_version, DB_NAMES[a.database], SRC[{ postgresql: 'pgVersioning', mysql: 'mysqlReleases', mariadb: 'mariadbMaintenance' }[a.database]]]]) {
      const row = v && firstSince(LIFECYCLE[k] || [], v);
      if (!row || !row.eol) continue;
      const vars = { name, v, eol: row.eol, security: row.security };
      const id = k === 'cruby' ? 'ruby' : k === 'rails' ? 'rails' : 'database';
      if (ctx.date > (row.eol.length === 7 ? `${row.eol}-31` : row.eol)) out.push(W(`${id}-end-of-life`, 'warning', vars, [ev], 'end-of-life', 'end-of-life'));
      else if (row.security && ctx.date > row.security) out.push(W(`${id}-security-only`, 'info', vars, [ev], 'security-only', 'security-only'));
    }
    return out;
  },
  function deadServer(ctx) {
    const s = ctx.a.server;
    if (s === 'thin') return W('dead-server-thin', 'warning', {}, [SRC.thin, DS.thinThreaded, DS.thinUnicorn]);
    if (s === 'mongrel') return W('dead-server-mongrel', 'warning', {}, [SRC.pumaDeploy]);
    // Ruby 3.0 took WEBrick out of the standard library (NEWS-3.0.0) and Rails' generated Gemfile does not list it:
    // without `gem "webrick"` the unit's `rails server -u webrick` stops with "Could not load server".
    if (s === 'webrick') {
      const gem = has(FEATURES.webrickBundled, ctx.lang) ? '' : t('w.webrick-in-production.gem', { lang: ctx.lang });
      return W('webrick-in-production', 'warning', { gem }, [SRC.rubyNews('3.0.0'), SRC.pumaDeploy]);
    }
    return null;
  },
  // A server that cannot run the chosen Rails at all (capabilities/server-rails.mjs): an error, so the CLI exits 3.
  function serverCannotRunRails(ctx) {
    const row = railsRefused(ctx);
    if (!row) return null;
    const r = row.reasons.filter((x) => gte(ctx.a.rails, x.since)).pop();
    const vars = { server: SERVER_NAMES[ctx.server], rails: ctx.a.rails, until: row.railsBefore };
    return W('server-cannot-run-rails', 'error', { ...vars, why: t(`w.server-cannot-run-rails.${r.reason}`, { ...vars, until: r.since }) }, r.sources.map((k) => SRC[k]));
  },
  // A server release that does not build on the answered Ruby (capabilities/server-rails.mjs SERVER_RUBY).
  function serverNeedsOlderRuby(ctx) {
    const row = SERVER_RUBY[ctx.server];
    if (!row || ctx.server !== ctx.a.server || !lt(ctx.serverVersion, row.serverBefore) || lt(ctx.lang, row.rubyBefore)) return null;
    // A Rails the server cannot run at all is the error that matters; "use an older Ruby" would mislead there.
    if (railsRefused(ctx)) return null;
    const vars = { server: SERVER_NAMES[ctx.server], version: ctx.serverVersion, lang: ctx.lang, before: row.rubyBefore };
    return W('server-needs-older-ruby', 'error', { ...vars, why: t(`w.server-needs-older-ruby.${ctx.server}`) }, row.sources.map((k) => SRC[k]));
  },
  function deadProxy(ctx) {
    if (ctx.a.proxy !== 'cherokee') return null;
    return W('dead-proxy-cherokee', 'warning', {}, [DS.reverseProxy, SRC.nginxEvents]);
  },
  function pumaRubyRequirement(ctx) {
    if (ctx.server !== 'puma' || ctx.a.server !== 'puma') return null;
    const req = firstSince(PUMA_FACTS.requiredRuby, ctx.serverVersion);
    if (!req || !lt(ctx.lang, req.ruby)) return null;
    return W('puma-needs-newer-ruby', 'error', { puma: ctx.serverVersion, ruby: req.ruby, lang: ctx.lang }, [SRC.pumaHistory]);
  },
  function slowClientServerWithoutBufferingProxy(ctx) {
    if (!['unicorn', 'pitchfork', 'thin', 'mongrel'].includes(ctx.server)) return null;
    if (ctx.proxy === 'nginx' || ctx.proxy === 'apache') return null;
    return W('needs-buffering-proxy', 'warning', { server: SERVER_NAMES[ctx.server], caddy: ctx.proxy === 'caddy' ? t('w.needs-buffering-proxy.caddy') : '' }, [SRC.unicorn, SRC.caddyProxy, DS.reverseProxy]);
  },
  function poolerWithoutPostgres(ctx) {
    if (!sub(ctx, 'pooler', 'database')) return null;
    return W('pgbouncer-needs-postgresql', 'warning', {}, [SRC.pgbouncer]);
  },
  function jrubyRelease(ctx) {
    const s = sub(ctx, 'ruby_version', 'jruby-release');
    return s && W('jruby-release', 'warning', { from: s.from, to: s.to, lang: ctx.lang }, [SRC.jrubyTuning]);
  },
  function distroRuby(ctx) {
    const shipped = distroRubyMismatch(ctx);
    // The shipped Ruby is offered as an answer only when it can run the answered Rails (trial 24b, D7: Ubuntu 22.04's
    // 3.0 was suggested beside Rails 8.1, which the CLI then refused).
    const fits = shipped && !lt(shipped, ctx.railsMinRuby);
    return shipped && W('distro-ruby', 'warning', { distro: ctx.a.distro, shipped, ruby: ctx.a.ruby_version, rails: ctx.a.rails, min: ctx.railsMinRuby }, [SRC.rubyBranches], 'distro-ruby', fits ? 'distro-ruby' : 'distro-ruby.too-old');
  },
  // JRuby or TruffleRuby with ruby_path /usr/bin: the units would run the distribution's CRuby (trial 24).
  function distroRubyImpl(ctx) {
    const impl = distroRubyNotImpl(ctx);
    return impl && W('distro-ruby-impl', 'warning', { impl, v: ctx.a.ruby_version }, [SRC.jrubyTuning]);
  },
  // Like distroRuby: an answered nginx, PostgreSQL or kernel the release does not ship (issue 23 trial).
  function distroVersions(ctx) {
    const ev = { 'distro-nginx': [SRC.nginxChanges], 'distro-postgresql': [SRC.pgVersioning], 'distro-kernel': [SRC.ipSysctl] };
    // The release's PostgreSQL past its end of life (not the default then, version-defaults.mjs): PGDG's is the plan, an info.
    return distroVersionMismatches(ctx).map((m) => W(m.id, m.eol || m.id === 'distro-kernel' ? 'info' : 'warning', { distro: ctx.a.distro, ...m }, ev[m.id], m.id, m.eol ? `${m.id}.eol` : m.id));
  },
  function sqliteLayout(ctx) {
    if (ctx.a.database !== 'sqlite' || (ctx.a.app_hosts === 1 && ctx.a.db_host === 'same')) return null;
    return W('sqlite-single-host', 'error', {}, [SRC.sqliteRails]);
  },
  function tooManyConnections(ctx) {
    if (!ctx.tooManyConnections) return null;
    const vars = { sum: connectionSum(ctx), needed: ctx.connectionsNeeded, max: ctx.maxConnections };
    return W('too-many-db-connections', 'warning', vars, [SRC.pgConnection, DS.pumaProcThreads, SRC.railsPool], 'too-many-db-connections', ctx.a.database === 'postgresql' ? 'too-many-db-connections-pg' : 'too-many-db-connections-my');
  },
  function connectionsRaised(ctx) {
    if (ctx.tooManyConnections || !ctx.defaultMaxConnections || ctx.pooler !== 'none') return null;
    if (ctx.connectionsNeeded + ctx.adminConnections + ctx.reservedConnections <= ctx.defaultMaxConnections) return null;
    return W('max-connections-raised', 'info', { sum: connectionSum(ctx), needed: ctx.connectionsNeeded, def: ctx.defaultMaxConnections, max: ctx.maxConnections }, [SRC.pgConnection, DS.pumaProcThreads]);
  },
  function memoryOver(ctx) {
    if (!ctx.memoryOver) return null;
    // An error (CLI exit 3): a plan that does not fit swaps or gets processes killed by the OOM killer (issue 23).
    // Already the smaller plan (Solid Queue inside Puma, small-host.mjs): what is left is RAM, the database or a measurement.
    const fix = ctx.handoverPeak ? 'memory-over-budget-handover' : ctx.jobsInPuma ? 'memory-over-budget-puma' : ctx.jobs === 'solid_queue' && ctx.server === 'puma' ? 'memory-over-budget-jobs' : ctx.a.db_host === 'same' ? 'memory-over-budget-same' : 'memory-over-budget-separate';
    const jobs = fix === 'memory-over-budget-jobs' || fix === 'memory-over-budget-puma';
    // Also an error where only a reload's handover is over (the steady state fits): Unicorn's USR2 runs the second
    // server on every deploy, so every deploy would run past RAM and the OOM killer ends the new master or an old
    // worker (SRE review 6, D3). The rule's suggestion names the plans that fit (Puma's in-place restart, more RAM).
    return W('memory-over-budget', 'error', { total: ctx.memoryTotalMb, ram: ctx.ramMb, sum: memorySum(ctx.memory), mb: ctx.perWorkerMb, mbWhy: ctx.workerMbMeasured ? `${ctx.perWorkerMb} MB per process is your worker_mb answer` : `${ctx.perWorkerMb} MB per process is Puma's documented estimate for a typical app` }, [SRC.pumaDeploy, DS.serverMemory, ...(jobs ? [SRC.solidQueuePuma] : []), ...(fix === 'memory-over-budget-puma' ? [DS.yjitPuma2026] : []), ...(ctx.handoverPeak ? [SRC.unicornSignals] : [])], 'memory-over-budget', fix);
  },
  function jobsInPuma(ctx) {
    // A Ruby that cannot fork: inside Puma (info), or an error where that is not possible (another server, no
    // systemd, Rails < 8), since Solid Queue's fork mode cannot start there.
    const noFork = ctx.jobs === 'solid_queue' && !ctx.canFork;
    const sq = (id, level) => W(id, level, { impl: ctx.impl.label, threads: ctx.jobThreads }, [SRC.solidQueueNoFork, SRC.solidQueuePuma]);
    if (noFork && !ctx.jobsInPuma) return sq('solid-queue-needs-fork', 'error');
    if (!ctx.jobsInPuma || ctx.memoryOver) return null;
    if (noFork) return sq('jobs-in-puma-nofork', 'info');
    const vars = { ram: ctx.ramMb, separate: memorySum(ctx.separatePlan.memory), plan: memorySum(ctx.memory), threads: ctx.jobThreads };
    return W('jobs-in-puma', 'info', vars, [SRC.solidQueuePuma, SRC.pumaDeploy, DS.serverMemory]);
  },
  function memoryLimited(ctx) {
    if (!ctx.memoryLimited || ctx.memoryOver) return null;
    return W('workers-limited-by-memory', 'info', { cores: ctx.a.cores, byCores: ctx.processesByCores, processes: ctx.processes, ram: ctx.ramMb, sum: memorySum(ctx.memory) }, [SRC.pumaDeploy]);
  },
  function macosProduction(ctx) {
    return ctx.a.os === 'macos' ? W('macos-not-a-server', 'info', {}) : null;
  },
  function freebsdKernel(ctx) {
    return ctx.a.os === 'freebsd' ? W('freebsd-no-kernel-settings', 'info', {}) : null;
  },
  function systemdOffLinux(ctx) {
    if (ctx.linux || ctx.a.init !== 'systemd') return null;
    return W('systemd-needs-linux', 'info', { os: ctx.a.os === 'freebsd' ? 'FreeBSD' : 'macOS' }, [SRC.systemdService]);
  },
  function yjitArm64(ctx) {
    if (ctx.a.ruby !== 'cruby' || ctx.a.arch !== 'arm64' || !gte(ctx.a.ruby_version, '3.1') || gte(ctx.a.ruby_version, '3.2')) return null;
    return W('yjit-arm64-needs-3-2', 'info', {}, [SRC.rubyNews('3.2.0')]);
  },
  // Topology (topology.mjs): impossible layouts and limits the servers refuse are errors.
  function topologyErrors(ctx) {
    return ctx.topologyErrors.map((e) => W(e.id, 'error', e.vars, [SRC.pgConnection]));
  },
  function severalHostsNoBalancer(ctx) {
    if (ctx.a.app_hosts < 2 || ctx.a.lb !== 'none') return null;
    return W('no-load-balancer', 'warning', { n: ctx.a.app_hosts }, [SRC.nginxUpstream, SRC.haproxy]);
  },
  function tlsAtLoadBalancer(ctx) {
    if (!sub(ctx, 'tls', 'load-balancer')) return null;
    return W('tls-at-load-balancer', 'info', { n: ctx.a.app_hosts }, [SRC.haproxy, SRC.nginxUpstream]);
  },
  function databaseOnFirstAppHost(ctx) {
    if (!ctx.hosts.dbOnFirstApp) return null;
    return W('db-on-first-app-host', 'warning', { addr: ctx.hosts.db, n: ctx.a.app_hosts }, [SRC.pgResource]);
  },
];

export function compatibilityWarnings(ctx) {
  return [...RULES, ...PROD_RULES].flatMap((r) => r(ctx) || []);
}
