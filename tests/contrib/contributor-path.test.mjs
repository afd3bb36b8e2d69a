// The whole contributor path, exactly as CONTRIBUTING.md's worked example shows it: run wrk against
// a server on 127.0.0.1, import its output, validate, build the site, and find the new dataset page
// with its chart SVGs and CSV/JSON downloads. It runs in a temporary copy of the repository, so the
// real _data/ and _site/ are untouched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, mkdirSync, copyFileSync, symlinkSync, rmSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer } from './local-server.mjs';
import { runTool, tempDir, ROOT } from './tools.mjs';

const ID = 'hello-wrk-c8';
let server;
let copy;

// The shell lines between the worked-example markers in CONTRIBUTING.md.
export function workedExample(markdown) {
  const m = /<!-- worked-example:start -->\s*```sh\n([\s\S]*?)```\s*<!-- worked-example:end -->/.exec(markdown);
  if (!m) throw new Error('CONTRIBUTING.md has no worked example between the markers');
  return m[1];
}

// Files a fresh clone would have: tracked plus new, not ignored (so generated output is left out).
function repositoryFiles() {
  try {
    return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0').filter((f) => f && !/^(vendor|node_modules)\//.test(f) && existsSync(join(ROOT, f)));
  } catch {
    const out = [];
    const skip = new Set(['node_modules', 'vendor', '.git', '_site', 'tmp', '.jekyll-cache', '_datasets', 'generated']);
    const walk = (rel) => { for (const e of readdirSync(join(ROOT, rel), { withFileTypes: true })) { if (skip.has(e.name)) continue; const p = rel ? `${rel}/${e.name}` : e.name; if (e.isDirectory()) walk(p); else out.push(p); } };
    walk('');
    return out;
  }
}

