// Prose checks with kept tools and real sources:
// 1. cspell (npm devDependency) spell-checks every post and the series index with the project word
//    list (cspell.json, .cspell/project-words.txt), and provably fails on a misspelling.
// 2. Own words: no run of 9 consecutive words in an article's prose (code blocks, Liquid, link
//    targets, cited titles and short attributed quotations removed) appears in the seed texts
//    (../shared/seeds), so nothing is copied from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, loadPosts, withoutCode } from './lib.mjs';

const CSPELL = join(ROOT, 'node_modules/.bin/cspell');
const SEEDS = process.env.SEEDS_DIR || join(ROOT, '../shared/seeds');
const N = 9;

function cspell(args, input) {
  return spawnSync(CSPELL, ['--no-progress', '--no-color', '--config', join(ROOT, 'cspell.json'), ...args], {
    cwd: ROOT, input, encoding: 'utf8', timeout: 120000,
  });
}

test('cspell: every post and the series index are spelt correctly', () => {
  assert.ok(existsSync(CSPELL), `${CSPELL} is missing: npm ci installs cspell`);
  const r = cspell(['_posts/**/*.md', '_data/series.yml']);
  assert.equal(r.error, undefined, String(r.error));
  assert.equal(r.status, 0, `cspell found problems; fix the spelling or add real words to .cspell/project-words.txt:\n${r.stdout}${r.stderr}`);
  assert.match(r.stderr + r.stdout, /Files checked: (1[3-9]|[2-9]\d)/, 'cspell checked the posts');
});

test('cspell: the configuration still catches misspellings and ignores code', () => {
  assert.ok(existsSync(CSPELL), `${CSPELL} is missing: npm ci installs cspell`);
  const bad = cspell(['stdin://probe.md'], 'Rails perfomance depends on the proxxy.\n');
  assert.equal(bad.status, 1, 'a misspelt sentence must fail');
  assert.match(bad.stdout, /perfomance/);
  assert.match(bad.stdout, /proxxy/);
  const code = cspell(['stdin://probe.md'], 'Set `net.ipv4.tcp_tw_recyclx` in YARV with epoll.\n\n```ruby\nqwxzv = 1\n```\n');
  assert.equal(code.status, 0, `inline and fenced code are not spell-checked:\n${code.stdout}`);
});

function words(text) {
  return text.toLowerCase().normalize('NFKD').replace(/[\u2018\u2019]/g, "'").match(/[a-z0-9']+/g) ?? [];
}

/**
 * Prose of a post: no code, Liquid, HTML tags or link targets, and no cited titles (*in italics*)
 * or attributed quotations ("in quotes"), which name a source rather than copy it.
 */
export function prose(body) {
  return withoutCode(body)
    .replace(/\{[{%][\s\S]*?[}%]\}/g, ' ')
    .replace(/(^|[\s(])\*[^*\n]+\*/g, '$1 ')
    .replace(/"[^"\n]{1,120}"|\u201c[^\u201d\n]{1,120}\u201d/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/`[^`\n]*`/g, ' ');
}

export function shingles(ws, n = N) {
  const out = new Set();
  for (let i = 0; i + n <= ws.length; i++) out.add(ws.slice(i, i + n).join(' '));
  return out;
}

const seedsAvailable = existsSync(SEEDS);
test(`own words: no ${N}-word run of any article appears in the seed texts`, { skip: !seedsAvailable && `seed texts not found at ${SEEDS} (set SEEDS_DIR)` }, () => {
  const seed = new Set();
  for (const f of readdirSync(SEEDS)) for (const s of shingles(words(readFileSync(join(SEEDS, f), 'utf8')))) seed.add(s);
  assert.ok(seed.size > 10000, 'seed texts were read');
  const copied = [];
  for (const p of loadPosts()) {
    for (const s of shingles(words(prose(p.body)))) if (seed.has(s)) copied.push(`${p.file}: "${s}"`);
  }
  assert.deepEqual(copied, [], 'rewrite these passages in your own words');
});

test('own words: the check detects a copied sentence', () => {
  const source = 'Gentoo showed an excellent behavior when scaling and was the only distribution to cope';
  const article = `In our words: ${source}, which we quote.`;
  const a = shingles(words(prose(article)));
  const s = shingles(words(source));
  assert.ok([...a].some((x) => s.has(x)));
  const rewritten = shingles(words('Gentoo kept up as load grew, and no other system finished the test.'));
  assert.ok(![...rewritten].some((x) => s.has(x)));
});
