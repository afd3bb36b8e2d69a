// Reads a Ruby configuration file (puma.rb, unicorn.rb, production.rb, Gemfile) into calls and
// assignments with line numbers, statically. Values are resolved only for the forms configs use:
// literals, local variables, Integer(…)/.to_i, ENV.fetch("X") { d } / ENV.fetch("X", d) / ENV["X"] || d.
// Anything else stays "unknown" with its source text. Nothing is ever evaluated.
import { tokenize } from './ruby-tokens.mjs';
import { LIMITS } from './limits.mjs';

const OPENERS = new Set(['if', 'unless', 'while', 'until', 'case', 'begin', 'def', 'class', 'module', 'for']);
const SEPARATORS = new Set(['elsif', 'else', 'when', 'in', 'rescue', 'ensure', 'then']);
const COMMANDS = new Set(['system', 'exec', 'spawn', 'eval', 'instance_eval', 'class_eval', 'load', 'open', 'popen', 'syscall', 'fork']);

/**
 * readRuby(text) → {calls: [{name, args, line, conditional, inDef, block, blockBody, receiver}],
 *                    assigns: [{name, value, line}], attrs: [{name, value, line}], notes: [{line, message}]}
 */
export function readRuby(text) {
  const toks = tokenize(text);
  const res = { calls: [], assigns: [], attrs: [], notes: [] };
  const locals = new Map();
  let pos = 0;
  let branchIds = 0;
  parseBody({ conditional: false, inDef: false, depth: 0, block: null, branch: [] }, null);
  for (const t of toks) {
    if (t.t === 'xstr') res.notes.push({ line: t.line, message: 'shell command (backticks or %x) is not run; its result is unknown' });
    else if (t.t === 'id' && COMMANDS.has(t.v)) res.notes.push({ line: t.line, message: `${t.v} is not run; its result is unknown` });
  }
  return res;

  function parseBody(scope, until) {
    if (scope.depth > LIMITS.nesting) throw new Error(`blocks nested deeper than ${LIMITS.nesting}`);
    while (pos < toks.length) {
      const t = toks[pos];
      if (t.t === 'nl') { pos++; continue; }
      if (t.t === 'id' && t.v === 'end') { pos++; if (until) return; continue; }
      if (t.t === 'id' && SEPARATORS.has(t.v)) {
        // elsif/else/when: the next arm of the innermost if/unless/case (its settings exclude the other arms').
        const b = scope.branch[scope.branch.length - 1];
        if (b && b.own && ['elsif', 'else', 'when', 'in'].includes(t.v)) { b.arm++; b.cond = lineText(); }
        skipLine();
        continue;
      }
      if (t.t === 'id' && OPENERS.has(t.v)) {
        const kw = t.v;
        const cond = lineText();
        skipLine();
        const branches = ['if', 'unless', 'case'].includes(kw) ? [...scope.branch, { id: ++branchIds, arm: 0, cond, line: t.line, own: true }] : scope.branch;
        const inner = { ...scope, depth: scope.depth + 1, conditional: scope.conditional || !['begin'].includes(kw), inDef: scope.inDef || ['def', 'class', 'module'].includes(kw), branch: branches };
        parseBody(inner, 'end');
        continue;
      }
      statement(scope);
    }
  }

  // Source of the current line from the token at pos (for naming a branch: `if ENV["X"]`, `else`).
  function lineText() {
    const from = toks[pos];
    let k = pos;
    while (k + 1 < toks.length && toks[k + 1].t !== 'nl') k++;
    return text.slice(from.start, toks[k].end).slice(0, 80);
  }

  function skipLine() {
    let depth = 0;
    while (pos < toks.length) {
      const t = toks[pos];
      if (t.t === 'op' && '([{'.includes(t.v)) depth++;
      else if (t.t === 'op' && ')]}'.includes(t.v)) depth--;
      else if (t.t === 'nl' && depth <= 0) { pos++; return; }
      pos++;
    }
  }

  // One statement: tokens up to a newline at bracket depth 0, or up to `do` that opens a block.
  function statement(scope) {
    const start = pos;
    let depth = 0;
    let doAt = -1;
    while (pos < toks.length) {
      const t = toks[pos];
      if (t.t === 'op' && '([{'.includes(t.v)) depth++;
      else if (t.t === 'op' && ')]}'.includes(t.v)) depth--;
      else if (depth <= 0 && t.t === 'nl') break;
      else if (depth <= 0 && t.t === 'id' && t.v === 'do') { doAt = pos; break; }
      if (depth > LIMITS.nesting) throw new Error(`brackets nested deeper than ${LIMITS.nesting}`);
      pos++;
    }
    const stmt = toks.slice(start, doAt >= 0 ? doAt : pos);
    let blockBody = null;
    if (doAt >= 0) {
      pos = doAt + 1;
      // Block parameters |a, b| on the same line.
      if (toks[pos]?.t === 'op' && toks[pos].v === '|') { pos++; while (pos < toks.length && !(toks[pos].t === 'op' && toks[pos].v === '|')) pos++; pos++; }
      const bodyStart = pos;
      const inner = { ...scope, depth: scope.depth + 1, block: stmt[0]?.v, blockArgs: stmt.length > 1 ? text.slice(stmt[1].start, stmt[stmt.length - 1].end) : '' };
      const before = res.calls.length;
      parseBody(inner, 'end');
      blockBody = { from: toks[bodyStart]?.line, calls: res.calls.length - before };
    }
    if (stmt.length) interpret(stmt, scope, blockBody);
  }

  function interpret(stmt, scope, blockBody) {
    const line = stmt[0].line;
    // Trailing `if`/`unless` modifier.
    let conditional = scope.conditional;
    const mod = stmt.findIndex((t, k) => k > 0 && t.t === 'id' && (t.v === 'if' || t.v === 'unless') && depthAt(stmt, k) === 0);
    const body = mod > 0 ? stmt.slice(0, mod) : stmt;
    // Each branch: {id, arm, cond, line}; a trailing if/unless is a branch of its own statement.
    const branch = scope.branch.map(({ id, arm, cond, line: l }) => ({ id, arm, cond, line: l }));
    if (mod > 0) {
      conditional = true;
      branch.push({ id: ++branchIds, arm: 0, cond: text.slice(stmt[mod].start, stmt[stmt.length - 1].end).slice(0, 80), line });
    }
    const eq = body.findIndex((t) => t.t === 'op' && (t.v === '=' || t.v === '||='));
    if (eq > 0 && depthAt(body, eq) === 0) {
      // Assignments inside hooks (before_fork do … end) run later, in another context: not config values.
      if (scope.block && scope.block !== 'Rails') return;
      const lhs = body.slice(0, eq);
      const value = evaluate(body.slice(eq + 1), locals, text);
      if (lhs.length === 1 && lhs[0].t === 'id') {
        if (!scope.inDef && !(body[eq].v === '||=' && locals.has(lhs[0].v))) locals.set(lhs[0].v, value);
        res.assigns.push({ name: lhs[0].v, value, line, conditional, branch });
      } else if (lhs.every((t) => t.t === 'id' || t.t === 'const' || (t.t === 'op' && t.v === '.'))) {
        res.attrs.push({ name: lhs.map((t) => t.v).join(''), value, line, conditional, branch, inDef: scope.inDef });
      }
      return;
    }
    // A call: `name args`, `name(args)`, `Recv.name args`.
    let k = 0;
    const chain = [];
    while (k < body.length && (body[k].t === 'id' || body[k].t === 'const')) {
      chain.push(body[k].v);
      if (body[k + 1]?.t === 'op' && (body[k + 1].v === '.' || body[k + 1].v === '::')) k += 2;
      else { k++; break; }
    }
    if (!chain.length) return;
    let argToks = body.slice(k);
    if (argToks[0]?.t === 'op' && argToks[0].v === '(' && matching(argToks, 0) === argToks.length - 1) argToks = argToks.slice(1, -1);
    const parts = splitArgs(argToks);
    // `environment ENV.fetch 'RAILS_ENV', 'production'`: an argument that is itself a call without parentheses takes
    // every argument after it (Ruby's parse), so ENV.fetch gets both (fifth blind trial, helpy read two values).
    const inner = parts.findIndex((a) => is(a[0], 'const', 'ENV') && is(a[1], 'op', '.') && is(a[2], 'id', 'fetch') && a[3] && !is(a[3], 'op', '('));
    if (inner >= 0 && inner < parts.length - 1) parts.splice(inner, parts.length - inner, argToks.slice(argToks.indexOf(parts[inner][0])));
    const args = parts.map((a) => evaluate(a, locals, text));
    const name = chain[chain.length - 1];
    res.calls.push({
      name, receiver: chain.slice(0, -1).join('.'), args, line, conditional, branch, inDef: scope.inDef, inBlock: scope.block || null,
      blockArgs: scope.blockArgs || null,
      block: Boolean(blockBody), blockLines: blockBody ? blockBody.from : null,
      text: text.slice(stmt[0].start, stmt[stmt.length - 1].end),
    });
  }
}

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

function depthAt(toks, k) {
  return shape(toks).depth[k];
}

/** Index of the bracket closing the opener at k, or -1. */
function matching(toks, k) {
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

const unknown = (text, extra = {}) => ({ known: false, value: null, text, ...extra });
const known = (value, text, extra = {}) => ({ known: true, value, text, ...extra });

/**
 * The value of an expression, for the few forms configuration files use. → {known, value, text, env?, local?}
 * `env` names the environment variable the value comes from (value is then its default).
 */
/** A token of type `ty` (and value `v`, when given). */
const is = (t, ty, v) => t && t.t === ty && (v === undefined || t.v === v);

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
