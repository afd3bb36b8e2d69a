// The deployment around the app: Procfile (one process type a line) and Dockerfile (ENV, ARG, CMD).
// sidekiq.yml, queue.yml and Kamal's deploy.yml are YAML and go through read-yaml.mjs.
// Nothing is run: commands are kept as text.
import { LIMITS } from './limits.mjs';

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
    const m = /^\s*(ENV|ARG|CMD|ENTRYPOINT|FROM)\s+(.+?)\s*$/i.exec(l);
    if (!m) continue;
    const op = m[1].toUpperCase();
    if (op === 'FROM') {
      const f = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(m[2]);
      stages.push({ name: f?.[2]?.toLowerCase() || null, from: f?.[1]?.toLowerCase() || '', settings: [] });
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
  return { settings, notes: [] };
}

/**
 * The Puma config files the deployment's web command names with `-C FILE`/`--config FILE`: the Procfile's web line,
 * the Dockerfile's final-stage CMD/ENTRYPOINT and Kamal's cmd. → [{path, file, line}], paths relative to the app
 * root (a leading ./ dropped); absolute paths and paths that climb out (..) are not followed.
 */
export function serverConfigPaths(files) {
  const cmds = [];
  for (const f of files.filter((x) => !x.problem)) {
    if (f.kind === 'procfile') for (const s of f.settings) if (s.name === 'web') cmds.push({ cmd: s.value, file: f.path, line: s.line });
    if (f.kind === 'dockerfile') for (const s of f.settings) if ((s.op === 'CMD' || s.op === 'ENTRYPOINT') && s.runtime) cmds.push({ cmd: s.value, file: f.path, line: s.line });
    if (f.kind === 'kamal') for (const s of f.settings) if (s.key === 'cmd' && typeof s.value === 'string') cmds.push({ cmd: s.value, file: f.path, line: s.line });
  }
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

// A command as words: Docker's exec form (a JSON array) or a shell line split on blanks (quotes dropped).
function commandWords(cmd) {
  const t = String(cmd).trim();
  if (t.startsWith('[')) { try { const a = JSON.parse(t); if (Array.isArray(a)) return a.map(String).flatMap((w) => w.split(/\s+/)); } catch { /* shell form */ } }
  return t.split(/\s+/).map((w) => w.replace(/^["']|["']$/g, ''));
}
