// Bracket structure of a Ruby token list (ruby-tokens.mjs), shared by the statement reader (read-ruby.mjs) and the
// value reader (read-ruby-values.mjs): depth before each token, the closer of each opener, arguments split at
// top-level commas.

// Bracket depth before each token and the closer of each opener, computed once per token list (cached by the
// array): scanning from the start for every `if`, `||` or `{` made long statements quadratic.
const SHAPES = new WeakMap();
function shape(toks) {
  let sh = SHAPES.get(toks);
  if (sh) return sh;
  const depth = new Int32Array(toks.length + 1);
  const close = new Int32Array(toks.length).fill(-1);
  const open = [];
  let d = 0;
  for (let j = 0; j < toks.length; j++) {
    depth[j] = d;
    const t = toks[j];
    if (t.t === 'op' && '([{'.includes(t.v)) { d++; open.push(j); } else if (t.t === 'op' && ')]}'.includes(t.v)) { d--; if (open.length) close[open.pop()] = j; }
  }
  depth[toks.length] = d;
  sh = { depth, close };
  SHAPES.set(toks, sh);
  return sh;
}

export function depthAt(toks, k) {
  return shape(toks).depth[k];
}

/** Index of the bracket closing the opener at k, or -1. */
export function matching(toks, k) {
  return shape(toks).close[k];
}

export function splitArgs(toks) {
  const out = [];
  let cur = [];
  let d = 0;
  for (const t of toks) {
    if (t.t === 'op' && '([{'.includes(t.v)) d++;
    else if (t.t === 'op' && ')]}'.includes(t.v)) d--;
    if (d === 0 && t.t === 'op' && t.v === ',') { out.push(cur); cur = []; continue; }
    cur.push(t);
  }
  if (cur.length) out.push(cur);
  return out;
}


/** A token of type `ty` (and value `v`, when given). */
export const is = (t, ty, v) => t && t.t === ty && (v === undefined || t.v === v);
