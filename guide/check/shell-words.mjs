// Words of a process command (Procfile line, Dockerfile CMD, Kamal cmd) as the shell would expand them, without
// running anything: `$VAR`, `${VAR}` and `${VAR:-default}` are that variable, with its value when the files set it
// for the process, else its default, else unknown.

/**
 * shellValue('$RAILS_MAX_THREADS', env, procEnv) → {value, env} or null (not a variable reference).
 * env: Map name → {value} (the app's environment from the files); procEnv: the line's own VAR=value prefix.
 * `env` in the result names the variable while nothing sets it (its value is then the default, or null).
 */
export function shellValue(word, env = new Map(), procEnv = {}) {
  const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(String(word).replace(/^["']|["']$/g, ''));
  if (!m) return null;
  const name = m[1] || m[3];
  const set = procEnv[name] ?? env.get(name)?.value;
  if (set !== undefined && set !== null && set !== '') return { value: toNumber(set), env: null, name };
  return { value: m[2] !== undefined && m[2] !== '' ? toNumber(m[2]) : null, env: name, name };
}

/** A literal word or a variable reference → {value, env} (value null when unknown). */
export function wordValue(word, env, procEnv) {
  return shellValue(word, env, procEnv) || { value: toNumber(word), env: null };
}

const toNumber = (v) => (/^\d+$/.test(String(v).trim()) ? Number(v) : null);

/** A command as words: Docker's exec form (a JSON array) or a shell line split on blanks (quotes dropped). */
export function commandWords(cmd) {
  const t = String(cmd).trim();
  if (t.startsWith('[')) { try { const a = JSON.parse(t); if (Array.isArray(a)) return a.map(String).flatMap((w) => w.split(/\s+/)); } catch { /* shell form */ } }
  return t.split(/\s+/).map((w) => w.replace(/^["']|["']$/g, ''));
}

/** The value of a command option (`-t 5:10`, `--threads=5:10`, `--threads 5:10`) or null. */
export function optionValue(words, short, long) {
  for (let k = 0; k < words.length; k++) {
    const eq = long && words[k].startsWith(`${long}=`) ? words[k].slice(long.length + 1) : null;
    if (eq !== null) return eq;
    if ((words[k] === short || words[k] === long) && words[k + 1] !== undefined) return words[k + 1];
  }
  return null;
}
