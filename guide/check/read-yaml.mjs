// Reads database.yml statically. ERB is never evaluated: the usual ENV forms
// (<%= ENV.fetch("X") { d } %>, <%= ENV.fetch("X", d) %>, <%= ENV["X"] || d %>, <%= ENV["X"] %>) become
// values with their variable name; any other output tag becomes "cannot read"; tags that would run a
// command are refused. Aliases are bounded (LIMITS.yamlAliases) and merge keys (<<: *default) resolved.
import { parseDocument, isMap, isScalar, isAlias, isSeq, LineCounter } from 'yaml';
import { tokenize } from './ruby-tokens.mjs';
import { evaluate } from './read-ruby.mjs';
import { LIMITS } from './limits.mjs';
import { InputError } from './errors.mjs';
import { checkYamlDepth } from './yaml-depth.mjs';
import { envCompare } from './env-compare.mjs';

// Code that would run a command is refused (exit 2). Reading files (File.exist?, Dir.glob) or requiring
// libraries is merely unreadable here: the value becomes unknown with a note, the rest of the file is read.
const DANGEROUS = /`|%x|\b(system|exec|spawn|eval|instance_eval|send|public_send|syscall|fork|open|popen|capture2|capture3|Kernel|Process|IO)\b/;
const UNREADABLE = /\b(File|Dir|Pathname|require|load)\b/;
const PLACEHOLDER = (k) => `__erb_${k}__`;

/**
 * Replace ERB tags by placeholders, keeping line numbers. → {text, values: [{value, env, known, text, line}], notes}
 * One forward scan with indexOf (linear in the file, however many tags): a regex with a lazy body restarted
 * at every "<%" and counting lines from the start for each tag made 1 MB of "<%" take minutes.
 */
export function stripErb(src, path) {
  const values = [];
  const notes = [];
  const out = [];
  // Lines whose YAML the ERB decides (a loop, a branch, whole lines written): the file's shape is not known there.
  const unmodeled = [];
  let line = 1;
  let at = 0; // next character not yet copied
  let tags = 0;
  const countLines = (from, to) => { let k = 0; for (let j = from; j < to; j++) if (src.charCodeAt(j) === 10) k++; return k; };
  for (;;) {
    const open = src.indexOf('<%', at);
    if (open < 0) break;
    line += countLines(at, open);
    out.push(src.slice(at, open));
    if (++tags > LIMITS.erbTags) throw new InputError('erb-tags', path, line, `more than ${LIMITS.erbTags} ERB tags`, 'database.yml needs a few ERB tags; pass the real file');
    if (src[open + 2] === '%') { out.push('<%'); at = open + 3; continue; } // <%% is a literal "<%"
    const close = src.indexOf('%>', open + 2);
    if (close < 0) throw new InputError('erb-syntax', path, line, 'ERB tag "<%" is not closed by "%>"', 'close the tag with %>');
    const tag = src.slice(open, close + 2);
    const kind = /^[#=-]/.test(tag[2]) ? tag[2] : '';
    const code = tag.slice(kind ? 3 : 2, tag.endsWith('-%>') ? -3 : -2);
    const tagLines = countLines(open, close + 2);
    at = close + 2;
    out.push(replaceTag(tag, kind, code, line, tagLines, open));
    line += tagLines;
  }
  out.push(src.slice(at));
  return { text: out.join(''), values, notes, unmodeled };

  // Only blanks between the tag and the line's start and end (scans blanks only: linear overall).
  function aloneOnLine(from, to) {
    let a = from - 1;
    while (a >= 0 && (src[a] === ' ' || src[a] === '\t')) a--;
    let b = to;
    while (b < src.length && (src[b] === ' ' || src[b] === '\t' || src[b] === '\r')) b++;
    return (a < 0 || src[a] === '\n') && (b >= src.length || src[b] === '\n');
  }

  function anchorName(code, line) { return anchorNameOf(code, line, path, notes); }

  function replaceTag(tag, kind, code, line, tagLines, open) {
    const keepLines = '\n'.repeat(tagLines);
    if (kind === '#') return keepLines;
    if (DANGEROUS.test(code)) {
      throw new InputError('erb-command', path, line, `ERB code that could run a command or read files (${code.trim().slice(0, 60)}) is never evaluated`, 'replace it with <%= ENV.fetch("NAME") { default } %> or a plain value');
    }
    if (UNREADABLE.test(code)) {
      notes.push({ line, message: `ERB <%${kind || ''} ${code.trim().slice(0, 40)} %> reads files or libraries: not evaluated, its value is unknown` });
      if (kind !== '=') return keepLines;
      values.push({ known: false, value: null, text: tag, line });
      return PLACEHOLDER(values.length - 1) + keepLines;
    }
    // An output tag alone on its line writes whole YAML lines (`<%= "url: …" if … %>`): unknown, left out.
    if (kind === '=' && aloneOnLine(open, open + tag.length)) {
      notes.push({ line, message: `ERB <%= ${code.trim().slice(0, 40)} %> writes whole lines: not evaluated, the doctor reads the file without them` });
      unmodeled.push(line);
      return keepLines;
    }
    if (kind !== '=') {
      notes.push({ line, message: `ERB statement <%${code.slice(0, 40)}%> not evaluated: the doctor reads the file as if it were absent` });
      unmodeled.push(line);
      return keepLines;
    }
    // The name of an anchor or alias (`<<: *<%= ENV['DB'] || "mysql" %>`, lagotto's database.yml): Rails runs ERB
    // before YAML, so the default names the section merged; a placeholder there would name no anchor at all.
    if (src[open - 1] === '*' || src[open - 1] === '&') return anchorName(code, line) + keepLines;
    let v;
    try {
      // ENV Strings compared with Integers (problems.mjs env-compare): the defaults' value, and the hazard.
      const cmp = envCompare(code.trim());
      const floor = largerOf(code.trim());
      if (floor) v = cmp ? { ...floor, compare: cmp } : floor;
      else v = cmp ? { known: cmp.value !== null, value: cmp.value, env: cmp.raw[0], compare: cmp, text: code.trim() } : evaluate(tokenize(code.trim()), new Map(), code.trim());
    } catch {
      v = { known: false, value: null, text: code.trim() };
    }
    if (!v.known && !v.env) notes.push({ line, message: `cannot read <%= ${code.trim().slice(0, 60)} %> (only ENV.fetch / ENV[…] forms are read)` });
    values.push({ ...v, line, text: tag });
    return PLACEHOLDER(values.length - 1) + keepLines;
  }
}

/** The anchor an ERB tag names when its ENV default is known (a note says which); otherwise the file cannot be read. */
function anchorNameOf(code, line, path, notes) {
  let v = null;
  try { v = evaluate(tokenize(code.trim()), new Map(), code.trim()); } catch { v = null; }
  const name = v?.known && typeof v.value === 'string' ? v.value : null;
  if (!name || !/^[\w.-]+$/.test(name)) {
    throw new InputError('erb-anchor', path, line, `an anchor or alias named by ERB (<%= ${code.trim().slice(0, 60)} %>) whose name is unknown`, 'name the anchor in plain YAML, or give the ENV variable a default');
  }
  notes.push({ line, message: `the alias <%= ${code.trim().slice(0, 60)} %> is read as *${name}${v.env ? ` (${v.env} unset)` : ''}` });
  return name;
}

/**
 * `[<expression>, N].max` (a pool that serves web and job processes, pool-fix.mjs): the expression's value with a
 * floor of N (crossfile.mjs effective() applies the floor to the variable's value too). Split at the last comma: linear.
 */
function largerOf(code) {
  if (!code.startsWith('[') || !code.endsWith('].max')) return null;
  const inner = code.slice(1, -5);
  const at = inner.lastIndexOf(',');
  const n = at > 0 ? inner.slice(at + 1).trim() : '';
  if (!/^\d+$/.test(n)) return null;
  const left = evaluate(tokenize(inner.slice(0, at).trim()), new Map(), inner.slice(0, at).trim());
  if (!left.known || typeof left.value !== 'number') return null;
  return { ...left, value: Math.max(left.value, Number(n)), floor: Number(n), text: code };
}

/**
 * readYaml(text, path) → {settings: [{name, path: [...], value, text, env, known, line}], notes}
 * `name` is the dotted path (production.pool); `line` is where the value is written (inside the anchor
 * for values inherited through <<: *default).
 */
export function readYaml(src, path = 'database.yml') {
  const { text, values, notes, unmodeled } = stripErb(src, path);
  checkYamlDepth(text, path);
  const lc = new LineCounter();
  let doc;
  try {
    doc = parseDocument(text, { lineCounter: lc, merge: true, uniqueKeys: false, maxAliasCount: LIMITS.yamlAliases, prettyErrors: false });
  } catch (e) {
    // The depth check above stops the nesting we know of; any other recursion that runs out of stack is named too.
    if (e instanceof RangeError) throw new InputError('yaml-depth', path, 0, 'YAML nested too deeply to read', 'flatten the file');
    throw e;
  }
  if (doc.errors.length) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line ?? (e.pos ? lc.linePos(e.pos[0]).line : 0);
    throw new InputError('yaml-syntax', path, line, `YAML syntax error: ${e.message.split('\n')[0]}`, 'fix the YAML syntax (check indentation and quoting)');
  }
  // toJS applies maxAliasCount: a "billion laughs" document stops here with a named error.
  try {
    doc.toJS({ maxAliasCount: LIMITS.yamlAliases });
  } catch (e) {
    throw new InputError('yaml-aliases', path, 0, `YAML aliases expand too far (${e.message.split('\n')[0]}; limit ${LIMITS.yamlAliases})`, 'use fewer aliases; database.yml needs one &default anchor');
  }
  // By dotted name, in document order; a later key of the same name replaces the earlier one (a Map keeps this
  // linear: removing earlier entries by scanning the list was quadratic in the number of keys).
  const settings = new Map();
  const put = (x) => { settings.delete(x.name); settings.set(x.name, x); };
  let budget = LIMITS.yamlAliases * 20; // nodes visited through aliases
  const lineOf = (node) => (node?.range ? lc.linePos(node.range[0]).line : 0);
  const walk = (node, prefix, depth) => {
    if (depth > LIMITS.yamlDepth) throw new InputError('yaml-depth', path, lineOf(node), `YAML nested deeper than ${LIMITS.yamlDepth} levels`, 'flatten the file');
    if (isAlias(node)) {
      if (--budget < 0) throw new InputError('yaml-aliases', path, lineOf(node), 'YAML aliases expand too far', 'use fewer aliases');
      return walk(node.resolve(doc), prefix, depth + 1);
    }
    if (isMap(node)) {
      // Merge keys first, so explicit keys override them (as YAML does).
      const own = [];
      for (const pair of node.items) {
        const merge = isScalar(pair.key) && (typeof pair.key.value === 'symbol' || pair.key.value === '<<');
        const key = isScalar(pair.key) ? String(pair.key.value) : null;
        if (merge) {
          const srcs = isSeq(pair.value) ? pair.value.items : [pair.value];
          for (const s of srcs) walk(s, prefix, depth + 1);
        } else if (key !== null) own.push([key, pair.value]);
      }
      for (const [key, value] of own) {
        const p = [...prefix, key];
        settings.delete(p.join('.'));
        if (isMap(value) || isAlias(value)) walk(value, p, depth + 1);
        else if (isScalar(value)) put(scalar(p, value));
        // Lists (queue.yml's workers:, Kamal's servers:): items by index, maps walked, scalars kept.
        else if (isSeq(value)) value.items.forEach((it, k) => { const q = [...p, String(k)]; if (isMap(it) || isAlias(it)) walk(it, q, depth + 2); else if (isScalar(it)) put(scalar(q, it)); });
        else if (value === null) put({ name: p.join('.'), path: p, key, value: null, known: true, text: '', line: lineOf(pair) });
      }
    }
  };
  const scalar = (p, node) => {
    const raw = node.value;
    const m = typeof raw === 'string' && /^__erb_(\d+)__$/.exec(raw.trim());
    const line = lineOf(node);
    if (m) {
      const v = values[Number(m[1])];
      return { name: p.join('.'), path: p, key: p[p.length - 1], value: v.value, known: v.known, env: v.env, ...(v.offset ? { offset: v.offset } : {}), ...(v.floor ? { floor: v.floor } : {}), ...(v.compare ? { compare: v.compare } : {}), text: v.text, line };
    }
    if (typeof raw === 'string' && raw.includes('__erb_')) {
      return { name: p.join('.'), path: p, key: p[p.length - 1], value: null, known: false, text: raw.replace(/__erb_(\d+)__/g, (_, k) => values[k].text), line };
    }
    return { name: p.join('.'), path: p, key: p[p.length - 1], value: raw, known: true, text: String(raw), line };
  };
  walk(doc.contents, [], 0);
  return { settings: [...settings.values()], notes, ...(unmodeled.length ? { unmodeled } : {}) };
}
