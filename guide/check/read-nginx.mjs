// Reads nginx configuration into directives with their block context and line numbers.
// `include` is recorded, never followed (the files it names are checked only if given as PATHs).
import { InputError } from './errors.mjs';
import { LIMITS } from './limits.mjs';

/** readNginx(text, path) → {settings: [{name, args, value, line, ctx, block}], notes} */
export function readNginx(src, path = 'nginx.conf') {
  const settings = [];
  const stack = [];
  let words = [];
  let line = 1;
  let first = 0;
  let i = 0;
  const n = src.length;
  const emit = (block) => {
    if (!words.length) return;
    const [name, ...args] = words;
    settings.push({ name, args, value: args.join(' '), line: first, ctx: stack.map((s) => s.label).join(' > '), block });
    if (block) {
      if (stack.length >= LIMITS.nesting) throw new InputError('nesting', path, first, `blocks nested deeper than ${LIMITS.nesting}`, 'check for a missing }');
      stack.push({ label: [name, ...args].join(' '), line: first });
    }
    words = [];
  };
  while (i < n) {
    const c = src[i];
    if (c === '\n') { line++; i++; continue; }
    // Any other whitespace (\f, \v, U+00A0…) too: the word loop below stops on \s and would never advance.
    if (/\s/.test(c)) { i++; continue; }
    if (c === '#') { while (i < n && src[i] !== '\n') i++; continue; }
    if (c === ';') { emit(false); i++; continue; }
    if (c === '{') { emit(true); i++; continue; }
    if (c === '}') {
      if (words.length) throw new InputError('nginx-syntax', path, line, `directive "${words[0]}" is not terminated by ";"`, 'add the missing ;');
      if (!stack.length) throw new InputError('nginx-syntax', path, line, 'unexpected "}"', 'remove it or add the opening block');
      stack.pop();
      i++;
      continue;
    }
    if (!words.length) first = line;
    if (c === '"' || c === "'") {
      let s = '';
      i++;
      while (i < n && src[i] !== c) {
        if (src[i] === '\\' && i + 1 < n) { s += src[i + 1]; i += 2; continue; }
        if (src[i] === '\n') line++;
        s += src[i++];
      }
      if (i >= n) throw new InputError('nginx-syntax', path, first, 'unterminated quoted string', 'close the quote');
      i++;
      words.push(s);
      continue;
    }
    let s = '';
    while (i < n && !/[\s;{}"']/.test(src[i])) {
      if (src[i] === '$' && src[i + 1] === '{') {
        // ${name}: up to the closing brace on the same line; without one, a syntax error (not a restart at 0).
        let e = i + 2;
        while (e < n && src[e] !== '}' && src[e] !== '\n') e++;
        if (src[e] !== '}') throw new InputError('nginx-syntax', path, line, 'variable "${" is not closed by "}"', 'write ${name} with its closing brace');
        s += src.slice(i, e + 1);
        i = e + 1;
        continue;
      }
      s += src[i++];
    }
    words.push(s);
  }
  if (words.length) throw new InputError('nginx-syntax', path, first, `directive "${words[0]}" is not terminated by ";"`, 'add the missing ;');
  if (stack.length) throw new InputError('nginx-syntax', path, stack[stack.length - 1].line, `block "${stack[stack.length - 1].label}" is not closed`, 'add the missing }');
  const notes = settings.filter((s) => s.name === 'include').map((s) => ({ line: s.line, message: `include ${s.value} is not followed; pass those files as PATHs to check them` }));
  return { settings, notes };
}
