// "cannot read" and unevaluated-ERB notes of database.yml only where production reads the line: a value the doctor cannot read in the
// development: or test: section (not merged into production through an anchor) changes nothing it judges.
const DEV_SECTIONS = /^(development|test)$/;

/**
 * A YAML file's lines that only development or test read: line → true inside a top-level development:/test:
 * section, unless production takes that line through a merged anchor (its settings carry their source line).
 */
export function devOnlyLines(file) {
  // Top-level sections and their line ranges (a key at column 0 opens one; sidekiq.yml writes `:key:`).
  const sections = [];
  String(file.text ?? '').split('\n').forEach((l, k) => {
    const m = /^:?([A-Za-z_][\w-]*)\s*:/.exec(l);
    if (m) sections.push({ name: m[1], from: k + 1 });
  });
  const prodLines = new Set((file.settings || []).filter((s) => s.path?.[0] === 'production').map((s) => s.line));
  // Sections are in line order: the last one opened at or before the line (binary search keeps many keys linear).
  const sectionOf = (line) => {
    let lo = 0;
    let hi = sections.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sections[mid].from <= line) { at = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return at >= 0 ? sections[at].name : undefined;
  };
  return (line) => DEV_SECTIONS.test(sectionOf(line) ?? '') && !prodLines.has(line);
}

/** The notes of a read file that concern production: database.yml's development/test-only lines dropped. */
export function productionNotes(file) {
  if (file.kind !== 'database-yml' || !file.notes?.length || typeof file.text !== 'string') return file.notes || [];
  const devOnly = devOnlyLines(file);
  return file.notes.filter((n) => !(n.line && /^(cannot read|ERB )/.test(n.message) && devOnly(n.line)));
}
