// When a setting the wizard writes is absent from the user's file and that absence is no difference:
// the program's own default is the wizard's value, or the value comes from somewhere the files delegate
// to. Such a "missing" note would be false (README "Severity": a note must say something true).
// Each row: kind, setting, why, and when(ctx) → true when the absence is no difference.
// ctx: {file, files, section: settings of the same YAML section, answers, env}

import { sidekiqConcurrency } from './jobs.mjs';
import { effective } from './crossfile.mjs';

const major = (v) => Number(String(v || '').split('.')[0]) || 0;

export const ABSENT_IS_DEFAULT = [
  {
    kind: 'puma', key: 'preload_app!',
    why: 'Puma 7 preloads the app in cluster mode by default (docs/7.0-Upgrade.md)',
    when: ({ answers }) => answers.server === 'puma' && major(answers.server_version) >= 7,
  },
  {
    kind: 'puma', key: 'environment',
    why: 'without it Puma takes APP_ENV, RACK_ENV or RAILS_ENV from the process (lib/puma/configuration.rb), which every deployment sets',
    when: () => true,
  },
  {
    kind: 'puma', key: 'directory',
    why: 'without it Puma runs in the directory it was started from (the Procfile, image WORKDIR or unit WorkingDirectory)',
    when: () => true,
  },
  // Cluster-only hooks: in single mode Puma never forks and warns that they are unused (configuration.rb warn_hooks).
  ...['before_fork', 'before_worker_boot', 'on_worker_boot', 'before_worker_fork', 'after_worker_fork', 'before_worker_shutdown', 'on_worker_shutdown'].map((key) => ({
    kind: 'puma', key,
    why: 'Puma runs in single mode here (workers 0 or 1, or unset with no WEB_CONCURRENCY above 1): fork hooks never run',
    when: ({ file, env }) => singleMode(file, env || new Map()),
  })),
  {
    kind: 'puma', key: 'pidfile',
    why: '`@options[:pidfile] = false` (or nil) turns the pid file off on purpose (docuseal); Puma then writes none',
    when: ({ file }) => /^\s*@options\[:pidfile\]\s*=\s*(false|nil)\b/m.test(file?.text || ''),
  },
  {
    kind: 'puma', key: 'bind',
    why: 'the app is reached over TCP: a container CMD that runs the server (Thruster forwards to TARGET_PORT 3000), a Procfile web line on $PORT (PaaS routers) or Kamal (kamal-proxy to the container port); a Unix socket would leave it unreachable',
    when: ({ files }) => reachedByTcp(files || []),
  },
  {
    kind: 'sidekiq-yml', key: 'timeout',
    why: 'Sidekiq 6 and later wait 25 s on shutdown by default (Sidekiq wiki: Deployment)',
    when: ({ generated }) => Number(generated) === 25,
  },
  {
    kind: 'sidekiq-yml', key: 'concurrency',
    why: 'without it Sidekiq takes RAILS_MAX_THREADS (cli.rb), which the files set for the Sidekiq process (a Procfile VAR= prefix or the environment)',
    when: ({ files, env }) => Boolean(files && sidekiqConcurrency(files, env || new Map())?.fromRailsMaxThreads),
  },
  ...['adapter', 'host', 'port', 'database', 'username', 'password'].map((key) => ({
    kind: 'database-yml', key,
    why: 'the section has url: (or DATABASE_URL), which carries the adapter, host, port, database and credentials',
    when: ({ section }) => section.some((s) => s.key === 'url'),
  })),
  // A section whose keys ERB writes (baw-server: `"<%= key %>": <%= value %>` in a Settings loop): any key may be
  // among them, so an absent one is unknown, not missing.
  {
    kind: 'database-yml', key: '*',
    why: 'the section\'s keys are written by ERB the doctor does not evaluate; this one may be among them',
    when: ({ section }) => section.some((s) => /^__erb_\d+__$/.test(String(s.key))),
  },
  {
    kind: 'database-yml', key: 'password',
    why: 'no password is how peer authentication and PGPASSWORD/.pgpass work; whether one is needed is not in the files',
    when: () => true,
  },
];

