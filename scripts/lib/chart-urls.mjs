// URLs inside a chart spec. A spec comes from a pull request and is rendered by the build (Vega in Node)
// and drawn on the site, so a URL in it may only be a web link: http(s) or a path on this site. Vega
// would otherwise be handed "javascript:" links (its SVG renderer crashed on one with an uncaught
// TypeError) or read files and fetch addresses while building (`data.url`, a lookup's `from.data.url`,
// an image mark's `url`). The build binds the rows itself, so no spec ever needs to load anything.

// Properties whose value is a URL that a reader follows or the renderer loads (Vega-Lite v5: the `href`
// and `url` encoding channels, the mark properties of the same names, and config defaults for marks).
const URL_KEYS = new Set(['href', 'url']);

/** True for http(s) URLs and paths on this site ("/datasets/x/", "../x"); false for every other scheme. */
export function isSafeUrl(s) {
  if (typeof s !== 'string' || s.length > 2000 || /[\u0000-\u001f\u007f\\]/.test(s)) return false;
  if (/^https?:\/\/[^/?#\s]+/i.test(s)) return true;
  // Relative: no scheme before the first "/", "?" or "#", and not protocol-relative ("//host").
  return !s.startsWith('//') && !/^[^/?#]*:/.test(s);
}

const FIX = 'use an "http(s)://" address or a path on this site ("/datasets/…/"), given as {"value": "…"} or as a text column whose cells are such addresses';

/**
 * Problems with URL-valued properties of `spec`: [{ pointer (relative to the spec), message, fix }].
 * `columnValues(key)` returns a column's cells, or null when `key` is not a column.
 */
export function chartUrlProblems(spec, columnValues) {
  const problems = [];
  const add = (pointer, message, fix = FIX) => problems.push({ pointer, message, fix });
  const checkUrlValue = (node, ptr, key) => {
    if (typeof node === 'string') { if (!isSafeUrl(node)) add(ptr, `"${key}" is ${JSON.stringify(node.slice(0, 80))}, which is not an http(s) address or a path on this site`); return; }
    if (Array.isArray(node)) { node.forEach((n, i) => checkUrlValue(n, `${ptr}/${i}`, key)); return; }
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      const p = `${ptr}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      // Inside a channel only these give the URL ({"value"}, {"datum"}, {"field"}, conditions); "type", "title"… do not.
      if (k === 'expr' || k === 'signal') add(p, `"${key}" is computed by an expression, which cannot be checked before it runs`);
      else if (k === 'value' || k === 'datum' || k === 'condition') checkUrlValue(v, p, key);
      else if (k === 'field') {
        const cells = typeof v === 'string' ? columnValues(v) : null;
        if (!cells) add(p, `"${key}" takes its value from "${v}", which is not a column of this dataset (a transform's result cannot be checked)`);
        else {
          const bad = cells.findIndex((c) => c !== null && !isSafeUrl(c));
          if (bad >= 0) add(p, `"${key}" takes its value from column "${v}", whose row ${bad + 1} is ${JSON.stringify(String(cells[bad]).slice(0, 80))}, not an http(s) address or a path on this site`);
        }
      }
    }
  };
  const walk = (node, ptr) => {
    if (Array.isArray(node)) { node.forEach((n, i) => walk(n, `${ptr}/${i}`)); return; }
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      const p = `${ptr}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      // Anything that loads data (a lookup's `from.data`, a nested `data`): the build supplies the only data.
      if (k === 'data' && v && typeof v === 'object') add(p, 'a chart may not load data of its own (the build supplies the dataset\'s rows)', 'remove it; to combine datasets, put the values in this dataset\'s rows');
      else if (URL_KEYS.has(k)) checkUrlValue(v, p, k);
      else walk(v, p);
    }
  };
  walk(spec, '');
  return problems;
}

/**
 * A Vega loader for rendering untrusted specs: it loads nothing (no file, no network) and turns any link it
 * is asked to sanitize into a safe one, so Vega never receives null (the renderer's crash).
 */
export function lockedLoader() {
  return {
    load: async (uri) => { throw new Error(`charts may not load anything (asked for ${String(uri).slice(0, 80)})`); },
    sanitize: async (uri) => ({ href: isSafeUrl(uri) ? uri : '#' }),
    http: async () => { throw new Error('charts may not fetch'); },
    file: async () => { throw new Error('charts may not read files'); },
  };
}
