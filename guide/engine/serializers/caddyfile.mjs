// Caddyfile serializer. Nodes: {d, args, children?} | {comment} | {blank}.
import { serializeTree } from './block-tree.mjs';

export function quoteCaddy(arg) {
  const s = String(arg);
  if (/^[^\s"{}#]+$/.test(s) || /^\{[A-Za-z0-9_.]+\}$/.test(s)) return s;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const CADDY = {
  indent: '\t',
  name: (n) => n.d,
  args: (n) => (n.args || []).map(quoteCaddy),
  children: (n) => n.children,
  open: (head) => `${head} {`,
  close: () => '}',
  line: (head) => head,
};

export function serializeCaddyfile(nodes, header) {
  return serializeTree(nodes, header, CADDY);
}
