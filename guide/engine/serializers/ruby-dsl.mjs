// Ruby configuration DSL serializer (puma.rb, unicorn.rb, pitchfork.rb).
// Nodes: {call, args: [literal…], why, evidence} | {hook, args?, params?, body: [line…], why} | {code: [line…]} | {comment} | {blank}.
// Literals: string → double-quoted; number/boolean; {sym: 'x'}; {raw: 'ruby expr'}; arrays; {hash: {k: v}}.
import { explain, headerLines, commentNode } from './common.mjs';

export function rubyLiteral(v) {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/#\{/g, '\\#{')}"`;
  if (Array.isArray(v)) return `[${v.map(rubyLiteral).join(', ')}]`;
  if (v.sym) return `:${v.sym}`;
  if (v.raw) return v.raw;
  if (v.hash) return `{ ${Object.entries(v.hash).map(([k, x]) => `:${k} => ${rubyLiteral(x)}`).join(', ')} }`;
  throw new Error('unsupported ruby literal');
}

function emit(nodes, out, ind = '') {
  for (const n of nodes) {
    if (n.blank) { out.push(''); continue; }
    if (n.comment) { out.push(...commentNode(n, '# ', ind)); continue; }
    out.push(...explain(n, '# ', ind));
    if (n.code) { for (const l of n.code) out.push(`${ind}${l}`); continue; }
    const args = (n.args || []).map(rubyLiteral).join(', ');
    if (n.hook) {
      const params = n.params && n.params.length ? ` |${n.params.join(', ')}|` : '';
      out.push(`${ind}${n.hook}${args ? ` ${args}` : ''} do${params}`);
      for (const l of n.body) out.push(l ? `${ind}  ${l}` : '');
      out.push(`${ind}end`);
    } else {
      out.push(`${ind}${n.call}${args ? ` ${args}` : ''}`);
    }
  }
}

export function serializeRuby(nodes, header) {
  const out = headerLines(header, '# ');
  out.push('');
  emit(nodes, out);
  return `${out.join('\n')}\n`;
}
