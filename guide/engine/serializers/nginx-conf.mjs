// nginx configuration serializer. Nodes: {d, args, why, evidence} | {block, args, children, why, evidence}
// | {comment} | {blank: true}.
import { explain, headerLines, commentNode } from './common.mjs';

const BARE = /^[A-Za-z0-9_.:/$\-~*^()|\\+=,@[\]!?<>'%]+$/;

export function quoteNginx(arg) {
  const s = String(arg);
  if (s.length > 0 && BARE.test(s) && !s.includes("'")) return s;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$(?=\{)/g, '$')}"`;
}

function emit(nodes, depth, out) {
  const ind = '    '.repeat(depth);
  for (const n of nodes) {
    if (n.blank) { out.push(''); continue; }
    if (n.comment) { out.push(...commentNode(n, '# ', ind)); continue; }
    out.push(...explain(n, '# ', ind));
    const args = (n.args || []).map(quoteNginx).join(' ');
    if (n.block) {
      out.push(`${ind}${n.block}${args ? ` ${args}` : ''} {`);
      emit(n.children || [], depth + 1, out);
      out.push(`${ind}}`);
    } else {
      out.push(`${ind}${n.d}${args ? ` ${args}` : ''};`);
    }
  }
}

export function serializeNginx(nodes, header) {
  const out = headerLines(header, '# ');
  out.push('');
  emit(nodes, 0, out);
  return `${out.join('\n')}\n`;
}
