// Checks every `{% include chart.html dataset="…" chart="…" %}` in the site's pages against the
// datasets' declared charts before Jekyll runs. Jekyll would stop at a wrong id with a Ruby stack
// trace about a missing generated include; this names the page, line and column and lists the ids.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { didYouMean } from './dataset-rules.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
// Not pages, or generated: never scanned. _includes/chart.html documents the include in a comment.
const SKIP = new Set(['node_modules', 'vendor', '_site', 'tests', 'scripts', 'schemas', 'tmp', '.git', '.lab', '_datasets', 'generated', 'raw-output', 'measurements', 'preview']);
const SKIP_FILES = new Set(['README.md', 'CONTRIBUTING.md', '_includes/chart.html']);
const INCLUDE = /\{%-?\s*include\s+chart\.html\b([^%]*)-?%\}/g;

export function pageFiles(root = ROOT, dir = root) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name) || (e.name.startsWith('.') && e.isDirectory())) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...pageFiles(root, path));
    else if (/\.(md|markdown|html)$/.test(e.name) && !SKIP_FILES.has(relative(root, path))) out.push(path);
  }
  return out.sort();
}

// Liquid comments and raw blocks show includes without running them.
function blank(text) {
  return text.replace(/\{%-?\s*(comment|raw)\s*-?%\}[\s\S]*?\{%-?\s*end\1\s*-?%\}/g, (m) => m.replace(/[^\n]/g, ' '));
}

// datasets: [{ id, charts: [{ id }] }] → problems [{ file, line, column, field, message, fix }]
export function chartIncludeProblems(files, datasets) {
  const charts = new Map(datasets.map((d) => [d.id, (d.charts || []).map((c) => c.id)]));
  const problems = [];
  for (const file of files) {
    const text = blank(readFileSync(file, 'utf8'));
    for (const m of text.matchAll(INCLUDE)) {
      const before = text.slice(0, m.index);
      const line = before.split('\n').length;
      const column = m.index - before.lastIndexOf('\n');
      const args = Object.fromEntries([...m[1].matchAll(/(\w+)\s*=\s*"([^"]*)"/g)].map((a) => [a[1], a[2]]));
      const add = (message, fix) => problems.push({ file, line, column, field: 'include chart.html', message, fix });
      if (!args.dataset || !args.chart) {
        if (!/\w+\s*=\s*[^"\s]/.test(m[1])) add('needs dataset="…" and chart="…"', 'write {% include chart.html dataset="DATASET-ID" chart="CHART-ID" %}');
        continue; // an id from a Liquid variable cannot be checked here
      }
      if (!charts.has(args.dataset)) {
        const guess = didYouMean(args.dataset, [...charts.keys()]);
        add(`dataset "${args.dataset}" does not exist`, `${guess ? `did you mean "${guess}"? ` : ''}use the id of a file in _data/datasets/`);
      } else if (!charts.get(args.dataset).includes(args.chart)) {
        const ids = charts.get(args.dataset);
        const guess = didYouMean(args.chart, ids);
        add(`dataset "${args.dataset}" has no chart "${args.chart}"`, ids.length ? `${guess ? `did you mean "${guess}"? ` : ''}its charts are: ${ids.join(', ')}` : 'that dataset declares no charts; add one to its "charts" or pick another dataset');
      }
    }
  }
  return problems;
}
