// Writes the sticky pull-request comment from a preview artifact. This runs in the trusted
// workflow_run job, which holds a write token, on files made by the pull request's untrusted code:
// so it imports nothing from node_modules, executes nothing from the artifact, accepts only an artifact whose
// manifest has exactly the expected shape and whose images decode in full as PNGs (manifest.mjs, png.mjs),
// and otherwise refuses it whole; it checks that the artifact belongs to the
// pull request and commit the event names, and escapes every text it copies into the comment.
import { join } from 'node:path';
import { readManifest } from './manifest.mjs';

export const MARKER = '<!-- scaling-rails-preview -->';
const LIMITS = { charts: 8, rows: 25, problems: 20, text: 300, comment: 55000 };

// Text from the artifact, made inert: no HTML, no Markdown, no @mentions, no autolinks, one line.
export function esc(value, max = LIMITS.text) {
  let s = String(value ?? '').replace(/\s+/g, ' ').trim();
  if (s.length > max) s = `${s.slice(0, max - 1)}…`;
  return s
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
    .replace(/[\\`*_{}[\]()#+\-.!|~:]/g, (c) => `\\${c}`)
    .replace(/@/g, '@\u200b');
}

// → { markdown, images: [{ file, name }] } — images are the verified PNGs to publish under imagesUrl.
export function previewComment({ dir, pr, headSha, imagesUrl, runUrl }) {
  // Strict: any field, path, count or image outside what build.mjs writes refuses the artifact (manifest.mjs).
  const { manifest } = readManifest(dir);
  if (Number(manifest.pr) !== Number(pr)) throw new Error(`the artifact is for pull request ${esc(manifest.pr)}, not ${Number(pr)}`);
  if (manifest.head_sha !== headSha) throw new Error('the artifact was not built from the commit the workflow run tested');
  const images = [];
  const out = [MARKER, `### Dataset preview for ${String(headSha).slice(0, 7).replace(/[^0-9a-f]/g, '')}`, ''];
  const list = manifest.datasets.map((d) => ({ ...d, charts: d.charts || [] }));
  const raw = manifest.raw_output || [];
  if (raw.length) {
    out.push('**raw-output/ has files the site will not publish** (the build stops on them; `scripts/validate` prints the same):', '');
    for (const p of raw.slice(0, LIMITS.problems)) out.push(`- ${esc(p.file, 200)}: ${esc(p.reason)} — fix: ${esc(p.fix)}`);
    if (raw.length > LIMITS.problems) out.push(`- … and ${raw.length - LIMITS.problems} more`);
    out.push('');
  }
  if (!list.length) out.push('This pull request changes no dataset.');
  else {
    out.push('| Dataset | Change | Rows added / removed / changed | Charts | Problems |', '| --- | --- | --- | --- | --- |');
    for (const d of list) {
      const diff = d.diff || {};
      const n = (a) => (Array.isArray(a) ? a.length : 0);
      const status = ['added', 'changed', 'removed'].includes(d.status) ? d.status : 'changed';
      out.push(`| \`${d.id}\` | ${status} | ${d.diff ? `${n(diff.added)} / ${n(diff.removed)} / ${n(diff.changed)}` : '—'} | ${n(d.charts)} | ${n(d.problems) ? `**${n(d.problems)}**` : '0'} |`);
    }
  }
  // GitHub refuses comments over 65536 characters: sections stop before that, the artifact has all.
  const size = () => out.reduce((n, l) => n + l.length + 1, 0);
  for (const [i, d] of list.entries()) {
    if (size() > LIMITS.comment) { out.push('', `… and ${list.length - i} more dataset(s): see the artifact.`); break; }
    out.push('', `#### \`${d.id}\`${d.title ? ` — ${esc(d.title)}` : ''}`);
    const problems = Array.isArray(d.problems) ? d.problems.slice(0, LIMITS.problems) : [];
    if (problems.length) {
      out.push('', 'Not published until fixed (`scripts/validate` prints the same):', '');
      for (const p of problems) out.push(`- line ${Number(p.line) || 1}, column ${Number(p.column) || 1}, ${esc(p.field, 120)}: ${esc(p.message)} — fix: ${esc(p.fix)}`);
    }
    const diff = d.diff;
    if (diff) {
      const rows = [];
      for (const k of (diff.columnsAdded || []).slice(0, LIMITS.rows)) rows.push(`| + column | ${esc(k)} | |`);
      for (const k of (diff.columnsRemoved || []).slice(0, LIMITS.rows)) rows.push(`| − column | ${esc(k)} | |`);
      for (const k of (diff.added || []).slice(0, LIMITS.rows)) rows.push(`| + row | ${esc(k)} | |`);
      for (const k of (diff.removed || []).slice(0, LIMITS.rows)) rows.push(`| − row | ${esc(k)} | |`);
      for (const c of (diff.changed || []).slice(0, LIMITS.rows)) {
        rows.push(`| ~ row | ${esc(c.key)} | ${(c.cells || []).slice(0, 6).map((x) => `${esc(x.column, 60)}: ${esc(x.from, 60)} → ${esc(x.to, 60)}`).join('<br>')} |`);
      }
      if (rows.length) out.push('', '<details><summary>Data diff against the base branch</summary>', '', '| | Row or column | Cells |', '| --- | --- | --- |', ...rows, '', '</details>');
      else if (d.status !== 'removed') out.push('', 'Rows unchanged (only text or charts changed).');
    }
    for (const c of d.charts) {
      const name = `${d.id}--${c.id}.png`;
      images.push({ file: join(dir, 'charts', name), name });
      out.push('', `![${esc(c.alt || c.title)}](${imagesUrl}/${name})`, `*${esc(c.title)}*`);
    }
  }
  out.push('', `Pages, light and dark SVGs and the downloads: the \`preview\` artifact of [this run](${runUrl}). Serve its \`site/\` folder with any static server to browse it.`);
  let markdown = `${out.join('\n')}\n`;
  if (markdown.length > 65000) markdown = `${markdown.slice(0, 64000)}\n\n… cut to GitHub's comment size limit; see the artifact.\n`;
  return { markdown, images };
}
