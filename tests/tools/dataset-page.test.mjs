// The three tools' datasets go through the real site build (scripts/build-assets.mjs, then
// bundle exec jekyll build) in a temporary copy of the site shell, and come out as dataset
// pages with rendered charts and downloads. Only the shell is copied (layouts, includes,
// assets, _data without other datasets) so the test depends on nothing but the build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, tool, tmpDir, run, loadDataset } from './util.mjs';

const SHELL = ['_config.yml', '_layouts', '_includes', 'assets', '_data', 'datasets', 'schemas', 'scripts'];
const SKIP = new Set(['_includes/generated', 'assets/generated', '_data/datasets', 'scripts/build-guide.mjs']);

function copyShell(dest) {
  for (const entry of SHELL) {
    const from = path.join(ROOT, entry);
    if (!fs.existsSync(from)) continue;
    fs.cpSync(from, path.join(dest, entry), {
      recursive: true,
      filter: (src) => !SKIP.has(path.relative(ROOT, src)),
    });
  }
  fs.mkdirSync(path.join(dest, '_data/datasets'), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dest, 'node_modules'));
}

test('datasets from all three tools build into dataset pages with charts', async () => {
  const work = tmpDir('tools-site');
  const out = path.join(work, 'measurements');

  const mm = await run(tool('measure-memory'), ['--interval', '0.1', '--out', out, '--id', 'page-test-memory', '--quiet', '--no-validate', '--', 'ruby', '-e', 's = "z" * 10_000_000; sleep 0.5']);
  assert.equal(mm.code, 0, mm.stderr);
  const bh = await run(tool('bench-host'), ['--quick', '--runs', '1', '--size-mb', '2', '--out', out, '--id', 'page-test-host', '--quiet', '--no-validate'], { timeoutMs: 90000 });
  assert.equal(bh.code, 0, bh.stderr);
  const settings = path.join(work, 'settings.yml');
  fs.writeFileSync(settings, 'configurations:\n  - name: baseline\n    threads: 1\n');
  const brs = await run(tool('bench-ruby-settings'), ['--app', path.join(ROOT, 'scripts/examples/hello.ru'), '--settings', settings, '--runs', '1', '--duration', '1', '--warmup', '10', '--out', out, '--id', 'page-test-settings', '--quiet', '--no-validate'], { timeoutMs: 120000 });
  assert.equal(brs.code, 0, brs.stderr);

  const site = path.join(work, 'site');
  copyShell(site);
  const ids = [];
  for (const r of [mm, bh, brs]) {
    const { file, data, problems } = loadDataset(r.stdout);
    assert.deepEqual(problems, []);
    fs.copyFileSync(file, path.join(site, '_data/datasets', `${data.id}.json`));
    ids.push([data.id, data.charts.map((c) => c.id)]);
  }

  const assets = spawnSync(process.execPath, [path.join(site, 'scripts/build-assets.mjs')], { encoding: 'utf8', timeout: 120000 });
  assert.equal(assets.status, 0, `${assets.stdout}\n${assets.stderr}`);
  const jekyll = spawnSync('bundle', ['exec', 'jekyll', 'build', '--source', site, '--destination', path.join(site, '_site')], {
    cwd: ROOT, encoding: 'utf8', timeout: 180000, env: { ...process.env, BUNDLE_GEMFILE: path.join(ROOT, 'Gemfile'), JEKYLL_ENV: 'production' },
  });
  assert.equal(jekyll.status, 0, `${jekyll.stdout}\n${jekyll.stderr}`);

  for (const [id, charts] of ids) {
    const page = path.join(site, '_site/datasets', id, 'index.html');
    assert.ok(fs.existsSync(page), `page for ${id}`);
    const html = fs.readFileSync(page, 'utf8');
    for (const chart of charts) {
      for (const theme of ['light', 'dark']) {
        const svg = path.join(site, '_site/assets/generated/charts', id, `${chart}-${theme}.svg`);
        assert.ok(fs.existsSync(svg), `${id}/${chart}-${theme}.svg rendered`);
        assert.match(fs.readFileSync(svg, 'utf8'), /<svg[\s\S]*<\/svg>\s*$/);
      }
      assert.ok(html.includes(`charts/${id}/${chart}-light.svg`), `${id} page embeds chart ${chart}`);
    }
    assert.ok(fs.existsSync(path.join(site, '_site/assets/generated/datasets', `${id}.csv`)), `${id}.csv download`);
    assert.ok(!/<script>[^<]/.test(html), 'no inline script on the page');
  }
  const memoryPage = fs.readFileSync(path.join(site, '_site/datasets/page-test-memory/index.html'), 'utf8');
  assert.match(memoryPage, /RSS high-water mark/);
  const settingsPage = fs.readFileSync(path.join(site, '_site/datasets/page-test-settings/index.html'), 'utf8');
  assert.match(settingsPage, /spread/i);
});