/**
 * Every `workers` value the file can take is 0 or 1 (a `workers n if n > 1` reads its n), or there is no
 * `workers` and WEB_CONCURRENCY, Puma's default for it (configuration.rb), is unset or ≤ 1 in the files.
 * An unknown value is not single mode.
 */
export function singleMode(file, env) {
  const ws = (file?.settings || []).filter((s) => s.name === 'workers');
  const n = (v) => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));
  if (!ws.length) { const wc = env.get('WEB_CONCURRENCY'); return !wc || (n(wc.value) !== null && n(wc.value) <= 1); }
  return ws.every((s) => { const v = n(effective(s.args?.[0], env)); return v !== null && v <= 1; });
}

// A command that runs the app server, and one that makes it listen on TCP: Thruster (it proxies to TARGET_PORT),
// a port flag (`rails s -p 3000`, `puma --port`), a TCP bind (`-b tcp://…`, `-b 0.0.0.0`).
const RUNS_SERVER = /\b(thrust|rails["',\s]+(server|s)\b|puma)\b/;
const TCP_FLAGS = /\bthrust\b|(?:^|[\s"',[])(?:-p|--port)(?:[\s"',=]+)["']?[$\d{]|(?:^|[\s"',[])(?:-b|--bind)(?:[\s"',=]+)["']?(?:tcp:\/\/|ssl:\/\/|\d+\.\d+\.\d+\.\d+|\[?::|localhost)/;

/** The Puma config listens on the port a process manager hands it: `port ENV.fetch("PORT")`, `bind "tcp://…:#{ENV["PORT"]}"`. */
function pumaOnEnvPort(files) {
  return files.some((f) => f.kind === 'puma' && !f.problem && f.settings.some((s) => !s.conditional
    && ((s.name === 'port' && s.args?.[0]?.env === 'PORT') || (s.name === 'bind' && /^(tcp|ssl):\/\/.*\bPORT\b/.test(String(s.value))))));
}

/**
 * Files that show the app reached over TCP: Kamal; a Procfile web line on $PORT, running Thruster or given a port or
 * TCP bind flag, or running the server whose config reads PORT (Heroku, Dokku and foreman set it); the Dockerfile's
 * final-stage CMD/ENTRYPOINT running the server, or any final CMD with Puma on PORT (a container is reached through
 * its network: Kubernetes, ECS); a production Compose service that publishes ports and runs the app.
 */
export function reachedByTcp(files) {
  const ok = (k) => files.filter((f) => f.kind === k && !f.problem);
  if (ok('kamal').length) return true;
  const envPort = pumaOnEnvPort(files);
  const webs = ok('procfile').flatMap((f) => f.settings.filter((s) => s.name === 'web').map((s) => String(s.value)));
  if (webs.some((v) => /\$\{?PORT\b/.test(v) || TCP_FLAGS.test(v) || (envPort && RUNS_SERVER.test(v)))) return true;
  const cmds = ok('dockerfile').flatMap((f) => f.settings.filter((s) => (s.name === 'CMD' || s.name === 'ENTRYPOINT') && s.runtime !== false).map((s) => String(s.value)));
  if (cmds.some((v) => RUNS_SERVER.test(v) || TCP_FLAGS.test(v)) || (envPort && cmds.length)) return true;
  return ok('compose').some((f) => (f.services || []).some((svc) => svc.production !== false && svc.ports
    && (svc.command ? RUNS_SERVER.test(svc.command.value) || TCP_FLAGS.test(svc.command.value) : svc.build || cmds.some((v) => RUNS_SERVER.test(v)))));
}

/** A Ruby config that hands itself to a library (GovukPuma.configure_rails(self)): what is absent may be set there. */
export function delegates(file) {
  return /\b[A-Z]\w*(?:::\w+)*\.configure\w*\(\s*self\s*\)/.test(file.text || '');
}

/** Why this absent setting is no difference, or null when it is one. */
export function absentIsFine(kind, key, ctx) {
  if (['puma', 'unicorn', 'pitchfork'].includes(kind) && delegates(ctx.file)) return 'the file hands its configuration to a library (…configure(self)); what it sets is not in the files';
  const row = ABSENT_IS_DEFAULT.find((r) => r.kind === kind && (r.key === key || r.key === '*') && r.when(ctx));
  return row ? row.why : null;
}
