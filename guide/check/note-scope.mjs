// "cannot read" and unevaluated-ERB notes of database.yml only where production reads the line: a value the doctor cannot read in the
// development: or test: section (not merged into production through an anchor) changes nothing it judges.
const DEV_SECTIONS = /^(development|test)$/;

/** The notes of a read file that concern production: database.yml's development/test-only lines dropped. */
export function productionNotes(file) {
  if (file.kind !== 'database-yml' || !file.notes?.length || typeof file.text !== 'string') return file.notes || [];
  // Top-level sections and their line ranges (a key at column 0 opens one).
  const sections = [];
  file.text.split('\n').forEach((l, k) => {
    const m = /^([A-Za-z_][\w-]*)\s*:/.exec(l);
    if (m) sections.push({ name: m[1], from: k + 1 });
  });
  // Lines production takes from elsewhere (a merged anchor): its settings carry their source line.
  const prodLines = new Set(file.settings.filter((s) => s.path?.[0] === 'production').map((s) => s.line));
  const sectionOf = (line) => sections.filter((s) => s.from <= line).pop()?.name;
  return file.notes.filter((n) => !(n.line && /^(cannot read|ERB )/.test(n.message) && DEV_SECTIONS.test(sectionOf(n.line) ?? '') && !prodLines.has(n.line)));
}
