// A rake file is read only for the task names a Procfile may run. The fifth blind trial (issue 25) found two valid
// rake files (sharetribe, collectif-objets) that the Ruby reader could not follow, a regex literal holding `<<JSON`
// and one holding a quote, and each turned the whole check into exit 2 ("unreadable"). Such a file now leaves its
// tasks unknown, with a note, and no task is reported missing; the rest of the app is judged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../guide/engine/index.mjs';
import { check, exitStatus } from '../../guide/check/index.mjs';

const LOCK = 'GEM\n  remote: https://rubygems.org/\n  specs:\n    puma (7.1.0)\n    rails (8.1.0)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  puma\n  rails\n';
const app = (rake) => [
  { path: 'Gemfile.lock', text: LOCK },
  { path: 'Procfile', text: 'web: bundle exec puma -C config/puma.rb\nworker: bundle exec rake jobs:work\n' },
  { path: 'lib/tasks/cleanup.rake', text: rake },
];

test('a rake file the reader cannot follow leaves its tasks unknown (a note), not the whole check unreadable', () => {
  // sharetribe.rake:20's and conservateurs.rake:12's regexps are read since regexp literals are tokens (trial8-open
  // test); a character literal holding a quote (`?"`) is still not followed.
  for (const body of [
    'task :quote do\n  q = ?"\n  text.split(q)\nend\n',
  ]) {
    const r = check(app(body));
    const notes = r.files.find((f) => f.path === 'lib/tasks/cleanup.rake').notes;
    // If the reader ever follows these files, the note goes away and the test must be updated with a new case.
    assert.equal(exitStatus(r), 0, JSON.stringify(r.problems));
    assert.ok(notes.some((n) => /not read .*the tasks it defines are unknown/.test(n.message)), JSON.stringify(notes));
    assert.equal(r.findings.filter((f) => f.rule === 'task-missing').length, 0, 'no task reported missing while one file\'s tasks are unknown');
  }
});

test('a readable rake file still counts: jobs:work that neither the lockfile nor the rake files define is reported missing', () => {
  const r = check(app('task :other do\nend\n'));
  assert.equal(r.problems.length, 0);
  const f = r.findings.filter((x) => x.rule === 'task-missing');
  assert.deepEqual(f.map((x) => [x.severity, x.file, x.line, x.setting]), [['warning', 'Procfile', 2, 'jobs:work']]);
});
