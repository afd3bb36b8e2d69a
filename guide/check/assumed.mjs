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
