// HAProxy configuration serializer. Nodes: {section, args, children, why, evidence} at the top (global, defaults,
// frontend NAME, backend NAME), {d, args, why, evidence} inside, {comment}, {blank: true}. Arguments are written as
// given: HAProxy splits on spaces and the generators only pass words, addresses and ACL expressions.
import { serializeTree } from './block-tree.mjs';

// Sections (global, defaults, frontend, backend) start at the margin and end where the next one starts.
const HAPROXY = {
  indent: '    ',
  name: (n) => n.section || n.d,
  args: (n) => (n.args || []).map(String),
  children: (n) => (n.section ? n.children || [] : undefined),
  open: (head) => head,
  close: () => null,
  line: (head) => head,
};

export function serializeHaproxy(nodes, header) {
  return serializeTree(nodes, header, HAPROXY);
}
