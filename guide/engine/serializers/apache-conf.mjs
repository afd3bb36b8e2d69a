// Apache httpd configuration serializer. Nodes: {d, args} | {section, args, children} | {comment} | {blank}.
import { serializeTree } from './block-tree.mjs';

export function quoteApache(arg) {
  const s = String(arg);
  if (/^[^\s"#<>]+$/.test(s)) return s;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const APACHE = {
  indent: '    ',
  name: (n) => n.section || n.d,
  // A `raw` node passes its arguments through as written (for arguments a generator has already quoted).
  args: (n) => (n.args || []).map((a) => (n.raw ? String(a) : quoteApache(a))),
  children: (n) => (n.section ? n.children || [] : undefined),
  open: (head) => `<${head}>`,
  close: (n) => `</${n.section}>`,
  line: (head) => head,
};

export function serializeApache(nodes, header) {
  return serializeTree(nodes, header, APACHE);
}
