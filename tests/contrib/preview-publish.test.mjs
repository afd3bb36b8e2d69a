// scripts/lib/preview/publish-images.sh, as the trusted comment job runs it, against a local bare repository
// standing in for GitHub (issue 26): the pr-previews branch holds only open pull requests' images at their
// latest commit, in one root commit (no history keeps closed ones), and a malformed PR or commit is refused.
// (The lease that keeps two runs from undoing each other's push is git's --force-with-lease; not raced here.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runTool, tempDir, ROOT } from './tools.mjs';

const SCRIPT = join(ROOT, 'scripts/lib/preview/publish-images.sh');
const sha = (c) => c.repeat(40);

test('publish-images: open pull requests kept, closed ones pruned, no history, bad input refused', async (t) => {
  const dir = tempDir('publish-images-');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const origin = join(dir, 'origin.git');
  const git = (...args) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.org', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q', '--bare', origin);
  const seed = join(dir, 'seed');
  for (const [pr, c] of [[1, 'a'], [2, 'b'], [3, 'c']]) {
    mkdirSync(join(seed, `pr-${pr}`, sha(c)), { recursive: true });
    writeFileSync(join(seed, `pr-${pr}`, sha(c), 'x--y.png'), `old ${pr}`);
  }
  execFileSync('sh', ['-ec', `cd ${seed} && git init -q && git add . && git -c user.name=T -c user.email=t@e commit -qm seed && git push -q ${origin} HEAD:refs/heads/pr-previews`]);
  const images = join(dir, 'images');
  mkdirSync(images);
  writeFileSync(join(images, 'alpha--rps.png'), 'new image');
  writeFileSync(join(images, 'notes.txt'), 'not an image');
  symlinkSync('/etc/passwd', join(images, 'passwd.png'));
  const run = (env) => runTool(SCRIPT, [], { cwd: dir, env: { REMOTE: origin, IMAGES: images, PR: '', HEAD_SHA: '', OPEN_PRS: '', ...env }, timeoutMs: 60000 });
  const tree = () => git('--git-dir', origin, 'ls-tree', '-r', '--name-only', 'pr-previews').split('\n').filter(Boolean);

  // Pull request 5 publishes; 2 and 5 are open, so 1 and 3 go.
  const r = await run({ PR: '5', HEAD_SHA: sha('e'), OPEN_PRS: '2\n5' });
  assert.equal(r.code, 0, r.output);
  assert.deepEqual(tree(), [`pr-2/${sha('b')}/x--y.png`, `pr-5/${sha('e')}/alpha--rps.png`], 'only .png files, never a link');
  assert.equal(git('--git-dir', origin, 'rev-list', '--count', 'pr-previews'), '1', 'one root commit: closed images leave the history too');
  // A new push of 5 replaces its previous commit's images.
  assert.equal((await run({ PR: '5', HEAD_SHA: sha('f'), OPEN_PRS: '2\n5' })).code, 0);
  assert.deepEqual(tree(), [`pr-2/${sha('b')}/x--y.png`, `pr-5/${sha('f')}/alpha--rps.png`]);
  // The daily prune: 2 closed.
  const prune = await run({ OPEN_PRS: '5' });
  assert.equal(prune.code, 0, prune.output);
  assert.deepEqual(tree(), [`pr-5/${sha('f')}/alpha--rps.png`]);
  assert.match((await run({ OPEN_PRS: '5' })).stdout, /nothing to change/);
  // Values that are not a number and a commit are refused before anything runs.
  for (const env of [{ PR: '5; rm -rf /', HEAD_SHA: sha('e') }, { PR: '5', HEAD_SHA: '../../x' }]) {
    const bad = await run({ ...env, OPEN_PRS: '5' });
    assert.equal(bad.code, 2, bad.output);
  }
  assert.deepEqual(tree(), [`pr-5/${sha('f')}/alpha--rps.png`]);
});
