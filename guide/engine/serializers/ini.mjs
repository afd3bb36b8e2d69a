// INI-style serializer (pgbouncer.ini, my.cnf) and flat `key = value` files (postgresql.conf).
// Input: [{section|null, entries: [{key, value, why, evidence} | {comment} | {blank}]}].
import { explain, headerLines, commentNode } from './common.mjs';

function emitEntries(entries, out, { prefix, fmt }) {
  for (const e of entries) {
    if (e.blank) { out.push(''); continue; }
    if (e.comment) { out.push(...commentNode(e, prefix, '')); continue; }
    out.push(...explain(e, prefix));
    out.push(fmt(e));
  }
}

export function serializeIni(sections, header, { prefix = '# ' } = {}) {
  const out = headerLines(header, prefix);
  for (const s of sections) {
    out.push('');
    if (s.why) out.push(...explain(s, prefix));
    if (s.section) out.push(`[${s.section}]`);
    emitEntries(s.entries, out, { prefix, fmt: (e) => (e.value === true && e.flag ? e.key : `${e.key} = ${e.value}`) });
  }
  return `${out.join('\n')}\n`;
}

/** postgresql.conf: strings with units are single-quoted. */
export function pgValue(v) {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  return `'${String(v).replace(/'/g, "''")}'`;
}

export function serializePgConf(entries, header) {
  const out = headerLines(header, '# ');
  out.push('');
  emitEntries(entries, out, { prefix: '# ', fmt: (e) => `${e.key} = ${pgValue(e.value)}` });
  return `${out.join('\n')}\n`;
}
