// Values of the few Ruby expressions configuration files use (literals, locals, Integer()/.to_i, `+ n`, ENV.fetch,
// ENV[…] || d, an if/else default), for read-ruby.mjs, the YAML reader's ERB and env-compare.mjs. Nothing is evaluated:
// anything else is "unknown" with its source text.
import { LIMITS } from './limits.mjs';
import { depthAt, matching, splitArgs, is } from './read-ruby-brackets.mjs';

const unknown = (text, extra = {}) => ({ known: false, value: null, text, ...extra });
const known = (value, text, extra = {}) => ({ known: true, value, text, ...extra });

/**
 * The value of an expression, for the few forms configuration files use. → {known, value, text, env?, local?}
 * `env` names the environment variable the value comes from (value is then its default).
 */
export function evaluate(toks, locals = new Map(), src = '') {
  const text = toks.length ? src.slice(toks[0].start, toks[toks.length - 1].end) : '';
  // A configuration value is a few tokens; longer expressions are not read (this also bounds the recursion below).
  if (toks.length > LIMITS.expressionTokens) return unknown(text.slice(0, 200));
  let x = toks;
  while (x.length > 2 && x[0].t === 'op' && x[0].v === '(' && matching(x, 0) === x.length - 1) x = x.slice(1, -1);
  if (x.length === 1) {
    const [t] = x;
    if (t.t === 'num') return known(t.v, text);
    if (t.t === 'str' && !t.interp) return known(t.v, text);
    if (t.t === 'str') return unknown(text, { interp: true });
    if (t.t === 'sym') return known(`:${t.v}`, text, { sym: t.v });
    if (t.t === 'id' && (t.v === 'true' || t.v === 'false')) return known(t.v === 'true', text);
    if (t.t === 'id' && t.v === 'nil') return known(null, text);
    if (t.t === 'id' && locals.has(t.v)) return { ...locals.get(t.v), text, local: t.v };
    return unknown(text);
  }
  // -N
  if (x.length === 2 && is(x[0], 'op', '-') && is(x[1], 'num')) return known(-x[1].v, text);
  // X.to_i / Integer(X) / X.to_s
  if (x.length > 2 && is(x[x.length - 2], 'op', '.') && is(x[x.length - 1], 'id') && ['to_i', 'to_s', 'to_sym'].includes(x[x.length - 1].v)) {
    return convert(evaluate(x.slice(0, -2), locals, src), x[x.length - 1].v === 'to_i' ? 'int' : 'str', text);
  }
  if (is(x[0], 'const', 'Integer') && is(x[1], 'op', '(') && matching(x, 1) === x.length - 1) {
    const [first] = splitArgs(x.slice(2, -1));
    return convert(evaluate(first || [], locals, src), 'int', text);
  }
  // a + n, a - n (e.g. ENV.fetch("RAILS_MAX_THREADS") { 3 }.to_i + 2): numbers only.
  for (let k = x.length - 2; k > 0; k--) {
    if (!(is(x[k], 'op', '+') || is(x[k], 'op', '-')) || depthAt(x, k) !== 0 || x[k - 1].t === 'op' && !')]}'.includes(x[k - 1].v)) continue;
    const l = evaluate(x.slice(0, k), locals, src);
    const r = evaluate(x.slice(k + 1), locals, src);
    if (l.known && r.known && typeof l.value === 'number' && typeof r.value === 'number') {
      return { known: true, value: x[k].v === '+' ? l.value + r.value : l.value - r.value, text, ...(l.env ? { env: l.env, offset: (l.offset || 0) + (x[k].v === '+' ? 1 : -1) * r.value } : {}) };
    }
    return unknown(text);
  }
  // ENV["X"] || d
  const or = x.findIndex((t, k) => is(t, 'op', '||') && depthAt(x, k) === 0);
  if (or > 0) {
    const left = evaluate(x.slice(0, or), locals, src);
    const right = evaluate(x.slice(or + 1), locals, src);
    if (left.env && left.value === null) return { ...right, known: right.known, env: left.env, text };
    return unknown(text);
  }
  // ENV["X"] / ENV.fetch("X") { d } / ENV.fetch("X", d) / ENV.fetch "X", d
  if (is(x[0], 'const', 'ENV')) {
    if (is(x[1], 'op', '[') && is(x[2], 'str') && is(x[3], 'op', ']') && x.length === 4) return { known: true, value: null, env: x[2].v, text };
    if (is(x[1], 'op', '.') && is(x[2], 'id', 'fetch')) {
      let rest = x.slice(3);
      let block = null;
      if (is(rest[rest.length - 1], 'op', '}')) {
        const open = rest.findIndex((t, k) => is(t, 'op', '{') && matching(rest, k) === rest.length - 1);
        if (open > 0) { block = rest.slice(open + 1, -1); rest = rest.slice(0, open); }
      }
      if (is(rest[0], 'op', '(') && matching(rest, 0) === rest.length - 1) rest = rest.slice(1, -1);
      const parts = splitArgs(rest);
      if (parts[0]?.length === 1 && is(parts[0][0], 'str')) {
        const env = parts[0][0].v;
        const dflt = block ? (ifElse(block, locals, src) || evaluate(block, locals, src)) : parts[1] ? evaluate(parts[1], locals, src) : null;
        if (!dflt) return { known: true, value: null, env, text, required: true };
        // The variable's value, when set, is a String whatever the default is (no `cast` until .to_i/Integer()).
        const { cast: _cast, ...value } = dflt;
        return { ...value, env, text };
      }
    }
  }
  return unknown(text);
}

// `if COND then A else B end` as a value (an ENV.fetch default block): unknown, with each arm's value
// and condition, so a check can name the branch (`if ENV.fetch("RAILS_ENV") == "production"` → 10).
function ifElse(toks, locals, src) {
  let a0 = 0;
  let a1 = toks.length;
  while (a0 < a1 && toks[a0].t === 'nl') a0++;
  while (a1 > a0 && toks[a1 - 1].t === 'nl') a1--;
  const x = toks.slice(a0, a1);
  if (!(x[0]?.t === 'id' && x[0].v === 'if')) return null;
  const lines = [];
  let cur = [];
  for (const t of x) { if (t.t === 'nl') { if (cur.length) lines.push(cur); cur = []; } else cur.push(t); }
  if (cur.length) lines.push(cur);
  // if COND / A / else / B / end, one statement per line only.
  if (lines.length !== 5 || !(lines[2].length === 1 && lines[2][0].v === 'else') || !(lines[4].length === 1 && lines[4][0].v === 'end')) return null;
  const cond = src.slice(lines[0][1].start, lines[0][lines[0].length - 1].end);
  const a = evaluate(lines[1], locals, src);
  const b = evaluate(lines[3], locals, src);
  if (!a.known || !b.known) return null;
  return unknown(src.slice(x[0].start, x[x.length - 1].end), { alternatives: [{ cond: `if ${cond}`, value: a.value }, { cond: `else (not ${cond})`, value: b.value }] });
}

function convert(v, to, text) {
  if (!v.known || v.value === null) return { ...v, text };
  if (to === 'int') {
    const num = typeof v.value === 'number' ? Math.trunc(v.value) : /^\s*-?\d+/.test(String(v.value)) ? Number.parseInt(v.value, 10) : null;
    return num === null ? unknown(text, v.env ? { env: v.env } : {}) : { ...v, value: num, text, cast: 'int' };
  }
  return { ...v, value: String(v.value), text, cast: 'str' };
}
