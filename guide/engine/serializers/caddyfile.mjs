// Caddyfile serializer. Nodes: {d, args, children?} | {comment} | {blank}.
import { explain, headerLines, commentNode } from './common.mjs';

export function quoteCaddy(arg) {
  const s = String(arg);
  if (/^[^\s"{}#]+$/.test(s) || /^\{[A-Za-z0-9_.]+\}$/.test(s)) return s;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function emit(nodes, depth, out) {
  const ind = '\t'.repeat(depth);
  for (const n of nodes) {
    if (n.blank) { out.push(''); continue; }
    if (n.comment) { out.push(...commentNode(n, '# ', ind)); continue; }
    out.push(...explain(n, '# ', ind));
    const args = (n.args || []).map(quoteCaddy).join(' ');
    const head = `${ind}${n.d}${args ? ` ${args}` : ''}`;
    if (n.children) {
      out.push(`${head} {`);
      emit(n.children, depth + 1, out);
      out.push(`${ind}}`);
    } else out.push(head);
  }
}

export function serializeCaddyfile(nodes, header) {
  const out = headerLines(header, '# ');
  out.push('');
  emit(nodes, 0, out);
  return `${out.join('\n')}\n`;
}
