// The pull-request preview on a throwaway repository with a base commit (main) and a pull request's
// head commit: which datasets changed, their data diff, charts as SVG and PNG, validation problems,
// and the comment the trusted follow-up job writes from it (escaped, checked against PR and commit).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, copyFileSync, rmSync, existsSync, readdirSync, cpSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runTool, tempDir, ROOT } from './tools.mjs';

const VALID = JSON.parse(readFileSync(join(ROOT, 'tests/foundation/fixtures/valid-dataset.json'), 'utf8'));
const HOSTILE = 'Nginx <img src=x onerror=alert(1)> @octocat [click](javascript:alert(1)) | `code`';
let repo;
let head;
const g = (...args) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.org', ...args], { cwd: repo, encoding: 'utf8' }).trim();
const put = (id, ds) => writeFileSync(join(repo, '_data/datasets', `${id}.json`), `${JSON.stringify({ ...ds, id }, null, 2)}\n`);
const preview = (args) => runTool(join(ROOT, 'scripts/preview'), args, { cwd: repo, timeoutMs: 120000 });

before(() => {
  repo = tempDir('preview-pr-');
  mkdirSync(join(repo, '_data/datasets'), { recursive: true });
  copyFileSync(join(ROOT, '_data/vocabulary.json'), join(repo, '_data/vocabulary.json'));
  put('alpha', VALID);
  put('beta', VALID);
  g('init', '-q', '-b', 'main');
  g('add', '.');
  g('commit', '-q', '-m', 'base');
  // The pull request: alpha gets a changed and a new row and a hostile title, beta goes, gamma is new and broken.
  g('checkout', '-q', '-b', 'contribution');
  const alpha = structuredClone(VALID);
  alpha.title = HOSTILE;
  alpha.rows[1] = ['Debian', 10500, 1000];
  alpha.rows.push(['Arch', 11000.5, 1000]);
  put('alpha', alpha);
  rmSync(join(repo, '_data/datasets/beta.json'));
  const gamma = structuredClone(VALID);
  gamma.columns[1].unit = 'rps';
  put('gamma', gamma);
  // Raw output the site refuses to publish: a page with script.
  mkdirSync(join(repo, 'raw-output/alpha'), { recursive: true });
  writeFileSync(join(repo, 'raw-output/alpha/run.html'), '<script>alert(1)</script>');
  writeFileSync(join(repo, 'raw-output/alpha/wrk.txt'), 'Running 5s test\n');
  g('add', '-A');
  g('commit', '-q', '-m', 'contribution');
  head = g('rev-parse', 'HEAD');
});
after(() => rmSync(repo, { recursive: true, force: true }));

test('preview build: changed datasets, data diff, charts as SVG and PNG, problems with line and column', async () => {
  const r = await preview(['build', '--root', repo, '--base', 'main', '--out', join(repo, 'out'), '--pr', '7']);
  assert.equal(r.code, 0, r.output);
  assert.match(r.stdout, /preview: 3 dataset\(s\) changed/);
  const m = JSON.parse(readFileSync(join(repo, 'out/manifest.json'), 'utf8'));
  assert.equal(m.pr, 7);
  assert.equal(m.head_sha, head);
  assert.equal(m.base_sha, g('rev-parse', 'main'));
  assert.deepEqual(m.datasets.map((d) => [d.id, d.status]), [['alpha', 'changed'], ['beta', 'removed'], ['gamma', 'added']]);
  assert.deepEqual(m.raw_output.map((p) => p.file), ['raw-output/alpha/run.html'], 'the refused raw output is listed');
  assert.match(m.raw_output[0].reason, /"\.html" is not a plain-data extension/);
  const [alpha, beta, gamma] = m.datasets;
  assert.deepEqual(alpha.diff, { columnsAdded: [], columnsRemoved: [], added: ['Arch'], removed: [], changed: [{ key: 'Debian', cells: [{ column: 'rps', from: '10000', to: '10500' }] }] });
  assert.deepEqual(beta.diff.removed, ['Gentoo', 'Debian', 'Ubuntu']);
  const gammaLines = readFileSync(join(repo, '_data/datasets/gamma.json'), 'utf8').split('\n');
  const unitLine = gammaLines.findIndex((l) => l.includes('"unit": "rps"')) + 1;
  assert.deepEqual(gamma.problems.map((p) => [p.field, p.line, p.column]), [['/columns/1/unit', unitLine, gammaLines[unitLine - 1].indexOf('"rps"') + 1]]);
  assert.match(gamma.problems[0].fix, /did you mean "req\/s"\?/);
  assert.deepEqual(gamma.charts, [], 'nothing half-valid is drawn');
  assert.deepEqual(alpha.charts.map((c) => c.png), ['charts/alpha--rps.png']);
  const png = readFileSync(join(repo, 'out/charts/alpha--rps.png'));
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(png.length > 2000, 'a real image, not an empty one');
  for (const theme of ['light', 'dark']) assert.match(readFileSync(join(repo, `out/charts/alpha--rps-${theme}.svg`), 'utf8'), /^<svg[\s>][\s\S]*Arch/);
});

