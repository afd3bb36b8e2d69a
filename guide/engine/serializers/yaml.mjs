// Minimal YAML emitter for generated config (database.yml, thin.yml, mongrel_cluster.yml).
// Nodes: {key, value, why, evidence} | {key, children: [...]} | {key, items: [[nodes], …]} (list of maps) | {comment} | {blank}; a value may be
// a string (quoted when needed), number, boolean, {raw: 'text'} (emitted as is, e.g. ERB) or {alias: '*default'} / {anchor}.
import { explain, headerLines, commentNode } from './common.mjs';

export function yamlScalar(v) {
  if (v === null || v === undefined) return '~';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'object' && 'raw' in v) return v.raw;
  const s = String(v);
  if (/^[A-Za-z0-9_./@-][A-Za-z0-9_./@:-]*$/.test(s) && !/^(true|false|yes|no|on|off|null|~|\d[\d.]*)$/i.test(s)) return s;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function emit(nodes, depth, out) {
  const ind = '  '.repeat(depth);
  for (const n of nodes) {
    if (n.blank) { out.push(''); continue; }
    if (n.comment) { out.push(...commentNode(n, '# ', ind)); continue; }
    out.push(...explain(n, '# ', ind));
    if (n.children) {
      out.push(`${ind}${n.key}:${n.anchor ? ` &${n.anchor}` : ''}`);
      emit(n.children, depth + 1, out);
    } else if (n.items) {
      // A list of maps: "- " takes the place of the first key's indentation.
      out.push(`${ind}${n.key}:`);
      for (const item of n.items) {
        const lines = [];
        emit(item, depth + 2, lines);
        const inner = '  '.repeat(depth + 2);
        const first = lines.findIndex((l) => !l.trimStart().startsWith('#'));
        lines[first] = `${'  '.repeat(depth + 1)}- ${lines[first].slice(inner.length)}`;
        out.push(...lines);
      }
    } else if (n.merge) {
      out.push(`${ind}<<: *${n.merge}`);
    } else {
      out.push(`${ind}${n.key}: ${yamlScalar(n.value)}`);
    }
  }
}

export function serializeYaml(nodes, header) {
  const out = headerLines(header, '# ');
  out.push('');
  emit(nodes, 0, out);
  return `${out.join('\n')}\n`;
}
