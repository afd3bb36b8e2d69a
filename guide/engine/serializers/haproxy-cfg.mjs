// HAProxy configuration serializer. Nodes: {section, args, children, why, evidence} at the top (global, defaults,
// frontend NAME, backend NAME), {d, args, why, evidence} inside, {comment}, {blank: true}. Arguments are written as
// given: HAProxy splits on spaces and the generators only pass words, addresses and ACL expressions.
import { explain, headerLines, commentNode } from './common.mjs';

function emit(nodes, depth, out) {
  const ind = '    '.repeat(depth);
  for (const n of nodes) {
    if (n.blank) { out.push(''); continue; }
    if (n.comment) { out.push(...commentNode(n, '# ', ind)); continue; }
    out.push(...explain(n, '# ', ind));
    const args = (n.args || []).map(String).join(' ');
    if (n.section) {
      out.push(`${n.section}${args ? ` ${args}` : ''}`);
      emit(n.children || [], 1, out);
    } else {
      out.push(`${ind}${n.d}${args ? ` ${args}` : ''}`);
    }
  }
}

export function serializeHaproxy(nodes, header) {
  const out = headerLines(header, '# ');
  out.push('');
  emit(nodes, 0, out);
  return `${out.join('\n')}\n`;
}
