// Node-only tests of the wizard page's pure modules: link filtering, the highlighter's tokenizer
// (over every file the engine writes for a spread of answers), and the archive writers (ZIP read
// back with CRC-32 from node:zlib; tar read back after gunzip).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync, inflateRawSync, crc32 } from 'node:zlib';
import * as engine from '../../guide/engine/index.mjs';
import { safeHref } from '../../guide/ui/dom.mjs';
import { tokenize, family } from '../../guide/ui/highlight.mjs';
import { zip, tar, tarGz, safePath } from '../../guide/ui/archive.mjs';
import { bundleFiles } from '../../guide/ui/readme.mjs';

test('safeHref allows http(s) and site-relative URLs only', () => {
  const cases = [
    ['https://guides.rubyonrails.org/x.html', '/', 'https://guides.rubyonrails.org/x.html'],
    ['http://nginx.org/en/docs/', '/', 'http://nginx.org/en/docs/'],
    ['/datasets/x/', '/', '/datasets/x/'],
    ['/datasets/x/', '/scaling-rails/', '/scaling-rails/datasets/x/'],
    ['/scaling-rails/datasets/x/', '/scaling-rails/', '/scaling-rails/datasets/x/'],
    ['javascript:alert(1)', '/', null],
    ['JAVASCRIPT:alert(1)', '/', null],
    [' javascript:alert(1)', '/', null],
    ['java\tscript:alert(1)', '/', null],
    ['data:text/html,<script>', '/', null],
    ['vbscript:x', '/', null],
    ['//evil.example/', '/', null],
    ['/\\evil.example/', '/', null],
    ['datasets/x/', '/', null],
    ['https:/x', '/', null],
    ['', '/', null],
    [null, '/', null],
    [{ toString: () => 'https://x.y/' }, '/', null],
    ['https://x.y/' + 'a'.repeat(3000), '/', null],
  ];
  for (const [url, base, want] of cases) assert.equal(safeHref(url, base), want, JSON.stringify(url));
});

