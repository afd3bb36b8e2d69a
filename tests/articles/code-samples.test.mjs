// The code samples in the articles are real code: every ```ruby block passes `ruby -c`, every
// ```sh block passes `bash -n`, every ```yaml block parses (after replacing ERB tags the way Rails
// renders database.yml first), and a settings file shown for scripts/bench-ruby-settings is accepted
// by that script's own parser, and every ```nginx block passes `nginx -t` (through the wizard's validator,
// tests/wizard/validators.mjs: temporary prefix, test certificate) in the first context that accepts it:
// as an http-level file, inside a server block, or inside a location. Every fenced block names its
// language (for rouge).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import yaml from 'js-yaml';
import { loadPosts } from './lib.mjs';
import { parseSettings } from '../../scripts/lib/measure/settings-file.mjs';
import { nginxTest } from '../wizard/validators.mjs';

const LANGS = new Set(['ruby', 'sh', 'yaml', 'nginx', 'ini', 'conf', 'liquid', 'json', 'text']);

function blocks(p) {
  const out = [];
  const re = /^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;
  for (const m of p.body.matchAll(re)) {
    const line = p.bodyLine + p.body.slice(0, m.index).split('\n').length - 1;
    out.push({ lang: m[1].trim(), code: m[2], where: `${p.file}:${line}` });
  }
  return out;
}

const all = loadPosts().flatMap(blocks);
const have = (cmd) => spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0;

test('every fenced block names a known language', () => {
  assert.ok(all.length >= 20, `expected many code samples, found ${all.length}`);
  for (const b of all) assert.ok(LANGS.has(b.lang), `${b.where}: fence language "${b.lang}" (use one of ${[...LANGS].join(', ')})`);
});

test('ruby samples pass ruby -c', () => {
  assert.ok(have('ruby'), 'ruby is missing: scripts/setup installs it');
  const rb = all.filter((b) => b.lang === 'ruby');
  assert.ok(rb.length >= 10);
  for (const b of rb) {
    const r = spawnSync('ruby', ['-c', '-e', b.code], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${b.where}: ${r.stderr}`);
  }
});

test('shell samples pass bash -n', () => {
  for (const b of all.filter((x) => x.lang === 'sh')) {
    const r = spawnSync('bash', ['-n'], { input: b.code, encoding: 'utf8' });
    assert.equal(r.status, 0, `${b.where}: ${r.stderr}`);
  }
});

test('yaml samples parse; a bench-ruby-settings file is accepted by the script', () => {
  const ys = all.filter((b) => b.lang === 'yaml');
  assert.ok(ys.length >= 2);
  let settings = 0;
  for (const b of ys) {
    const text = b.code.replace(/<%=[\s\S]*?%>/g, '5');
    let doc;
    assert.doesNotThrow(() => { doc = yaml.load(text); }, `${b.where}: not valid YAML`);
    assert.equal(typeof doc, 'object', `${b.where}: expected a mapping`);
    if (doc && 'configurations' in doc) {
      settings++;
      const configs = parseSettings(text, b.where);
      assert.ok(configs.length >= 2, `${b.where}: compare at least two configurations`);
    }
  }
  assert.ok(settings >= 1, 'the benchmarking article shows a settings file');
});

test('the checks reject broken samples', () => {
  assert.ok(have('ruby'), 'ruby is missing: scripts/setup installs it');
  assert.notEqual(spawnSync('ruby', ['-c', '-e', 'def x; ('], { encoding: 'utf8' }).status, 0);
  assert.notEqual(spawnSync('bash', ['-n'], { input: 'if then fi', encoding: 'utf8' }).status, 0);
  assert.throws(() => parseSettings('configurations: []\n', 'x.yml'), /non-empty list/);
});

const NGINX_MAIN = 'pid logs/nginx.pid;\nerror_log logs/error.log;\nevents {}\nhttp {\n  include mime.types;\n  access_log off;\n  include sites-enabled/*.conf;\n}\n';
const NGINX_CONTEXTS = [
  ['http', (c) => c],
  ['server', (c) => `server {\n  listen 127.0.0.1:8080;\n${c}\n}\n`],
  ['location', (c) => `server {\n  listen 127.0.0.1:8080;\n  location / {\n${c}\n  }\n}\n`],
];

/** nginx -t for one snippet: null if some context accepts it, else the errors of every context. */
export function nginxSnippetErrors(code) {
  const errors = [];
  for (const [name, wrap] of NGINX_CONTEXTS) {
    try { nginxTest(NGINX_MAIN, wrap(code)); return null; } catch (e) { errors.push(`as ${name}: ${String(e.message).trim()}`); }
  }
  return errors.join('\n');
}

test('nginx samples pass nginx -t', () => {
  const ng = all.filter((b) => b.lang === 'nginx');
  assert.ok(ng.length >= 1, 'the articles show nginx configuration');
  for (const b of ng) assert.equal(nginxSnippetErrors(b.code), null, `${b.where}: nginx -t rejects the sample`);
});

test('the nginx check rejects a broken sample', () => {
  assert.equal(nginxSnippetErrors('proxy_set_header X-Request-Start "t=${msec}";'), null);
  assert.match(nginxSnippetErrors('proxy_pass_header_typo on;') || '', /unknown directive/);
  assert.match(nginxSnippetErrors('location / {') || '', /unexpected end of file|nginx -t failed/);
});
