// Downloads the bundle from the wizard page as .zip and .tar.gz (keyboard: focus + Enter) and
// unpacks both: the ZIP with an independent parser (inflate and CRC-32 from node:zlib) and `unzip -t` when
// installed, the tar.gz with node:zlib + a ustar reader and with the system `tar`. Both must hold
// the README, answers.json and every generated file, byte for byte.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { gunzipSync, inflateRawSync, crc32 } from 'node:zlib';
import { openGuide, openWatchedPage } from './page-helpers.mjs';

const ROOT = 'scaling-rails-config';
let server;
let browser;
let page;
let problems;
let dir;

before(async () => {
  ({ server, browser, page, problems } = await openWatchedPage());
  dir = mkdtempSync(join(tmpdir(), 'guide-download-'));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function unzip(buf) {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, 'end of central directory record');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const files = new Map();
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(at), 0x02014b50, 'central directory header');
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const size = buf.readUInt32LE(at + 20);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    assert.equal(method, 8, 'deflated');
    assert.equal(buf.readUInt32LE(local), 0x04034b50, 'local header');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = inflateRawSync(buf.subarray(start, start + size));
    assert.equal(data.length, buf.readUInt32LE(at + 24), `uncompressed size of ${name}`);
    assert.equal(crc32(data) >>> 0, crc, `CRC-32 of ${name}`);
    files.set(name, data.toString('utf8'));
    at += 46 + nameLen + extraLen + commentLen;
  }
  return files;
}

function untar(buf) {
  const files = new Map();
  for (let at = 0; at + 512 <= buf.length; ) {
    const h = buf.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    const str = (o, n) => h.toString('utf8', o, o + n).replace(/\0.*$/s, '');
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
    assert.equal(parseInt(str(148, 8), 8), sum, 'header checksum');
    assert.equal(str(257, 6), 'ustar');
    const name = (str(345, 155) ? str(345, 155) + '/' : '') + str(0, 100);
    const size = parseInt(str(124, 12), 8);
    files.set(name, buf.toString('utf8', at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

async function download(buttonId) {
  await page.locator('#' + buttonId).focus();
  const [dl] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  const path = join(dir, dl.suggestedFilename());
  await dl.saveAs(path);
  return { name: dl.suggestedFilename(), path, bytes: readFileSync(path) };
}

function checkBundle(files, expected, label) {
  const names = [...files.keys()];
  assert.ok(names.every((n) => n.startsWith(ROOT + '/')), `${label}: everything under ${ROOT}/`);
  assert.ok(files.has(`${ROOT}/README.md`), `${label}: README.md inside`);
  assert.match(files.get(`${ROOT}/README.md`), /# /);
  assert.ok(files.has(`${ROOT}/answers.json`), `${label}: answers.json inside`);
  assert.equal(files.size, expected.length, `${label}: file count`);
  for (const f of expected) assert.equal(files.get(`${ROOT}/${f.path.replace(/^\/+/, '')}`), f.content, `${label}: ${f.path}`);
}

test('the .zip and .tar.gz bundles hold the README and every file', async () => {
  await openGuide(page, server.url, '?server=unicorn&proxy=apache&database=mysql&adapter=mysql2&cores=4');
  const expected = await page.evaluate(() => window.__guide.bundleFiles());
  const shown = await page.$$eval('.guide-file', (els) => els.map((e) => e.dataset.path));
  for (const p of shown) assert.ok(expected.some((f) => f.path === p), `${p} is in the bundle`);
  const answers = JSON.parse(expected.find((f) => f.path === 'answers.json').content);
  assert.equal(answers.server, 'unicorn');
  assert.equal(answers.database, 'mysql');

  const z = await download('guide-download-zip');
  assert.equal(z.name, `${ROOT}.zip`);
  checkBundle(unzip(z.bytes), expected, 'zip');
  if (spawnSync('unzip', ['-v']).status === 0) {
    const r = spawnSync('unzip', ['-t', z.path], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const x = spawnSync('unzip', ['-q', '-o', z.path, '-d', join(dir, 'unzipped')], { encoding: 'utf8' });
    assert.equal(x.status, 0, x.stderr);
    assert.ok(existsSync(join(dir, 'unzipped', ROOT, 'README.md')));
  }

  const t = await download('guide-download-tgz');
  assert.equal(t.name, `${ROOT}.tar.gz`);
  checkBundle(untar(gunzipSync(t.bytes)), expected, 'tar.gz');
  const list = spawnSync('tar', ['-tzf', t.path], { encoding: 'utf8' });
  assert.equal(list.status, 0, list.stderr);
  assert.deepEqual(list.stdout.trim().split('\n').sort(), expected.map((f) => `${ROOT}/${f.path}`).sort());
  const x = spawnSync('tar', ['-xzf', t.path, '-C', dir], { encoding: 'utf8' });
  assert.equal(x.status, 0, x.stderr);
  assert.equal(readFileSync(join(dir, ROOT, 'README.md'), 'utf8'), expected.find((f) => f.path === 'README.md').content);

  assert.match(await page.textContent('#guide-status'), /Downloaded \d+ files/);
  assert.deepEqual(problems.errors, []);
  assert.deepEqual(problems.csp, []);
});

test('the default bundles linked for readers without JavaScript unpack too', async () => {
  const { SITE } = await import('./page-helpers.mjs');
  const zipFiles = unzip(readFileSync(join(SITE, 'assets/generated/guide/scaling-rails-config-default.zip')));
  const tarFiles = untar(gunzipSync(readFileSync(join(SITE, 'assets/generated/guide/scaling-rails-config-default.tar.gz'))));
  assert.deepEqual([...zipFiles.keys()].sort(), [...tarFiles.keys()].sort());
  assert.ok(zipFiles.has(`${ROOT}/README.md`));
  for (const [name, text] of zipFiles) {
    assert.equal(tarFiles.get(name), text, name);
    if (!/answers\.json$/.test(name)) assert.match(text, /\/guide\//, `${name} links back to the wizard`);
  }
});