test('preview comment: sticky marker, summary table, escaped text, verified images; wrong PR or commit refused', async () => {
  const dir = join(repo, 'out');
  const args = ['comment', '--dir', dir, '--pr', '7', '--head-sha', head, '--images-url', 'https://example.invalid/previews/pr-7', '--run-url', 'https://example.invalid/run/1'];
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const r = await preview([...args, '--publish', join(repo, 'publish')]);
  assert.equal(r.code, 0, r.output);
  const md = r.stdout;
  assert.ok(md.startsWith('<!-- scaling-rails-preview -->\n'));
  assert.match(md, /^\| `alpha` \| changed \| 1 \/ 0 \/ 1 \| 1 \| 0 \|$/m);
  assert.match(md, /^\| `beta` \| removed \| 0 \/ 3 \/ 0 \| 0 \| 0 \|$/m);
  assert.match(md, /^\| `gamma` \| added \| — \| 0 \| \*\*1\*\* \|$/m);
  const [p] = m.datasets[2].problems;
  assert.ok(md.includes(`- line ${p.line}, column ${p.column}, /columns/1/unit: &quot;rps&quot; is not in vocabulary\\.units`), md);
  assert.match(md, /\| ~ row \| Debian \| rps: 10000 → 10500 \|/);
  assert.match(md, /\*\*raw-output\/ has files the site will not publish\*\*/);
  assert.match(md, /^- raw\\-output\/alpha\/run\\\.html: &quot;\\\.html&quot; is not a plain\\-data extension/m);
  assert.match(md, /!\[Bar chart\\: .*\]\(https:\/\/example\.invalid\/previews\/pr-7\/alpha--rps\.png\)/);
  // Hostile title: no tag, no link, no mention, no table break survives.
  assert.ok(!md.includes('<img'), 'no raw HTML from the data');
  assert.ok(!/\]\(javascript/.test(md), 'no Markdown link from the data');
  assert.ok(!/@octocat/.test(md), 'no @mention from the data');
  assert.match(md, /#### `alpha` — Nginx &lt;img src=x onerror=alert\\\(1\\\)&gt; @\u200boctocat \\\[click\\\]\\\(javascript\\:alert\\\(1\\\)\\\) \\\| \\`code\\`/);
  assert.deepEqual(readdirSync(join(repo, 'publish')), ['alpha--rps.png']);

  const wrongPr = await preview(args.map((a) => (a === '7' ? '8' : a)));
  assert.equal(wrongPr.code, 2);
  assert.match(wrongPr.stderr, /the artifact is for pull request 7, not 8/);
  const wrongSha = await preview(args.map((a) => (a === head ? '0'.repeat(40) : a)));
  assert.equal(wrongSha.code, 2);
  assert.match(wrongSha.stderr, /not built from the commit/);
  assert.ok(existsSync(join(dir, 'manifest.json')));
});

// A fork's preview run is the pull request's own code: its artifact may be anything. Each tampering refuses the
// whole artifact (exit 2, the reason on one line) and publishes nothing, where it used to be filtered silently.
test('hostile preview artifacts: wrong paths, ids, fields, counts and fake or padded PNGs are refused whole', async () => {
  const good = join(repo, 'out');
  const args = (dir) => ['comment', '--dir', dir, '--pr', '7', '--head-sha', head, '--images-url', 'https://example.invalid/p', '--run-url', 'https://example.invalid/r', '--publish', join(dir, 'publish')];
  const png = readFileSync(join(good, 'charts/alpha--rps.png'));
  const cases = [
    ['a chart image path outside the artifact', (m) => m.datasets[0].charts.push({ id: 'evil', title: 't', alt: 'a', png: '../../../etc/passwd' }), /charts\[1\]\.png: not the one path/],
    ['an id that is a path', (m) => m.datasets.push({ id: '../x', status: 'added', charts: [] }), /datasets\[3\]\.id: not a dataset id/],
    ['an unknown field', (m) => { m.datasets[0].script = 'x'; }, /unknown field "script"/],
    ['more charts than a dataset may have', (m, dir) => { for (let i = 0; i < 8; i++) { m.datasets[0].charts.push({ id: `c${i}`, title: 't', alt: 'a', png: `charts/alpha--c${i}.png` }); writeFileSync(join(dir, `charts/alpha--c${i}.png`), png); } }, /charts: 9 entries, more than 8/],
    ['HTML after the PNG', (m, dir) => writeFileSync(join(dir, 'charts/alpha--rps.png'), Buffer.concat([png, Buffer.from('<script>alert(1)</script>')])), /not a well-formed PNG: data after IEND/],
    ['HTML behind a PNG signature', (m, dir) => writeFileSync(join(dir, 'charts/alpha--rps.png'), Buffer.concat([png.subarray(0, 8), Buffer.from('<html><script>alert(1)</script></html>'.repeat(3))])), /not a well-formed PNG/],
    ['a text chunk', (m, dir) => {
      const text = Buffer.from('tEXtComment\0<script>');
      const chunk = Buffer.concat([Buffer.alloc(4), text, Buffer.alloc(4)]);
      chunk.writeUInt32BE(text.length - 4, 0);
      writeFileSync(join(dir, 'charts/alpha--rps.png'), Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]));
    }, /chunk tEXt (has a wrong CRC|is not allowed)/],
    ['an image that is a link', (m, dir) => { rmSync(join(dir, 'charts/alpha--rps.png')); symlinkSync('/etc/passwd', join(dir, 'charts/alpha--rps.png')); }, /missing or not a regular file/],
  ];
  for (const [name, tamper, reason] of cases) {
    const dir = join(repo, `hostile-${cases.findIndex((c) => c[0] === name)}`);
    cpSync(good, dir, { recursive: true });
    rmSync(join(dir, 'publish'), { recursive: true, force: true });
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    tamper(m, dir);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    const r = await preview(args(dir));
    assert.equal(r.code, 2, `${name}: ${r.output}`);
    assert.match(r.stderr, /^preview: preview artifact refused: /, name);
    assert.match(r.stderr, reason, name);
    assert.equal(r.stdout, '', `${name}: no comment written`);
    assert.equal(existsSync(join(dir, 'publish')), false, `${name}: nothing published`);
  }
});
