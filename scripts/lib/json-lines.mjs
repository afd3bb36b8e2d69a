// Maps every JSON pointer in a JSON text to the 1-based line where its value starts,
// so validation messages can say `file:line`. JSON.parse gives values but no positions.
export function lineIndex(text) {
  const lines = new Map();
  let i = 0;
  let line = 1;
  const ws = () => {
    for (;;) {
      const c = text[i];
      if (c === '\n') { line++; i++; } else if (c === ' ' || c === '\t' || c === '\r') { i++; } else break;
    }
  };
  const str = () => {
    i++; // opening quote
    let out = '';
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') { out += text[i + 1] === 'u' ? text.slice(i, i + 6) : text[i + 1]; i += text[i + 1] === 'u' ? 6 : 2; } else { if (text[i] === '\n') line++; out += text[i++]; }
    }
    i++;
    return out;
  };
  const value = (ptr) => {
    ws();
    lines.set(ptr, line);
    const c = text[i];
    if (c === '{') {
      i++; ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        const key = str();
        ws(); i++; // colon
        value(`${ptr}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
        ws();
        if (text[i] === ',') { i++; continue; }
        i++; return;
      }
    } else if (c === '[') {
      i++; ws();
      if (text[i] === ']') { i++; return; }
      for (let n = 0; ; n++) {
        value(`${ptr}/${n}`);
        ws();
        if (text[i] === ',') { i++; continue; }
        i++; return;
      }
    } else if (c === '"') {
      str();
    } else {
      while (i < text.length && !/[,\]}\s]/.test(text[i])) i++;
    }
  };
  value('');
  return lines;
}

// Line of the deepest pointer prefix that exists (a missing property reports its parent object).
export function lineOf(lines, pointer) {
  let p = pointer;
  for (;;) {
    if (lines.has(p)) return lines.get(p);
    if (p === '') return 1;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}

// Line and column for a JSON.parse error message ("... at position 123" or "(line 4 column 2)").
export function parseErrorLine(text, message) {
  const m = /line (\d+) column (\d+)/.exec(message);
  if (m) return Number(m[1]);
  const p = /position (\d+)/.exec(message);
  if (!p) return 1;
  return text.slice(0, Number(p[1])).split('\n').length;
}
