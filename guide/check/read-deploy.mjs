// The deployment around the app: Procfile (one process type a line), Dockerfile (ENV, ARG, CMD), Compose
// services (through read-yaml.mjs, as sidekiq.yml, queue.yml and Kamal's deploy.yml) and the rake tasks an app
// defines. Nothing is run: commands are kept as text.
import { LIMITS } from './limits.mjs';
import { readYaml } from './read-yaml.mjs';
import { readRuby } from './read-ruby.mjs';
import { commandWords } from './shell-words.mjs';

/** Procfile → settings [{name: process type, value: command, line}] */
export function readProcfile(src) {
  const settings = [];
  src.split('\n').slice(0, LIMITS.files * 10).forEach((l, k) => {
    const m = /^([A-Za-z0-9_-]+)\s*:\s*(.+?)\s*$/.exec(l);
    if (m && !l.trimStart().startsWith('#')) settings.push({ name: m[1], value: m[2], text: m[2], line: k + 1 });
  });
  return { settings, notes: [] };
}

/**
 * Dockerfile → settings [{name: ENV/ARG variable or CMD/ENTRYPOINT/FROM, value, line, runtime}]; continuation
 * lines joined. Only the final stage is the running container (Docker: multi-stage builds), with the ENV of
 * the stages it is built FROM (`FROM base` names an earlier `AS base`): `runtime` is false for the rest.
 * `ENV X=$Y`/`${Y}`/`${Y:-d}` takes an ARG's default of the same stage chain.
 */
export function readDockerfile(src) {
  const settings = [];
  const stages = []; // {name, from, settings}
  const lines = src.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const start = k;
    let l = lines[k];
    while (/\\\s*$/.test(l) && k + 1 < lines.length) l = l.replace(/\\\s*$/, ' ') + lines[++k];
    const m = /^\s*(ENV|ARG|CMD|ENTRYPOINT|FROM|COPY)\s+(.+?)\s*$/i.exec(l);
    if (!m) continue;
    const op = m[1].toUpperCase();
    if (op === 'COPY') {
      // `COPY [--chown=…] SRC DEST` from the build context (not `--from=stage`): kept apart from the settings.
      const words = m[2].split(/\s+/).filter((w) => !w.startsWith('--'));
      if (!/--from[= ]/i.test(m[2]) && words.length === 2 && stages.length) stages[stages.length - 1].copies.push({ src: words[0], dest: words[1], line: start + 1 });
      continue;
    }
    if (op === 'FROM') {
      const f = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(m[2]);
      stages.push({ name: f?.[2]?.toLowerCase() || null, from: f?.[1]?.toLowerCase() || '', settings: [], copies: [] });
    }
    const stage = stages[stages.length - 1];
    const add = (s) => { settings.push(s); stage?.settings.push(s); };
    if (op === 'ENV' || op === 'ARG') {
      const pairs = [...m[2].matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|\S*)/g)];
      if (pairs.length) for (const p of pairs) add({ name: p[1], value: p[2].replace(/^["']|["']$/g, ''), op, line: start + 1 });
      else { const kv = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+(.*))?$/.exec(m[2]); if (kv) add({ name: kv[1], value: kv[2] ?? null, op, line: start + 1 }); }
    } else add({ name: op, value: m[2], op, line: start + 1 });
  }
  // The final stage and the earlier stages it is built from, oldest first.
  const chain = [];
  for (let st = stages[stages.length - 1]; st && !chain.includes(st);) {
    chain.unshift(st);
    const from = st.from;
    st = stages.slice(0, stages.indexOf(st)).reverse().find((x) => x.name && x.name === from);
  }
  const live = new Set(chain.flatMap((st) => st.settings));
  const finalStage = stages.length ? stages[stages.length - 1].name : null;
  const args = new Map();
  for (const s of settings) {
    s.runtime = stages.length === 0 || live.has(s);
    if (!s.runtime) continue;
    if (s.op === 'ARG' && s.value !== null) args.set(s.name, s.value);
    if (s.op === 'ENV' && typeof s.value === 'string') {
      const ref = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}?$/.exec(s.value);
      if (ref) s.value = args.has(ref[1]) ? args.get(ref[1]) : ref[2] ?? null;
    }
  }
  // Files the final stage's chain copies from the build context: [{src, dest, line}] (collect.mjs follows the one that
  // becomes config/database.yml; deploy.mjs reads its header).
  const copies = chain.flatMap((st) => st.copies);
  return { settings, notes: [], finalStage, copies };
}

