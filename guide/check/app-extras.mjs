// Files of an app root that its own tree names but the fixed list of collect.mjs does not hold:
// - systemd units the app ships for its hosts (mushroom-observer's config/etc/puma.service and solidqueue.service),
//   read as if they were given on the command line, so that solid-queue-twice.mjs sees them on a plain app-folder run;
// - shell scripts the app's start files run (prison-visits-2's Dockerfile `ENTRYPOINT ["./run.sh"]`, a Procfile
//   `web: bin/start`), whose server command line is what starts Puma. Read as text, never executed.
// Both are bounded (LIMITS.appUnits, LIMITS.startScripts) and go through collect()'s own size, count and link checks.
import { commandWords } from './shell-words.mjs';

// Folders where apps keep the units they install (found in the trial apps and the corpus: config/etc, deploy, …).
export const UNIT_DIRS = ['config/etc', 'config/systemd', 'config/deploy/systemd', 'deploy', 'deploy/systemd', 'systemd'];

/** Unit file paths (*.service) in UNIT_DIRS, sorted, at most `max`. list(dir) → names. */
export function appUnitPaths(list, max) {
  return UNIT_DIRS.flatMap((d) => list(d).filter((n) => n.endsWith('.service')).sort().map((n) => `${d}/${n}`)).slice(0, max);
}

const SHELLS = /^(\/usr)?(\/bin\/)?(ba|da)?sh$/;

/**
 * The script a start command runs, as a path inside the app, or null: `./run.sh`, `bin/start`, `sh scripts/web.sh`.
 * Leading VAR=value words and `exec` are skipped; `sh -c '…'` (a command, not a file), absolute paths, paths that
 * climb out and words with variables or globs are not followed.
 */
export function scriptOf(cmd) {
  const words = commandWords(cmd).filter(Boolean);
  let k = 0;
  while (k < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k]) || words[k] === 'exec')) k++;
  if (SHELLS.test(words[k] ?? '')) { k++; if ((words[k] ?? '').startsWith('-')) return null; }
  const w = words[k];
  if (!w || w.startsWith('/') || w.split('/').includes('..') || /[$`*?[\]{}]/.test(w)) return null;
  const rel = w.replace(/^(\.\/)+/, '');
  // A bare word is a program on PATH (bundle, rails, puma), not a file of the app.
  return rel && (rel !== w || rel.includes('/') || rel.endsWith('.sh')) ? rel : null;
}

/** Start scripts named by the web line of a Procfile and the Dockerfile's final CMD/ENTRYPOINT (read deploy files). */
export function startScriptPaths(deploy, max) {
  const cmds = [];
  for (const f of deploy) {
    if (f.kind === 'procfile') cmds.push(...f.settings.filter((s) => s.name === 'web').map((s) => s.value));
    if (f.kind === 'dockerfile' && f.path.split('/').pop() === 'Dockerfile') cmds.push(...f.settings.filter((s) => (s.op === 'CMD' || s.op === 'ENTRYPOINT') && s.runtime).map((s) => s.value));
  }
  return [...new Set(cmds.map(scriptOf).filter(Boolean))].slice(0, max);
}

const RUNS_SERVER = /(^|[\s/])(puma|rails\s+(server|s))(\s|$)/;

/**
 * A start script → settings [{name: 'server', value, line}]: its lines that start Puma (`puma …`, `rails server`),
 * continuation lines joined, comments dropped. Only a shell script is read (a `#!…sh` line, or none and a .sh name);
 * a Ruby binstub or anything else gives no settings. Nothing else in the script is taken.
 */
export function readStartScript(src, path = '') {
  const lines = String(src).split('\n');
  const bang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(lines[0] || '');
  const shell = bang ? SHELLS.test(bang[1].replace(/^.*\/(?=[^/]+$)/, '/bin/')) || (/env$/.test(bang[1]) && SHELLS.test(bang[2] || '')) : /\.sh$/.test(path);
  if (!shell) return { settings: [], notes: [] };
  const settings = [];
  for (let k = 0; k < lines.length; k++) {
    const line = k + 1;
    let text = lines[k];
    while (/\\$/.test(text) && k + 1 < lines.length) text = text.slice(0, -1) + ' ' + lines[++k];
    const code = text.replace(/(^|\s)#.*$/, '').trim();
    if (code && RUNS_SERVER.test(code)) settings.push({ name: 'server', value: code, line });
  }
  return { settings, notes: [] };
}
