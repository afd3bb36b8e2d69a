// How a version a finding names was learned. Read from Gemfile.lock (or given with --answers) it is a fact;
// otherwise it is assumed, and the finding says so and from what: the lower bound of the Gemfile's requirement,
// config.load_defaults (Rails is at least that version), or the wizard's default when nothing names it.
const LOCKS = /(^|\/)(Gemfile\.lock|gems\.locked)$/;

/** → {value, text: "Puma 6.0 (assumed: …)", assumed, from: 'file'|'given'|'gemfile'|'default'} */
export function versionOf(answers, key, label) {
  const value = answers[key];
  const p = answers.__provenance?.[key];
  if (!p) return { value, text: `${label} ${value} (assumed: the wizard's default; no file read names the version)`, assumed: true, from: 'default' };
  if (p.from === 'given') return { value, text: `${label} ${value}`, assumed: false, from: 'given' };
  // Read from a file that states it (Gemfile.lock, a versioned path): a fact. Detect marks what it only inferred.
  if (!p.assumed) return { value, text: `${label} ${value}`, assumed: false, from: LOCKS.test(p.file || '') ? 'lock' : 'file' };
  return { value, text: `${label} ${value} (assumed: ${p.assumed} at ${p.file}:${p.line}; no Gemfile.lock gives the version)`, assumed: true, from: 'gemfile' };
}

/**
 * A gem as Gemfile.lock locks it, whatever its group: {name, value, file, line, devOnly, groups, at} or null. `devOnly`:
 * every `gem` line of it in the Gemfile sits in development/test groups (production's bundle leaves it out); `at` is
 * the first of those lines. The version of a config file's program when only development runs it (puma.rb for
 * `rails server`) is still this one.
 */
export function lockedGem(files, name) {
  const lock = files.find((f) => f.kind === 'gemfile-lock' && !f.problem);
  const g = lock?.settings.find((s) => s.name === name);
  if (!g) return null;
  const gemfile = files.find((f) => f.kind === 'gemfile' && !f.problem);
  const decl = gemfile?.settings.filter((s) => s.name === name) || [];
  const devOnly = decl.length > 0 && decl.every((s) => s.devOnly);
  return { name, value: g.value, file: lock.path, line: g.line, devOnly, groups: [...new Set(decl.flatMap((s) => s.groups || []))], at: decl[0] ? { file: gemfile.path, line: decl[0].line } : null };
}