test('tokenize loses nothing and finds comments and keys in every generated file', () => {
  const variants = [
    {}, { server: 'unicorn', proxy: 'apache', database: 'mysql', adapter: 'mysql2' }, { server: 'passenger', proxy: 'caddy' },
    { server: 'thin', proxy: 'cherokee', ruby: 'ree', ruby_version: '1.8.7', rails: '2.3.5', kernel: '2.6.32' },
    { pooler: 'pgbouncer', init: 'other', os: 'freebsd' }, { ruby: 'jruby', ruby_version: '9.4', adapter: 'jdbc', server: 'puma' },
    { database: 'sqlite', adapter: 'sqlite3' }, { server: 'falcon', proxy: 'none' }, { server: 'pitchfork', server_version: '0.18' },
  ];
  const languages = new Set();
  for (const v of variants) {
    const { files } = engine.generate(engine.parseAnswers(v).answers, { date: '2026-01-01', permalink: 'https://example.org/guide/' });
    for (const f of files) {
      languages.add(f.language);
      const tokens = tokenize(f.language, f.content);
      assert.equal(tokens.map((t) => t[1]).join(''), f.content, `${f.path}: tokens concatenate to the content`);
      const types = new Set(tokens.map((t) => t[0]));
      if (family(f.language) !== 'markdown' && family(f.language) !== 'json') {
        assert.ok(types.has('comment'), `${f.path} (${f.language}): the header comment is highlighted`);
      }
      // Initializers set Rails' configuration through a method chain (Rails.application.config.hosts << …): no bare
      // key to highlight, but the constant is.
      if (/^config\/initializers\//.test(f.path)) assert.ok(types.has('constant'), `${f.path} (${f.language}): constants highlighted`);
      else if (family(f.language) !== 'plain' && family(f.language) !== 'markdown') assert.ok(types.has('key'), `${f.path} (${f.language}): keys highlighted`);
    }
  }
  for (const l of languages) {
    if (!/^(plain)?text$/.test(l)) assert.notEqual(family(l), 'plain', `language "${l}" has a highlighter`);
  }
});

let modes = {};
function readZip(buf) {
  const b = Buffer.from(buf);
  const eocd = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const out = {};
  modes = {};
  let at = b.readUInt32LE(eocd + 16);
  for (let i = 0; i < b.readUInt16LE(eocd + 10); i++) {
    const size = b.readUInt32LE(at + 20); // compressed
    assert.equal(b.readUInt16LE(at + 10), 8, 'deflated');
    const nameLen = b.readUInt16LE(at + 28);
    const local = b.readUInt32LE(at + 42);
    const name = b.toString('utf8', at + 46, at + 46 + nameLen);
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const data = inflateRawSync(b.subarray(start, start + size));
    assert.equal(crc32(data) >>> 0, b.readUInt32LE(at + 16), name);
    // Unix mode in the high bits of the external attributes (made by Unix): unzip restores it.
    modes[name] = (b.readUInt32LE(at + 38) >>> 16) & 0o777;
    out[name] = data.toString('utf8');
    at += 46 + nameLen + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
  }
  return out;
}

function readTar(buf) {
  const b = Buffer.from(buf);
  const out = {};
  for (let at = 0; at + 512 <= b.length && b[at] !== 0; ) {
    const str = (o, n) => b.toString('utf8', at + o, at + o + n).replace(/\0.*$/s, '');
    const name = (str(345, 155) ? str(345, 155) + '/' : '') + str(0, 100);
    const size = parseInt(str(124, 12), 8);
    out[name] = { text: b.toString('utf8', at + 512, at + 512 + size), mode: parseInt(str(100, 8), 8) };
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

test('archives round-trip: UTF-8 names and content, long paths, unsafe paths, executables', async () => {
  const long = 'a/'.repeat(60) + 'deep-file.conf';
  const files = [
    { path: 'README.md', content: '# Bundle — ü ✓\n' },
    { path: '/etc/../../nginx/x.conf', content: 'server {}\n' },
    { path: long, content: 'x'.repeat(1500) },
    { path: 'bin/setup.sh', content: '#!/bin/sh\necho ok\n' },
    { path: 'empty.txt', content: '' },
  ];
  assert.equal(safePath('/etc/../../nginx/x.conf'), 'etc/nginx/x.conf');
  assert.equal(safePath('../..'), 'file');
  const date = new Date(Date.UTC(2026, 0, 2, 3, 4, 6));
  const z = readZip(zip(files, { root: 'r', date }));
  assert.deepEqual(Object.keys(z), ['r/README.md', 'r/etc/nginx/x.conf', `r/${long}`, 'r/bin/setup.sh', 'r/empty.txt']);
  assert.equal(z['r/README.md'], files[0].content);
  assert.equal(z[`r/${long}`], files[2].content);
  assert.equal(modes['r/bin/setup.sh'], 0o755, 'scripts stay executable');
  assert.equal(modes['r/README.md'], 0o644);
  const zipped = zip(files, { root: 'r', date });
  assert.ok(zipped.length < 1500, `the 1,500-byte file is compressed (archive ${zipped.length} B)`);
  const t = readTar(gunzipSync(await tarGz(files, { root: 'r', date })));
  assert.deepEqual(Object.keys(t), Object.keys(z));
  assert.equal(t['r/bin/setup.sh'].mode, 0o755);
  assert.equal(t['r/README.md'].mode, 0o644);
  for (const k of Object.keys(z)) assert.equal(t[k].text, z[k]);
  assert.equal(tar([], {}).length, 1024, 'an empty tar is two zero blocks');
});

test('the bundle adds answers.json and keeps the engine README', () => {
  const answers = engine.parseAnswers({ server: 'unicorn' }).answers;
  const result = engine.generate(answers, { date: '2026-01-01', permalink: 'https://example.org/guide/?server=unicorn' });
  const files = bundleFiles(result, answers, { permalink: 'p', date: 'd', version: engine.GENERATOR_VERSION, questions: engine.QUESTIONS });
  assert.equal(files.filter((f) => f.path === 'README.md').length, 1);
  assert.equal(files.find((f) => f.path === 'README.md').content, result.files.find((f) => f.path === 'README.md').content);
  assert.deepEqual(JSON.parse(files.find((f) => f.path === 'answers.json').content), answers);
  const without = bundleFiles({ files: [{ path: 'a.conf', content: 'x' }] }, answers, { permalink: 'https://example.org/guide/', date: 'd', version: '1', questions: [] });
  assert.match(without[0].content, /example\.org\/guide/);
});

test('ZIP entry dates are the UTC date whatever the machine\'s time zone, clamped to the DOS range', () => {
  const saved = process.env.TZ;
  try {
    for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
      process.env.TZ = tz;
      const b = Buffer.from(zip([{ path: 'a', content: 'x' }], { date: new Date(Date.UTC(2026, 0, 2, 3, 4, 6)) }));
      const time = b.readUInt16LE(10);
      const day = b.readUInt16LE(12);
      assert.deepEqual([time >> 11, (time >> 5) & 63, (time & 31) * 2], [3, 4, 6], `time in ${tz}`);
      assert.deepEqual([(day >> 9) + 1980, (day >> 5) & 15, day & 31], [2026, 1, 2], `date in ${tz}`);
    }
    const old = Buffer.from(zip([{ path: 'a', content: 'x' }], { date: new Date(0) }));
    assert.equal((old.readUInt16LE(12) >> 9) + 1980, 1980, '1970 is written as 1980, the earliest DOS date');
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
});
