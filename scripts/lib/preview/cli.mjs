// scripts/preview build|comment: see build.mjs and comment.mjs. Usage printed by --help.
import { mkdirSync, copyFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const HELP = `Usage:
  scripts/preview build [--base REF] [--out DIR] [--site DIR] [--pr N] [--root DIR]
      For each dataset the current branch adds, changes or removes against REF (default
      origin/main): validation, charts (SVG and PNG), data diff; with --site (a built _site)
      its page too. Writes DIR/manifest.json (default DIR: preview/).
  scripts/preview comment --dir DIR --pr N --head-sha SHA --images-url URL --run-url URL [--publish DIR]
      Writes the pull-request comment (Markdown) to stdout from a preview built by "build";
      with --publish, copies the verified chart PNGs there for hosting at --images-url.`;

function options(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([\w-]+)$/.exec(argv[i]);
    if (!m) throw new Error(`unexpected argument ${argv[i]} (see --help)`);
    if (m[1] === 'help') { o.help = true; continue; }
    if (argv[i + 1] === undefined) throw new Error(`${argv[i]} needs a value`);
    o[m[1]] = argv[++i];
  }
  return o;
}

const [, , command, ...rest] = process.argv;
try {
  const o = options(rest);
  if (o.help || !command || command === '--help') console.log(HELP);
  else if (command === 'build') {
    const { buildPreview } = await import('./build.mjs');
    const root = resolve(o.root || process.cwd());
    const out = resolve(o.out || join(root, 'preview'));
    const m = await buildPreview({ root, base: o.base || 'origin/main', out, site: o.site ? resolve(o.site) : null, pr: o.pr ?? null });
    console.log(`preview: ${m.datasets.length} dataset(s) changed against ${m.base_sha.slice(0, 7)}; ${m.datasets.reduce((n, d) => n + d.charts.length, 0)} chart(s); ${m.datasets.filter((d) => d.problems?.length).length} with problems → ${out}`);
  } else if (command === 'comment') {
    const { previewComment } = await import('./comment.mjs');
    for (const k of ['dir', 'pr', 'head-sha', 'images-url', 'run-url']) if (!o[k]) throw new Error(`--${k} is required`);
    const { markdown, images } = previewComment({ dir: resolve(o.dir), pr: o.pr, headSha: o['head-sha'], imagesUrl: o['images-url'], runUrl: o['run-url'] });
    if (o.publish) {
      mkdirSync(o.publish, { recursive: true });
      for (const img of images) copyFileSync(img.file, join(o.publish, img.name));
    }
    if (o.output) writeFileSync(o.output, markdown); else process.stdout.write(markdown);
  } else throw new Error(`unknown command "${command}" (build or comment)`);
} catch (e) {
  console.error(`preview: ${e.message}`);
  process.exitCode = 2;
}
