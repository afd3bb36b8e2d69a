// Validates dataset files: the JSON Schema (ajv) first, then the rules a schema cannot express.
// Every problem names the file, the line, the field (JSON pointer) and what to do about it.
import { readFileSync, readdirSync } from 'node:fs';
import { join, basename } from 'node:path';
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import Ajv07 from 'ajv';
import * as vl from 'vega-lite';
import { parseJsonPositions, positionOf, JsonSyntaxError } from './json-lines.mjs';
import { didYouMean, licenseProblem, MAX_CHART_WIDTH, chartWidths, qualityProblems } from './dataset-rules.mjs';
import { fullSpec, fieldUse, isNumeric } from './chart-spec.mjs';

const require = createRequire(import.meta.url);
const ROOT = new URL('../../', import.meta.url).pathname;
export const SCHEMA_PATH = join(ROOT, 'schemas/dataset-1.schema.json');
export const VOCABULARY_PATH = join(ROOT, '_data/vocabulary.json');
export const DATASET_DIR = join(ROOT, '_data/datasets');

let compiled;
function schemaValidator() {
  if (!compiled) {
    // verbose: errors carry their schema, so an unknown field can be compared with the allowed ones.
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, strictRequired: false });
    compiled = ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')));
  }
  return compiled;
}

let vlValidator;
function vegaLiteValidator() {
  if (!vlValidator) {
    const ajv = new Ajv07({ allErrors: true, strict: false, validateFormats: false });
    vlValidator = ajv.compile(require('vega-lite/build/vega-lite-schema.json'));
  }
  return vlValidator;
}

export function loadVocabulary() {
  return JSON.parse(readFileSync(VOCABULARY_PATH, 'utf8'));
}

// Fix suggestions for each JSON Schema keyword, in the contributor's terms.
function schemaFix(err) {
  const p = err.params;
  switch (err.keyword) {
    case 'required': return `add the field "${p.missingProperty}" (see schemas/dataset-1.schema.json for what it means)`;
    case 'additionalProperties': {
      const allowed = Object.keys(err.parentSchema?.properties || {});
      const guess = didYouMean(p.additionalProperty, allowed);
      return guess ? `did you mean "${guess}"? Rename it, or remove "${p.additionalProperty}"` : `remove "${p.additionalProperty}" or check its spelling; allowed here: ${allowed.join(', ')}`;
    }
    case 'type': return `use a value of type ${p.type}`;
    case 'const': return `set it to ${JSON.stringify(p.allowedValue)}`;
    case 'enum': {
      const guess = typeof err.data === 'string' && didYouMean(err.data, p.allowedValues.map(String));
      return `${guess ? `did you mean "${guess}"? ` : ''}use one of: ${p.allowedValues.join(', ')}`;
    }
    case 'pattern': return 'use lowercase letters, digits and single hyphens (e.g. "my-app-puma-threads")';
    case 'minLength': return 'write a fuller value; empty or one-word values do not tell readers enough';
    case 'minItems': return `give at least ${p.limit} item(s)`;
    case 'maxItems': return `give at most ${p.limit} item(s)`;
    case 'minimum': case 'exclusiveMinimum': case 'maximum': return `use a number within the allowed range (${err.message})`;
    case 'not': return err.instancePath.endsWith('/spec') ? 'remove "data"/"datasets" from the spec: the build binds the dataset rows itself' : 'rename the column: keys ending in _failure or _flagged are reserved for chart data';
    case 'uniqueItems': return 'remove the duplicate entries';
    default: return 'see schemas/dataset-1.schema.json';
  }
}

function schemaMessage(err) {
  if (err.keyword === 'required') return 'required field is missing';
  if (err.keyword === 'additionalProperties') return 'unknown field';
  if (err.keyword === 'not') return err.instancePath.endsWith('/spec') ? 'a chart spec must not carry its own data' : 'column key uses a reserved suffix';
  if (err.keyword === 'const') return `must be ${JSON.stringify(err.params.allowedValue)}`;
  return err.message;
}

