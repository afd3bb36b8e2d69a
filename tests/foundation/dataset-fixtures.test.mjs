// Every malformed fixture must fail with a message that names the file, the line, the field and a fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { validateDataset, formatProblem } from '../../scripts/lib/dataset-validate.mjs';

const dir = new URL('./fixtures/malformed/', import.meta.url).pathname;
const validFile = new URL('./fixtures/valid-dataset.json', import.meta.url).pathname;

// fixture → [field, line, text the message must contain, text the fix must contain]
const EXPECTED = {
  'invalid-json': ['(file)', 6, 'expected "," between fields', 'correct the JSON at this line and column'],
  'missing-title': ['/title', 1, 'required field is missing', 'add the field "title"'],
  'unknown-field': ['/colour', 150, 'unknown field', 'remove "colour"'],
  'wrong-format': ['/format', 2, 'must be "scaling-rails/dataset@1"', 'set it to'],
  'bad-id-pattern': ['/id', 3, 'must match pattern', 'lowercase letters'],
  'id-mismatch': ['/id', 3, 'does not match the file name "id-mismatch.json"', 'rename the file'],
  'unknown-topic': ['/topic', 5, '"networking" is not in vocabulary.topics', 'proxy'],
  'unknown-tool': ['/method/tool', 26, '"jmeter" is not in vocabulary.tools', 'wrk'],
  'unknown-aggregation': ['/method/aggregation', 31, '"average" is not in vocabulary.aggregations', 'median'],
  'unknown-unit': ['/columns/1/unit', 44, '"rps" is not in vocabulary.units', 'req/s'],
  'missing-unit': ['/columns/1', 40, 'numeric column "rps" has no unit', 'add "unit"'],
  'year-as-string': ['/year', 6, 'must be integer', 'integer'],
  'row-too-short': ['/rows/1', 60, 'row 2 has 2 cells but there are 3 columns', 'use null'],
  'row-too-long': ['/rows/0', 55, 'row 1 has 4 cells but there are 3 columns', 'one cell per column'],
  'text-in-number-column': ['/rows/0/1', 57, '"12001.11 req/s" is not a number', 'without units'],
  'undeclared-marker': ['/rows/2/1', 67, '"TIMEOUT" is not a number', 'failures.markers'],
  'unused-marker': ['/failures/markers', 72, '"SystemExit" is declared but never used', 'remove it'],
  'float-in-integer-column': ['/rows/0/2', 58, '1000.5 is not an integer', 'whole number'],
  'number-in-text-column': ['/rows/0/0', 56, 'expected text, found number', 'quote the value'],
  'duplicate-column-key': ['/columns/2/key', 48, 'column key "rps" is used twice', 'own key'],
  'errata-row-out-of-range': ['/errata/0/cells/0/row', 83, 'row 9 does not exist', '1-based'],
  'errata-unknown-column': ['/errata/0/cells/0/column', 84, 'column "req_per_s" does not exist', 'distro, rps, conns'],
  'related-unknown-id': ['/related/0', 151, 'related dataset "no-such-dataset" does not exist', '_data/datasets/'],
  'todo-placeholder': ['/hardware', 18, 'placeholder not filled in', 'replace the TODO'],
  'chart-unknown-field': ['/charts/0/spec', 100, 'uses field "throughput"', 'column keys'],
  'chart-hides-failures': ['/charts/0/spec', 100, 'never shows "rps_failure"', 'failed runs must be visible'],
  'chart-with-data': ['/charts/0/spec', 100, 'must not carry its own data', 'the build binds the dataset rows'],
  'chart-invalid-vega-lite': ['/charts/0/spec/layer/0/mark', 104, 'not a valid Vega-Lite v5 spec', 'Vega-Lite documentation'],
  'chart-warning': ['/charts/0/spec', 100, 'compiles with a warning', 'without warnings'],
  'duplicate-chart-id': ['/charts/1/id', 150, 'chart id "rps" is used twice', 'own id'],
  'missing-method-runs': ['/method/runs', 25, 'required field is missing', 'add the field "runs"'],
  'reserved-column-suffix': ['/columns/2/key', 48, 'reserved suffix', '_failure or _flagged'],
  'unit-from-not-string-column': ['/columns/1/unit_from', 45, 'is not a string column', 'string column'],
  'decimals-on-text-column': ['/columns/0/decimals', 39, 'only applies to numeric columns', 'remove "decimals"'],
};

test('the valid fixture has no problems', () => {
  assert.deepEqual(validateDataset({ file: validFile, text: readFileSync(validFile, 'utf8'), knownIds: new Set() }), []);
});

test('there are at least 25 malformed fixtures and each one has an expectation', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
  assert.ok(files.length >= 25, `only ${files.length} fixtures`);
  assert.deepEqual(files.sort(), Object.keys(EXPECTED).sort());
});

for (const [name, [field, line, message, fix]] of Object.entries(EXPECTED)) {
  test(`malformed fixture ${name} fails with a clear message`, () => {
    const file = join(dir, `${name}.json`);
    const problems = validateDataset({ file, text: readFileSync(file, 'utf8'), knownIds: new Set() });
    assert.ok(problems.length > 0, 'expected at least one problem');
    const p = problems.find((x) => x.field === field && x.message.includes(message));
    assert.ok(p, `no problem at ${field} mentioning ${JSON.stringify(message)}; got:\n${problems.map((x) => formatProblem(x)).join('\n')}`);
    assert.equal(p.line, line, `line for ${field}`);
    assert.ok(p.fix.includes(fix), `fix ${JSON.stringify(p.fix)} should mention ${JSON.stringify(fix)}`);
    const printed = formatProblem(p);
    assert.match(printed, new RegExp(`malformed/${name}\\.json:${line}:${p.column}: `));
    assert.ok(p.column >= 1, 'every problem has a column');
  });
}
