// Checks that need two files: the app server's socket against the proxy's upstream, the pool against
// the threads, the connections all processes may open against the database's limit, and one setting
// given different values in two files of the same kind.
import { SRC } from '../engine/evidence.mjs';
import { FORK_MEMORY } from '../engine/caps.mjs';
import { envSettings } from './obsolete.mjs';
import { pgMemoryKb } from './normalize.mjs';
import { splitDotenv, usesDotenv } from './dotenv-order.mjs';

const num = (v) => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));

/** Effective value of a Ruby/YAML argument: the environment file's value for its variable, else its default. */
export function effective(arg, env) {
  if (!arg) return null;
  if (arg.env && env.has(arg.env)) {
    const v = env.get(arg.env).value;
    const n = arg.offset && /^-?\d+$/.test(v) ? Number(v) + arg.offset : v;
    return arg.floor && /^-?\d+$/.test(String(n)) ? Math.max(Number(n), arg.floor) : n;
  }
  return arg.known ? arg.value : null;
}

/**
 * Variables the app server's process gets: name → {value, file, line}. Dockerfile ENV and Kamal's env:
 * clear: count for every process of the image. When a systemd unit starts the
 * app server, only its EnvironmentFile= and Environment= count (a jobs unit may read another file);
 * otherwise every environment file except ones named for job workers, dotenv's in its precedence (dotenv-order.mjs).
 */
export function envOf(files) {
  const env = new Map();
  const units = files.filter((f) => f.kind === 'systemd' && !f.problem && f.settings.some((s) => s.name === 'ExecStart' && /\b(puma|unicorn|pitchfork|passenger|falcon|rails server)\b/.test(String(s.value))));
  const named = new Set(units.flatMap((u) => u.settings.filter((s) => s.name === 'EnvironmentFile').map((s) => String(s.value).replace(/^-/, '').split('/').pop())));
  const candidates = files.filter((f) => f.kind === 'env' && !f.problem && (named.size ? named.has(f.path.split('/').pop()) : !/job|worker|queue/i.test(f.path.split('/').pop())));
  // A unit's EnvironmentFile= lines name what it reads; otherwise dotenv's files as production loads them, under
  // the process's own environment (dotenv-order.mjs).
  const { dotenv, plain } = named.size ? { dotenv: [], plain: candidates } : splitDotenv(candidates, usesDotenv(files));
  // dotenv's files, then the image's ENV, Kamal's env and Compose's environment (they override the image), then other
  // env files and units.
  const deploy = ['dockerfile', 'kamal', 'compose'].flatMap((k) => files.filter((f) => f.kind === k && !f.problem));
  for (const f of [...dotenv, ...deploy, ...plain, ...units]) for (const s of envSettings(f)) env.set(s.name, { value: s.value, file: f.path, line: s.line });
  return env;
}

/** Puma's listeners: bind "unix://…" / "tcp://…" and port N. */
function pumaListeners(f, env) {
  const out = [];
  for (const s of f.settings) {
    if (s.conditional) continue;
    const v = effective(s.args?.[0], env);
    if (s.name === 'bind' && typeof v === 'string') {
      const m = /^unix:\/\/(.+?)(\?.*)?$/.exec(v);
      if (m) out.push({ type: 'unix', path: m[1].replace(/^\/+/, '/'), line: s.line });
      const t = /^(?:tcp|ssl):\/\/([^:/]+):(\d+)/.exec(v);
      if (t) out.push({ type: 'tcp', port: Number(t[2]), line: s.line });
    }
    if (s.name === 'port' && num(v) !== null) out.push({ type: 'tcp', port: Number(v), line: s.line });
  }
  return out;
}

/** The proxy's upstreams: nginx `server unix:…`/`proxy_pass http://unix:…:`, Apache ProxyPass/BalancerMember. */
function proxyTargets(f) {
  const out = [];
  for (const s of f.settings) {
    const vals = f.kind === 'nginx'
      ? ((s.name === 'server' && /upstream/.test(s.ctx)) || s.name === 'proxy_pass' ? [s.args?.[0] || ''] : [])
      : (/^(ProxyPass|ProxyPassReverse|BalancerMember)$/i.test(s.name) ? s.args || [] : []);
    for (const v of vals) {
      const u = /^(?:http:\/\/)?unix:([^|:]+)/.exec(v);
      if (u) { out.push({ type: 'unix', path: u[1].replace(/^\/+/, '/'), line: s.line, text: v }); continue; }
      const t = /^(?:https?:\/\/)?(?:127\.0\.0\.1|localhost|\[::1\]|0\.0\.0\.0):(\d+)/.exec(v);
      if (t) out.push({ type: 'tcp', port: Number(t[1]), line: s.line, text: v });
    }
  }
  return out;
}

