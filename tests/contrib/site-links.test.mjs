// In the built site: every dataset and article page links "Edit on GitHub" to its own source file
// and "Report a wrong number" to the Wrong number issue form with the page prefilled (the query
// names must be fields of that form); the footer links the repository; LICENSE, the data licence
// statement and CODEOWNERS are there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { ROOT } from './tools.mjs';

const SITE = join(ROOT, '_site');
const config = yaml.load(readFileSync(join(ROOT, '_config.yml'), 'utf8'));
const REPO = `https://github.com/${config.repository}`;
const decode = (s) => s.replace(/&amp;/g, '&');
const hrefs = (html) => [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => ({ href: decode(m[1]), text: m[2].trim() }));

function pages() {
  assert.ok(existsSync(join(SITE, 'index.html')), '_site is built (scripts/build) before the tests');
  const datasets = readdirSync(join(ROOT, '_data/datasets')).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
  const posts = readdirSync(join(ROOT, '_posts')).filter((f) => f.endsWith('.md')).map((f) => {
    const fm = yaml.load(readFileSync(join(ROOT, '_posts', f), 'utf8').split(/^---$/m)[1]);
    return { file: `_posts/${f}`, permalink: fm.permalink || `/articles/${f.replace(/^\d{4}-\d\d-\d\d-/, '').replace(/\.md$/, '')}/` };
  });
  return { datasets, posts };
}

function actions(html) {
  const links = hrefs(html);
  return { edit: links.find((l) => l.text === 'Edit on GitHub'), report: links.find((l) => l.text === 'Report a wrong number') };
}

test('config: one repository key, owner/name', () => {
  assert.match(config.repository, /^[\w.-]+\/[\w.-]+$/);
});

test('every dataset page: Edit on GitHub (its JSON file) and Report a wrong number (prefilled form)', () => {
  const form = yaml.load(readFileSync(join(ROOT, '.github/ISSUE_TEMPLATE/wrong-number.yml'), 'utf8'));
  const fields = new Set(form.body.map((b) => b.id).filter(Boolean));
  const { datasets } = pages();
  assert.ok(datasets.length > 0);
  for (const id of datasets) {
    const { edit, report } = actions(readFileSync(join(SITE, 'datasets', id, 'index.html'), 'utf8'));
    assert.equal(edit?.href, `${REPO}/edit/main/_data/datasets/${id}.json`, id);
    const url = new URL(report.href);
    assert.equal(`${url.origin}${url.pathname}`, `${REPO}/issues/new`);
    assert.equal(url.searchParams.get('template'), 'wrong-number.yml');
    assert.equal(url.searchParams.get('dataset'), id);
    assert.equal(url.searchParams.get('title'), `Wrong number: ${id}`);
    for (const k of url.searchParams.keys()) if (!['template', 'title', 'labels'].includes(k)) assert.ok(fields.has(k), `${k} is a field of the form`);
  }
});

test('every article page: Edit on GitHub (its Markdown file) and Report a wrong number naming the article', () => {
  const { posts } = pages();
  for (const { file, permalink } of posts) {
    const page = join(SITE, permalink, 'index.html');
    if (!existsSync(page)) continue; // a future-dated or unpublished post
    const { edit, report } = actions(readFileSync(page, 'utf8'));
    assert.equal(edit?.href, `${REPO}/edit/main/${file}`, file);
    const params = new URL(report.href).searchParams;
    assert.ok(params.get('dataset').endsWith(permalink), `${file}: the report names the article (${params.get('dataset')})`);
    assert.match(params.get('title'), /^Wrong number: \S/);
    assert.doesNotMatch(params.get('title'), /https?:/, 'the issue title is the article title, not its address');
  }
  assert.ok(posts.some((p) => existsSync(join(SITE, p.permalink, 'index.html'))), 'articles were checked');
});

test('footer links the repository; LICENSE, data licence statement and CODEOWNERS exist', () => {
  const home = readFileSync(join(SITE, 'index.html'), 'utf8');
  assert.ok(hrefs(home).some((l) => l.href === REPO && /GitHub/.test(l.text)), 'footer: Source on GitHub');
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /^MIT License/);
  assert.equal(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).license, 'MIT');
  const about = readFileSync(join(SITE, 'about/index.html'), 'utf8');
  assert.match(about, /CC-BY-4\.0/);
  assert.match(about, /keep their source(&#39;|'|’)s terms/);
  const owners = readFileSync(join(ROOT, '.github/CODEOWNERS'), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  for (const line of owners) {
    const [pattern, ...who] = line.trim().split(/\s+/);
    assert.ok(who.length && who.every((w) => /^@[\w-]+(\/[\w-]+)?$/.test(w)), line);
    // raw-output/ appears with the first imported dataset; every other path must exist (no typos).
    if (pattern !== '*' && pattern !== '/raw-output/') assert.ok(existsSync(join(ROOT, pattern.replace(/^\//, ''))), `${pattern} exists`);
  }
});
