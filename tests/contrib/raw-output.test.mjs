// raw-output/ as a pull request could fill it (issue 26): an .html page with script, a symbolic link to a
// file of the building machine, an .svg, a binary, and a .txt that starts with front matter and Liquid. The
// build and scripts/validate must refuse the first four with file and reason (and publish nothing), and the
// .txt must reach the site byte for byte, served as text, with its Liquid never run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync, readFileSync, symlinkSync, rmSync, existsSync, readdirSync, copyFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runTool, tempDir, ROOT } from './tools.mjs';
import { checkRawOutput, publishRawOutput, RAW_EXTENSIONS } from '../../scripts/lib/raw-output.mjs';
import { committedSymlinks } from '../../scripts/lib/source-symlinks.mjs';
import { execFileSync } from 'node:child_process';
import { startSiteServer } from '../../scripts/lib/site-server.mjs';

const HOSTILE_HTML = '<!doctype html><script>caches.open("scaling-rails-guide-v1").then((c) => c.put("/guide/", new Response("pwned", { headers: { "content-type": "text/html" } })));alert(document.domain)</script>';
const FRONT_MATTER = '---\ntitle: x\n---\nbuilt at {{ site.time }} {% include chart.html %}\n';
let copy;

// A copy of the tooling (scripts/, schemas, vocabulary, one dataset) with the hostile raw output beside it.
before(() => {
  copy = tempDir('raw-output-');
  cpSync(join(ROOT, 'scripts'), join(copy, 'scripts'), { recursive: true });
  cpSync(join(ROOT, 'schemas'), join(copy, 'schemas'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  mkdirSync(join(copy, '_data/datasets'), { recursive: true });
  copyFileSync(join(ROOT, '_data/vocabulary.json'), join(copy, '_data/vocabulary.json'));
  // The validator reads the measurement protocol's thresholds (the grade rules) from here.
  copyFileSync(join(ROOT, '_data/measurement_protocol.json'), join(copy, '_data/measurement_protocol.json'));
  copyFileSync(join(ROOT, 'tests/foundation/fixtures/valid-dataset.json'), join(copy, '_data/datasets/valid-dataset.json'));
  const dir = join(copy, 'raw-output/valid-dataset');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'run.html'), HOSTILE_HTML);
  writeFileSync(join(dir, 'chart.svg'), '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
  symlinkSync('/etc/passwd', join(dir, 'passwd.txt'));
  writeFileSync(join(dir, 'core.dat'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1]));
  writeFileSync(join(dir, 'front.txt'), FRONT_MATTER);
  writeFileSync(join(dir, 'wrk.txt'), 'Running 5s test @ http://127.0.0.1:3000/\n');
});
after(() => rmSync(copy, { recursive: true, force: true }));

const REFUSED = [
  ['raw-output/valid-dataset/chart.svg', /"\.svg" is not a plain-data extension/],
  ['raw-output/valid-dataset/core.dat', /binary content/],
  ['raw-output/valid-dataset/passwd.txt', /a symbolic link: the build would publish whatever it points to/],
  ['raw-output/valid-dataset/run.html', /"\.html" is not a plain-data extension: raw output is published as text only/],
];

test('the build refuses hostile raw output with file and reason, before anything else, and publishes nothing', async () => {
  const r = await runTool(process.execPath, [join(copy, 'scripts/build-assets.mjs')], { cwd: copy, timeoutMs: 60000 });
  assert.equal(r.code, 1, r.output);
  assert.match(r.stderr, /^4 problem\(s\) in raw-output\/ or committed links; nothing was published:/);
  for (const [file, reason] of REFUSED) {
    const line = r.stderr.split('\n').find((l) => l.startsWith(`${file}:1:1: raw-output: `));
    assert.ok(line, `${file} named:\n${r.stderr}`);
    assert.match(line, reason);
    assert.match(line, / — fix: /);
  }
  assert.doesNotMatch(r.stderr, /front\.txt|wrk\.txt/, 'allowed files are not reported');
  assert.equal(existsSync(join(copy, '_site')), false, 'nothing published');
  assert.equal(existsSync(join(copy, 'assets/generated')), false, 'the build stopped before rendering anything');
});

