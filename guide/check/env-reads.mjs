// Which environment variables the app's own files read, and on which line: Ruby configs (`ENV["X"]`,
// `ENV.fetch("X")`, `ENV.key?("X")`), the ERB of its YAML files (database.yml, sidekiq.yml, queue.yml) and the
// Procfile's `$X`/`${X}`. An environment file's "missing" note rests on this (compare.mjs): a variable the wizard's
// own env file sets is worth setting in the app's only where the app's files read it (the sixth blind trial:
// planningalerts' database.yml takes its password from credentials and its pool is a literal 10, yet
// DATABASE_PASSWORD, JOBS_STATEMENT_TIMEOUT and RAILS_MAX_THREADS were "missing" because the wizard's
// database.yml reads them). Nothing is evaluated; comment lines and YAML lines only development or test
// read do not count. One pass per line, no pattern that backtracks over a line.
import { devOnlyLines } from './note-scope.mjs';
import { RUBY_KINDS } from './read.mjs';

const YAML_KINDS = new Set(['database-yml', 'sidekiq-yml', 'queue-yml']);
// `ENV[` or `ENV.fetch(` / `ENV.key?(` … then a quoted name.
const READ = /\bENV\s*(?:\[\s*|\.(?:fetch|key\?|has_key\?|include\?)\s*\(?\s*)(["'])([A-Za-z_][A-Za-z0-9_]*)\1/g;
const SHELL_READ = /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g;
const CODE_CHARS = 120;

/** Where a `#` comment starts on a line (outside quotes), or the line's length. */
function commentStart(line) {
  let quote = null;
  for (let k = 0; k < line.length; k++) {
    const c = line[k];
    if (quote) {
      if (c === '\\') k++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (k === 0 || /\s/.test(line[k - 1]))) return k;
  }
  return line.length;
}

/**
 * The literal a read falls back to when the variable is unset: `ENV.fetch("X") { 5 }`, `ENV.fetch("X", 5)`,
 * `ENV["X"] || 5` → '5'; undefined when the read names none (`ENV.fetch("X")` without one raises KeyError).
 */
function fallbackOf(rest) {
  const s = rest.slice(0, CODE_CHARS);
  const m = /^\s*\)?\s*\{\s*([^{}]*?)\s*\}/.exec(s) || /^\s*,\s*([^,()]*?)\s*\)/.exec(s) || /^\s*\]\s*\|\|\s*([\w."'-]+)/.exec(s);
  if (!m) return undefined;
  const v = m[1].trim();
  if (/^-?\d+(\.\d+)?$/.test(v)) return v;
  const q = /^(["'])(.*)\1$/.exec(v);
  return q ? q[2] : undefined;
}

const shown = (line) => {
  const t = line.trim();
  return t.length > CODE_CHARS ? `${t.slice(0, CODE_CHARS)}…` : t;
};

/** The Ruby/ERB reads of one file: [{name, file, line, code, fallback}]. */
function rubyReads(f) {
  const out = [];
  const skip = YAML_KINDS.has(f.kind) ? devOnlyLines(f) : () => false;
  let embdoc = false;
  String(f.text).split('\n').forEach((raw, k) => {
    if (RUBY_KINDS.has(f.kind)) {
      // =begin … =end: Ruby's embedded document, a comment.
      if (/^=begin\b/.test(raw)) embdoc = true;
      if (embdoc) { if (/^=end\b/.test(raw)) embdoc = false; return; }
    }
    if (!raw.includes('ENV') || skip(k + 1)) return;
    const line = raw.slice(0, commentStart(raw));
    for (const m of line.matchAll(READ)) {
      out.push({ name: m[2], file: f.path, line: k + 1, code: shown(raw), fallback: fallbackOf(line.slice(m.index + m[0].length)) });
    }
  });
  return out;
}

/** The Procfile's reads: `$X` and `${X…}` in a process's command (the shell expands them when it starts). */
function procfileReads(f) {
  const out = [];
  for (const s of f.settings) {
    for (const m of String(s.value ?? '').matchAll(SHELL_READ)) out.push({ name: m[1], file: f.path, line: s.line, code: shown(`${s.name}: ${s.value}`) });
  }
  return out;
}

/** appEnvReads(files) → Map variable → [{file, line, code, fallback}], in file order. */
export function appEnvReads(files) {
  const map = new Map();
  for (const f of files) {
    if (f.problem || typeof f.text !== 'string') continue;
    const reads = RUBY_KINDS.has(f.kind) || YAML_KINDS.has(f.kind) ? rubyReads(f) : f.kind === 'procfile' ? procfileReads(f) : [];
    for (const r of reads) {
      if (!map.has(r.name)) map.set(r.name, []);
      map.get(r.name).push(r);
    }
  }
  return map;
}
