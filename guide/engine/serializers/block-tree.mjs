// One emitter for the nested directive formats (nginx, Apache httpd, HAProxy, Caddyfile). They share comment
// nodes, the why/evidence lines above each node and indentation by depth; a `syntax` object says only what
// differs: the indent unit, a node's name, its quoted arguments, its children (undefined for a plain directive),
// and how a block opens, closes and how a plain line ends.
import { explain, headerLines, commentNode } from './common.mjs';

/**
 * @param {object[]} nodes
 * @param {string[]} header  lines for the opening comment (version, date, permalink)
 * @param {{indent: string, name(n): string, args(n): string[], children(n): object[]|undefined,
 *          open(head: string): string, close(n): string|null, line(head: string): string}} syntax
 */
export function serializeTree(nodes, header, syntax) {
  const out = headerLines(header, '# ');
  out.push('');
  emit(nodes, 0, out, syntax);
  return `${out.join('\n')}\n`;
}

function emit(nodes, depth, out, syntax) {
  const ind = syntax.indent.repeat(depth);
  for (const n of nodes) {
    if (n.blank) { out.push(''); continue; }
    if (n.comment) { out.push(...commentNode(n, '# ', ind)); continue; }
    out.push(...explain(n, '# ', ind));
    const args = syntax.args(n).join(' ');
    const head = `${syntax.name(n)}${args ? ` ${args}` : ''}`;
    const children = syntax.children(n);
    if (!children) { out.push(`${ind}${syntax.line(head)}`); continue; }
    out.push(`${ind}${syntax.open(head)}`);
    emit(children, depth + 1, out, syntax);
    const close = syntax.close(n);
    if (close !== null) out.push(`${ind}${close}`);
  }
}
