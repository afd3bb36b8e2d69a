// html-proofer on the built site (internal links, images, scripts), and proof that the check can fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
const run = (site) => spawnSync(join(ROOT, 'scripts/check-links'), [site], { cwd: ROOT, encoding: 'utf8', timeout: 300000 });

test('html-proofer finds no broken internal link, image or script in _site', () => {
  const r = run(join(ROOT, '_site'));
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
});

test('html-proofer fails on a planted broken link and a planted missing anchor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sr-proof-'));
  try {
    cpSync(join(ROOT, '_site'), dir, { recursive: true });
    mkdirSync(join(dir, 'planted'));
    writeFileSync(join(dir, 'planted/index.html'), '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><a href="/no-such-page/">broken</a> <a href="/datasets/#no-such-anchor">anchor</a></body></html>');
    const r = run(dir);
    assert.notEqual(r.status, 0, 'the check passed a broken link');
    const out = `${r.stdout}\n${r.stderr}`;
    assert.match(out, /planted\/index\.html/);
    assert.match(out, /\/no-such-page\/, which does not exist/);
    assert.match(out, /no-such-anchor/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
