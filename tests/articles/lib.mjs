// Shared loaders for the article tests. Front matter is parsed from the raw files with js-yaml's
// CORE_SCHEMA (dates stay strings), never through Jekyll, so _config.yml defaults cannot hide a
// missing field. SITE_DIR overrides the built site directory (default: _site).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const SITE = process.env.SITE_DIR || join(ROOT, '_site');
export const POSTS_DIR = join(ROOT, '_posts');
export const POST_NAME = /^(\d{4}-\d{2}-\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

/** Split a Markdown file into its raw front matter (object) and body. Throws if there is none. */
export function splitFrontMatter(text, file = '') {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`${file}: no YAML front matter between --- lines`);
  const data = yaml.load(m[1], { schema: yaml.CORE_SCHEMA, filename: file }) ?? {};
  return { data, body: m[2], bodyLine: m[1].split('\n').length + 3 };
}

export function loadPosts() {
  return readdirSync(POSTS_DIR).filter((f) => !f.startsWith('.')).sort().map((name) => {
    const file = join('_posts', name);
    const text = readFileSync(join(ROOT, file), 'utf8');
    const m = POST_NAME.exec(name);
    const { data, body, bodyLine } = splitFrontMatter(text, file);
    return { name, file, text, date: m?.[1], slug: m?.[2], data, body, bodyLine };
  });
}

export function loadDatasets() {
  const dir = join(ROOT, '_data/datasets');
  const out = new Map();
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    out.set(f.slice(0, -5), JSON.parse(readFileSync(join(dir, f), 'utf8')));
  }
  return out;
}

export function loadSeries() {
  return yaml.load(readFileSync(join(ROOT, '_data/series.yml'), 'utf8'), { schema: yaml.CORE_SCHEMA });
}

export function loadVocabulary() {
  return JSON.parse(readFileSync(join(ROOT, '_data/vocabulary.json'), 'utf8'));
}

/** Body with fenced code blocks blanked out (line count kept), so code is not read as prose or markup. */
export function withoutCode(body) {
  return body.replace(/^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm, (block) => block.replace(/[^\n]/g, ''));
}

/** Every {% include chart.html dataset="…" chart="…" %} in a body, with its line number. */
export function chartIncludes(body) {
  const out = [];
  const re = /\{%-?\s*include\s+chart\.html\s+([^%]*?)-?%\}/g;
  const lines = body.split('\n');
  lines.forEach((line, i) => {
    for (const m of line.matchAll(re)) {
      const args = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
      out.push({ line: i + 1, dataset: args.dataset, chart: args.chart, raw: m[0] });
    }
  });
  return out;
}

/** Markdown sections by level-2 heading: [{title, text}] in order (the part before the first heading is title ''). */
export function sections(body) {
  const parts = withoutCode(body).split(/^## +/m);
  return parts.map((p, i) => (i === 0 ? { title: '', text: p } : { title: p.split('\n')[0].trim(), text: p.slice(p.indexOf('\n') + 1) }));
}