test('scripts/validate reports the same files in its file:line:column format, exit 1', async () => {
  const r = await runTool(join(copy, 'scripts/validate'), [join(copy, '_data/datasets/valid-dataset.json')], { cwd: copy, timeoutMs: 60000 });
  assert.equal(r.code, 1, r.output);
  for (const [file, reason] of REFUSED) assert.match(r.stdout, new RegExp(`^${file.replace(/[.]/g, '\\.')}:1:1: raw-output: .*`, 'm'), reason.source);
  assert.match(r.stdout, /problem\(s\) in 0 of 1 dataset\(s\) and 4 in raw-output\//);
});

test('front matter in an allowed .txt is never run through Liquid: Jekyll with the site\'s _config.yml keeps the copied file byte for byte, served as text', async (t) => {
  for (const [file] of REFUSED) rmSync(join(copy, file));
  assert.deepEqual(checkRawOutput(copy).problems, []);
  const site = join(copy, 'site');
  copyFileSync(join(ROOT, '_config.yml'), join(copy, '_config.yml'));
  writeFileSync(join(copy, 'index.md'), '---\ntitle: t\n---\nbuilt {{ site.time | date: "%Y" }}\n');
  assert.equal(publishRawOutput(copy, site), 2);
  // The site's own Jekyll (Gemfile, plugins) over a small source: the same exclude and keep_files rules.
  const r = await runTool('bundle', ['exec', 'jekyll', 'build', '--source', copy, '--destination', site, '--quiet'],
    { cwd: ROOT, timeoutMs: 120000, env: { BUNDLE_GEMFILE: join(ROOT, 'Gemfile'), JEKYLL_ENV: 'production' } });
  assert.equal(r.code, 0, r.output);
  assert.match(readFileSync(join(site, 'index.html'), 'utf8'), /built \d{4}/, 'Liquid does run for the site\'s own pages');
  assert.equal(readFileSync(join(site, 'raw-output/valid-dataset/front.txt'), 'utf8'), FRONT_MATTER, 'kept and never rendered');
  assert.deepEqual(readdirSync(join(site, 'raw-output/valid-dataset')).sort(), ['front.txt', 'wrk.txt']);
  const server = await startSiteServer(site);
  t.after(() => server.close());
  const res = await fetch(`${server.url}/raw-output/valid-dataset/front.txt`);
  assert.match(res.headers.get('content-type'), /^text\/plain/);
  assert.equal(await res.text(), FRONT_MATTER);
  assert.equal((await fetch(`${server.url}/raw-output/valid-dataset/run.html`)).status, 404);
});

test('the built site holds exactly the repository\'s raw output, byte for byte, and only allowed extensions', { skip: !existsSync(join(ROOT, '_site/raw-output')) && 'no built site' }, () => {
  const list = (base) => {
    const out = [];
    const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) (e.isDirectory() ? walk : (x) => out.push(relative(base, x)))(join(d, e.name)); };
    walk(base);
    return out.sort();
  };
  const src = list(join(ROOT, 'raw-output'));
  assert.deepEqual(list(join(ROOT, '_site/raw-output')), src);
  for (const f of src) {
    assert.ok(RAW_EXTENSIONS.some((ext) => f.endsWith(ext)), f);
    assert.ok(readFileSync(join(ROOT, 'raw-output', f)).equals(readFileSync(join(ROOT, '_site/raw-output', f))), f);
  }
});

test('a symbolic link committed anywhere in the repository is refused (Jekyll would publish its target)', (t) => {
  const repo = tempDir('symlinks-');
  t.after(() => rmSync(repo, { recursive: true, force: true }));
  mkdirSync(join(repo, 'assets'));
  symlinkSync('/proc/self/environ', join(repo, 'assets/env.txt'));
  writeFileSync(join(repo, 'index.md'), 'x');
  execFileSync('sh', ['-ec', 'git init -q && git add -A && git -c user.name=T -c user.email=t@e commit -qm x'], { cwd: repo });
  assert.deepEqual(committedSymlinks(repo).map((p) => [p.file, p.field]), [['assets/env.txt', '(link)']]);
  assert.deepEqual(committedSymlinks(ROOT), [], 'the repository has none');
});
