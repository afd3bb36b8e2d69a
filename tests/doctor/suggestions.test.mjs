// Suggested lines must run in the app they are written for (issue 25, user trial): a `[differs] threads`
// suggestion wrote the wizard's own local `max_threads` into apps that never define it, and Puma raised
// NameError when it loaded the config. (Every Ruby diff on the whole corpus is applied and read again in
// corpus.test.mjs, with undefinedInSuggestions from helpers.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runApp } from '../../scripts/lib/doctor-corpus.mjs';
import { readFile } from '../../guide/check/read.mjs';
import { ownLocals } from '../../guide/check/compare.mjs';

test('campfire and vita-min: the threads suggestion uses no name the file does not define', () => {
  for (const app of ['campfire', 'vita-min']) {
    const f = runApp(app).report.findings.find((x) => x.setting === 'threads' && x.rule === 'differs');
    assert.ok(f?.diff, `${app}: a threads suggestion`);
    const added = f.diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
    assert.deepEqual(added, ['+threads 3, 3'], app);
  }
});

test('a local the app defines from the same ENV variable and value is kept by name', () => {
  const gen = readFile({ path: 'config/puma.rb', kind: 'puma', text: 'max_threads = Integer(ENV.fetch("RAILS_MAX_THREADS") { 3 })\nthreads max_threads, max_threads\n' }).assigns;
  const same = readFile({ path: 'config/puma.rb', kind: 'puma', text: 'n = ENV.fetch("RAILS_MAX_THREADS") { 3 }\nthreads 1, n\n' }).assigns;
  assert.deepEqual(ownLocals(['threads max_threads, max_threads'], gen, same), ['threads n, n']);
  const other = readFile({ path: 'config/puma.rb', kind: 'puma', text: 'n = ENV.fetch("RAILS_MAX_THREADS") { 5 }\nthreads 1, n\n' }).assigns;
  assert.deepEqual(ownLocals(['threads max_threads, max_threads'], gen, other), ['threads 3, 3']);
  assert.deepEqual(ownLocals(['threads max_threads, max_threads'], gen, gen), ['threads max_threads, max_threads']);
});
