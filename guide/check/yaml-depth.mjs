// How deeply a YAML text nests, in one linear pass before the `yaml` package parses it: its parser and
// toJS recurse once per level, so 900 nested maps or "- - - …" ran out of stack ("Maximum call stack size
// exceeded") instead of giving a named error. Counts block levels (indentation and "- " on one line) and
// flow levels ([ and { where a value starts); quoted text and comments are skipped.
import { InputError } from './errors.mjs';
import { LIMITS } from './limits.mjs';

const VALUE_START = new Set([':', '-', ',', '[', '{', '?']);

/** Throws InputError('yaml-depth') at the first line nested deeper than LIMITS.yamlDepth. */
export function checkYamlDepth(text, path, limit = LIMITS.yamlDepth) {
  const indents = [];
  let flow = 0;
  let line = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    let k = start;
    while (text[k] === ' ') k++;
    if (k < end && text[k] !== '#') {
      let block = indents.length;
      if (flow === 0) {
        while (indents.length && indents[indents.length - 1] >= k - start) indents.pop();
        indents.push(k - start);
        let inline = 0;
        let j = k;
        while ((text[j] === '-' || text[j] === '?') && (text[j + 1] === ' ' || j + 1 === end)) { inline++; j += 2; while (text[j] === ' ') j++; }
        block = indents.length + inline;
      }
      flow = flowDepth(text, k, end, flow, (deepest) => {
        if (block + deepest > limit) throw tooDeep(path, line, limit);
      });
      if (block > limit) throw tooDeep(path, line, limit);
    }
    start = end + 1;
  }
}

function flowDepth(text, from, to, flow, onLevel) {
  let prev = '';
  for (let j = from; j < to; j++) {
    const c = text[j];
    if (c === '"' || c === "'") {
      // Skip the quoted scalar on this line ("" and '' escapes alike end up skipped).
      let e = j + 1;
      while (e < to && text[e] !== c) e += text[e] === '\\' && c === '"' ? 2 : 1;
      j = e;
      prev = c;
      continue;
    }
    if (c === '#' && (j === from || text[j - 1] === ' ')) break;
    if ((c === '[' || c === '{') && (flow > 0 || prev === '' || VALUE_START.has(prev))) { flow++; onLevel(flow); }
    else if ((c === ']' || c === '}') && flow > 0) flow--;
    if (c !== ' ' && c !== '\t') prev = c;
  }
  return flow;
}

const tooDeep = (path, line, limit) => new InputError('yaml-depth', path, line, `YAML nested deeper than ${limit} levels`, 'database.yml needs three levels (environment, setting, value): flatten the file');
