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

/** Dockerfile → settings [{name: ENV/ARG variable or CMD/ENTRYPOINT/FROM, value, line}]; continuation lines joined. */
export function readDockerfile(src) {
  const settings = [];
  const lines = src.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const start = k;
    let l = lines[k];
    while (/\\\s*$/.test(l) && k + 1 < lines.length) l = l.replace(/\\\s*$/, ' ') + lines[++k];
    const m = /^\s*(ENV|ARG|CMD|ENTRYPOINT|FROM)\s+(.+?)\s*$/i.exec(l);
    if (!m) continue;
    const op = m[1].toUpperCase();
    if (op === 'ENV' || op === 'ARG') {
      const pairs = [...m[2].matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|\S*)/g)];
      if (pairs.length) for (const p of pairs) settings.push({ name: p[1], value: p[2].replace(/^["']|["']$/g, ''), op, line: start + 1 });
      else { const kv = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+(.*))?$/.exec(m[2]); if (kv) settings.push({ name: kv[1], value: kv[2] ?? null, op, line: start + 1 }); }
    } else settings.push({ name: op, value: m[2], op, line: start + 1 });
  }
  return { settings, notes: [] };
}
