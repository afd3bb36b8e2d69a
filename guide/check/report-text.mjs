// Plain-text report for terminals and CI logs. Control characters from the files are escaped (safe-text.mjs).
import { terminalSafe } from './safe-text.mjs';
import { LIMITS } from './limits.mjs';

const cut = (l) => (l.length > LIMITS.reportLineChars ? `${l.slice(0, LIMITS.reportLineChars)}… (${l.length - LIMITS.reportLineChars} more characters)` : l);

export function reportText(r) {
  const out = [];
  out.push('Detected answers:');
  for (const [k, d] of Object.entries(r.detected)) out.push(`  ${k} = ${d.value}   (${d.file ? `${d.file}${d.line ? `:${d.line}` : ''}: ${d.from}` : 'given'})`);
  if (r.undetected.length) out.push(`Not detected (defaults assumed): ${r.undetected.map((u) => `${u.key}=${u.assumed}`).join(', ')}`);
  for (const c of r.conflicts) out.push(`  note: ${c.key} given as ${c.given}, but ${c.file}:${c.line} says ${c.detected}`);
  if (r.facts.length) {
    out.push('Also found:');
    for (const f of r.facts) out.push(`  ${f.name}: ${f.value}   (${f.file}:${f.line})`);
  }
  for (const p of r.problems) out.push(`error: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message} (${p.code}) — fix: ${p.fix}`);
  for (const f of r.files) for (const n of f.notes) out.push(`note: ${f.path}:${n.line}: ${n.message}`);
  const skipped = r.files.filter((f) => !f.kind && !f.problem);
  if (skipped.length) out.push(`Skipped (no reader for these files): ${skipped.map((f) => f.path).join(', ')}`);
  const refused = r.notCompared.filter((n) => n.refused);
  const absent = r.notCompared.filter((n) => !n.refused);
  if (refused.length) out.push(`Not compared (refused above): ${refused.map((n) => `${n.generated} (${n.refused})`).join(', ')}`);
  if (absent.length) out.push(`Not compared (no such file given): ${absent.map((n) => n.generated).join(', ')}`);
  out.push('');
  if (!r.findings.length) out.push('No findings.');
  for (const f of r.findings) {
    // A missing setting is reported on the block that should hold it, as in SARIF (report-sarif.mjs); its diff shows where it goes.
    out.push(`${f.file}:${f.rule === 'missing' ? (f.anchor ?? 1) : f.line}: ${f.severity}: [${f.rule}] ${f.setting ? `${f.setting}: ` : ''}${f.message}`);
    if (f.assumes) out.push(`  (depends on answers not detected: ${f.assumes.join(', ')}; pass --answers to set them)`);
    if (f.reason) out.push(`  why: ${f.reason}`);
    for (const e of f.evidence || []) out.push(`  see: ${e.label} <${e.url}>`);
    if (f.diff) out.push(f.diff.split('\n').map((l) => `    ${l}`).join('\n'));
  }
  const n = (s) => r.findings.filter((f) => f.severity === s).length;
  // The "note:" lines above (values the readers could not read) are counted too, so the summary matches what is printed.
  const unread = r.files.reduce((a, f) => a + f.notes.length, 0);
  out.push('', `${n('error')} error(s), ${n('warning')} warning(s), ${n('note')} note(s); ${r.problems.length} unreadable input(s)${unread ? `, ${unread} reading note(s)` : ''}.`);
  return `${terminalSafe(out.join('\n').split('\n').map(cut).join('\n'))}\n`;
}
