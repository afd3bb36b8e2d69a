// Compatibility rules: one function per rule, each returns a warning or null. Warnings are never silent
// substitutions: every substitution made in derive.mjs has a rule here that explains it and the alternative.
import { SRC, DS } from './evidence.mjs';
import { IMPLEMENTATIONS } from './capabilities/ruby.mjs';
import { PUMA_FACTS } from './capabilities/puma.mjs';
import { firstSince } from './pick.mjs';
import { gte, lt } from './version.mjs';

const W = (id, severity, message, suggestion, evidence = []) => ({ id, severity, message, suggestion, evidence });
const sub = (ctx, key, reason) => ctx.subs.find((s) => s.key === key && (!reason || s.reason === reason));

const SERVER_NAMES = { puma: 'Puma', unicorn: 'Unicorn', pitchfork: 'Pitchfork', passenger: 'Passenger', thin: 'Thin', falcon: 'Falcon', webrick: 'WEBrick', mongrel: 'Mongrel' };

export const RULES = [
  function forkingServerOnJvm(ctx) {
    const s = sub(ctx, 'server', 'fork');
    if (!s) return null;
    return W('fork-server-without-fork', 'error',
      `${SERVER_NAMES[s.from]} is a preforking server and ${ctx.impl.label} cannot fork(), so it cannot run there.`,
      `The bundle configures Puma in single mode with ${ctx.threads} threads instead (threads are truly parallel on ${ctx.impl.label}). To keep ${SERVER_NAMES[s.from]}, move to CRuby.`,
      [SRC.pumaDeploy, SRC.unicorn]);
  },
  function legacyMysqlAdapter(ctx) {
    if (ctx.a.adapter !== 'mysql' || ctx.adapter === 'jdbc' || !['mysql', 'mariadb'].includes(ctx.a.database)) return null;
    const removed = ctx.adapter !== 'mysql';
    return W('legacy-mysql-adapter', removed ? 'error' : 'warning',
      removed ? `Rails ${ctx.a.rails} no longer has the legacy mysql adapter (removed in Rails 5.0).` : 'The legacy mysql gem is unmaintained; the thesis already recommended mysql2 over it.',
      removed ? 'database.yml uses mysql2 instead.' : 'Switch to the mysql2 gem (adapter: mysql2), the standard Rails MySQL adapter since Rails 3.',
      [{ label: 'rails/rails#22642: remove legacy mysql adapter', url: 'https://github.com/rails/rails/pull/22642' }, SRC.railsConfiguring]);
  },
  function trilogyBeforeRails71(ctx) {
    const s = sub(ctx, 'adapter', 'rails');
    if (!s || s.from !== 'trilogy') return null;
    return W('trilogy-before-rails-7-1', 'error',
      `The trilogy adapter is built into Rails only from 7.1; Rails ${ctx.a.rails} does not know "adapter: trilogy".`,
      'database.yml uses mysql2 instead. Upgrade to Rails 7.1 or later to use trilogy.', [SRC.trilogy]);
  },
  function adapterDatabaseMismatch(ctx) {
    const s = sub(ctx, 'adapter', 'database');
    if (!s) return null;
    return W('adapter-database-mismatch', 'error',
      `The ${s.from} adapter does not talk to ${ctx.a.database}.`, `database.yml uses ${s.to}, the standard adapter for ${ctx.a.database}.`, [SRC.railsConfiguring]);
  },
  function cExtensionOnJruby(ctx) {
    const s = sub(ctx, 'adapter', 'jruby');
    if (!s) return null;
    return W('c-extension-adapter-on-jruby', 'error',
      `The ${s.from} gem is a C extension and does not load on JRuby.`, 'database.yml uses the activerecord-jdbc adapter for your database instead.', [SRC.railsConfiguring]);
  },
  function jdbcWithoutJruby(ctx) {
    const s = sub(ctx, 'adapter', 'not-jruby');
    if (!s) return null;
    return W('jdbc-without-jruby', 'error', 'activerecord-jdbc adapters run only on JRuby.', `database.yml uses ${s.to} instead.`, [SRC.railsConfiguring]);
  },
  function rubyTooOldForRails(ctx) {
    if (!ctx.rubyTooOldForRails) return null;
    const ree = ctx.a.ruby === 'ree';
    return W(ree ? 'ree-with-new-rails' : 'ruby-too-old-for-rails', 'error',
      ree
        ? `Rails ${ctx.a.rails} requires Ruby ${ctx.railsMinRuby} or later; Ruby Enterprise Edition is Ruby 1.8.7, so this stack cannot boot.`
        : `Rails ${ctx.a.rails} requires Ruby ${ctx.railsMinRuby} or later; ${ctx.impl.label} ${ctx.a.ruby_version} implements Ruby ${ctx.lang}.`,
      ree
        ? 'Rails 3.2 is the last series that runs on Ruby 1.8.7. Move to a maintained CRuby (3.3 or later) and Rails 7.2 or later; the Ruby settings in this bundle are for the Ruby you named.'
        : `Upgrade Ruby to ${ctx.railsMinRuby} or later (a maintained CRuby is 3.3+), or stay on an older Rails.`,
      [SRC.railsConfiguring]);
  },
  function deadRuby(ctx) {
    if (!ctx.impl.dead) return null;
    return W(`dead-ruby-${ctx.a.ruby}`, 'warning',
      `${ctx.impl.label} is no longer maintained: no security fixes and no support in current gems.`,
      'Move to CRuby 3.3 or later: it has a generational, compacting GC that tunes itself, and YJIT. The GC settings REE needed have no meaning there (see ruby.env).',
      [SRC.reeGc, SRC.rubyNews('3.3.0'), DS.mriVsYarv]);
  },
  function rubyEndOfLife(ctx) {
    if (ctx.a.ruby !== 'cruby' || gte(ctx.a.ruby_version, '3.3')) return null;
    return W('ruby-end-of-life', 'warning',
      `CRuby ${ctx.a.ruby_version} is past its end of life (3.2 ended in March 2026; older series earlier).`,
      'Plan an upgrade to CRuby 3.4 or 4.0. The settings in this bundle are the right ones for the version you run.',
      [{ label: 'Ruby maintenance branches', url: 'https://www.ruby-lang.org/en/downloads/branches/' }]);
  },
  function deadServer(ctx) {
    const s = ctx.a.server;
    if (s === 'thin') {
      return W('dead-server-thin', 'warning', 'Thin is no longer maintained (its README says so and points to Falcon).',
        `Thin's configuration is generated for today; migrate to Puma (threads and processes; config in migrate-to/config/puma.rb) or to Falcon for fiber concurrency. In the thesis measurements Thin's threaded mode was slower.`,
        [SRC.thin, DS.thinThreaded, DS.thinUnicorn]);
    }
    if (s === 'mongrel') {
      return W('dead-server-mongrel', 'warning', 'Mongrel has been unmaintained for more than a decade and does not support current Rack.',
        'A mongrel_cluster.yml is generated for the existing stack; migrate to Puma (migrate-to/config/puma.rb), which Rails has generated since 5.0.', [SRC.pumaDeploy]);
    }
    if (s === 'webrick') {
      return W('webrick-in-production', 'warning', 'WEBrick is a development server: one process, no worker management, and no longer part of Ruby since 3.0 (a separate gem).',
        'Use Puma in production (migrate-to/config/puma.rb is generated).', [SRC.rubyNews('3.0.0'), SRC.pumaDeploy]);
    }
    return null;
  },
  function deadProxy(ctx) {
    if (ctx.a.proxy !== 'cherokee') return null;
    return W('dead-proxy-cherokee', 'warning', 'Cherokee development has stopped; no current configuration facts exist for it.',
      'The bundle contains an nginx site instead (etc/nginx/sites-available/): nginx buffers slow clients for the app server, as the thesis recommended, and picks epoll on Linux by itself.',
      [DS.reverseProxy, SRC.nginxEvents]);
  },
  function pumaRubyRequirement(ctx) {
    if (ctx.server !== 'puma' || ctx.a.server !== 'puma') return null;
    const req = firstSince(PUMA_FACTS.requiredRuby, ctx.serverVersion);
    if (!req || !lt(ctx.lang, req.ruby)) return null;
    return W('puma-needs-newer-ruby', 'error', `Puma ${ctx.serverVersion} requires Ruby ${req.ruby} or later; you run Ruby ${ctx.lang}.`,
      'Use an older Puma series or upgrade Ruby.', [SRC.pumaHistory]);
  },
  function pitchforkRequirements(ctx) {
    if (ctx.server !== 'pitchfork') return null;
    if (lt(ctx.lang, '2.5')) return W('pitchfork-needs-ruby-2-5', 'error', 'Pitchfork requires Ruby 2.5 or later.', 'Use Unicorn on this Ruby, or upgrade Ruby.', [SRC.pitchfork]);
    if (!ctx.linux || lt(ctx.a.kernel, '3.4')) {
      return W('pitchfork-reforking-needs-linux', 'warning', 'Pitchfork reforking needs PR_SET_CHILD_SUBREAPER (Linux 3.4 or later).',
        'pitchfork.rb leaves refork_after off on this system; Pitchfork then behaves like Unicorn.', [SRC.pitchforkRefork]);
    }
    return null;
  },
  function slowClientServerWithoutBufferingProxy(ctx) {
    if (!['unicorn', 'pitchfork', 'thin', 'mongrel'].includes(ctx.server)) return null;
    if (ctx.proxy === 'nginx' || ctx.proxy === 'apache') return null;
    return W('needs-buffering-proxy', 'warning',
      `${SERVER_NAMES[ctx.server]} handles one client per process and must sit behind a proxy that fully buffers requests and responses${ctx.proxy === 'caddy' ? '; Caddy streams bodies by default and is not such a proxy' : ''}.`,
      'Put nginx in front (proxy_buffering on, the default), or use Puma, which buffers requests itself.', [SRC.unicorn, SRC.caddyProxy, DS.reverseProxy]);
  },
  function passengerOnJvm(ctx) {
    if (ctx.server !== 'passenger' || ctx.canFork) return null;
    return W('passenger-without-fork', 'warning', `${ctx.impl.label} cannot fork, so Passenger's smart spawning is not available.`,
      'The configuration uses the direct spawn method; each process boots the app on its own (more memory, slower spawns).', [SRC.passenger]);
  },
  function falconNotes(ctx) {
    if (ctx.server !== 'falcon') return null;
    if (lt(ctx.a.rails, '7.0')) {
      return W('falcon-before-rails-7', 'warning', `Rails ${ctx.a.rails} has no fiber isolation level; with Falcon, request state can leak between fibers of one thread.`,
        'Upgrade to Rails 7.0+ and set config.active_support.isolation_level = :fiber, or use Puma.', [SRC.railsConfiguring, SRC.falcon]);
    }
    if (!ctx.mri) return W('falcon-non-cruby', 'warning', `Falcon is developed and tested on CRuby; ${ctx.impl.label} is untested here.`, 'Prefer Puma on this Ruby.', [SRC.falcon]);
    return null;
  },
  function poolerWithoutPostgres(ctx) {
    if (!sub(ctx, 'pooler', 'database')) return null;
    return W('pgbouncer-needs-postgresql', 'warning', 'PgBouncer speaks only the PostgreSQL protocol.', 'No PgBouncer configuration was generated.', [SRC.pgbouncer]);
  },
  function sqliteLayout(ctx) {
    if (ctx.a.database !== 'sqlite') return null;
    if (ctx.a.app_hosts > 1 || ctx.a.db_host === 'separate') {
      return W('sqlite-single-host', 'error', 'SQLite is a file opened by the app processes; it cannot be shared by several hosts or live on a separate database host.',
        'Use one app host with a local SQLite file, or move to PostgreSQL or MySQL.', [SRC.sqliteRails]);
    }
    return null;
  },
  function tooManyConnections(ctx) {
    if (!ctx.tooManyConnections) return null;
    return W('too-many-db-connections', 'warning',
      `${ctx.a.app_hosts} host(s) × ${ctx.processes} processes × pool ${ctx.pool} = ${ctx.connectionsNeeded} database connections; max_connections was raised to ${ctx.maxConnections}, which costs database memory and CPU.`,
      ctx.a.database === 'postgresql' ? 'Add PgBouncer in transaction mode (pooler = pgbouncer), or lower threads per process.' : 'Lower threads or processes per host, or use a proxy such as ProxySQL.',
      [SRC.pgConnection, DS.pumaProcThreads, SRC.railsPool]);
  },
  function connectionsRaised(ctx) {
    if (ctx.tooManyConnections || !ctx.defaultMaxConnections || ctx.pooler !== 'none') return null;
    if (ctx.connectionsNeeded + ctx.adminConnections + ctx.reservedConnections <= ctx.defaultMaxConnections) return null;
    return W('max-connections-raised', 'info',
      `The app can open ${ctx.connectionsNeeded} connections (${ctx.a.app_hosts} × ${ctx.processes} × ${ctx.pool}), more than the default max_connections ${ctx.defaultMaxConnections}; the database config raises it to ${ctx.maxConnections}.`,
      'Keep the database config and database.yml together when you change threads or processes.', [SRC.pgConnection, DS.pumaProcThreads]);
  },
  function memoryOver(ctx) {
    if (!ctx.memoryOver) return null;
    return W('memory-over-budget', 'warning',
      `The estimated memory (${ctx.memoryTotalMb} MB) exceeds the host's RAM (${ctx.ramMb} MB).`,
      ctx.a.db_host === 'same' ? 'Move the database to its own host, add RAM, or run fewer processes.' : 'Add RAM or run fewer processes (or threads instead of processes with Puma).',
      [SRC.pumaDeploy, DS.serverMemory]);
  },
  function memoryLimited(ctx) {
    if (!ctx.memoryLimited || ctx.memoryOver) return null;
    return W('workers-limited-by-memory', 'info',
      `${ctx.a.cores} cores would suggest ${ctx.processesByCores} processes, but only ${ctx.processes} fit in ${ctx.ramMb} MB with the other items of the memory budget.`,
      'Add RAM (or move the database away) to use every core.', [SRC.pumaDeploy]);
  },
  function macosProduction(ctx) {
    if (ctx.a.os !== 'macos') return null;
    return W('macos-not-a-server', 'info', 'macOS is treated as a development machine: no sysctl, systemd or limits files are generated.',
      'Use Linux for production hosts.', []);
  },
  function freebsdKernel(ctx) {
    if (ctx.a.os !== 'freebsd') return null;
    return W('freebsd-no-kernel-settings', 'info', 'The wizard has no verified FreeBSD kernel facts, so no sysctl file is generated.',
      'The application, proxy and database files apply unchanged.', []);
  },
  function caddyOne(ctx) {
    if (ctx.proxy !== 'caddy' || gte(ctx.proxyVersion, '2.0')) return null;
    return W('caddy-1-end-of-life', 'warning', 'Caddy 1 is end-of-life and uses a different Caddyfile syntax.', 'The Caddyfile is written for Caddy 2; upgrade Caddy.', [SRC.caddyProxy]);
  },
  function apacheOld(ctx) {
    if (ctx.proxy !== 'apache' || ctx.passengerIntegrated || gte(ctx.proxyVersion, '2.4.7')) return null;
    return W('apache-no-unix-socket-proxy', 'info', `Apache ${ctx.proxyVersion} cannot proxy to Unix sockets (mod_proxy gained that in 2.4.7).`,
      'The app server listens on 127.0.0.1 TCP ports instead.', [SRC.apacheProxy]);
  },
  function yjitArm64(ctx) {
    if (ctx.a.ruby !== 'cruby' || ctx.a.arch !== 'arm64' || !gte(ctx.a.ruby_version, '3.1') || gte(ctx.a.ruby_version, '3.2')) return null;
    return W('yjit-arm64-needs-3-2', 'info', 'YJIT supports arm64 only from Ruby 3.2.', 'Upgrade to Ruby 3.2+ to use YJIT on this CPU.', [SRC.rubyNews('3.2.0')]);
  },
  function oldRails(ctx) {
    if (gte(ctx.a.rails, '7.1')) return null;
    return W('rails-unmaintained', 'info', `Rails ${ctx.a.rails} no longer receives fixes.`,
      'Coding advice is written in the API of your version, with the modern spelling next to it for the upgrade.', [{ label: 'Rails maintenance policy', url: 'https://rubyonrails.org/maintenance' }]);
  },
  function passengerStandaloneVersion(ctx) {
    if (ctx.server !== 'passenger' || ctx.passengerIntegrated || gte(ctx.a.server_version, '3.0')) return null;
    return W('passenger-2-no-standalone', 'warning', `Passenger ${ctx.a.server_version} has no Standalone mode; behind ${ctx.proxy === 'none' ? 'no proxy' : ctx.proxy} it ran only compiled into nginx.`,
      'The service file starts Passenger Standalone (Passenger 3.0+); upgrade Passenger, or use Apache integration.', [SRC.passengerStandalone]);
  },
];

export function compatibilityWarnings(ctx) {
  return RULES.map((r) => r(ctx)).filter(Boolean);
}
export { IMPLEMENTATIONS };
