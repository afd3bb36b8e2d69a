// The pull-request preview, built without any secret on the pull request's own (untrusted) code:
// for every dataset the pull request adds or changes, its validation result, its charts (SVG as
// the site draws them, PNG for the comment) and its data diff against the base branch; pages from
// a built _site when given. Everything lands in one directory that CI uploads as an artifact; the
// comment is written later by trusted code from manifest.json (see comment.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, cpSync, readdirSync, statSync } from 'node:fs';
import { join, basename } from 'node:path';
import { validateDataset, tooLarge } from '../dataset-validate.mjs';
import { renderChartSvg } from '../chart-render.mjs';
import { diffRows } from '../dataset-diff.mjs';
import { checkRawOutput } from '../raw-output.mjs';
import { DATASET_LIMITS } from '../dataset-limits.mjs';

const DIR = '_data/datasets';
export const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const git = (root, args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });

// The commit to compare with: where the pull request branched off `base`.
export function mergeBase(root, base) {
  return git(root, ['merge-base', 'HEAD', base]).trim();
}

// [{ id, status: 'added' | 'changed' | 'removed' }] between the base commit and the working tree.
export function changedDatasets(root, baseSha) {
  const out = [];
  for (const line of git(root, ['diff', '--name-status', '--no-renames', baseSha, '--', DIR]).split('\n')) {
    const m = /^([AMD])\t(.+\.json)$/.exec(line);
    if (m && !m[2].slice(DIR.length + 1).includes('/')) out.push({ id: basename(m[2], '.json'), status: { A: 'added', M: 'changed', D: 'removed' }[m[1]] });
  }
  for (const f of git(root, ['ls-files', '--others', '--exclude-standard', '--', DIR]).split('\n')) {
    if (/\.json$/.test(f) && !f.slice(DIR.length + 1).includes('/')) out.push({ id: basename(f, '.json'), status: 'added' });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

function baseVersion(root, baseSha, id) {
  try { return JSON.parse(git(root, ['show', `${baseSha}:${DIR}/${id}.json`])); } catch { return null; }
}

async function svgToPng(svg) {
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg), { density: 144 }).flatten({ background: '#ffffff' }).png().toBuffer();
}

// Copies a built site's page, charts and downloads of one dataset, with the stylesheets.
function copyPages(site, out, id) {
  const parts = [`datasets/${id}`, `assets/generated/charts/${id}`, `assets/generated/datasets/${id}.csv`, `assets/generated/datasets/${id}.json`, 'assets/css'];
  for (const p of parts) if (existsSync(join(site, p))) cpSync(join(site, p), join(out, 'site', p), { recursive: true });
  return existsSync(join(site, `datasets/${id}/index.html`)) ? `site/datasets/${id}/index.html` : null;
}

export async function buildPreview({ root, base, out, site = null, pr = null, headSha = null }) {
  const baseSha = mergeBase(root, base);
  const vocabulary = JSON.parse(readFileSync(join(root, '_data/vocabulary.json'), 'utf8'));
  const knownIds = new Set(existsSync(join(root, DIR)) ? readdirSync(join(root, DIR)).filter((f) => f.endsWith('.json')).map((f) => basename(f, '.json')) : []);
  mkdirSync(join(out, 'charts'), { recursive: true });
  const datasets = [];
  for (const { id, status } of changedDatasets(root, baseSha)) {
    if (!ID.test(id)) continue; // a file name the site would reject anyway; never used in a path
    const before = status === 'added' ? null : baseVersion(root, baseSha, id);
    if (status === 'removed') { datasets.push({ id, status, title: before?.title ?? id, problems: [], charts: [], diff: before ? diffRows(before, { columns: before.columns, rows: [] }) : null }); continue; }
    const file = join(root, DIR, `${id}.json`);
    // Never read a file past the size limit whole.
    const size = statSync(file).size;
    const text = size > DATASET_LIMITS.bytes ? null : readFileSync(file, 'utf8');
    const problems = (text === null ? [tooLarge(file, size)] : validateDataset({ file, text, vocabulary, knownIds })).map((p) => ({ line: p.line, column: p.column, field: p.field, message: p.message, fix: p.fix }));
    const entry = { id, status, title: null, problems, charts: [], diff: null, page: null };
    datasets.push(entry);
    if (problems.length) continue; // nothing half-valid is drawn, as on the site
    const data = JSON.parse(text);
    entry.title = data.title;
    entry.diff = diffRows(before, data);
    for (const chart of data.charts || []) {
      if (!ID.test(chart.id)) continue;
      const name = `${id}--${chart.id}`;
      const light = await renderChartSvg(data, chart, 'light');
      const dark = await renderChartSvg(data, chart, 'dark');
      writeFileSync(join(out, 'charts', `${name}-light.svg`), light.svg);
      writeFileSync(join(out, 'charts', `${name}-dark.svg`), dark.svg);
      writeFileSync(join(out, 'charts', `${name}.png`), await svgToPng(light.svg));
      entry.charts.push({ id: chart.id, title: chart.title, alt: chart.alt, png: `charts/${name}.png` });
    }
    if (site) entry.page = copyPages(site, out, id);
  }
  const manifest = {
    format: 'scaling-rails/preview@1',
    pr: pr === null ? null : Number(pr),
    head_sha: headSha || git(root, ['rev-parse', 'HEAD']).trim(),
    base_sha: baseSha,
    datasets,
    // Files in raw-output/ the site refuses to publish (the build stops on them), with the reason.
    raw_output: checkRawOutput(root).problems.slice(0, 200),
  };
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
