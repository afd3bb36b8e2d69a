// Prose indirection. Engine code refers to texts by id; the catalog (catalog.mjs in Node, or the same object
// fetched as JSON by the page, which keeps the page's JavaScript small) supplies the words.
let catalog = {};
const compiled = new Map();
/** Ids asked for but absent from the installed catalog (tests assert it stays empty). */
export const missing = new Set();

export function setCatalog(c) {
  catalog = c && typeof c === 'object' ? c : {};
}

/** The installed catalog object (identity only: lets callers cache what they derived from it). */
export function catalogStamp() {
  return catalog;
}

/** Whether the installed catalog has text `id` (without counting it as asked for). */
export function hasText(id) {
  return typeof catalog[id] === 'string';
}

export function hasCatalog() {
  return Object.keys(catalog).length > 0;
}

/** Text `id` with {name} placeholders filled from vars. Unknown ids give '' (never throw in the page). */
export function t(id, vars) {
  const s = catalog[id];
  if (typeof s !== 'string') {
    missing.add(id);
    return '';
  }
  if (!vars) return s;
  // Texts are split at their {placeholders} once (the page generates on every answer change).
  let parts = compiled.get(s);
  if (!parts) { parts = s.split(/\{([A-Za-z_][A-Za-z0-9_]*)\}/); compiled.set(s, parts); }
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const k = parts[i];
    out += (Object.prototype.hasOwnProperty.call(vars, k) ? String(vars[k]) : `{${k}}`) + parts[i + 1];
  }
  return out;
}

/**
 * Catalog text `id` as lines (shell templates: catalog-shell.mjs): each {name} takes vars[name], and a line that is
 * only {name} of a list takes the list's lines (none for an empty list).
 */
export function lines(id, vars = {}) {
  const own = (k) => Object.prototype.hasOwnProperty.call(vars, k);
  const out = [];
  for (const line of t(id).split('\n')) {
    const list = /^\{(\w+)\}$/.exec(line);
    if (list && own(list[1]) && Array.isArray(vars[list[1]])) out.push(...vars[list[1]]);
    else out.push(line.replace(/\{([A-Za-z_]\w*)\}/g, (m, k) => (own(k) ? String(vars[k]) : m)));
  }
  return out;
}

/**
 * Capability table `id` ("cap.<id>" in the catalog). Large tables of version data (capabilities/*.mjs marked so)
 * travel with the words as JSON instead of in the page's JavaScript; the engine reads them only at generate time.
 */
export function cap(id) {
  const v = catalog[`cap.${id}`];
  if (!v || typeof v !== 'object') missing.add(`cap.${id}`);
  return v || [];
}
