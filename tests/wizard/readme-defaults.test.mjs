// README states the wizard's default stack in words; this keeps those words equal to the defaults in
// guide/engine/questions.mjs, and the end-of-life remark equal to what the engine says for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { QUESTIONS } from '../../guide/engine/questions.mjs';
import { generate } from '../../guide/engine/index.mjs';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

test('README names the wizard\'s default versions, and says whether the default Rails is past its end of life', () => {
  const d = Object.fromEntries(QUESTIONS.map((q) => [q.key, q.default]));
  const m = /missing keys take the defaults of `guide\/engine\/questions\.mjs` \(([^)]*)\)/.exec(README);
  assert.ok(m, 'README: the sentence that names the defaults');
  const family = { 'debian-12': 'Debian 12', 'debian-13': 'Debian 13' }[d.distro] ?? d.distro;
  const expected = `${family}, CRuby ${d.ruby_version}, Rails ${d.rails}, Puma ${d.server_version}, nginx ${d.proxy_version}, PostgreSQL ${d.database_version}`;
  assert.equal(d.ruby, 'cruby');
  assert.equal(d.server, 'puma');
  assert.equal(d.proxy, 'nginx');
  assert.equal(d.database, 'postgresql');
  assert.ok(m[1].startsWith(expected), `README says "${m[1]}", the defaults are "${expected}"`);
  const eol = generate({}, { date: new Date().toISOString().slice(0, 10) }).warnings.some((w) => w.id === 'rails-end-of-life');
  assert.equal(/past its end of life/.test(m[1]), eol, eol ? 'the engine warns that the default Rails is past its end of life: README must say so' : 'README says the default Rails is past its end of life; the engine does not');
});
