// Reads Apache httpd configuration: one directive per line, <Section args> … </Section> contexts.
import { InputError } from './errors.mjs';

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
    const close = /^<\/(\w+)\s*>$/.exec(l);
    if (close) {
      if (!stack.length) throw new InputError('apache-syntax', path, at, `</${close[1]}> without an opening section`, 'remove it');
      stack.pop();
      continue;
    }
    const open = /^<(\w+)\s*([^>]*)>$/.exec(l);
    const [name, ...args] = (open ? `${open[1]} ${open[2]}` : l).match(/"[^"]*"|\S+/g).map((w) => w.replace(/^"|"$/g, ''));
    settings.push({ name, args, value: args.join(' '), line: at, ctx: stack.join(' > '), block: Boolean(open) });
    if (open) stack.push(`${name} ${args.join(' ')}`.trim());
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
    if (open) stack.push(words.join(' '));
  });
  if (stack.length) throw new InputError('caddy-syntax', path, 0, `block "${stack[stack.length - 1]}" is not closed`, 'add the missing }');
  return { settings, notes: [] };
}
