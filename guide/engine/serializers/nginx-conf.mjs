// nginx configuration serializer. Nodes: {d, args, why, evidence} | {block, args, children, why, evidence}
// | {comment} | {blank: true}.
import { serializeTree } from './block-tree.mjs';

const BARE = /^[A-Za-z0-9_.:/$\-~*^()|\\+=,@[\]!?<>'%]+$/;

export function quoteNginx(arg) {
  const s = String(arg);
  if (s.length > 0 && BARE.test(s) && !s.includes("'")) return s;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$(?=\{)/g, '$')}"`;
}

const NGINX = {
  indent: '    ',
  name: (n) => n.block || n.d,
  args: (n) => (n.args || []).map(quoteNginx),
  children: (n) => (n.block ? n.children || [] : undefined),
  open: (head) => `${head} {`,
  close: () => '}',
  line: (head) => `${head};`,
};

export function serializeNginx(nodes, header) {
  return serializeTree(nodes, header, NGINX);
}
