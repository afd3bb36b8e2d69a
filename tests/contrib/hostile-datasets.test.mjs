// Datasets written as attacks on the validator (issue 26): each must be reported as `file:line:column:
// field: problem — fix: …` with exit status 1, never a crash (an uncaught TypeError from Vega, a stack
// overflow, exit 2 without a position) and never a silent change. One scripts/validate run checks them all,
// as a pull request adding them would be checked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runTool, tempDir, ROOT } from './tools.mjs';
import { DATASET_LIMITS } from '../../scripts/lib/dataset-limits.mjs';
import { isSafeUrl } from '../../scripts/lib/chart-urls.mjs';

const VALID = JSON.parse(readFileSync(join(ROOT, 'tests/foundation/fixtures/valid-dataset.json'), 'utf8'));
const LINE = /^(\S+):(\d+):(\d+): (\S+): (.+) — fix: (.+)$/;
let dir;
const files = {};

// 1-based line and column of character `index` in `text`.
function lineCol(text, index) {
  const before = text.slice(0, index);
  return [before.split('\n').length, index - before.lastIndexOf('\n')];
}

function put(id, text) {
  const file = join(dir, `${id}.json`);
  writeFileSync(file, text);
  files[id] = { file, text };
}
const dataset = (id, change) => { const d = structuredClone(VALID); d.id = id; change(d); return JSON.stringify(d, null, 2); };

let run;
before(async () => {
  dir = tempDir('hostile-datasets-');
  mkdirSync(dir, { recursive: true });
  // 200,000 nested arrays in the rows (the probe's input: a stack overflow, exit 2, no position).
  put('deep', dataset('deep', () => {}).replace('"rows": [', `"rows": [${'['.repeat(200000)}${']'.repeat(200000)},`));
  // A 30-digit integer, a number below the smallest double, and one with more digits than a double keeps.
  put('huge-int', dataset('huge-int', (d) => { d.rows[0][2] = 0; }).replace(/("Gentoo",\s*\d+(?:\.\d+)?,\s*)0/, '$1123456789012345678901234567890'));
  put('underflow', dataset('underflow', (d) => { d.rows[0][1] = 7; }).replace(/("Gentoo",\s*)7/, '$11e-400'));
  put('too-precise', dataset('too-precise', (d) => { d.rows[0][1] = 7; }).replace(/("Gentoo",\s*)7/, '$112345.678901234567891'));
  // A chart that links every bar to script, one that reads a file through a lookup, one with links from a column.
  put('href', dataset('href', (d) => { d.charts[0].spec.layer[0].encoding.href = { value: 'javascript:alert(document.domain)' }; }));
  put('lookup', dataset('lookup', (d) => { d.charts[0].spec.layer[0].transform = [{ lookup: 'distro', from: { data: { url: '/etc/passwd' }, key: 'a', fields: ['b'] } }]; }));
  put('href-field', dataset('href-field', (d) => {
    d.charts[0].spec.layer[0].encoding.href = { field: 'distro' };
    d.rows[2][0] = 'data:text/html,<script>alert(1)</script>';
  }));
  // More rows than the limit (the probe's million-row file built a 65 MB page and ran the build out of memory).
  put('rows', dataset('rows', (d) => { d.rows = Array.from({ length: DATASET_LIMITS.rows + 1 }, (_, i) => [`r${i}`, i, i]); d.charts = []; }));
  put('big', `${dataset('big', () => {}).slice(0, -2)},\n  "padding": "${'x'.repeat(DATASET_LIMITS.bytes)}"\n}\n`);
  const t0 = Date.now();
  run = await runTool(join(ROOT, 'scripts/validate'), Object.values(files).map((f) => f.file), { timeoutMs: 120000 });
  run.ms = Date.now() - t0;
});
after(() => rmSync(dir, { recursive: true, force: true }));

