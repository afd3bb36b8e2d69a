// Markdown serializer for README.md and CHECKLIST.md.
// Blocks: {h: level, text} | {p} | {list: [text…], ordered?, task?} | {code, lang} | {table: {head: [], rows: [[]]}}.

const esc = (s) => String(s).replace(/\r?\n/g, ' ');

export function serializeMarkdown(blocks, header) {
  const out = [];
  if (header && header.length) out.push(`<!-- ${header.join(' | ').replace(/--/g, '—')} -->`, '');
  for (const b of blocks) {
    if (b.h) out.push(`${'#'.repeat(b.h)} ${esc(b.text)}`, '');
    else if (b.p) out.push(esc(b.p), '');
    else if (b.list) {
      b.list.forEach((t, i) => out.push(`${b.ordered ? `${i + 1}.` : '-'}${b.task ? ' [ ]' : ''} ${esc(t)}`));
      out.push('');
    } else if (b.code !== undefined) out.push(`\`\`\`${b.lang || ''}`, ...String(b.code).split('\n'), '```', '');
    else if (b.table) {
      out.push(`| ${b.table.head.map(esc).join(' | ')} |`, `|${b.table.head.map(() => '---').join('|')}|`);
      for (const r of b.table.rows) out.push(`| ${r.map((c) => esc(c).replace(/\|/g, '\\|')).join(' | ')} |`);
      out.push('');
    }
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
