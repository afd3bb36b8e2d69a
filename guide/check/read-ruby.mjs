// Reads a Ruby configuration file (puma.rb, unicorn.rb, production.rb, Gemfile) into calls and
// assignments with line numbers, statically: statements, blocks and branches here; the values of their
// arguments in read-ruby-values.mjs, brackets in read-ruby-brackets.mjs. Nothing is ever evaluated.
import { tokenize } from './ruby-tokens.mjs';
import { LIMITS } from './limits.mjs';
import { depthAt, matching, splitArgs, is } from './read-ruby-brackets.mjs';
import { evaluate } from './read-ruby-values.mjs';

export { evaluate, splitArgs };

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
