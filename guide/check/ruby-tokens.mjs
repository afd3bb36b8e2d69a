// A tolerant Ruby tokenizer for configuration files (puma.rb, unicorn.rb, production.rb, Gemfile).
// It never evaluates anything: it only splits the text into tokens with line numbers. Why not Prism
// (@ruby/prism, WASM)? Measured in tests/doctor/README.md: Prism's browser payload is ~200 KB gzip against a
// few KB for this file, and config files use a small part of Ruby; the tests check this tokenizer's
// readings against Prism's syntax tree for every fixture.
import { LIMITS } from './limits.mjs';

const OPS = ['**=', '||=', '&&=', '...', '<=>', '===', '==', '!=', '>=', '<=', '&&', '||', '<<', '>>', '=>', '->', '::', '..', '+=', '-=', '*=', '/=', '&.', '=~'];
const IDENT = /[A-Za-z0-9_]/;
const CLOSE = { '(': ')', '[': ']', '{': '}', '<': '>', '|': '|', '/': '/', '!': '!' };

export class RubySyntaxError extends Error {}

/** tokenize(src) → [{t, v, line, start, end, interp?}]; t: id const ivar num str sym label op nl xstr */
export function tokenize(src) {
  const out = [];
  let i = 0;
  let line = 1;
  const heredocs = []; // pending {id, squiggly, tok}
  const locals = new Set(); // names assigned so far: `/` after one of them divides
  const n = src.length;
  const push = (t, v, start, extra) => {
    if (out.length >= LIMITS.rubyTokens) throw new RubySyntaxError(`more than ${LIMITS.rubyTokens} tokens`);
    out.push({ t, v, line, start, end: i, ...extra });
  };
  const atLineStart = () => i === 0 || src[i - 1] === '\n';
  // Quoted text up to `close` (nesting `open`), handling backslash escapes and #{…}.
  const quoted = (open, close, interpolates) => {
    let depth = 1;
    let s = '';
    let interp = false;
    while (i < n) {
      const c = src[i];
      if (c === '\\') { s += src[i + 1] ?? ''; if (src[i + 1] === '\n') line++; i += 2; continue; }
      if (c === '\n') line++;
      if (interpolates && c === '#' && src[i + 1] === '{') {
        interp = true;
        let d = 0;
        while (i < n) {
          if (src[i] === '{') d++;
          else if (src[i] === '}' && --d === 0) { i++; break; }
          else if (src[i] === '\n') line++;
          i++;
        }
        s += '#{…}';
        continue;
      }
      if (open !== close && c === open) depth++;
      else if (c === close && --depth === 0) { i++; return { s, interp }; }
      s += c;
      i++;
    }
    throw new RubySyntaxError(`unterminated string starting on line ${line}`);
  };
  // =begin … =end at the start of a line is a comment (Ruby's embedded document), the first line included.
  const skipEmbdoc = (at) => {
    const endAt = src.indexOf('\n=end', at);
    const stop = endAt < 0 ? n : endAt + 5;
    line += (src.slice(at, stop).match(/\n/g) || []).length;
    let k = stop;
    while (k < n && src[k] !== '\n') k++;
    return k;
  };
  if (src.startsWith('=begin')) i = skipEmbdoc(0);
  while (i < n) {
    const c = src[i];
    const start = i;
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (c === '\\' && src[i + 1] === '\n') { i += 2; line++; continue; }
    if (c === '#') { while (i < n && src[i] !== '\n') i++; continue; }
    if (c === '\n') {
      i++;
      push('nl', '\n', start);
      line++;
      for (const h of heredocs.splice(0)) readHeredoc(h);
      if (src.startsWith('=begin', i)) i = skipEmbdoc(i);
      if (src.startsWith('__END__', i) && (src[i + 7] === '\n' || i + 7 === n)) break;
      continue;
    }
    if (c === ';') { i++; push('nl', ';', start); continue; }
    if (c === '"' || c === '`') {
      i++;
      const q = quoted(c, c, true);
      push(c === '`' ? 'xstr' : 'str', q.s, start, { interp: q.interp });
      continue;
    }
    if (c === "'") { i++; const q = quoted("'", "'", false); push('str', q.s, start); continue; }
    if (c === '/' && startsRegexp(out, src, i, locals)) {
      // Read as a regexp; a guess that finds no closing `/` is division after all (a tolerant reader, not Ruby).
      const at = { i, line };
      i++;
      try {
        const q = quoted('/', '/', true);
        while (i < n && /[imxounse]/.test(src[i])) i++;
        push('regexp', q.s, start, { interp: q.interp });
        continue;
      } catch (e) {
        if (!(e instanceof RubySyntaxError) || /more than/.test(e.message)) throw e;
        ({ i, line } = at);
      }
    }
    if (c === '%' && /[qQwWiIxsr(\[{<|!/]/.test(src[i + 1] ?? '') && !prevIsValue(out)) {
      let kind = src[i + 1];
      let j = i + 2;
      if (!/[a-zA-Z]/.test(kind)) { kind = 'Q'; j = i + 1; }
      const open = src[j];
      const close = CLOSE[open] || open;
      i = j + 1;
      const q = quoted(open, close, /[QWIxr]/.test(kind));
      if (kind === 'r') while (i < n && /[imxounse]/.test(src[i])) i++;
      const t = kind === 'x' ? 'xstr' : kind === 's' ? 'sym' : kind === 'r' ? 'regexp' : /[wWiI]/.test(kind) ? 'words' : 'str';
      push(t, q.s, start, { interp: q.interp });
      continue;
    }
    if (c === '<' && src[i + 1] === '<' && /[~\-A-Z"'`]/.test(src[i + 2] ?? '') && !prevIsValue(out)) {
      const m = /^<<([~-]?)(["'`]?)([A-Za-z_]\w*)\2/.exec(src.slice(i, i + 80));
      if (m) {
        i += m[0].length;
        const tok = { t: m[2] === '`' ? 'xstr' : 'str', v: '', line, start, end: i };
        out.push(tok);
        heredocs.push({ id: m[3], tok });
        continue;
      }
    }
    if (/\d/.test(c)) {
      const m = /^(0x[\da-fA-F_]+|\d[\d_]*(\.\d[\d_]*)?([eE][+-]?\d+)?)/.exec(src.slice(i, i + 64));
      i += m[0].length;
      push('num', Number(m[0].replace(/_/g, '')), start);
      continue;
    }
    if (c === ':' && src[i + 1] === '"') { i += 2; const q = quoted('"', '"', true); push('sym', q.s, start); continue; }
    if (c === ':' && /[A-Za-z_]/.test(src[i + 1] ?? '') && src[i - 1] !== ':') {
      i++;
      while (i < n && IDENT.test(src[i])) i++;
      if (/[?!=]/.test(src[i] ?? '') && src[i + 1] !== '=') i++;
      push('sym', src.slice(start + 1, i), start);
      continue;
    }
    if (c === '@' || c === '$') {
      i++;
      while (i < n && (IDENT.test(src[i]) || src[i] === '@')) i++;
      push('ivar', src.slice(start, i), start);
      continue;
    }
    if (/[A-Za-z_]/.test(c) || c.charCodeAt(0) > 127) {
      while (i < n && (IDENT.test(src[i]) || src.charCodeAt(i) > 127)) i++;
      if ((src[i] === '?' || src[i] === '!') && src[i + 1] !== '=') i++;
      const word = src.slice(start, i);
      if (src[i] === ':' && src[i + 1] !== ':' && /[\s]/.test(src[i + 1] ?? ' ')) { i++; push('label', word, start); continue; }
      push(/^[A-Z]/.test(word) ? 'const' : 'id', word, start);
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i)) || c;
    i += op.length;
    // `name = …`, `name ||= …`: a local variable, after which ` / ` is division (Ruby decides the same way).
    if (/^(=|\|\|=|&&=|[+\-*\/]=)$/.test(op) && out[out.length - 1]?.t === 'id') locals.add(out[out.length - 1].v);
    push('op', op, start);
  }
  return out;

  function readHeredoc(h) {
    const lines = [];
    while (i < n) {
      let e = src.indexOf('\n', i);
      if (e < 0) e = n;
      const l = src.slice(i, e);
      i = Math.min(n, e + 1);
      line++;
      if (l.trim() === h.id) { h.tok.v = lines.join('\n'); return; }
      lines.push(l);
    }
    throw new RubySyntaxError(`heredoc ${h.id} is not terminated`);
  }
}

// After a value a `%` or `<<` is an operator, not a literal.
function prevIsValue(out) {
  const p = out[out.length - 1];
  if (!p) return false;
  if (p.t === 'num' || p.t === 'str' || p.t === 'const' || p.t === 'ivar' || p.t === 'regexp') return true;
  if (p.t === 'op') return p.v === ')' || p.v === ']' || p.v === '}';
  return false;
}

// Words after which `/` starts a regexp whatever the spacing (`if /x/ =~ s`, `when /x/`).
const BEFORE_VALUE = new Set(['if', 'unless', 'elsif', 'when', 'while', 'until', 'and', 'or', 'not', 'return', 'then', 'in', 'case']);

/**
 * Whether `/` at i starts a regexp literal, as Ruby's lexer decides: where no value has ended (the start, a newline, an
 * operator or opening bracket, a comma, a label, a keyword), or after a method name with a space before and none after
 * (`gsub! /"/, '\\"'`: Ruby reads the first argument of a call without parentheses, with an "ambiguous first
 * argument" warning). After a local variable, a value or a closing bracket it divides (`n / 2`, `n /2`, `x.size / 2`).
 */
function startsRegexp(out, src, i, locals) {
  const p = out[out.length - 1];
  if (!p || p.t === 'nl' || p.t === 'label') return true;
  if (p.t === 'op') return !(p.v === ')' || p.v === ']' || p.v === '}');
  if (p.t !== 'id') return false;
  if (BEFORE_VALUE.has(p.v)) return true;
  if (locals.has(p.v)) return false;
  return p.end < i && /[ \t]/.test(src[i - 1]) && !/[\s=]/.test(src[i + 1] ?? '');
}
