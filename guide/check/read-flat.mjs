// Readers for flat key/value files: postgresql.conf, INI (pgbouncer.ini, my.cnf, systemd units),
// sysctl.d and environment files. Each returns {settings: [{name, value, line, section}], notes}.

// Every pattern here runs in linear time on one line: a value is cut at its first " #" with indexOf, not with
// /\s+#.*$/, which backtracks over every run of blanks (quadratic: 64 KB of spaces took 15 s).
export function cutComment(v) {
  for (let k = v.indexOf('#'); k > 0; k = v.indexOf('#', k + 1)) if (/\s/.test(v[k - 1])) return v.slice(0, k).trimEnd();
  return v;
}

const unquote = (v) => {
  const s = v.trim();
  if (s.length >= 2 && (s[0] === "'" || s[0] === '"') && s[s.length - 1] === s[0]) return s.slice(1, -1).replace(/''/g, "'");
  return s;
};

/** postgresql.conf: `name = value` or `name value`, # comments, names case-insensitive. */
export function readPgConf(src) {
  const settings = [];
  const notes = [];
  src.split('\n').forEach((raw, k) => {
    const l = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!l) return;
    const m = /^([A-Za-z_][\w.]*)\s*(?:=\s*|\s+)(.*)$/.exec(l);
    if (!m) { notes.push({ line: k + 1, message: `cannot read "${l.slice(0, 60)}"` }); return; }
    const name = m[1].toLowerCase();
    if (name === 'include' || name === 'include_dir' || name === 'include_if_exists') notes.push({ line: k + 1, message: `${name} ${m[2]} is not followed; pass those files as PATHs to check them` });
    settings.push({ name, value: unquote(cutComment(m[2])), line: k + 1 });
  });
  return { settings, notes };
}

/** INI: [section], key = value, # and ; comments. systemd: Key=Value (case kept); others lower-cased. */
export function readIni(src, { caseSensitive = false } = {}) {
  const settings = [];
  let section = '';
  src.split('\n').forEach((raw, k) => {
    const l = raw.trim();
    if (!l || l.startsWith('#') || l.startsWith(';')) return;
    const sec = /^\[([^\]]+)\]$/.exec(l);
    if (sec) { section = sec[1].trim(); return; }
    const eq = l.indexOf('=');
    const name = (eq > 0 ? l.slice(0, eq) : l).trim();
    settings.push({ name: caseSensitive ? name : name.toLowerCase(), value: eq > 0 ? unquote(l.slice(eq + 1)) : true, line: k + 1, section, ctx: section });
  });
  return { settings, notes: [] };
}

/** sysctl.conf: key = value; a/b/c and a.b.c are the same key. */
export function readSysctl(src) {
  const settings = [];
  src.split('\n').forEach((raw, k) => {
    const l = raw.trim();
    if (!l || l.startsWith('#') || l.startsWith(';')) return;
    const m = /^-?\s*([\w./-]+)\s*=\s*(.*)$/.exec(l);
    if (m) settings.push({ name: m[1].replace(/\//g, '.'), value: m[2].trim().replace(/\s+/g, ' '), line: k + 1 });
  });
  return { settings, notes: [] };
}

/** KEY=value environment files (systemd EnvironmentFile, .env, dotenv); `export` allowed. */
export function readEnv(src) {
  const settings = [];
  src.split('\n').forEach((raw, k) => {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(raw);
    if (m) settings.push({ name: m[1], value: unquote(cutComment(m[2])), line: k + 1 });
  });
  return { settings, notes: [] };
}
