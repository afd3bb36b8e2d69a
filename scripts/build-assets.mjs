#!/usr/bin/env node
// Everything Jekyll cannot do, run before `jekyll build`: validate every dataset (nothing is
// published half-valid), render every chart to SVG, and write the dataset pages' HTML fragments,
// collection stubs and CSV/JSON downloads. Output paths are git-ignored; see .gitignore.
import { mkdirSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
import { datasetFiles, validateAll, formatProblem, loadVocabulary } from './lib/dataset-validate.mjs';
import { renderChart, layoutSpec } from './lib/chart-render.mjs';
import { figureHtml, datasetPageHtml, errataHtml, chartAsset, chartPointsAsset } from './lib/dataset-html.mjs';

const chartFile = (...a) => chartAsset(...a).slice(1);
const chartPointsFile = (...a) => chartPointsAsset(...a).slice(1);
import { toCsv } from './lib/dataset-cells.mjs';
import { chartIncludeProblems, pageFiles } from './lib/chart-includes.mjs';
import { checkRawOutput, formatRawProblem, publishRawOutput } from './lib/raw-output.mjs';
import { committedSymlinks } from './lib/source-symlinks.mjs';

const ROOT = new URL('../', import.meta.url).pathname;
const OUT = {
  stubs: join(ROOT, '_datasets'),
  includes: join(ROOT, '_includes/generated'),
  assets: join(ROOT, 'assets/generated'),
};

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

// Front matter values as JSON strings: JSON is valid YAML and escapes everything.
function frontMatter(obj) {
  return `---\n${Object.entries(obj).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n')}\n---\n`;
}

export async function buildAssets({ quiet = false } = {}) {
  const t0 = Date.now();
  // Raw output first (it is cheap): a pull request's .html or symbolic link there stops the build at once.
  const raw = [...checkRawOutput(ROOT).problems, ...committedSymlinks(ROOT)];
  if (raw.length) throw Object.assign(new Error(`${raw.length} problem(s) in raw-output/ or committed links; nothing was published:\n${raw.map(formatRawProblem).join('\n')}`), { problems: raw });
  const problems = validateAll();
  if (problems.length) {
    const msg = problems.map((p) => formatProblem(p)).join('\n');
    throw Object.assign(new Error(`${problems.length} dataset problem(s); nothing was published:\n${msg}`), { problems });
  }
  const vocabulary = loadVocabulary();
  const datasets = datasetFiles().map((f) => JSON.parse(readFileSync(f, 'utf8')));
  // Chart includes in pages name existing charts (Jekyll would fail later with a stack trace).
  const includeProblems = chartIncludeProblems(pageFiles(), datasets);
  if (includeProblems.length) {
    const msg = includeProblems.map((p) => formatProblem(p)).join('\n');
    throw Object.assign(new Error(`${includeProblems.length} chart include problem(s):\n${msg}`), { problems: includeProblems });
  }
  const titles = Object.fromEntries(datasets.map((d) => [d.id, d.title]));
  for (const dir of Object.values(OUT)) rmSync(dir, { recursive: true, force: true });

  let charts = 0;
  for (const d of datasets) {
    for (const chart of d.charts || []) {
      // Each chart twice (desktop and phone layouts), each layout in both themes; the light pass also
      // records where every value is drawn, for the hover/tap value layer.
      const sizes = {};
      for (const variant of ['wide', 'narrow']) {
        const spec = await layoutSpec(d, chart, variant);
        for (const theme of ['light', 'dark']) {
          const r = await renderChart(d, chart, { theme, variant, spec, points: theme === 'light' });
          write(join(ROOT, chartFile(d.id, chart.id, variant, theme)), r.svg);
          if (r.points) {
            sizes[variant] = { width: r.width, height: r.height };
            write(join(ROOT, chartPointsFile(d.id, chart.id, variant)), JSON.stringify({ width: r.width, height: r.height, points: r.points }));
          }
        }
      }
      write(join(OUT.includes, 'charts', `${d.id}--${chart.id}.html`), figureHtml(d, chart, sizes));
      write(join(OUT.includes, 'charts-full', `${d.id}--${chart.id}.html`), figureHtml(d, chart, sizes, { full: true }));
      charts++;
    }
    write(join(OUT.includes, 'datasets', `${d.id}.html`), datasetPageHtml(d, vocabulary, titles));
    write(join(OUT.includes, 'errata', `${d.id}.html`), errataHtml(d));
    write(join(OUT.assets, 'datasets', `${d.id}.csv`), toCsv(d));
    write(join(OUT.assets, 'datasets', `${d.id}.json`), `${JSON.stringify(d, null, 2)}\n`);
    write(join(OUT.stubs, `${d.id}.md`), frontMatter({
      layout: 'dataset',
      title: d.title,
      dataset: d.id,
      description: d.summary,
      topic: d.topic,
      topic_label: vocabulary.topics[d.topic],
      year: d.year,
      source: `${d.source.document}, ${d.source.location}`,
      tool: vocabulary.tools[d.method.tool],
      chart_count: (d.charts || []).length,
      permalink: `/datasets/${d.id}/`,
    }));
  }

  // Raw output is copied byte for byte into the site; Jekyll excludes the folder and keeps this copy (_config.yml).
  const rawFiles = publishRawOutput(ROOT, join(ROOT, '_site'));

  // The wizard page bundles its own scripts when present.
  const guideBuild = join(ROOT, 'scripts/build-guide.mjs');
  if (existsSync(guideBuild)) {
    const r = spawnSync(process.execPath, [guideBuild], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('scripts/build-guide.mjs failed');
  }
  if (!quiet) console.log(`build-assets: ${datasets.length} datasets, ${rawFiles} raw output files, ${charts} charts rendered in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { datasets: datasets.length, charts };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildAssets().catch((e) => { console.error(e.message); process.exit(1); });
}
