// Environment file serializer (systemd EnvironmentFile= and POSIX shell `set -a; . file` compatible).
import { explain, headerLines, commentNode } from './common.mjs';

export function envValue(v) {
  const s = String(v);
  return /^[A-Za-z0-9_./:,+-]*$/.test(s) ? s : `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '\\$')}"`;
}

export function serializeEnv(entries, header) {
  const out = headerLines(header, '# ');
  out.push('');
  for (const e of entries) {
    if (e.blank) { out.push(''); continue; }
    if (e.comment) { out.push(...commentNode(e, '# ', '')); continue; }
    out.push(...explain(e));
    out.push(`${e.commented ? '# ' : ''}${e.key}=${envValue(e.value)}`);
  }
  return `${out.join('\n')}\n`;
}
