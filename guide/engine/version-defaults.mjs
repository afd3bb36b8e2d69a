// Version answers per choice (capabilities/choice-versions.mjs): the default a version question takes for the chosen
// server, proxy, database and distribution release when the answers name none, and whether an answered version
// exists for that choice. Used by answers.mjs (page: note and default; CLI: exit 2) and derive.mjs.
import { CHOICE_VERSIONS, DISTRO_RELEASES, LIFECYCLE } from './caps.mjs';
import { firstSince } from './pick.mjs';

/** What the answered distribution release ships ({kernel, nginx, postgresql, …}), or null. */
export const shippedBy = (distro) => DISTRO_RELEASES.find?.((r) => new RegExp(r.match, 'i').test(distro || '')) || null;

/** The question whose answer picks the row of version question `key` ('server' for server_version), or undefined. */
export const choiceOf = (key) => CHOICE_VERSIONS[key]?.choice;

/** The capability row for version question `key` under answers `a` (null: no table, e.g. before the catalog loads). */
export function choiceRow(key, a) {
  const table = CHOICE_VERSIONS[key];
  if (!table) return null;
  return table.rows[table.choice ? a[table.choice] : 'linux'] || null;
}

/** The end-of-life date of `v` of lifecycle `kind` (capabilities/lifecycle.mjs) when it has passed by `date`, else null. */
export function eolPassed(kind, v, date) {
  const eol = firstSince(LIFECYCLE[kind] || [], v)?.eol;
  return eol && date > (eol.length === 7 ? `${eol}-31` : eol) ? eol : null;
}

/**
 * Default for version question `key`: what the release ships for this choice, else the choice's current series.
 * A shipped version past its end of life on `date` (ISO day; tests pin it) is no default where the row names its
 * lifecycle (row.lifecycle: a vendor repository step exists): the current series is, from that repository.
 */
export function choiceDefault(key, a, date = new Date().toISOString().slice(0, 10)) {
  const row = choiceRow(key, a);
  if (!row) return null;
  if (key === 'kernel' && a.os !== 'linux') return null;
  const shipped = row.distro && a.os === 'linux' && shippedBy(a.distro)?.[row.distro];
  return shipped && !eolPassed(row.lifecycle, shipped, date) ? shipped : row.current;
}

/** Null when `v` is a released series of the choice, else {label, v, known}: the words of the error. */
export function versionProblem(key, a, v) {
  const row = choiceRow(key, a);
  if (!row || !row.majors || (key === 'kernel' && a.os !== 'linux')) return null;
  const [maj, min] = String(v).split('.');
  const minors = row.minors?.[maj];
  const ok = row.majors.includes(String(Number(maj))) && (!minors || minors.includes(`${Number(maj)}.${Number(min ?? 0)}`));
  if (ok) return null;
  const known = row.majors.map((m) => (row.minors?.[m] ? row.minors[m].join(', ') : `${m}.x`)).join(', ');
  return { label: row.label, v: String(v), known, current: row.current };
}