before(async () => {
  server = await startServer({ lifetimeMs: 600000 });
  copy = tempDir('contrib-e2e-');
  for (const f of repositoryFiles()) {
    if (f === `_data/datasets/${ID}.json` || f.startsWith(`raw-output/${ID}/`)) continue; // a leftover from trying the example by hand
    mkdirSync(join(copy, dirname(f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(copy, f));
  }
  // Installed dependencies are shared, not copied.
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  if (existsSync(join(ROOT, 'vendor'))) symlinkSync(join(ROOT, 'vendor'), join(copy, 'vendor'));
  // Bundler's local config (written by scripts/setup, not tracked) says where those gems are.
  if (existsSync(join(ROOT, '.bundle/config'))) {
    mkdirSync(join(copy, '.bundle'), { recursive: true });
    copyFileSync(join(ROOT, '.bundle/config'), join(copy, '.bundle/config'));
  }
});

after(async () => {
  await server.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

test('CONTRIBUTING worked example: wrk → import → validate → build → dataset page with charts and downloads', async () => {
  const example = workedExample(readFileSync(join(copy, 'CONTRIBUTING.md'), 'utf8'));
  const urlLines = example.split('\n').filter((l) => /^URL=/.test(l));
  assert.equal(urlLines.length, 1, 'the example sets URL once');
  const script = example.replace(/^URL=.*$/m, `URL=${server.url}/`);
  server.reset();

  const run = await runTool('sh', ['-e', '-x', '-c', script], { cwd: copy, timeoutMs: 600000 });
  assert.equal(run.code, 0, `worked example failed:\n${run.output.slice(-4000)}`);
  assert.match(run.output, /valid: no problems found/, 'import reports a valid dataset');
  assert.match(run.output, /ok: 1 dataset\(s\) valid/, 'scripts/validate reports no problems');

  // The dataset: method filled in from wrk's output, numbers consistent with what the server saw.
  const file = join(copy, '_data/datasets', `${ID}.json`);
  const ds = JSON.parse(readFileSync(file, 'utf8'));
  const get = (key) => ds.rows[0][ds.columns.findIndex((c) => c.key === key)];
  assert.equal(ds.method.tool, 'wrk');
  assert.equal(ds.method.concurrency, 8);
  assert.equal(ds.method.duration_s, 5);
  assert.equal(ds.topic, 'app-server');
  assert.equal(ds.source.author, 'Jane Doe');
  assert.equal(ds.method.warmup, 'one 5 s wrk run at the same load, output discarded');
  // Provenance: software named on the command line, the command rebuilt from wrk's output, a readable title.
  const sw = Object.fromEntries(ds.software.map((s) => [s.name, s.version]));
  assert.equal(sw.puma, '8.0.0');
  assert.equal(sw.rails, '8.1.4');
  assert.equal(ds.method.command, `wrk -t2 -c8 -d5s --latency -s scripts/lib/importers/wrk-report.lua ${server.url}/`);
  assert.match(ds.title, /^Puma 8\.0\.0, Rails 8\.1\.4: throughput and latency of \/ on 127\.0\.0\.1:\d+ at 8 connections \(wrk\)$/);
  // The warm-up run reached the server before the measured one; the raw output stays out of the site.
  assert.ok(server.counts.total > get('requests'), `warm-up and measured run both served (${server.counts.total} vs ${get('requests')})`);
  assert.ok(!existsSync(join(copy, '_site/measurements')), 'measurements/ is not published');
  assert.match(execFileSync('git', ['check-ignore', 'measurements/wrk-c8.txt'], { cwd: ROOT, encoding: 'utf8' }), /measurements\/wrk-c8\.txt/);
  assert.ok(get('requests') > 0 && get('requests') <= server.counts.total, `wrk counted ${get('requests')} of ${server.counts.total} served`);
  assert.equal(typeof get('p99_9_ms'), 'number', 'the Lua report supplied p99.9');
  const raw = join(copy, 'raw-output', ID, 'wrk-c8.txt');
  assert.equal(readFileSync(raw, 'utf8'), readFileSync(join(copy, 'measurements/wrk-c8.txt'), 'utf8'), 'raw output kept unedited');
  assert.equal(ds.source.raw_output, `raw-output/${ID}/wrk-c8.txt`);

  // The built page.
  const site = join(copy, '_site');
  const page = join(site, 'datasets', ID, 'index.html');
  assert.ok(existsSync(page), 'dataset page built');
  const html = readFileSync(page, 'utf8');
  assert.ok(html.includes(ds.title.replace(/&/g, '&amp;')) || html.includes(ID), 'page names the dataset');
  for (const chart of ds.charts) {
    for (const theme of ['light', 'dark']) {
      const rel = `assets/generated/charts/${ID}/${chart.id}-${theme}.svg`;
      assert.ok(html.includes(rel), `page embeds ${rel}`);
      const svg = readFileSync(join(site, rel), 'utf8');
      assert.match(svg, /^<svg[\s>]/, `${rel} is an SVG`);
    }
  }
  assert.ok((html.match(/<picture/g) || []).length >= ds.charts.length, 'one <picture> per chart');

  // Downloads: linked from the page, present in the site, and holding the dataset.
  const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
  for (const ext of ['csv', 'json']) {
    const href = links.find((h) => h.endsWith(`/${ID}.${ext}`));
    assert.ok(href, `page links the .${ext} download`);
    const path = join(site, href.replace(/^https?:\/\/[^/]+/, '').replace(/^\//, ''));
    assert.ok(existsSync(path), `${href} exists in _site`);
    const text = readFileSync(path, 'utf8');
    if (ext === 'json') assert.deepEqual(JSON.parse(text).rows, ds.rows);
    else {
      assert.ok(text.split('\n').length >= 2, 'CSV has a header and a row');
      assert.ok(text.includes(String(get('requests'))), 'CSV holds the request count');
    }
  }
  // Listed on the dataset index.
  const index = readFileSync(join(site, 'datasets', 'index.html'), 'utf8');
  assert.ok(index.includes(`/datasets/${ID}/`), 'dataset index links the new page');
});
