// systemd unit / drop-in serializer: [{section, entries: [{key, value, why} | {comment}]}].
import { explain, headerLines, commentNode } from './common.mjs';

export function serializeSystemd(sections, header) {
  const out = headerLines(header, '# ');
  for (const s of sections) {
    out.push('', `[${s.section}]`);
    for (const e of s.entries) {
      if (e.comment) { out.push(...commentNode(e, '# ', '')); continue; }
      out.push(...explain(e));
      out.push(`${e.key}=${e.value}`);
    }
  }
  return `${out.join('\n')}\n`;
}
