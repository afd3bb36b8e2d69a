// Prose indirection. Engine code refers to texts by id; the catalog (catalog.mjs in Node, or the same object
// fetched as JSON by the page, which keeps the page's JavaScript small) supplies the words.
let catalog = {};
/** Ids asked for but absent from the installed catalog (tests assert it stays empty). */
export const missing = new Set();

export function setCatalog(c) {
  catalog = c && typeof c === 'object' ? c : {};
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
  return vars ? s.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, k) => (Object.prototype.hasOwnProperty.call(vars, k) ? String(vars[k]) : m)) : s;
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
