// How articles name their sources: no internal words for the research files ("seed 000", "the
// seeds", "seed copy", file names), the thesis cited in full once per article that uses it (author,
// title, institution, year), and every paragraph that names a post, blog or booklet by title links
// it or the dataset that records it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosts, withoutCode } from './lib.mjs';
import { units } from './numbers-lib.mjs';

const posts = loadPosts();
const JARGON = /\bseeds?\s+(?:file|files|copy|copies|text|texts|document|documents|0{2}\d|00[0-4])\b|\bthe seeds\b|\bseeds? 00\d\b|\b00[0-4]_[0-9a-f]{8,}\b|\bseed_file\b/i;
const THESIS_TITLE = '*Scaling Rails: a system-wide approach to performance optimization*';

/** Prose of a post plus its do-now actions, without code. */
const prose = (p) => `${withoutCode(p.body).replace(/`[^`\n]*`/g, ' ')}\n${(p.data.do_now || []).map((d) => `${d.action} ${d.evidence}`).join('\n')}`;

export function jargonIn(text) {
  return text.split('\n').filter((l) => JARGON.test(l));
}

test('no internal words for the research sources', () => {
  const bad = posts.flatMap((p) => jargonIn(prose(p)).map((l) => `${p.file}: ${l.trim().slice(0, 120)}`));
  assert.deepEqual(bad, [], 'cite the thesis or post by author, title and link instead');
});

test('the jargon check catches the words it is meant to catch', () => {
  for (const s of ['as seed 000 says', 'the seeds contain no experiment', 'in the seed copy', 'file 001_78e783af6e72a928.txt']) assert.equal(jargonIn(s).length, 1, s);
  for (const s of ['the random seed of the request mix', 'Seeds of the database (db/seeds.rb)']) assert.equal(jargonIn(s).length, 0, s);
});

export function thesisCitationProblems(text) {
  if (!/\bthesis\b/i.test(text)) return [];
  const out = [];
  if (!text.includes('Gonçalo Santarém da Silva')) out.push('name the thesis author, Gonçalo Santarém da Silva');
  if (!text.includes(THESIS_TITLE)) out.push(`give the thesis title in italics, ${THESIS_TITLE}`);
  if (!/FEUP|Faculdade de Engenharia/.test(text) || !/University of Porto|Universidade do Porto/.test(text)) out.push('name the institution (FEUP, University of Porto)');
  if (!/\b2010\b/.test(text)) out.push('give the year, 2010');
  return out;
}

for (const p of posts) {
  test(`${p.file}: sources are cited with author, title and a link`, () => {
    const text = prose(p);
    assert.deepEqual(thesisCitationProblems(text), [], `${p.file}: cite the thesis in full once`);
    const unlinked = [];
    for (const u of units(p.body, p.bodyLine)) {
      // The thesis has no stable public URL; it is checked by thesisCitationProblems instead.
      const t = u.text.replace(/`[^`\n]*`/g, ' ').split(THESIS_TITLE).join(' ');
      const titled = /(^|[\s(])\*[A-Z][^*\n]{6,}\*/.test(t) && /\b(?:post|posts|blog|booklet)\b/i.test(t);
      if (titled && !/\]\((?:https?:|\{\{ '\/datasets\/)|<https?:\/\//.test(t)) unlinked.push(`${p.file}:${u.line}`);
    }
    assert.deepEqual(unlinked, [], 'a paragraph that names a post or blog by title must link it or its dataset page');
  });
}

test('the citation checks reject incomplete citations', () => {
  assert.deepEqual(thesisCitationProblems('No thesis here? Only a thesis word.').length, 4);
  assert.deepEqual(thesisCitationProblems(`Gonçalo Santarém da Silva, ${THESIS_TITLE}, FEUP, University of Porto, 2010.`), []);
  assert.deepEqual(thesisCitationProblems('A post about Ruby.'), []);
});