export function crossFileFindings(files, answers) {
  const out = [];
  const env = envOf(files);
  const of = (k) => files.filter((f) => f.kind === k && !f.problem);
  const puma = of('puma')[0];

  // 1. The proxy sends requests where the app server listens.
  if (puma) {
    const listen = pumaListeners(puma, env);
    for (const pf of [...of('nginx'), ...of('apache')]) {
      const targets = proxyTargets(pf);
      if (!listen.length || !targets.length) continue;
      const hit = targets.some((t) => listen.some((l) => l.type === t.type && (t.type === 'unix' ? l.path === t.path : l.port === t.port)));
      if (!hit) {
        const t = targets[0];
        out.push({
          rule: 'inconsistent', severity: 'error', file: pf.path, line: t.line, setting: 'upstream',
          found: t.text, expected: listen.map((l) => (l.type === 'unix' ? `unix:${l.path}` : `127.0.0.1:${l.port}`)).join(' or '),
          message: `the proxy sends requests to ${t.text}, but Puma (${puma.path}:${listen[0].line}) listens on ${listen.map((l) => (l.type === 'unix' ? `unix://${l.path}` : `port ${l.port}`)).join(', ')}: every request fails with 502`,
          evidence: [SRC.pumaNginx], related: [{ file: puma.path, line: listen[0].line }],
        });
      }
    }
  }

    const yml = of('database-yml')[0];
  const prodPools = yml ? yml.settings.filter((s) => s.path[0] === 'production' && (s.key === 'pool' || s.key === 'max_connections')) : [];
  // (Pool against threads and job concurrency: problems.mjs, with Rails' implicit default.)

  // 3. All processes on all app hosts must fit in the database's connection limit.
  const pg = of('pgconf');
  const maxConn = lastSetting(pg, 'max_connections');
  const reserved = lastSetting(pg, 'superuser_reserved_connections');
  const bouncer = of('pgbouncer')[0];
  if (puma && prodPools.length && maxConn && !bouncer) {
    const w = puma.settings.find((s) => s.name === 'workers' && !s.conditional);
    // A worker count the files leave to the environment is the host's cores only when the reader gave them.
    const cores = answers.__given?.includes('cores') ? answers.cores : null;
    const workers = w ? num(effective(w.args?.[0], env)) ?? cores : 1;
    // Each process keeps one pool per database it connects to (multi-db: primary, queue, cache, cable).
    const pools = prodPools.map((p) => num(effective(p, env)) ?? 5);
    const pool = pools.reduce((a, b) => a + b, 0);
    const dbs = pools.length;
    const needed = Math.max(1, workers) * pool * (answers.app_hosts || 1);
    const limit = Number(maxConn.s.value) - Number(reserved ? reserved.s.value : 3);
    if (workers !== null && needed > limit) {
      out.push({
        rule: 'inconsistent', severity: 'error', file: maxConn.f.path, line: maxConn.s.line, setting: 'max_connections', found: maxConn.s.value, expected: String(needed + Number(reserved ? reserved.s.value : 3)),
        message: `${Math.max(1, workers)} Puma worker(s) × ${dbs > 1 ? `pools ${pools.join(' + ')}` : `pool ${pool}`} × ${answers.app_hosts || 1} app host(s) may open ${needed} connections, more than the ${limit} max_connections leaves for applications. Set max_connections to at least ${needed + Number(reserved ? reserved.s.value : 3)} (those connections + superuser_reserved_connections), or put PgBouncer in front`,
        evidence: [SRC.pgConnection, SRC.railsPool], related: [{ file: yml.path, line: prodPools[0].line }],
      });
    }
  }

  // 4. The memory budget, when the reader told us how much RAM the host has.
  const shared = lastSetting(pg, 'shared_buffers');
  if (puma && shared && answers.__ramGiven && answers.db_host === 'same') {
    const w = puma.settings.find((s) => s.name === 'workers' && !s.conditional);
    const workers = Math.max(1, w ? num(effective(w.args?.[0], env)) ?? (answers.__given?.includes('cores') ? answers.cores : 1) : 1);
    const sharedMb = Math.round((pgMemoryKb('shared_buffers', shared.s.value) || 0) / 1024);
    // The engine's memory model (capabilities/memory.mjs): with preload_app! the master holds one copy of the app
    // (≈512 MB, Puma's estimate) and each worker adds its private share of it; without it every worker is a copy.
    const preload = workers > 1 && puma.settings.some((s) => s.name === 'preload_app!');
    const pct = preload ? Math.round(FORK_MEMORY.privateShare * 100) : 100;
    const each = Math.round((512 * pct) / 100);
    const need = (preload ? 512 : 0) + workers * each + sharedMb;
    if (need > answers.ram_gb * 1024) {
      const app = preload ? `512 MB copy of the app in the preloading master + ${workers} × ${each} MB Puma worker(s)` : `${workers} × 512 MB Puma worker(s)`;
      const share = preload ? `; each worker ${pct} % × 512 MB = ${each} MB, what it writes after the fork` : '';
      out.push({
        rule: 'inconsistent', severity: 'warning', file: shared.f.path, line: shared.s.line, setting: 'shared_buffers', found: shared.s.value,
        message: `Estimated memory: ${app} + ${sharedMb} MB shared_buffers = ${need} MB (shared_buffers is ${shared.s.value}; 512 MB is Puma's estimate per copy of a Rails app), more than the ${answers.ram_gb} GB of RAM${share}`,
        evidence: [SRC.pumaDeploy, ...(preload ? [SRC.pumaPreload] : []), SRC.pgResource],
      });
    }
  }

  // 5. One setting, two values in files of the same kind: the later file wins, which is rarely intended.
  // Not env files: each process (web, jobs) may read its own.
  for (const kind of ['pgconf', 'sysctl', 'mycnf', 'pgbouncer']) {
    const seen = new Map();
    for (const f of of(kind)) {
      for (const s of f.settings) {
        const key = `${s.section || ''}\u0000${s.name}`;
        const prev = seen.get(key);
        if (prev && prev.f !== f && String(prev.s.value) !== String(s.value)) {
          out.push({
            rule: 'inconsistent', severity: 'warning', file: f.path, line: s.line, setting: s.name, found: String(s.value), expected: String(prev.s.value),
            message: `${s.name} is ${prev.s.value} in ${prev.f.path}:${prev.s.line} and ${s.value} here; only the one read last takes effect`,
            evidence: [], related: [{ file: prev.f.path, line: prev.s.line }],
          });
        }
        seen.set(key, { f, s });
      }
    }
  }
  return out;
}

function lastSetting(files, name) {
  let found = null;
  for (const f of files) for (const s of f.settings) if (s.name === name) found = { f, s };
  return found;
}
