// Reads Apache httpd configuration: one directive per line, <Section args> … </Section> contexts.
import { InputError } from './errors.mjs';
import { LIMITS } from './limits.mjs';

// <Name args> / </Name> read with indexOf and one anchored \w+, not a regex with backtracking groups (a line of
// "<aaaa…" made /^<(\w+)\s*([^>]*)>$/ quadratic: 64 KB took 15 s).
function section(l) {
  if (l[0] !== '<' || l[l.length - 1] !== '>') return null;
  const closing = l[1] === '/';
  const inner = l.slice(closing ? 2 : 1, -1);
  const name = /^\w+/.exec(inner)?.[0];
  if (!name) return null;
  const rest = inner.slice(name.length);
  if (rest.includes('>') || (rest && !/^\s/.test(rest))) return null;
  if (closing) return rest.trim() ? null : { closing, name };
  return { closing, name, args: rest.trim() };
}

function enter(stack, label, path, line, code) {
  if (stack.length >= LIMITS.nesting) throw new InputError(code, path, line, `sections nested deeper than ${LIMITS.nesting}`, 'check for a missing closing tag or }');
  stack.push(label);
}

export function readApache(src, path = 'apache.conf') {
  const settings = [];
  const stack = [];
  const lines = src.replace(/\\\r?\n/g, ' \u0000').split('\n');
  let lineNo = 0;
  for (const raw of lines) {
    lineNo++;
    const extra = (raw.match(/\u0000/g) || []).length;
    const l = raw.replace(/\u0000/g, '').trim();
    const at = lineNo;
    lineNo += extra;
    if (!l || l.startsWith('#')) continue;
    const sec = section(l);
    if (sec?.closing) {
      if (!stack.length) throw new InputError('apache-syntax', path, at, `</${sec.name}> without an opening section`, 'remove it');
      stack.pop();
      continue;
    }
    const open = sec;
    const [name, ...args] = (open ? `${open.name} ${open.args}` : l).match(/"[^"]*"|\S+/g).map((w) => w.replace(/^"|"$/g, ''));
    settings.push({ name, args, value: args.join(' '), line: at, ctx: stack.join(' > '), block: Boolean(open) });
    if (open) enter(stack, `${name} ${args.join(' ')}`.trim(), path, at, 'apache-syntax');
  }
  if (stack.length) throw new InputError('apache-syntax', path, 0, `section <${stack[stack.length - 1]}> is not closed`, 'add the closing tag');
  return { settings, notes: [] };
}

/** Caddyfile: one directive per line, `{` opens a block (site address or directive), `}` closes it. */
export function readCaddy(src, path = 'Caddyfile') {
  const settings = [];
  const stack = [];
  src.split('\n').forEach((raw, k) => {
    const l = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!l) return;
    if (l === '}') {
      if (!stack.length) throw new InputError('caddy-syntax', path, k + 1, 'unexpected "}"', 'remove it or add the opening block');
      stack.pop();
      return;
    }
    const open = l.endsWith('{');
    const words = (open ? l.slice(0, -1).trim() : l).match(/"[^"]*"|`[^`]*`|\S+/g) || [];
    const [name = '', ...args] = words.map((w) => w.replace(/^["`]|["`]$/g, ''));
    settings.push({ name, args, value: args.join(' '), line: k + 1, ctx: stack.join(' > '), block: open });
    if (open) enter(stack, words.join(' '), path, k + 1, 'caddy-syntax');
  });
  if (stack.length) throw new InputError('caddy-syntax', path, 0, `block "${stack[stack.length - 1]}" is not closed`, 'add the missing }');
  return { settings, notes: [] };
}
