// The position-keeping JSON parser behind every validator message: same values as JSON.parse,
// 1-based line and column for every pointer (value and member name), duplicates and syntax errors located.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonPositions, positionOf, JsonSyntaxError } from '../../scripts/lib/json-lines.mjs';

const DATASETS = new URL('../../_data/datasets/', import.meta.url).pathname;

test('json positions: values equal JSON.parse on every dataset of the site', () => {
  for (const f of readdirSync(DATASETS).filter((x) => x.endsWith('.json'))) {
    const text = readFileSync(join(DATASETS, f), 'utf8');
    assert.deepEqual(parseJsonPositions(text).value, JSON.parse(text), f);
  }
});

test('json positions: lines and columns of values and member names; escapes and unicode', () => {
  const text = '{\n  "a": [1, {"b~/c": "x\\ny"}],\n  "é": "\\u00e9",\n  "n": -1.5e3\n}';
  const { value, positions, duplicates } = parseJsonPositions(text);
  assert.deepEqual(value, JSON.parse(text));
  assert.deepEqual(duplicates, []);
  assert.deepEqual(positions.get('/a'), { line: 2, column: 8, keyLine: 2, keyColumn: 3 });
  assert.deepEqual(positions.get('/a/1/b~0~1c'), { line: 2, column: 21, keyLine: 2, keyColumn: 13 });
  assert.deepEqual(positions.get('/é'), { line: 3, column: 8, keyLine: 3, keyColumn: 3 });
  assert.deepEqual(positionOf(positions, '/a/1/missing'), { line: 2, column: 12 }, 'a missing member reports its object');
  assert.deepEqual(positionOf(positions, '/n', { key: true }), { line: 4, column: 3 });
});

test('json positions: duplicate keys keep the first value and are reported where the second stands', () => {
  const { value, duplicates } = parseJsonPositions('{"x": 1,\n "y": {"z": 1, "z": 2},\n "x": 3}');
  assert.deepEqual(value, { x: 1, y: { z: 1 } });
  assert.deepEqual(duplicates, [
    { pointer: '/y/z', line: 2, column: 16, firstLine: 2, firstColumn: 8 },
    { pointer: '/x', line: 3, column: 2, firstLine: 1, firstColumn: 2 },
  ]);
  assert.deepEqual(Object.getPrototypeOf(parseJsonPositions('{"__proto__": {"p": 1}}').value), Object.prototype, '__proto__ stays a plain field');
});

test('json positions: syntax errors at their line and column, in the contributor\'s terms', () => {
  const cases = [
    ['{\n  "a": 1,\n}', 3, 1, /trailing comma before "}"/],
    ['[1,\n 2,\n]', 3, 1, /trailing comma before "]"/],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, /expected "," between fields/],
    ['{"a": tru}', 1, 7, /unquoted text "tru"/],
    ["{'a': 1}", 1, 2, /expected a "quoted" field name/],
    ['{"a": "x\n"}', 1, 7, /runs past the end of its line/],
    ['{"a": 01}', 1, 8, /expected "," between fields/],
    ['{"a": 1}}', 1, 9, /after the end of the JSON value/],
    ['{"a": ', 1, 7, /ends where a value was expected/],
  ];
  for (const [text, line, column, message] of cases) {
    assert.throws(() => parseJsonPositions(text), (e) => e instanceof JsonSyntaxError && e.line === line && e.column === column && message.test(e.message), `${JSON.stringify(text)}`);
    assert.throws(() => JSON.parse(text), SyntaxError, `JSON.parse agrees ${JSON.stringify(text)} is not JSON`);
  }
});
