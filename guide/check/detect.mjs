// Detects the wizard's answers from the files read, each with the file and line it came from.
// Only keys the engine asks (QUESTIONS) become answers; everything else detected is reported as a fact,
// so new questions added to the engine start being filled in as soon as a detector names them.
import { QUESTIONS, validateAnswers } from '../engine/core.mjs';
import { VERSION_RE } from '../engine/version.mjs';
import { lowerBound } from './read-gems.mjs';
import { baseAdapter } from './normalize.mjs';
import { initializerAdapter, implicitAsync } from './active-job.mjs';

const IMPL = { ruby: 'cruby', jruby: 'jruby', truffleruby: 'truffleruby', ree: 'ree', rbx: 'rubinius' };
const SERVERS = ['puma', 'unicorn', 'pitchfork', 'passenger', 'falcon', 'thin', 'mongrel'];
const ADAPTERS = {
  postgresql: ['pg', 'postgresql'], postgis: ['pg', 'postgresql'], mysql2: ['mysql2', 'mysql'], trilogy: ['trilogy', 'mysql'],
  mysql: ['mysql', 'mysql'], sqlite3: ['sqlite3', 'sqlite'],
};
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '']);

/** Version trimmed to what the wizard accepts (up to 3 components, digits only). */
export function cleanVersion(v) {
  const m = /(\d+(?:\.\d+){0,2})/.exec(String(v || ''));
  return m && VERSION_RE.test(m[1]) ? m[1] : null;
}

/**
 * detect(files, given) → {answers, provenance: {key: {file, line, from}}, facts: [{name, value, file, line}],
 *   undetected: [key], conflicts: [{key, given, detected, file, line}]}
 * `given` are answers passed explicitly (--answers, or the page's form): they win over detection.
 */