const escapeKey = (k) => k.replace(/~/g, '~0').replace(/\//g, '~1');

// Ajv reports a union type (["integer","null"]) once per branch and a `not` together with its
// inner errors; one problem per place is enough for a reader.
// A misspelled field is one mistake, not two: "warm_up" is reported as unknown (did you mean
// "warmup"?) and the "warmup is missing" error it causes is dropped.
function schemaErrors(errors) {
  const seen = new Set();
  const misspelt = new Set(errors.filter((e) => e.keyword === 'additionalProperties').map((e) => {
    const guess = didYouMean(e.params.additionalProperty, Object.keys(e.parentSchema?.properties || {}));
    return guess && `${e.instancePath}/${guess}`;
  }).filter(Boolean));
  return errors.filter((e) => {
    if (e.keyword === 'required' && misspelt.has(`${e.instancePath}/${e.params.missingProperty}`)) return false;
    const id = `${e.instancePath}|${e.keyword}|${e.params.missingProperty || e.params.additionalProperty || ''}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

export function validateDataset({ file, text, vocabulary = loadVocabulary(), knownIds = null }) {
  const problems = [];
  const name = basename(file);
  let parsed;
  try {
    parsed = parseJsonPositions(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return [{ file, line: e.line, column: e.column, field: '(file)', message: `not valid JSON: ${e.message}`, fix: 'correct the JSON at this line and column; an editor with JSON support shows the same spot' }];
  }
  const { value: data, positions, duplicates } = parsed;
  // key: report at the member's name (unknown fields), otherwise at its value.
  const at = (pointer, key = false) => positionOf(positions, pointer, { key });
  const add = (pointer, message, fix) => problems.push({ file, ...at(pointer), field: pointer || '(root)', message, fix });

  // JSON allows two equal keys and keeps the last one silently; a dataset must not (one of them was meant).
  for (const d of duplicates) problems.push({ file, line: d.line, column: d.column, field: d.pointer, message: `field given twice in the same object (first on line ${d.firstLine})`, fix: 'keep one of them: remove or rename the other' });
  if (duplicates.length) return problems;

  const validate = schemaValidator();
  if (!validate(data)) {
    for (const err of schemaErrors(validate.errors)) {
      const unknown = err.keyword === 'additionalProperties';
      const ptr = err.keyword === 'required' ? `${err.instancePath}/${err.params.missingProperty}` : unknown ? `${err.instancePath}/${escapeKey(err.params.additionalProperty)}` : err.instancePath;
      // An unknown field is reported on its own line; a missing one at the object that lacks it.
      problems.push({ file, ...at(unknown ? ptr : err.instancePath, unknown), field: ptr || '(root)', message: schemaMessage(err), fix: schemaFix(err) });
    }
    return problems; // the rules below assume the shape is right (and would only repeat these problems)
  }

  // Placeholders left by scripts/new-dataset.
  const todo = (node, ptr) => {
    if (typeof node === 'string' && /^\s*TODO\b/.test(node)) add(ptr, 'placeholder not filled in', 'replace the TODO text with the real value (or "not stated" if the source does not say)');
    else if (Array.isArray(node)) node.forEach((n, i) => todo(n, `${ptr}/${i}`));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) todo(v, `${ptr}/${k}`);
  };
  todo(data, '');

  if (`${data.id}.json` !== name) add('/id', `id "${data.id}" does not match the file name "${name}"`, `rename the file to ${data.id}.json or set "id" to "${name.replace(/\.json$/, '')}"`);
  const vocab = (pointer, value, list, listName) => {
    if (Object.hasOwn(list, value)) return;
    const guess = didYouMean(value, Object.keys(list));
    add(pointer, `"${value}" is not in vocabulary.${listName}`, `${guess ? `did you mean "${guess}"? Otherwise ` : ''}use one of: ${Object.keys(list).join(', ')} — or add it to _data/vocabulary.json in the same pull request`);
  };
  for (const q of qualityProblems(data)) add(q.pointer, q.message, q.fix);
  const licence = licenseProblem(data.license);
  if (licence) add('/license', licence.message, licence.fix);
  vocab('/topic', data.topic, vocabulary.topics, 'topics');
  vocab('/method/tool', data.method.tool, vocabulary.tools, 'tools');
  vocab('/method/aggregation', data.method.aggregation, vocabulary.aggregations, 'aggregations');

  const keys = new Map();
  data.columns.forEach((col, i) => {
    const ptr = `/columns/${i}`;
    if (keys.has(col.key)) add(`${ptr}/key`, `column key "${col.key}" is used twice`, 'give every column its own key');
    keys.set(col.key, col);
    if (col.unit !== undefined) vocab(`${ptr}/unit`, col.unit, vocabulary.units, 'units');
    if (isNumeric(col) && col.unit === undefined && col.unit_from === undefined) add(ptr, `numeric column "${col.key}" has no unit`, 'add "unit" (from _data/vocabulary.json units) or "unit_from" naming a column that holds each row\'s unit');
    if (!isNumeric(col) && col.decimals !== undefined) add(`${ptr}/decimals`, `"decimals" only applies to numeric columns, but "${col.key}" is ${col.type}`, 'remove "decimals" or change the column type');
  });
  data.columns.forEach((col, i) => {
    if (col.unit_from === undefined) return;
    const src = keys.get(col.unit_from);
    if (!src || src.type !== 'string') add(`/columns/${i}/unit_from`, `unit_from "${col.unit_from}" is not a string column of this dataset`, 'name the key of a string column whose cells are units');
  });

  const markers = new Set(data.failures.markers);
  const usedMarkers = new Set();
  data.rows.forEach((row, r) => {
    const ptr = `/rows/${r}`;
    if (row.length !== data.columns.length) {
      add(ptr, `row ${r + 1} has ${row.length} cells but there are ${data.columns.length} columns`, 'add or remove cells so every row has one cell per column (use null for an unknown value)');
      return;
    }
    row.forEach((v, c) => {
      const col = data.columns[c];
      const cptr = `${ptr}/${c}`;
      if (v === null) return;
      if (isNumeric(col)) {
        if (typeof v === 'string') {
          if (markers.has(v)) usedMarkers.add(v);
          else add(cptr, `row ${r + 1}, column "${col.key}": "${v}" is not a number`, `write a number (without units or % sign), null for unknown, or declare "${v}" in failures.markers if it marks a failed run`);
        } else if (col.type === 'integer' && !Number.isInteger(v)) {
          add(cptr, `row ${r + 1}, column "${col.key}": ${v} is not an integer`, 'use a whole number or change the column type to "number"');
        }
      } else if (typeof v !== 'string') {
        add(cptr, `row ${r + 1}, column "${col.key}": expected text, found ${typeof v}`, 'quote the value or change the column type to "number"');
      }
      // A text column that other columns take their unit from must hold vocabulary units.
      const unitUser = !isNumeric(col) && data.columns.some((x) => x.unit_from === col.key);
      if (unitUser && !Object.hasOwn(vocabulary.units, v)) {
        const guess = didYouMean(v, Object.keys(vocabulary.units));
        add(cptr, `row ${r + 1}: unit "${v}" is not in vocabulary.units`, `${guess ? `did you mean "${guess}"? Otherwise ` : ''}use one of: ${Object.keys(vocabulary.units).join(', ')}`);
      }
    });
  });
  for (const m of markers) if (!usedMarkers.has(m)) add('/failures/markers', `failure marker "${m}" is declared but never used`, 'remove it from failures.markers');

  data.errata.forEach((e, i) => (e.cells || []).forEach((cell, j) => {
    const ptr = `/errata/${i}/cells/${j}`;
    if (cell.row > data.rows.length) add(`${ptr}/row`, `row ${cell.row} does not exist (the dataset has ${data.rows.length} rows)`, 'use a 1-based row number');
    if (!keys.has(cell.column)) add(`${ptr}/column`, `column "${cell.column}" does not exist`, `use one of: ${[...keys.keys()].join(', ')}`);
  }));

  if (knownIds) (data.related || []).forEach((id, i) => {
    if (!knownIds.has(id)) add(`/related/${i}`, `related dataset "${id}" does not exist`, 'use the id of a file in _data/datasets/ or remove it');
  });

  const chartIds = new Set();
  (data.charts || []).forEach((chart, i) => {
    const ptr = `/charts/${i}`;
    if (chartIds.has(chart.id)) add(`${ptr}/id`, `chart id "${chart.id}" is used twice`, 'give every chart of a dataset its own id');
    chartIds.add(chart.id);
    (chart.columns || []).forEach((k, j) => { if (!keys.has(k)) add(`${ptr}/columns/${j}`, `column "${k}" does not exist`, `use one of: ${[...keys.keys()].join(', ')}`); });
    const { used, made } = fieldUse(chart.spec);
    const known = new Set([...keys.keys()].flatMap((k) => [k, `${k}_failure`, `${k}_flagged`]));
    for (const f of used) if (!known.has(f) && !made.has(f)) add(`${ptr}/spec`, `chart "${chart.id}" uses field "${f}", which is neither a column nor made by a transform`, `use one of the column keys (${[...keys.keys()].join(', ')}), or <key>_failure / <key>_flagged`);
    for (const w of chartWidths(chart.spec)) {
      if (w.value > MAX_CHART_WIDTH) add(`${ptr}/spec${w.pointer}`, `chart "${chart.id}" is ${w.value} px wide${w.pointer.endsWith('/width') ? '' : ' side by side'}, wider than the page's text column allows`, `keep the plot at ${MAX_CHART_WIDTH} px or less (the text column is 704 px and axes and legends need the rest); on phones the SVG scales down`);
    }
    const specText = JSON.stringify(chart.spec);
    for (const col of data.columns) {
      if (!isNumeric(col) || !used.has(col.key)) continue;
      // Only declared markers are failures; a stray string in a numeric cell is reported once, above.
      const hasFailures = data.rows.some((row) => row.length === data.columns.length && markers.has(row[data.columns.indexOf(col)]));
      if (hasFailures && !specText.includes(`${col.key}_failure`)) add(`${ptr}/spec`, `chart "${chart.id}" plots "${col.key}", which has failed runs, but never shows "${col.key}_failure"`, `add a layer that marks failures, e.g. a text mark filtered on "datum.${col.key}_failure" — failed runs must be visible, not missing`);
    }
    const spec = fullSpec(data, chart, 'light');
    const validVl = vegaLiteValidator();
    if (!validVl(spec)) {
      // The schema is one big anyOf: the deepest error is the one nearest the real mistake.
      const err = [...validVl.errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
      add(`${ptr}/spec${err.instancePath}`, `chart "${chart.id}" is not a valid Vega-Lite v5 spec: ${err.instancePath || '(spec)'} ${err.message}`, 'compare with the Vega-Lite documentation for that mark or encoding');
      return;
    }
    const warnings = [];
    const logger = { level() { return logger; }, warn: (...a) => { warnings.push(a.join(' ')); return logger; }, info: () => logger, debug: () => logger, error: (...a) => { warnings.push(a.join(' ')); return logger; } };
    try {
      vl.compile(spec, { logger });
    } catch (e) {
      add(`${ptr}/spec`, `chart "${chart.id}" does not compile: ${e.message}`, 'fix the spec; try it in the Vega-Lite online editor with the data inlined');
      return;
    }
    for (const w of warnings) add(`${ptr}/spec`, `chart "${chart.id}" compiles with a warning: ${w}`, 'change the spec until Vega-Lite compiles it without warnings');
  });
  return problems;
}

export function datasetFiles(dir = DATASET_DIR) {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
}

export function knownDatasetIds(dir = DATASET_DIR) {
  return new Set(datasetFiles(dir).map((f) => basename(f, '.json')));
}

export function validateFiles(files, { dir = DATASET_DIR } = {}) {
  const vocabulary = loadVocabulary();
  const knownIds = knownDatasetIds(dir);
  for (const f of files) knownIds.add(basename(f, '.json'));
  return files.flatMap((file) => validateDataset({ file, text: readFileSync(file, 'utf8'), vocabulary, knownIds }));
}

export function validateAll(dir = DATASET_DIR) {
  return validateFiles(datasetFiles(dir), { dir });
}

export function formatProblem(p, root = ROOT) {
  const rel = p.file.startsWith(root) ? p.file.slice(root.length) : p.file;
  return `${rel}:${p.line}:${p.column ?? 1}: ${p.field}: ${p.message} — fix: ${p.fix}`;
}
