// Validator messages for the mistakes contributors actually make, each made by editing one line of
// the valid fixture: exactly one problem, at the exact line and column of the mistake, with a
// "did you mean" where a close word exists. Expected columns are found in the edited line itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateDataset, formatProblem } from '../../scripts/lib/dataset-validate.mjs';

const file = new URL('./fixtures/valid-dataset.json', import.meta.url).pathname;
const VALID = readFileSync(file, 'utf8').split('\n');

// Each case: replace line `line` (1-based) by `text` ($& = the original line); `at` is the text
// whose first character the problem must point at (on `atLine`, default `line`).
const CASES = [
  { name: 'trailing comma in a list', line: 56, text: '    },', atLine: 57, at: ']', field: '(file)', message: 'trailing comma before "]"', fix: 'correct the JSON' },
  { name: 'trailing comma in an object', line: 43, replaceTo: 57, text: '', atLine: 44, at: '}', field: '(file)', message: 'trailing comma before "}"', fix: 'correct the JSON' },
  { name: 'missing comma between fields', line: 5, text: '  "topic": "proxy"', atLine: 6, at: '"year"', field: '(file)', message: 'expected "," between fields', fix: 'correct the JSON' },
  { name: 'single quotes', line: 15, text: "  \"hardware\": 'not stated',", at: "'", field: '(file)', message: 'single quotes are not JSON', fix: 'correct the JSON' },
  { name: 'duplicate key', line: 6, text: '  "topic": "ruby",\n$&', at: '"topic"', field: '/topic', message: 'field given twice in the same object (first on line 5)', fix: 'keep one of them' },
  { name: 'misspelled top-level key', line: 40, text: '  "caveat": ["One run per cell; spread unknown."],', at: '"caveat"', field: '/caveat', message: 'unknown field', fix: 'did you mean "caveats"?' },
  { name: 'misspelled nested key', line: 24, text: '    "warm_up": "not stated"', at: '"warm_up"', field: '/method/warm_up', message: 'unknown field', fix: 'did you mean "warmup"?' },
  { name: 'misspelled column type', line: 29, text: '    { "key": "conns", "label": "Connections", "type": "interger", "unit": "connections" }', at: '"interger"', field: '/columns/2/type', message: 'must be equal to one of the allowed values', fix: 'did you mean "integer"?' },
  { name: 'misspelled unit', line: 29, text: '    { "key": "conns", "label": "Connections", "type": "integer", "unit": "conections" }', at: '"conections"', field: '/columns/2/unit', message: '"conections" is not in vocabulary.units', fix: 'did you mean "connections"?' },
  { name: 'unit alias', line: 28, text: '    { "key": "rps", "label": "Requests per second (n)", "type": "number", "unit": "rps", "decimals": 2 },', at: '"rps", "decimals"', field: '/columns/1/unit', message: '"rps" is not in vocabulary.units', fix: 'did you mean "req/s"?' },
  { name: 'misspelled topic', line: 5, text: '  "topic": "proxys",', at: '"proxys"', field: '/topic', message: '"proxys" is not in vocabulary.topics', fix: 'did you mean "proxy"?' },
  { name: 'misspelled tool', line: 18, text: '    "tool": "wrk2",', at: '"wrk2"', field: '/method/tool', message: '"wrk2" is not in vocabulary.tools', fix: 'did you mean "wrk"?' },
  { name: 'quoted number: one problem, no chart cascade', line: 32, text: '    ["Gentoo", "12001.11", 1000],', at: '"12001.11"', field: '/rows/0/1', message: '"12001.11" is not a number', fix: 'write a number' },
  { name: 'chart wider than the layout', line: 50, text: '        "width": 900,', at: '900', field: '/charts/0/spec/width', message: 'is 900 px wide', fix: '560 px or less' },
  { name: 'licence that is not an SPDX id', line: 42, text: '  "license": "CC BY 4.0",', at: '"CC BY 4.0"', field: '/license', message: 'not an SPDX licence identifier', fix: 'did you mean "CC-BY-4.0"?' },
];

function edited(c) {
  const lines = [...VALID];
  const original = lines[c.line - 1];
  const replacement = c.text.replace('$&', original).replace(/\n$/, '');
  lines.splice(c.line - 1, (c.replaceTo || c.line) - c.line + 1, ...replacement.split('\n'));
  return lines;
}

for (const c of CASES) {
  test(`validator: ${c.name} → one problem at its exact line and column`, () => {
    const lines = edited(c);
    const atLine = c.atLine || c.line;
    const column = lines[atLine - 1].indexOf(c.at) + 1;
    assert.ok(column > 0, `test setup: "${c.at}" not on line ${atLine}: ${lines[atLine - 1]}`);
    const problems = validateDataset({ file, text: lines.join('\n'), knownIds: new Set() });
    const printed = problems.map((p) => formatProblem(p)).join('\n');
    assert.equal(problems.length, 1, `expected exactly one problem, got:\n${printed}`);
    const [p] = problems;
    assert.equal(p.field, c.field, printed);
    assert.ok(p.message.includes(c.message), `message: ${p.message}`);
    assert.ok(p.fix.includes(c.fix), `fix: ${p.fix}`);
    assert.deepEqual([p.line, p.column], [atLine, column], printed);
    assert.match(formatProblem(p), new RegExp(`valid-dataset\\.json:${atLine}:${column}: `));
  });
}

test('validator: the statement for quoted third-party figures and SPDX expressions are accepted licences', () => {
  for (const license of ['Quoted for commentary from the cited source; © the author', 'MIT OR Apache-2.0', 'CC-BY-SA-4.0', 'LicenseRef-Author-Permission']) {
    const lines = [...VALID];
    lines[41] = `  "license": ${JSON.stringify(license)},`;
    assert.deepEqual(validateDataset({ file, text: lines.join('\n'), knownIds: new Set() }), [], license);
  }
});

test('validator: side-by-side charts count their total width', () => {
  const lines = [...VALID];
  lines.splice(49, 5, '        "hconcat": [', '          { "width": 300, "mark": "bar", "encoding": { "x": { "field": "distro", "type": "nominal" }, "y": { "field": "rps", "type": "quantitative" } } },',
    '          { "width": 300, "transform": [{ "filter": "datum.rps_failure != null" }], "mark": "text", "encoding": { "x": { "field": "distro", "type": "nominal" }, "text": { "field": "rps_failure" } } }', '        ]');
  const problems = validateDataset({ file, text: lines.join('\n'), knownIds: new Set() });
  assert.deepEqual(problems.map((p) => [p.field, p.line]), [['/charts/0/spec/hconcat', 50]], problems.map((p) => formatProblem(p)).join('\n'));
  assert.match(problems[0].message, /600 px wide side by side/);
});
