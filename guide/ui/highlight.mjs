// A small syntax highlighter for the generated files. tokenize() is pure (one
// regular expression per language family, scanned left to right); highlight()
// turns tokens into <span class="hl-TYPE"> elements with text nodes only.

const STR = String.raw`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`;
const NUM = String.raw`\b\d+(?:\.\d+)*(?:[kKmMgGtT][bB]?|ms|s|h|d|%)?\b`;

// Each rule: [type, source]. Order decides ties at the same position.
const FAMILIES = {
  ruby: [
    ['comment', String.raw`#(?!\{).*`],
    ['string', STR],
    ['symbol', String.raw`(?<![\w:]):[A-Za-z_]\w*[?!]?|\b[A-Za-z_]\w*:(?=\s)`],
    ['keyword', String.raw`\b(?:def|end|do|if|unless|else|elsif|case|when|then|while|until|begin|rescue|ensure|return|require|require_relative|class|module|yield|and|or|not|lambda|proc)\b`],
    ['literal', String.raw`\b(?:true|false|nil|self)\b`],
    ['constant', String.raw`\b[A-Z][A-Za-z0-9_]*\b`],
    ['variable', String.raw`@{1,2}\w+|\$\w+`],
    ['key', String.raw`(?<=^[ \t]*)[a-z_]\w*[?!]?(?=[ \t(]|$)`],
    ['number', NUM],
  ],
  nginx: [
    ['comment', String.raw`#.*`],
    ['string', STR],
    ['variable', String.raw`\$\{?\w+\}?`],
    ['key', String.raw`(?<=(?:^|[;{}])[ \t]*)[a-z_][a-z0-9_]*`],
    ['number', NUM],
    ['punct', String.raw`[{};]`],
  ],
  apache: [
    ['comment', String.raw`(?<=^[ \t]*)#.*`],
    ['string', STR],
    ['tag', String.raw`</?[A-Za-z]+|(?<=<[^>\n]*)>`],
    ['variable', String.raw`%\{[\w:]+\}|\$\{\w+\}`],
    ['key', String.raw`(?<=^[ \t]*)[A-Za-z][A-Za-z0-9_]*`],
    ['number', NUM],
  ],
  caddy: [
    ['comment', String.raw`(?<=^|\s)#.*`],
    ['string', STR],
    ['variable', String.raw`\{[\w.$-]+\}`],
    ['key', String.raw`(?<=^[ \t]*)[a-z_][a-z0-9_]*`],
    ['number', NUM],
    ['punct', String.raw`[{}]`],
  ],
  yaml: [
    ['comment', String.raw`(?<=^|\s)#.*`],
    ['erb', String.raw`<%=?[\s\S]*?%>`],
    ['string', STR],
    ['key', String.raw`(?<=^[ \t]*(?:- )?)[\w.\-]+(?=:(?:\s|$))`],
    ['variable', String.raw`[&*][\w-]+|<<`],
    ['literal', String.raw`\b(?:true|false|null|yes|no)\b`],
    ['number', NUM],
  ],
  ini: [
    ['comment', String.raw`(?<=^[ \t]*)[#;].*|(?<=\s)#.*`],
    ['tag', String.raw`(?<=^[ \t]*)\[[^\]\n]*\]`],
    ['string', STR],
    ['key', String.raw`(?<=^[ \t]*)[A-Za-z_][\w.\-]*(?=[ \t]*=)|(?<=^[ \t]*)[a-z_][\w\-]*(?=[ \t]*$)`],
    ['variable', String.raw`\$\{?\w+\}?|%[a-zA-Z]`],
    ['literal', String.raw`\b(?:on|off|true|false|yes|no)\b`],
    ['number', NUM],
  ],
  shell: [
    ['comment', String.raw`(?<=^|\s)#.*`],
    ['string', STR],
    ['keyword', String.raw`\b(?:export|if|then|else|fi|for|do|done|case|esac|in|exec|set|unset|local)\b`],
    ['variable', String.raw`\$\{?\w+\}?`],
    ['key', String.raw`(?<=^[ \t]*(?:export[ \t]+)?)[A-Za-z_]\w*(?==)`],
    ['number', NUM],
  ],
  markdown: [
    ['keyword', String.raw`(?<=^)#{1,6} .*`],
    ['code', String.raw`\x60[^\x60\n]+\x60`],
    ['punct', String.raw`(?<=^[ \t]*)(?:[-*+]|\d+\.)(?= )|\[[ xX]\](?= )`],
    ['link', String.raw`\[[^\]\n]+\]\([^)\s]+\)|<https?://[^>\s]+>`],
    ['strong', String.raw`\*\*[^*\n]+\*\*`],
  ],
  json: [
    ['key', String.raw`"(?:[^"\\\n]|\\.)*"(?=\s*:)`],
    ['string', String.raw`"(?:[^"\\\n]|\\.)*"`],
    ['literal', String.raw`\b(?:true|false|null)\b`],
    ['number', String.raw`-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b`],
  ],
  plain: [
    ['comment', String.raw`(?<=^[ \t]*)(?:#|--).*`], // "--": SQL files
    ['string', STR],
    ['number', NUM],
  ],
};

