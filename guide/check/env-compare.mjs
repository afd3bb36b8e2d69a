// `[ENV.fetch("MAX_THREADS", 5), ENV.fetch("DB_POOL", 5)].max` (houndci/hound's database.yml): an environment
// variable's value is a String, its default here an Integer. With neither set the defaults compare as numbers; with
// one set Ruby raises ArgumentError ("comparison of String with Integer failed") while Rails reads database.yml, so
// the app does not boot; with both set the Strings compare as text ("10" < "5"), so `.max` can pick the smaller pool.
// Read here as the defaults' max/min (the value a reader sees with the variables unset), plus what goes wrong.
import { tokenize } from './ruby-tokens.mjs';
import { evaluate, splitArgs } from './read-ruby.mjs';

const is = (t, ty, v) => t && t.t === ty && (v === undefined || t.v === v);

/** → null, or {op, raw: [variables read without .to_i], value (the defaults' max/min, or null)} */
export function envCompare(code) {
  const x = tokenize(code);
  const n = x.length;
  if (n < 6 || !is(x[0], 'op', '[') || !is(x[n - 3], 'op', ']') || !is(x[n - 2], 'op', '.') || !(is(x[n - 1], 'id', 'max') || is(x[n - 1], 'id', 'min'))) return null;
  // The opening bracket closes right before `.max`: one array literal, not `[a][0].max`.
  let depth = 0;
  for (let k = 0; k < n - 3; k++) {
    if (x[k].t === 'op' && '([{'.includes(x[k].v)) depth++;
    else if (x[k].t === 'op' && ')]}'.includes(x[k].v) && --depth === 0) return null;
  }
  const parts = splitArgs(x.slice(1, n - 3)).map((p) => evaluate(p, new Map(), code));
  const raw = parts.filter((p) => p.env && !p.cast).map((p) => p.env);
  if (parts.length < 2 || raw.length === 0) return null;
  const nums = parts.map((p) => (p.known && typeof p.value === 'number' ? p.value : null));
  const value = nums.every((v) => v !== null) ? Math[x[n - 1].v](...nums) : null;
  return { op: x[n - 1].v, raw, value };
}
