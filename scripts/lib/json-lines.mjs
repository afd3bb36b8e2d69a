// A strict JSON parser that remembers where things are, so validation messages can say
// `file:line:column`. JSON.parse gives values but no positions (and in Node 20 its syntax
// errors often carry no position at all), and it silently keeps the last of two equal keys.
//
// parseJsonPositions(text) → { value, positions, duplicates }
//   positions: Map JSON pointer → { line, column, keyLine?, keyColumn? } (1-based; key* for object members)
//   duplicates: [{ pointer, line, column, firstLine, firstColumn }] for keys given twice in one object
// A syntax error throws JsonSyntaxError with line, column and a message in the contributor's terms; so does
// a file past a limit (JsonLimitError, a subclass: nesting deeper than maxDepth, an integer beyond 2^53, a
// number that overflows or underflows a double), which would otherwise crash a reader or change silently.
import { DATASET_LIMITS, MAX_EXACT_INTEGER, MIN_NORMAL } from './dataset-limits.mjs';

export class JsonSyntaxError extends Error {
  constructor(message, line, column, fix = null) {
    super(message);
    this.line = line;
    this.column = column;
    this.fix = fix;
  }
}
export class JsonLimitError extends JsonSyntaxError {}

const escapePointer = (key) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const ESCAPES = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export function parseJsonPositions(text, { maxDepth = DATASET_LIMITS.depth } = {}) {
  let i = 0;
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  const positions = new Map();
  const duplicates = [];
  const here = () => ({ line, column: i - lineStart + 1 });
  const fail = (message, at = here()) => { throw new JsonSyntaxError(message, at.line, at.column); };
  const refuse = (message, fix, at) => { throw new JsonLimitError(message, at.line, at.column, fix); };
  const shown = () => (i >= text.length ? 'the end of the file' : `"${text[i]}"`);

  const ws = () => {
    for (;;) {
      const c = text[i];
      if (c === '\n') { line++; i++; lineStart = i; } else if (c === ' ' || c === '\t' || c === '\r') i++;
      else break;
    }
  };
  const string = () => {
    const start = here();
    i++; // opening quote
    let out = '';
    for (;;) {
      if (i >= text.length) fail('a string is never closed (missing ")', start);
      const c = text[i];
      if (c === '"') { i++; return out; }
      if (c === '\n') fail('a string runs past the end of its line (missing " or a raw line break inside a string)', start);
      if (c < ' ') fail('a control character inside a string; write it as an escape such as \\t');
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('\\u must be followed by four hex digits');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e in ESCAPES) { out += ESCAPES[e]; i += 2; } else fail(`"\\${e ?? ''}" is not a JSON escape; write a backslash as \\\\`);
      } else { out += c; i++; }
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail(`unexpected ${shown()}: expected a value (a number, "string", true, false, null, { or [)`);
    const at = here();
    i += m[0].length;
    const n = Number(m[0]);
    const exact = 'store it as text in a string column, or in a unit that makes it smaller (ms instead of ns, MB instead of bytes)';
    if (!m[2] && !m[3] && !Number.isSafeInteger(n)) refuse(`the integer ${m[0].slice(0, 40)} is beyond ${MAX_EXACT_INTEGER} (2^53 − 1), the largest integer a double holds exactly: every JSON reader would store a different number`, exact, at);
    const digits = `${m[1]}${(m[2] || '').slice(1).replace(/0+$/, '')}`.replace(/^0+/, '');
    if (digits.length > 17) refuse(`the number ${m[0].slice(0, 40)} has ${digits.length} significant digits; a double keeps 17 at most, so it would be stored as ${n}`, exact, at);
    if (!Number.isFinite(n)) refuse(`the number ${m[0].slice(0, 40)} is too large for a double (it would become Infinity)`, exact, at);
    if (n !== 0 && Math.abs(n) < MIN_NORMAL || n === 0 && /[1-9]/.test(m[0].split(/[eE]/)[0])) refuse(`the number ${m[0].slice(0, 40)} is too small for a double (it would become ${n === 0 ? '0' : 'an inexact subnormal'})`, 'write 0 if that is what it means, or use a smaller unit', at);
    return n;
  };
  const word = () => {
    for (const [w, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(w, i)) { i += w.length; return v; }
    }
    const m = /^[A-Za-z_][\w.-]*/.exec(text.slice(i, i + 80));
    if (m) fail(`unquoted text "${m[0]}": put text in double quotes, or write true, false or null`);
    if (text[i] === "'") fail('single quotes are not JSON: use double quotes');
    return number();
  };

  const value = (ptr, key) => {
    ws();
    positions.set(ptr, { ...here(), ...key });
    const c = text[i];
    if ((c === '{' || c === '[') && ++depth > maxDepth) refuse(`objects and arrays nested more than ${maxDepth} deep`, `flatten the structure: datasets need far fewer levels (the deepest on the site has 11)`, here());
    if (c === '{') {
      i++;
      const obj = {};
      const seen = new Map();
      ws();
      if (text[i] === '}') { i++; depth--; return obj; }
      for (;;) {
        ws();
        if (text[i] === '}') fail('a trailing comma before "}": remove the last comma');
        if (text[i] !== '"') fail(`unexpected ${shown()}: expected a "quoted" field name`);
        const at = here();
        const k = string();
        const childPtr = `${ptr}/${escapePointer(k)}`;
        if (seen.has(k)) duplicates.push({ pointer: childPtr, ...at, firstLine: seen.get(k).line, firstColumn: seen.get(k).column });
        else seen.set(k, at);
        ws();
        if (text[i] !== ':') fail(`unexpected ${shown()} after the field name "${k}": expected ":"`);
        i++;
        const v = value(childPtr, { keyLine: at.line, keyColumn: at.column });
        // The first of two equal keys wins (and the duplicate is reported); __proto__ stays a plain field.
        if (seen.get(k) === at) Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; depth--; return obj; }
        fail(`unexpected ${shown()}: expected "," between fields or "}" at the end of the object (a missing comma?)`);
      }
    }
    if (c === '[') {
      i++;
      const arr = [];
      ws();
      if (text[i] === ']') { i++; depth--; return arr; }
      for (let n = 0; ; n++) {
        ws();
        if (text[i] === ']') fail('a trailing comma before "]": remove the last comma');
        arr.push(value(`${ptr}/${n}`));
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; depth--; return arr; }
        fail(`unexpected ${shown()}: expected "," between items or "]" at the end of the list (a missing comma?)`);
      }
    }
    if (c === '"') return string();
    if (c === undefined) fail('the file ends where a value was expected');
    return word();
  };

  if (text.charCodeAt(0) === 0xfeff) i = 1; // a byte-order mark is tolerated
  const result = value('');
  ws();
  if (i < text.length) fail(`unexpected ${shown()} after the end of the JSON value (an extra "}" or "]"?)`);
  return { value: result, positions, duplicates };
}

// Position of the deepest pointer prefix that exists (a missing property reports its parent object).
// `key: true` gives the position of the member's name rather than its value.
export function positionOf(positions, pointer, { key = false } = {}) {
  let p = pointer;
  for (;;) {
    const pos = positions.get(p);
    if (pos) return key && pos.keyLine ? { line: pos.keyLine, column: pos.keyColumn } : { line: pos.line, column: pos.column };
    if (p === '') return { line: 1, column: 1 };
    p = p.slice(0, p.lastIndexOf('/'));
  }
}
