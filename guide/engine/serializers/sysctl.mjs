// sysctl.d serializer: entries [{key, value, why, evidence} | {comment} | {blank}].
import { explain, headerLines, commentNode } from './common.mjs';

export function serializeSysctl(entries, header) {
  const out = headerLines(header, '# ');
  out.push('');
  for (const e of entries) {
    if (e.blank) { out.push(''); continue; }
    if (e.comment) { out.push(...commentNode(e, '# ', '')); continue; }
    out.push(...explain(e));
    out.push(`${e.key} = ${e.value}`);
  }
  return `${out.join('\n')}\n`;
}
