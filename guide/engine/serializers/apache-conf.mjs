// Apache httpd configuration serializer. Nodes: {d, args} | {section, args, children} | {comment} | {blank}.
import { explain, headerLines, commentNode } from './common.mjs';

export function quoteApache(arg) {
  const s = String(arg);
  if (/^[^\s"#<>]+$/.test(s)) return s;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function emit(nodes, depth, out) {
  const ind = '    '.repeat(depth);
  for (const n of nodes) {
    if (n.blank) { out.push(''); continue; }
    if (n.comment) { out.push(...commentNode(n, '# ', ind)); continue; }
    out.push(...explain(n, '# ', ind));
    const args = (n.args || []).map((a) => (n.raw ? String(a) : quoteApache(a))).join(' ');
    if (n.section) {
      out.push(`${ind}<${n.section}${args ? ` ${args}` : ''}>`);
      emit(n.children || [], depth + 1, out);
      out.push(`${ind}</${n.section}>`);
    } else {
      out.push(`${ind}${n.d}${args ? ` ${args}` : ''}`);
    }
  }
}

export function serializeApache(nodes, header) {
  const out = headerLines(header, '# ');
  out.push('');
  emit(nodes, 0, out);
  return `${out.join('\n')}\n`;
}
