// Gemfiles that evaluate other files: `eval_gemfile "gemfiles/common.rb"`, or foreman's
// `Dir["#{File.dirname(FOREMAN_GEMFILE)}/bundler.d/*.rb"].each { |f| instance_eval(Bundler.read_file(f)) }`. Bundler
// runs those files as part of the Gemfile, so their `gem` lines pin versions too (fifth blind trial: foreman's Puma
// is pinned `< 7` in bundler.d/service.rb). Nothing is run: the paths are read from the Gemfile's string literals
// (a leading `#{…}/` is the Gemfile's own folder), only inside the app, at most LIMITS.gemfileParts files.
import { LIMITS } from './limits.mjs';

const EVAL = /\b(instance_eval|eval_gemfile|eval)\b/;
// "bundler.d/*.rb", "#{File.dirname(__FILE__)}/gemfiles/common.rb", 'Gemfile.local'
const LITERAL = /["'](?:#\{[^}"']*\}\/)?((?:[\w.-]+\/)*(?:\*\.rb|\*\.gemfile|[\w.-]+\.rb|[\w.-]+\.gemfile|Gemfile\.[\w-]+))["']/g;

/** Does the Gemfile evaluate other files? → the line of the first such call, or 0. */
export function evalLine(text) {
  const lines = String(text || '').split('\n');
  const k = lines.findIndex((l) => !/^\s*#/.test(l) && EVAL.test(l));
  return k + 1;
}

/**
 * The paths (relative to the app root) a Gemfile's eval names, as patterns: [{dir, glob: '*.rb'|null, name}].
 * Paths that climb out (..), absolute ones and other interpolations are not followed.
 */
export function partPatterns(text) {
  if (!evalLine(text)) return [];
  const out = [];
  // Line by line, lines of at most 500 characters: the pattern's work stays linear in the Gemfile's size.
  const lines = String(text).split('\n').filter((l) => l.length <= 500 && !/^\s*#/.test(l));
  for (const m of lines.flatMap((l) => [...l.matchAll(LITERAL)])) {
    const p = m[1];
    if (p.split('/').includes('..') || p.startsWith('/') || /\.lock(ed)?$/.test(p)) continue;
    const slash = p.lastIndexOf('/');
    const dir = slash < 0 ? '' : p.slice(0, slash);
    const base = p.slice(slash + 1);
    const pat = base.startsWith('*') ? { dir, glob: base.slice(1), name: null } : { dir, glob: null, name: base };
    if (!out.some((x) => x.dir === pat.dir && x.glob === pat.glob && x.name === pat.name)) out.push(pat);
  }
  return out;
}

/** The files a list of patterns names, given a folder listing function: sorted, at most `max`. */
export function partFiles(patterns, list, max = LIMITS.gemfileParts) {
  const out = [];
  for (const p of patterns) {
    const names = p.glob ? list(p.dir).filter((n) => n.endsWith(p.glob)).sort() : [p.name];
    for (const n of names) {
      const rel = p.dir ? `${p.dir}/${n}` : n;
      if (rel === 'Gemfile' || out.includes(rel)) continue;
      if (out.length >= max) return out;
      out.push(rel);
    }
  }
  return out;
}

/**
 * In place: the `gem` lines of the parts read (kind 'gemfile-part') join the Gemfile's settings, each with the
 * file it is in (`file`); a Gemfile whose evaluated files were not all read is marked `unfollowed` with the line
 * (a gem's version may be pinned there, so a version the files do not name is unknown, not the wizard's default).
 */
export function mergeGemfileParts(files) {
  const gemfile = files.find((f) => f.kind === 'gemfile' && !f.problem);
  if (!gemfile) return files;
  const parts = files.filter((f) => f.kind === 'gemfile-part' && !f.problem);
  for (const p of parts) for (const s of p.settings) gemfile.settings.push({ ...s, file: p.path });
  const at = evalLine(gemfile.text);
  if (at && !parts.length) gemfile.unfollowed = { line: at };
  return files;
}
