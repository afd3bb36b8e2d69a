// Shared helpers for serializers: comment wrapping and evidence references.

// The same reasons are wrapped on every answer change: remember the lines (bounded; the page re-renders often).
const wrapped = new Map();

export function wrap(text, width = 96) {
  const key = `${width}\u0000${text}`;
  const hit = wrapped.get(key);
  if (hit) return hit;
  const lines = wrapWords(text, width);
  if (wrapped.size > 4000) wrapped.clear();
  wrapped.set(key, lines);
  return lines;
}

function wrapWords(text, width) {
  const words = String(text).split(/\s+/).filter(Boolean);
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > width) { lines.push(line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

/** Comment lines for a node's `why` and `evidence`, with the given prefix ("# ", "; "). */
export function explain(node, prefix = '# ', indent = '') {
  const out = [];
  if (node.why) for (const l of wrap(node.why)) out.push(`${indent}${prefix}${l}`);
  if (node.evidence && node.evidence.length) {
    for (const e of node.evidence) out.push(`${indent}${prefix}  see: ${e.url}`);
  }
  return out;
}

export function headerLines(header, prefix = '# ') {
  return (header || []).map((l) => `${prefix}${l}`.trimEnd());
}

/** Comment-only node, with "see:" lines for its sources where it states a fact that has them. */
export function commentNode(node, prefix, indent) {
  const out = wrap(node.comment).map((l) => `${indent}${prefix}${l}`);
  for (const e of node.evidence || []) out.push(`${indent}${prefix}  see: ${e.url}`);
  return out;
}
