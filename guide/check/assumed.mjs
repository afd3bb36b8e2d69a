// How a version a finding names was learned. Read from Gemfile.lock (or given with --answers) it is a fact;
// otherwise it is assumed, and the finding says so and from what: the lower bound of the Gemfile's requirement,
// config.load_defaults (Rails is at least that version), or the wizard's default when nothing names it.
const LOCKS = /(^|\/)(Gemfile\.lock|gems\.locked)$/;

/** → {value, text: "Puma 6.0 (assumed: …)", assumed, from: 'lock'|'given'|'gemfile'|'default'} */
export function versionOf(answers, key, label) {
  const value = answers[key];
  const p = answers.__provenance?.[key];
  if (!p) return { value, text: `${label} ${value} (assumed: the wizard's default; no Gemfile.lock or file names the version)`, assumed: true, from: 'default' };
  if (p.from === 'given') return { value, text: `${label} ${value}`, assumed: false, from: 'given' };
  if (LOCKS.test(p.file || '')) return { value, text: `${label} ${value}`, assumed: false, from: 'lock' };
  return { value, text: `${label} ${value} (assumed: ${p.assumed || p.from} at ${p.file}:${p.line}; no Gemfile.lock gives the version)`, assumed: true, from: 'gemfile' };
}