export function detect(files, given = {}) {
  const found = {}; // key → {value, file, line, from}
  const facts = [];
  // assumed: why a value that is not a fact was taken (a Gemfile requirement's lower bound, config.load_defaults).
  const set = (key, value, f, line, from, assumed) => {
    if (value === null || value === undefined || found[key]) return;
    found[key] = { value, file: f.path, line: line || 0, from, ...(assumed ? { assumed } : {}) };
  };
  const fact = (name, value, f, line) => facts.push({ name, value, file: f.path, line: line || 0 });
  const ofKind = (k) => files.filter((f) => f.kind === k && !f.problem);
  const first = (k) => ofKind(k)[0];
  // A `current` link whose parent holds the shared tmp/ (the wizard's release directories: Puma binds ROOT/tmp/…)
  // means the app root is the parent; a `current` whose own tmp/ holds the socket is a release tool's root (Capistrano).
  const releaseRoot = (dir, puma) => {
    const m = /^(.+)\/current$/.exec(dir);
    if (!m || !puma) return dir;
    const binds = puma.settings.filter((s) => s.name === 'bind' && typeof s.value === 'string').map((s) => s.value);
    return binds.some((b) => b.includes(`${m[1]}/tmp/`)) ? m[1] : dir;
  };

  // Ruby: Gemfile.lock's RUBY VERSION, then .ruby-version, .tool-versions, Gemfile's `ruby`.
  for (const k of ['gemfile-lock', 'ruby-version', 'tool-versions', 'gemfile']) {
    for (const f of ofKind(k)) {
      if (!f.ruby) continue;
      set('ruby', IMPL[f.ruby.impl] || 'cruby', f, f.ruby.line, `${f.ruby.impl} ${f.ruby.value}`);
      set('ruby_version', cleanVersion(f.ruby.value), f, f.ruby.line, `${f.ruby.impl} ${f.ruby.value}`);
    }
  }
  // Gems: Rails, the app server and the database adapter with their versions.
  const lock = first('gemfile-lock');
  const gemfile = first('gemfile');
  // A gem the Gemfile declares only in development/test groups is not what production runs.
  const gemfileGem = (name) => gemfile?.settings.find((s) => s.name === name && !s.devOnly);
  // A gem line from a file the Gemfile evaluates (gemfile-parts.mjs) is cited at that file.
  const gemAt = (g) => (g?.file ? { path: g.file } : gemfile);
  const inProduction = (name) => !gemfile || !gemfile.settings.some((s) => s.name === name) || Boolean(gemfileGem(name));
  const gem = (name) => lock?.settings.find((s) => s.name === name);
  const rails = gem('rails') || gem('railties');
  if (rails) set('rails', cleanVersion(rails.value), lock, rails.line, `${rails.name} (${rails.value})`);
  else if (lowerBound(gemfileGem('rails')?.value)) set('rails', cleanVersion(lowerBound(gemfileGem('rails').value)), gemAt(gemfileGem('rails')), gemfileGem('rails').line, `gem "rails", "${gemfileGem('rails').value}"`, `the lower bound of Gemfile's gem "rails", "${gemfileGem('rails').value}"`);
  for (const s of SERVERS) {
    const g = inProduction(s) ? gem(s) : null;
    if (g) {
      set('server', s, lock, g.line, `${g.name} (${g.value})`);
      if (found.server?.value === s) set('server_version', cleanVersion(g.value), lock, g.line, `${g.name} (${g.value})`);
    } else if (!lock && gemfileGem(s)) {
      const g2 = gemfileGem(s);
      set('server', s, gemAt(g2), g2.line, `gem "${s}"${g2.value ? `, "${g2.value}"` : ''}`);
      // Without Gemfile.lock the requirement's lower bound ("~> 5.0") is the best guess of the version.
      if (found.server?.value === s && lowerBound(g2.value)) set('server_version', cleanVersion(lowerBound(g2.value)), gemAt(g2), g2.line, `gem "${s}", "${g2.value}" (lower bound; Gemfile.lock not given)`, `the lower bound of Gemfile's gem "${s}", "${g2.value}"`);
    }
  }
  // A config file names the server unless the Gemfile has that server only in development/test groups
  // (openstreetmap-website: puma.rb for `rails server` in development, gem "puma" in group :test).
  for (const k of ['puma', 'unicorn', 'pitchfork']) { const f = first(k); if (f && inProduction(k)) set('server', k, f, 1, `${f.path} exists`); else if (f) fact(`${k} only in Gemfile development/test groups`, `${f.path} is not taken as the production server`, gemfile, gemfile.settings.find((s) => s.name === k)?.line); }

  // config/application.rb: config.load_defaults N picks which of Rails' implicit defaults apply; with no
  // Gemfile.lock or Gemfile requirement naming Rails, the app runs at least that Rails.
  const app = first('rails-app');
  const ld = app?.settings.find((s) => s.name === 'config.load_defaults' && !s.branch?.length && /^["']?\d+\.\d+["']?$/.test(String(s.args?.[0]?.text || '')));
  if (ld) {
    const v = String(ld.args[0].text).replace(/["']/g, '');
    fact('config.load_defaults', v, app, ld.line);
    set('rails', cleanVersion(v), app, ld.line, `config.load_defaults ${v}`, `config.load_defaults ${v} (Rails is at least that version)`);
  }
  for (const k of ['dockerfile', 'kamal', 'compose']) {
    for (const f of ofKind(k)) {
      const s = f.kind === 'compose' ? (f.services || []).filter((x) => x.production === true).flatMap((x) => [...x.env].filter(([n]) => n === 'DATABASE_URL').map(([, v]) => v))[0] : f.settings.find((x) => (x.name === 'DATABASE_URL' || x.key === 'DATABASE_URL') && x.runtime !== false);
      // Only what a reviewer needs: the host and database, never the credentials.
      const u = s && /^[a-z0-9+]+:\/\/(?:[^@/]*@)?([^/:?]+)(?::\d+)?\/([^?]*)/i.exec(String(s.value ?? ''));
      if (u) fact('DATABASE_URL', `host ${u[1]}, database ${u[2] || '(default)'}`, f, s.line);
    }
  }

  // database.yml (production): adapter, host, pool; the pooler by port.
  const yml = first('database-yml');
  const prod = yml ? yml.settings.filter((s) => s.path?.[0] === 'production') : [];
  const pick = (key) => prod.find((s) => s.key === key && (s.path.length === 2 || s.path[1] === 'primary')) || prod.find((s) => s.key === key);
  const adapter = pick('adapter');
  if (adapter && typeof adapter.value === 'string') {
    const jdbc = /^jdbc/.test(adapter.value);
    const a = jdbc ? ['jdbc', adapter.value.replace(/^jdbc/, '').replace(/^sqlite3$/, 'sqlite').replace(/^postgresql$/, 'postgresql')] : ADAPTERS[baseAdapter(adapter.value)];
    if (a) {
      set('adapter', a[0], yml, adapter.line, `adapter: ${adapter.value}`);
      set('database', ['postgresql', 'mysql', 'sqlite', 'mariadb'].includes(a[1]) ? a[1] : null, yml, adapter.line, `adapter: ${adapter.value}`);
    }
  } else {
    const locked = [['pg', 'pg', 'postgresql'], ['trilogy', 'trilogy', 'mysql'], ['mysql2', 'mysql2', 'mysql'], ['sqlite3', 'sqlite3', 'sqlite']]
      .map(([g, ad, db]) => ({ s: inProduction(g) ? gem(g) : null, ad, db })).filter((x) => x.s);
    // Several adapter gems (an app that runs on any of them: tracks, fizzy): the lockfile alone does not say which
    // production uses. The database server the deployment runs (a Compose service's or a Kamal accessory's image)
    // picks one; else none is taken, and the candidates are a fact (seventh blind trial: "MySQL" for SQLite Fizzy).
    const server = locked.length > 1 ? databaseImage(files) : null;
    const picked = locked.length === 1 ? locked : locked.filter((x) => server && x.db === server.db);
    if (picked.length >= 1) {
      const { s, ad, db } = picked[0];
      const from = server ? `${server.image} with ${s.name} (${s.value}) locked` : `${s.name} (${s.value})`;
      set('adapter', ad, server ? { path: server.file } : lock, server ? server.line : s.line, from);
      set('database', server?.mariadb ? 'mariadb' : db, server ? { path: server.file } : lock, server ? server.line : s.line, from);
    } else if (locked.length > 1) {
      fact('database adapter gems', `${locked.map((x) => x.s.name).join(', ')} locked: which one production uses is not in the files`, lock, locked[0].s.line);
    }
  }
  const host = pick('host');
  const port = pick('port');
  const bouncer = first('pgbouncer');
  if (port?.known && Number(port.value) === 6432) set('pooler', 'pgbouncer', yml, port.line, 'port: 6432 (PgBouncer)');
  if (bouncer) set('pooler', 'pgbouncer', bouncer, 1, `${bouncer.path} exists`);
  // database.yml names the database host, or PgBouncer's. A remote host means a separate database host
  // (PgBouncer may run there too); a local one behind PgBouncer: pgbouncer.ini's [databases] says where PostgreSQL is.
  const bouncerDb = bouncer?.settings.find((s) => s.section === 'databases' && /host=/.test(String(s.value)));
  const ymlHost = host?.known && host.value !== null ? String(host.value) : null;
  if (found.database?.value !== 'sqlite' && yml && found.adapter) {
    if (ymlHost && !LOCAL_HOSTS.has(ymlHost)) {
      set('db_host', 'separate', yml, host.line, `host: ${ymlHost}`);
      if (/^\d+\.\d+\.\d+\.\d+$/.test(ymlHost)) set('db_address', ymlHost, yml, host.line, `host: ${ymlHost}`);
    } else if (found.pooler && bouncerDb) {
      const h = /host=(\S+)/.exec(bouncerDb.value)[1];
      set('db_host', LOCAL_HOSTS.has(h) || h.startsWith('/') ? 'same' : 'separate', bouncer, bouncerDb.line, `host=${h}`);
    } else if (!host || ymlHost !== null || (host.known && !host.env)) {
      set('db_host', 'same', yml, host?.line || adapter?.line, ymlHost ? `host: ${ymlHost}` : 'no host: local socket');
    }
  }
  const pool = pick('max_connections') || pick('pool');
  // A pool the files leave open (lagotto's `<%= ENV['CONCURRENCY'].to_i %>`: known to follow a variable, no default)
  // is said in words, never as "null".
  if (pool) fact('database.yml pool', pool.known && pool.value !== null ? pool.value : `unknown: ${pool.text ?? pool.value}${pool.env ? ` (taken from ${pool.env} when the app starts; database.yml gives no default)` : ' (not a value the doctor can read)'}`, yml, pool.line);

  // Config files of the servers around the app.
  for (const f of ofKind('pgconf')) {
    const m = /postgresql\/(\d+(?:\.\d+)?)\//.exec(f.path);
    if (m) set('database_version', m[1], f, 0, `path ${f.path}`);
    set('database', 'postgresql', f, 1, `${f.path} is a PostgreSQL config`);
  }
  for (const f of ofKind('tool-versions')) {
    const pg = f.settings.find((s) => s.name === 'postgres' || s.name === 'postgresql');
    if (pg) set('database_version', cleanVersion(pg.value)?.split('.')[0], f, pg.line, `${pg.name} ${pg.value}`);
  }
  for (const f of ofKind('mycnf')) if (/mariadb/i.test(f.path) || f.settings.some((s) => s.section === 'mariadb')) set('database', 'mariadb', f, 1, `${f.path} is a MariaDB config`);
  for (const [kind, proxy] of [['nginx', 'nginx'], ['apache', 'apache'], ['caddy', 'caddy']]) {
    const f = first(kind);
    if (f) set('proxy', proxy, f, 1, `${f.path} is an ${proxy} config`);
  }
  const unit = first('systemd');
  if (unit) { set('init', 'systemd', unit, 1, `${unit.path} is a systemd unit`); set('os', 'linux', unit, 1, 'systemd runs on Linux'); }
  if (first('sysctl')) set('os', 'linux', first('sysctl'), 1, 'sysctl.d is Linux');

  // Facts without a question (yet): jobs backend, Solid Cache/Queue/Cable, Puma workers/threads/plugins.
  // The adapter production.rb sets, else config/application.rb's (production.rb's wins: it is loaded after).
  for (const f of [...ofKind('rails-env'), ...ofKind('rails-app')]) {
    for (const s of f.settings) {
      if (s.name === 'config.active_job.queue_adapter' && (f.kind === 'rails-env' || (!s.conditional && /^:?["']?\w+["']?$/.test(String(s.value))))) fact('jobs backend', String(s.value).replace(/^:/, ''), f, s.line);
      if (f.kind === 'rails-app') continue;
      if (s.name === 'config.cache_store') fact('cache store', s.value.replace(/^:/, ''), f, s.line);
      if (s.name === 'config.solid_queue.connects_to' || s.name === 'config.solid_cache.connects_to') fact(s.name, s.value, f, s.line);
    }
  }
  for (const g of ['solid_queue', 'solid_cache', 'solid_cable', 'sidekiq', 'good_job', 'resque', 'delayed_job', 'bootsnap']) {
    const s = gem(g);
    if (s) fact(`gem ${g}`, s.value, lock, s.line);
  }
  for (const f of ofKind('puma')) {
    for (const s of f.settings) if (['workers', 'threads', 'plugin', 'bind', 'port'].includes(s.name)) fact(`puma ${s.name}`, s.value, f, s.line);
  }
  // An initializer's unconditional adapter (baw-server: initializers/active_job.rb, :resque): initializers run after
  // production.rb, so theirs is the one in effect (active-job.mjs reads that line only).
  const init = initializerAdapter(files);
  if (init) facts.unshift({ name: 'jobs backend', value: init.value, file: init.f.path, line: init.s.line });
  const jobs = facts.find((x) => x.name === 'jobs backend');
  // A backend the wizard has no option for (Resque, sucker_punch, Que…): it writes no job configuration for it, so
  // nothing of Solid Queue's is compared (fifth blind trial: "jobs … assumed solid_queue" for Resque and sucker_punch).
  if (jobs && /^\w+$/.test(jobs.value) && validateAnswers({ jobs: jobs.value }, { policy: false }).length) set('jobs', 'none', { path: jobs.file }, jobs.line, `queue_adapter = :${jobs.value}, a backend the wizard writes no configuration for`);
  else if (jobs) set('jobs', jobs.value, { path: jobs.file }, jobs.line, `queue_adapter = :${jobs.value}`);
  for (const g of ['solid_queue', 'sidekiq', 'good_job', 'delayed_job']) {
    const s = (inProduction(g) ? gem(g) : null) || (g === 'delayed_job' && inProduction('delayed_job_active_record') ? gem('delayed_job_active_record') : null);
    if (s) set('jobs', g, lock, s.line, `${s.name} (${s.value})`);
    else if (!lock && gemfileGem(g)) set('jobs', g, gemAt(gemfileGem(g)), gemfileGem(g).line, `gem "${g}"`);
  }
  // Job classes and no adapter or job gem anywhere (seventh blind trial, metasmoke): Rails' implicit :async runs them, a
  // backend the wizard writes nothing for. Without this the jobs answer was "assumed solid_queue" beside jobs-lost.
  const implicit = implicitAsync(files, given.rails ?? found.rails?.value);
  if (implicit) set('jobs', 'none', implicit.env, 0, `no queue_adapter in ${implicit.env.path}, config/application.rb, config/initializers or app/jobs: Rails' default :async runs the Active Job classes (${implicit.job.path}:${implicit.line})`);

  // Where the app lives, its domain, TLS and the service user, from the server configs.
  for (const f of ofKind('puma')) {
    const d = f.settings.find((s) => s.name === 'directory' && s.args?.[0]?.known && typeof s.args[0].value === 'string');
    if (d) set('app_root', releaseRoot(d.args[0].value.replace(/\/+$/, ''), f), f, d.line, `directory "${d.args[0].value}"`);
  }
  for (const f of [...ofKind('nginx'), ...ofKind('apache'), ...ofKind('caddy')]) {
    for (const s of f.settings) {
      if ((s.name === 'root' || s.name === 'DocumentRoot') && /\/public\/?$/.test(s.value)) set('app_root', releaseRoot(s.value.replace(/\/public\/?$/, ''), first('puma')), f, s.line, `${s.name} ${s.value}`);
      if ((s.name === 'server_name' || s.name === 'ServerName') && s.args?.[0] && s.args[0] !== '_' && /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(s.args[0])) set('domain', s.args[0], f, s.line, `${s.name} ${s.value}`);
      if ((s.name === 'listen' && /\bssl\b/.test(s.value)) || s.name === 'ssl_certificate' || s.name === 'SSLEngine') set('tls', 'proxy', f, s.line, `${s.name} ${s.value}`);
    }
  }
  for (const f of ofKind('systemd')) {
    const u = f.settings.find((s) => s.name === 'User');
    if (u && f.settings.some((s) => s.name === 'ExecStart' && /\b(puma|unicorn|pitchfork|rails)\b/.test(String(s.value)))) set('deploy_user', u.value, f, u.line, `User=${u.value}`);
  }

  // Only answers the engine knows and accepts.
  const keys = new Set(QUESTIONS.map((q) => q.key));
  const answers = {};
  const provenance = {};
  const conflicts = [];
  for (const [key, d] of Object.entries(found)) {
    if (!keys.has(key)) continue;
    if (validateAnswers({ [key]: d.value }, { policy: false }).length) { facts.push({ name: `${key} (not a wizard option)`, value: d.value, file: d.file, line: d.line }); continue; }
    answers[key] = d.value;
    provenance[key] = { file: d.file, line: d.line, from: d.from, ...(d.assumed ? { assumed: d.assumed } : {}) };
  }
  for (const [key, value] of Object.entries(given || {})) {
    if (!keys.has(key)) continue;
    if (key in answers && String(answers[key]) !== String(value)) conflicts.push({ key, given: value, detected: answers[key], ...provenance[key] });
    answers[key] = value;
    provenance[key] = { file: null, line: 0, from: 'given' };
  }
  // The database version belongs to the database: a PostgreSQL path does not describe MySQL.
  const undetected = QUESTIONS.map((q) => q.key).filter((k) => !(k in answers));
  return { answers, provenance, facts, undetected, conflicts };
}

/**
 * The database server the deployment runs: a Compose service's or a Kamal accessory's image (postgres, postgis,
 * mysql, mariadb). → {db, mariadb, image, where, file, line} when all such images name one database, else null.
 */
function databaseImage(files) {
  const found = [];
  for (const f of files.filter((x) => (x.kind === 'compose' || x.kind === 'kamal') && !x.problem)) {
    for (const st of f.settings) {
      const p = st.path || [];
      const isImage = f.kind === 'compose' ? p[0] === 'services' && p.length === 3 && p[2] === 'image' : p[0] === 'accessories' && p.length === 3 && p[2] === 'image';
      const m = isImage && /(?:^|\/)(postgres|postgis|mysql|mariadb)(?::|$|@)/.exec(String(st.value ?? ''));
      if (m) found.push({ db: m[1].startsWith('post') ? 'postgresql' : 'mysql', mariadb: m[1] === 'mariadb', image: `image ${st.value}`, where: `${f.path}:${st.line}`, file: f.path, line: st.line });
    }
  }
  return found.length && found.every((x) => x.db === found[0].db) ? found[0] : null;
}