const ALIASES = {
  rb: 'ruby', ruby: 'ruby', puma: 'ruby', unicorn: 'ruby', pitchfork: 'ruby', gemfile: 'ruby', ru: 'ruby', falcon: 'ruby', thin: 'yaml',
  nginx: 'nginx', apache: 'apache', apacheconf: 'apache', httpd: 'apache', passenger: 'nginx',
  caddy: 'caddy', caddyfile: 'caddy',
  yaml: 'yaml', yml: 'yaml', erb: 'yaml',
  ini: 'ini', conf: 'ini', cnf: 'ini', mysql: 'ini', my_cnf: 'ini', postgresql: 'ini', postgres: 'ini', pgbouncer: 'ini',
  sysctl: 'ini', systemd: 'ini', properties: 'ini', toml: 'ini', limits: 'plain',
  sh: 'shell', bash: 'shell', shell: 'shell', env: 'shell', dotenv: 'shell', zsh: 'shell',
  md: 'markdown', markdown: 'markdown', json: 'json',
};

const compiled = new Map();

export function family(language) {
  const key = String(language || '').toLowerCase().replace(/[^a-z_]/g, '');
  return ALIASES[key] || (FAMILIES[key] ? key : 'plain');
}

function regexFor(fam) {
  let re = compiled.get(fam);
  if (!re) {
    const rules = FAMILIES[fam];
    re = { types: rules.map((r) => r[0]), re: new RegExp(rules.map((r) => '(' + r[1] + ')').join('|'), 'gm') };
    compiled.set(fam, re);
  }
  return re;
}

/** text → [[type, text], …]; type '' is plain text. Concatenation equals text. */
export function tokenize(language, text) {
  const { types, re } = regexFor(family(language));
  const src = String(text);
  const out = [];
  re.lastIndex = 0;
  let at = 0;
  let m;
  while ((m = re.exec(src))) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    if (m.index > at) out.push(['', src.slice(at, m.index)]);
    let g = 1;
    while (m[g] === undefined) g++;
    out.push([types[g - 1], m[0]]);
    at = m.index + m[0].length;
  }
  if (at < src.length) out.push(['', src.slice(at)]);
  return out;
}

function nodesFor(language, text) {
  const nodes = [];
  for (const [type, t] of tokenize(language, text)) {
    if (!type) {
      nodes.push(document.createTextNode(t));
    } else {
      const span = document.createElement('span');
      span.className = 'hl-' + type;
      span.textContent = t;
      nodes.push(span);
    }
  }
  return nodes;
}

/** A DocumentFragment of spans/text nodes for `text`. */
export function highlight(language, text) {
  const frag = document.createDocumentFragment();
  frag.append(...nodesFor(language, text));
  return frag;
}

/**
 * Updates the highlighted content of `code` to `text`, touching only the lines that changed
 * (an answer change usually alters the header comment and a few settings). Lines are tokenized
 * one by one; `code._lines` keeps [{text, nodes}] between calls.
 */
export function updateHighlight(code, language, text) {
  const next = String(text).split('\n');
  let old = code._lines;
  if (!old || code._lang !== language) {
    code.replaceChildren();
    old = [];
  }
  let start = 0;
  while (start < old.length && start < next.length && old[start].text === next[start]) start++;
  let endOld = old.length;
  let endNew = next.length;
  while (endOld > start && endNew > start && old[endOld - 1].text === next[endNew - 1]) {
    endOld--;
    endNew--;
  }
  for (let i = start; i < endOld; i++) for (const n of old[i].nodes) n.remove();
  const anchor = endOld < old.length ? old[endOld].nodes[0] : null;
  const fresh = [];
  const frag = document.createDocumentFragment();
  for (let i = start; i < endNew; i++) {
    const nodes = nodesFor(language, next[i]);
    // Every line but the last ends with its own newline node, so a line's nodes are never empty.
    nodes.push(document.createTextNode(i < next.length - 1 ? '\n' : ''));
    frag.append(...nodes);
    fresh.push({ text: next[i], nodes });
  }
  code.insertBefore(frag, anchor);
  code._lines = old.slice(0, start).concat(fresh, old.slice(endOld));
  code._lang = language;
  // Fresh and suffix lines already end right; only the old last line, if it is now followed by new
  // lines, must gain its newline.
  const lines = code._lines;
  if (start > 0 && start <= lines.length) {
    const nodes = lines[start - 1].nodes;
    const want = start - 1 < lines.length - 1 ? '\n' : '';
    if (nodes[nodes.length - 1].data !== want) nodes[nodes.length - 1].data = want;
  }
}
