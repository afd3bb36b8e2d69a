// Every post's RAW front matter is valid against schemas/article-front-matter.schema.json, and the
// cross-file rules a schema cannot express hold: topic from the vocabulary, dataset ids that exist,
// a permalink and date that match the file name, wizard answers the wizard engine accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { ROOT, loadPosts, loadDatasets, loadVocabulary, splitFrontMatter } from './lib.mjs';
import { parseAnswers } from '../../guide/engine/answers.mjs';

const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/article-front-matter.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(schema);
const posts = loadPosts();
const datasets = loadDatasets();
const topics = Object.keys(loadVocabulary().topics);

function schemaErrors(data) {
  return validate(data) ? [] : validate.errors.map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params?.additionalProperty ? ` "${e.params.additionalProperty}"` : ''}`);
}

test('there are at least 13 posts and every file name is YYYY-MM-DD-slug.md', () => {
  assert.ok(posts.length >= 13, `expected at least 13 posts in _posts/, found ${posts.length}`);
  for (const p of posts) assert.ok(p.slug, `${p.file}: rename to YYYY-MM-DD-lowercase-slug.md`);
});

for (const p of posts) {
  test(`${p.file}: raw front matter matches the schema`, () => {
    assert.deepEqual(schemaErrors(p.data), [], `${p.file}: fix the front matter fields listed (schema: schemas/article-front-matter.schema.json)`);
  });

  test(`${p.file}: front matter agrees with the file name, vocabulary, datasets and wizard`, () => {
    assert.equal(p.data.date, p.date, `${p.file}: date must equal the date in the file name`);
    assert.equal(p.data.permalink, `/articles/${p.slug}/`, `${p.file}: permalink must be /articles/${p.slug}/`);
    assert.ok(topics.includes(p.data.topic), `${p.file}: topic "${p.data.topic}" is not one of ${topics.join(', ')}`);
    for (const id of p.data.datasets) {
      assert.ok(datasets.has(id), `${p.file}: datasets lists "${id}", but _data/datasets/${id}.json does not exist`);
    }
    const { notes, unknown } = parseAnswers(p.data.wizard);
    assert.equal(unknown, 0, `${p.file}: wizard "${p.data.wizard}" has a key the wizard does not know`);
    assert.deepEqual(notes, [], `${p.file}: the wizard engine rejects part of "${p.data.wizard}"`);
  });
}

test('series_order and permalinks are unique across posts', () => {
  const orders = posts.map((p) => p.data.series_order);
  assert.equal(new Set(orders).size, orders.length, `duplicate series_order in ${orders.join(', ')}`);
  const links = posts.map((p) => p.data.permalink);
  assert.equal(new Set(links).size, links.length, 'two posts share a permalink');
});

test('the schema rejects broken front matter (it is not vacuous)', () => {
  const good = posts[0].data;
  assert.deepEqual(schemaErrors(good), []);
  const cases = [
    [{ ...good, title: undefined }, /required property 'title'/],
    [{ ...good, extra: 1 }, /additional properties "extra"/],
    [{ ...good, layout: 'post' }, /\/layout must be equal to constant/],
    [{ ...good, series_order: '1' }, /\/series_order must be integer/],
    [{ ...good, has_data: 'yes' }, /\/has_data must be boolean/],
    [{ ...good, date: '2025-01-01' }, /\/date must match pattern/],
    [{ ...good, datasets: ['Bad Id'] }, /\/datasets\/0 must match pattern/],
    [{ ...good, datasets: ['a', 'a'] }, /\/datasets must NOT have duplicate items/],
    [{ ...good, wizard: 'server=<script>' }, /\/wizard must match pattern/],
    [{ ...good, description: 'two\nlines that are long enough to pass the minimum length rule' }, /\/description must match pattern/],
  ];
  for (const [data, re] of cases) {
    const clean = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
    const errors = schemaErrors(clean).join('; ');
    assert.match(errors, re);
  }
});

test('raw front matter is read without Jekyll defaults: a post missing layout fails', () => {
  // _config.yml sets layout: article for posts by default; the raw parse must still see it missing.
  const { data } = splitFrontMatter('---\ntitle: "A title long enough"\n---\nBody\n', 'fixture.md');
  assert.equal(data.layout, undefined);
  assert.match(schemaErrors(data).join('; '), /required property 'layout'/);
});