// Compose's `${VAR:-default}` / `${VAR-default}`: the default (Compose substitutes it when VAR is unset); `${VAR}`
// alone is unknown (null), and so is `$VAR`, its form without braces (Compose interpolates both the same way; the
// eighth blind trial found it read as the literal text "$VAR"). Anything else is the literal value.
const composeValue = (v) => {
  if (v === null || v === undefined) return null;
  const t = String(v).trim();
  if (/^\$[A-Za-z_][A-Za-z0-9_]*$/.test(t)) return null;
  const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}$/.exec(t);
  return m ? (m[2] ?? null) : String(v);
};
const DEV_ENV = /^(development|test)$/;

/**
 * docker-compose.yml / compose.yaml → the YAML settings plus `services`: [{name, line, command: {value, line}|null,
 * env: Map name → {value, line, shell?}, production, build?, target?}] (`shell`: the variable a `$X` value takes from
 * the shell that runs Compose). A service whose RAILS_ENV/RACK_ENV is development or test is not
 * production's (`production: false`): its command and environment are left out of the checks; one that sets neither
 * is `production: null` until resolveCompose() looks at the image.
 */
export function readCompose(src, path) {
  const r = readYaml(src, path);
  const byName = new Map();
  for (const s of r.settings) {
    if (s.path?.[0] !== 'services' || s.path.length < 3) continue;
    const name = s.path[1];
    if (!byName.has(name)) byName.set(name, { name, line: s.line, command: null, commandParts: [], env: new Map(), production: true });
    const svc = byName.get(name);
    svc.line = Math.min(svc.line, s.line);
    const field = s.path[2];
    if (field === 'command' || field === 'entrypoint') {
      if (s.path.length === 3 && typeof s.value === 'string') svc[field === 'command' ? 'command' : 'entrypoint'] = { value: s.value, line: s.line };
      else if (s.path.length === 4 && field === 'command') svc.commandParts.push({ value: String(s.value ?? ''), line: s.line });
    }
    // Published ports (`ports: ["3000:3000"]`) and a build from the app's own Dockerfile: absent.mjs reachedByTcp.
    if (field === 'ports') svc.ports = true;
    if (field === 'build') svc.build = true;
    if (field === 'build' && s.path[3] === 'target' && typeof s.value === 'string') svc.target = { value: s.value, line: s.line };
    if (field === 'environment' && s.path.length === 4) {
      const kv = /^\d+$/.test(s.path[3]) ? /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(String(s.value ?? '')) : [null, s.path[3], s.value];
      // `$X` / `${X}` with no default: the value of the shell that runs Compose (or its .env), empty when unset.
      const shell = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(String(kv?.[2] ?? '').trim());
      if (kv) svc.env.set(kv[1], { value: composeValue(kv[2]), line: s.line, ...(shell ? { shell: shell[1] || shell[2] } : {}) });
    }
  }
  const services = [...byName.values()].map((svc) => {
    if (!svc.command && svc.commandParts.length) svc.command = { value: JSON.stringify(svc.commandParts.map((x) => x.value)), line: svc.commandParts[0].line };
    delete svc.commandParts;
    const rails = svc.env.get('RAILS_ENV')?.value ?? svc.env.get('RACK_ENV')?.value;
    // Unset here: the image decides (resolveCompose); Rails' own default is development.
    svc.production = rails === undefined || rails === null ? null : !DEV_ENV.test(String(rails).trim());
    return svc;
  });
  return { ...r, services };
}

/**
 * A Compose service that sets no RAILS_ENV runs with the image's: production when the Dockerfile's final stage sets
 * RAILS_ENV (or RACK_ENV) to anything but development or test, else not (Rails defaults to development). In place.
 */
export function resolveCompose(files) {
  const docker = files.find((f) => f.kind === 'dockerfile' && !f.problem && String(f.path).split('/').pop() === 'Dockerfile');
  const envs = (docker?.settings || []).filter((s) => s.op === 'ENV' && s.runtime && s.value !== null);
  const image = envs.findLast((s) => s.name === 'RAILS_ENV') || envs.findLast((s) => s.name === 'RACK_ENV');
  const production = Boolean(image && !DEV_ENV.test(String(image.value).trim()));
  for (const f of files) if (f.kind === 'compose' && !f.problem) for (const svc of f.services || []) if (svc.production === null) svc.production = production;
  return files;
}

