// The tolerant Ruby reader (guide/check/read-ruby.mjs) against Prism, Ruby's own parser (@ruby/prism,
// WASM): for every Ruby fixture and every Ruby file the engine generates, both must find the same
// top-level DSL calls, Rails configure-block settings and local assignments, on the same lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadPrism } from '@ruby/prism';
import { readRuby } from '../../guide/check/read-ruby.mjs';
import { generate } from '../../guide/engine/index.mjs';
import { FIXTURES } from './helpers.mjs';

process.removeAllListeners('warning'); // WASI's ExperimentalWarning

const walk = (d) => (existsSync(d) ? readdirSync(d).flatMap((n) => { const p = join(d, n); return statSync(p).isDirectory() ? walk(p) : [p]; }) : []);

function prismView(parse, src) {
  const bytes = Buffer.from(src);
  const lineAt = (off) => bytes.subarray(0, off).toString().split('\n').length;
  const text = (loc) => bytes.subarray(loc.startOffset, loc.startOffset + loc.length).toString();
  const calls = [];
  const assigns = [];
  const visit = (nodes, inConfigure) => {
    for (const n of nodes || []) {
      const kind = n.constructor.name;
      if (kind === 'IfNode' || kind === 'UnlessNode') {
        // `x if cond` (modifier) and if…end blocks: the statements inside are read either way.
        visit(n.statements?.body, inConfigure);
        let sub = n.subsequent || n.elseClause;
        while (sub) { visit(sub.statements?.body, inConfigure); sub = sub.subsequent; }
      } else if (kind === 'LocalVariableWriteNode' || kind === 'LocalVariableOrWriteNode') {
        assigns.push(`${lineAt(n.location.startOffset)} ${n.name}`);
      } else if (kind === 'CallNode') {
        const line = lineAt(n.location.startOffset);
        // `config.hosts << "x"` appends to a setting: the reader records it as the attribute (hosts), as here.
        if (n.name === '<<' && n.receiver?.constructor.name === 'CallNode' && n.receiver.receiver) calls.push(`${line} ${n.receiver.name}`);
        else if (n.name.endsWith('=') && n.receiver && inConfigure) calls.push(`${line} ${text(n.receiver.location)}.${n.name.slice(0, -1)}`);
        else if (!n.receiver || !inConfigure) calls.push(`${line} ${n.name}`);
        const configure = n.name === 'configure' && n.receiver && /^Rails\b/.test(text(n.receiver.location));
        if (configure && n.block?.body) visit(n.block.body.body, true);
      }
    }
  };
  const r = parse(src);
  assert.deepEqual(r.errors.map((e) => e.message), [], 'Prism parses the file');
  visit(r.value.statements.body, false);
  return { calls: calls.sort(), assigns: assigns.sort() };
}

function readerView(src) {
  const r = readRuby(src);
  const calls = r.calls.filter((c) => !c.inDef && (!c.inBlock || c.inBlock === 'Rails')).filter((c) => !(c.inBlock === 'Rails' && c.receiver));
  const attrs = r.attrs.filter((a) => !a.inDef);
  return {
    calls: [...calls.map((c) => `${c.line} ${c.name}`), ...attrs.map((a) => `${a.line} ${a.name}`)].sort(),
    assigns: r.assigns.map((a) => `${a.line} ${a.name}`).sort(),
  };
}

const sources = [];
for (const p of walk(FIXTURES)) if (/\.rb$|Gemfile$/.test(p)) sources.push([relative(FIXTURES, p), readFileSync(p, 'utf8')]);
for (const answers of [{}, { server: 'unicorn' }, { server: 'pitchfork', server_version: '0.18' }, { rails: '6.1', server_version: '5.6', ruby_version: '2.7' }, { server: 'puma', server_version: '7.0', rails: '8.1', cores: 8 }]) {
  for (const f of generate(answers, { date: '2026-11-23' }).files) if (f.language === 'ruby') sources.push([`generated ${JSON.stringify(answers)} ${f.path}`, f.content]);
}

test('the tolerant reader and Prism agree on calls, settings and assignments', async () => {
  const parse = await loadPrism();
  assert.ok(sources.length >= 8, `Ruby sources to compare: ${sources.length}`);
  for (const [name, src] of sources) {
    const want = prismView(parse, src);
    const got = readerView(src);
    assert.deepEqual(got.calls, want.calls, `${name}: calls`);
    assert.deepEqual(got.assigns, want.assigns, `${name}: assignments`);
  }
});