// The reported problems of one file: [{line, column, field, message, fix}].
function problems(id) {
  return run.stdout.split('\n').map((l) => LINE.exec(l)).filter((m) => m && m[1].endsWith(`/${id}.json`))
    .map((m) => ({ line: Number(m[2]), column: Number(m[3]), field: m[4], message: m[5], fix: m[6] }));
}

test('scripts/validate reports every hostile file and exits 1, never crashing', () => {
  assert.equal(run.code, 1, run.output);
  assert.doesNotMatch(run.stderr, /TypeError|RangeError|Maximum call stack|at .*\.mjs:\d+/, 'no crash, no stack trace');
  assert.match(run.stdout, new RegExp(`problem\\(s\\) in ${Object.keys(files).length} of ${Object.keys(files).length} dataset\\(s\\)`));
  assert.ok(run.ms < 60000, `bounded: ${run.ms} ms`);
});

test('200,000 nested arrays: refused at the bracket past the depth limit', () => {
  const { text } = files.deep;
  const at = text.indexOf('"rows": [') + '"rows": ['.length + DATASET_LIMITS.depth - 2; // rows is the 2nd level
  const [p] = problems('deep');
  assert.deepEqual([p.line, p.column], lineCol(text, at));
  assert.match(p.message, new RegExp(`nested more than ${DATASET_LIMITS.depth} deep`));
});

test('numbers a double would change: refused with their position, never rounded', () => {
  for (const [id, literal, message] of [
    ['huge-int', '123456789012345678901234567890', /beyond 9007199254740991 \(2\^53 − 1\)/],
    ['underflow', '1e-400', /too small for a double \(it would become 0\)/],
    ['too-precise', '12345.678901234567891', /20 significant digits; a double keeps 17 at most/],
  ]) {
    const [p, ...rest] = problems(id);
    assert.deepEqual(rest, [], id);
    assert.deepEqual([p.line, p.column], lineCol(files[id].text, files[id].text.indexOf(literal)), id);
    assert.match(p.message, message, id);
    assert.ok(p.message.includes(literal), `${id}: names the number`);
  }
});

test('chart links: javascript: and data: refused at the property, a lookup that loads a file refused', () => {
  const [href] = problems('href');
  assert.equal(href.field, '/charts/0/spec/layer/0/encoding/href/value');
  assert.match(href.message, /"href" is "javascript:alert\(document\.domain\)", which is not an http\(s\) address or a path on this site/);
  const [lookup] = problems('lookup');
  assert.equal(lookup.field, '/charts/0/spec/layer/0/transform/0/from/data');
  assert.match(lookup.message, /may not load data of its own/);
  const [field] = problems('href-field');
  assert.equal(field.field, '/charts/0/spec/layer/0/encoding/href/field');
  assert.match(field.message, /column "distro", whose row 3 is "data:text\/html/);
  for (const u of ['https://example.org/x', 'http://a.b', '/datasets/x/', '../x', 'x.html#y']) assert.ok(isSafeUrl(u), u);
  for (const u of ['javascript:alert(1)', ' JavaScript:x', 'data:text/html,x', '//evil.example/x', 'vbscript:x', 'file:///etc/passwd', 'java\tscript:x']) assert.ok(!isSafeUrl(u), u);
});

test('size limits: rows past the cap and a file past the byte limit are refused before anything reads them whole', () => {
  const [rows] = problems('rows');
  assert.equal(rows.field, `/rows/${DATASET_LIMITS.rows}`);
  assert.match(rows.message, new RegExp(`${DATASET_LIMITS.rows + 1} rows; a dataset may have at most ${DATASET_LIMITS.rows}`));
  assert.match(rows.fix, /CONTRIBUTING\.md, "Limits"/);
  const [big] = problems('big');
  assert.deepEqual([big.line, big.column, big.field], [1, 1, '(file)']);
  assert.match(big.message, /MiB; a dataset may be at most 2 MiB/);
});