/**
 * lib/tasks/*.rake, Rakefile → the tasks they define: settings [{name: 'task', value: 'jobs:work', line}], each name
 * prefixed by the namespace block around it. `dynamic` when a task's name is not a literal (a loop, a variable):
 * then any task may exist and nothing is claimed missing.
 */
export function readRake(src) {
  const r = readRuby(src);
  const settings = [];
  let dynamic = false;
  const literal = (t) => /^\s*(?::(\w+)|["']([\w:]+)["'])\s*$/.exec(t || '');
  for (const c of r.calls) {
    if (c.name !== 'task' || c.receiver) continue;
    const head = String(c.args[0]?.text || '');
    // task :work, task "a:b", task work: :environment, task :work => [...], task "a:b" => :env
    const m = literal(head) || literal(head.split('=>')[0]) || /^\s*(\w+):\s/.exec(head) || /^\s*["']([\w:]+)["']:\s/.exec(head);
    const name = m ? (m[1] || m[2]) : null;
    if (!name) { dynamic = true; continue; }
    const ns = c.inBlock === 'namespace' ? literal(String(c.blockArgs || '').split(',')[0])?.slice(1).find(Boolean) : null;
    if (c.inBlock && c.inBlock !== 'namespace') { dynamic = true; continue; }
    settings.push({ name: 'task', value: ns ? `${ns}:${name}` : name, line: c.line, nested: Boolean(ns) });
  }
  return { settings, notes: r.notes, dynamic };
}

/**
 * The Puma config files the deployment's web command names with `-C FILE`/`--config FILE`: the Procfile's web line,
 * the Dockerfile's final-stage CMD/ENTRYPOINT, Kamal's cmd and production Compose services' command. → [{path, file, line}], paths relative to the app
 * root (a leading ./ dropped); absolute paths and paths that climb out (..) are not followed.
 */
export function serverConfigPaths(files) {
  const cmds = deployCommands(files).filter((c) => c.from !== 'procfile' || c.role === 'web');
  const out = [];
  for (const c of cmds) {
    const words = commandWords(c.cmd);
    if (!words.some((w) => /(^|\/)puma$/.test(w))) continue;
    for (let k = 0; k < words.length; k++) {
      const m = /^--config=(.+)$/.exec(words[k]);
      const p = m ? m[1] : (words[k] === '-C' || words[k] === '--config') ? words[k + 1] : null;
      if (!p) continue;
      const rel = p.replace(/^(\.\/)+/, '');
      if (!rel || rel.startsWith('/') || rel.split('/').includes('..') || /[$`*?]/.test(rel)) continue;
      if (!out.some((x) => x.path === rel)) out.push({ path: rel, file: c.file, line: c.line });
    }
  }
  return out;
}

/**
 * Every command the deployment runs: Procfile lines (role = process type), the Dockerfile's final-stage CMD and
 * ENTRYPOINT, Kamal's `servers.ROLE.cmd` and production Compose services' `command`. → [{cmd, file, line, role, from}]
 */
export function deployCommands(files) {
  const cmds = [];
  for (const f of files.filter((x) => !x.problem)) {
    if (f.kind === 'procfile') for (const s of f.settings) cmds.push({ cmd: s.value, file: f.path, line: s.line, role: s.name, from: 'procfile' });
    if (f.kind === 'dockerfile') for (const s of f.settings) if ((s.op === 'CMD' || s.op === 'ENTRYPOINT') && s.runtime) cmds.push({ cmd: s.value, file: f.path, line: s.line, role: s.op, from: 'dockerfile' });
    if (f.kind === 'kamal') for (const s of f.settings) if (s.key === 'cmd' && typeof s.value === 'string') cmds.push({ cmd: s.value, file: f.path, line: s.line, role: s.path?.[1] || 'web', from: 'kamal' });
    if (f.kind === 'compose') for (const svc of f.services || []) if (svc.production === true && svc.command) cmds.push({ cmd: svc.command.value, file: f.path, line: svc.command.line, role: svc.name, from: 'compose' });
  }
  return cmds;
}
