// The local site servers (benchmarks, browser tests) serve files under the built site only: an encoded
// "../" into a sibling directory whose name starts like the root's is refused, as is one out of the tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileForRequest, contentType } from '../../scripts/lib/static-files.mjs';
import { startStaticServer } from '../helpers/static-server.mjs';

test('fileForRequest: files and index pages inside the root; 403 outside it, 404 when missing, 400 when undecodable', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'static-files-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const root = join(dir, '_site');
  mkdirSync(join(root, 'guide'), { recursive: true });
  mkdirSync(join(dir, '_site-old'));
  writeFileSync(join(root, 'index.html'), 'home');
  writeFileSync(join(root, 'guide', 'index.html'), 'guide');
  writeFileSync(join(dir, '_site-old', 'secret.txt'), 'secret');
  assert.deepEqual(fileForRequest(root, '/'), { status: 200, file: join(root, 'index.html') });
  assert.deepEqual(fileForRequest(`${root}/`, '/guide/?a=1'), { status: 200, file: join(root, 'guide', 'index.html') });
  assert.deepEqual(fileForRequest(root, '/..%2f_site-old/secret.txt'), { status: 403 });
  assert.deepEqual(fileForRequest(root, '/..%2f..%2f..%2fetc/passwd'), { status: 403 });
  assert.deepEqual(fileForRequest(root, '/missing.html'), { status: 404 });
  assert.deepEqual(fileForRequest(root, '/%E0%A4%A'), { status: 400 });
  assert.equal(contentType('a/b.svg'), 'image/svg+xml');
  assert.equal(contentType('a/b.unknown'), 'application/octet-stream');

  // Over HTTP, through the test server: the sibling directory's file is not served.
  const server = await startStaticServer(root);
  t.after(() => server.close());
  const home = await fetch(`${server.url}/`);
  assert.equal(home.status, 200);
  assert.equal(await home.text(), 'home');
  const escape = await fetch(`${server.url}/..%2f_site-old/secret.txt`);
  assert.equal(escape.status, 403);
  assert.notEqual(await escape.text(), 'secret');
});
