// Numbers in article prose against the datasets they cite. Used by numbers.test.mjs; run directly
// (`node tests/articles/numbers-lib.mjs [_posts/FILE.md …]`) to list the numbers that fail.
//
// The unit of checking is a paragraph or a list item (and each "Do this in 2026" action with its
// link). In a unit that links one or more dataset pages (/datasets/ID/), every number must be
//   1. a value of one of those datasets, allowing rounding to the printed precision: a cell, a number
//      inside a text cell, a method field (requests, concurrency, runs, duration) or a number stated
//      in the dataset's hardware, errata or caveats (the dataset page shows all of them); or
//   2. derived from two cells of one dataset in the same row or the same column (or from the same
//      column of two datasets with that column, linked in the same unit), by a formula this
//      file knows, chosen by how the number is written: a percentage ("30%") may be a/b×100 or the
//      change |a−b|/b×100; a ratio ("5.02×", "7.3 times", "twofold") may be a/b; a plain quantity may
//      be the difference |a−b|, the sum a+b or the sum of a whole column.
// "Allowing rounding": a number printed with d decimals matches a value that rounds to it at d
// decimals; an integer ending in zeros (12,000, 30 %) matches at the place of its last non-zero digit.
// Not checked (each is blanked before numbers are read, by the rules below): years (1990–2039, as a
// bare four-digit integer), dates, version numbers (after a product name such as Ruby, Rails, Puma,
// nginx, Linux, Debian…, chains like "2.0 to 2.3", and any a.b.c), references (Table 5.4, Figure,
// section, part, Appendix, chapter, line, RFC, PR, issue), ordinals (1st, 99th), identifiers with
// letters attached (p99, x86, m4.2xlarge, Q9300, 3x3), code spans, link targets, URLs, Liquid, and
// single-digit integers (0–9), which the articles use as counts of things. Markdown tables are not
// units: on this site they list settings, defaults and versions with their sources, not measurements.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, loadPosts, loadDatasets } from './lib.mjs';

const PRODUCTS = [
  'Ruby', 'Rails', 'Puma', 'nginx', 'Nginx', 'Apache', 'Linux', 'kernel', 'kernels', 'Debian', 'Ubuntu', 'PostgreSQL', 'Postgres', 'MySQL',
  'MariaDB', 'Passenger', 'Thin', 'Unicorn', 'YJIT', 'ZJIT', 'MJIT', 'Node', 'Node.js', 'Alpine', 'CentOS', 'RHEL', 'Gentoo', 'FreeBSD',
  'HTTP', 'TLS', 'Discourse', 'Bundler', 'jemalloc', 'glibc', 'GCC', 'gcc', 'Sidekiq', 'Pitchfork', 'Falcon', 'Caddy', 'HAProxy',
  'PgBouncer', 'SQLite', 'Redis', 'Valkey', 'Kamal', 'Thruster', 'Vernier', 'StackProf', 'Bootsnap', 'RubyGems', 'JRuby', 'TruffleRuby',
  'REE', 'MRI', 'YARV', 'CRuby', 'Rack', 'Sinatra', 'OpenSSL', 'Chromium', 'systemd', 'Trilogy', 'trilogy', 'mysql2', 'pg', 'Python',
  'PHP', 'Windows', 'macOS', 'LLVM', 'cgroup', 'cgroups', 'Graviton', 'ARMv8', 'AArch64', 'Mongrel', 'Cherokee', 'WEBrick', 'Falcon',
  'Active', 'Record', 'ActiveRecord', 'Solid', 'Cache', 'Queue', 'Cable', 'Propshaft', 'Sprockets', 'Turbo', 'Hotwire', 'Java', 'OpenJDK',
  'GraalVM', 'Prism', 'RBS', 'Ractor', 'Iodine', 'Agoo', 'Kernel', 'version', 'versions', 'release', 'releases', 'v', 'Rubinius', 'MacRuby',
  'IronRuby', 'Phusion', 'Enterprise', 'Edition', 'Sequel', 'EventMachine', 'NeverBlock', 'Unicycle', 'OCsigen', 'Bullet', 'Prosopite',
  'rack-mini-profiler', 'benchmark-ips', 'wrk', 'ab', 'hyperfine', 'httperf', 'autobench', 'lame', 'gzip', 'oggenc', 'hdparm', 'Trixie',
  'Bookworm', 'Noble', 'Jammy', 'LTS', 'Lua', 'Go', 'Rust', 'Erlang', 'Elixir', 'Crystal', 'Docker', 'Kubernetes', 'Podman', 'Fedora',
  'openSUSE', 'Amazon', 'Heroku', 'Fly', 'Render', 'AWS', 'ECS', 'EKS', 'Lambda',
];
const LABELS = ['Table', 'Tables', 'table', 'tables', 'Figure', 'Figures', 'figure', 'figures', 'Fig', 'section', 'sections', 'Section',
  'Sections', 'part', 'parts', 'Part', 'Parts', 'Appendix', 'appendix', 'Appendices', 'chapter', 'Chapter', 'chapters', 'line', 'lines',
  'RFC', 'PR', 'issue', 'Issue', 'Feature', 'Bug', 'pull', 'request #', 'commit', 'page', 'pages', 'step', 'Step', 'No.', 'number'];
const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const VER = String.raw`\d+(?:\.\d+)*(?:\.x)?(?:-?(?:p\d+|preview\d*|rc\d*|dev|beta\d*|alpha\d*|[a-z]+\d+))?`;
const JOIN = String.raw`(?:\s*(?:,|and|or|to|through|until|–|—|-|/|versus|vs\.?|against|then|and then|or later|or newer|\+)\s*)`;
const PRODUCT_RE = new RegExp(String.raw`(?<![\w-])(?:${PRODUCTS.map(esc).join('|')})(?:'s)?\s+(?:${VER})(?:${JOIN}(?:${PRODUCTS.map(esc).join('|')})?\s*${VER})*`, 'g');
const LABEL_RE = new RegExp(String.raw`(?<![\w-])(?:${LABELS.map(esc).join('|')})\s+[A-H]?\.?\d+(?:\.\d+)*(?:${JOIN}[A-H]?\.?\d+(?:\.\d+)*)*`, 'g');

/** Prose of one unit with everything that is not a checkable number blanked. */
export function checkable(md) {
  let s = md
    .replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ');
  s = s
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ')
    .replace(new RegExp(String.raw`\b\d{1,2}\s+(?:${MONTHS})(?:\s+\d{4})?`, 'g'), ' ')
    .replace(new RegExp(String.raw`\b(?:${MONTHS})\s+(?:\d{1,2}(?!\d)(?:st|nd|rd|th)?(?:,\s*\d{4})?|\d{4})`, 'g'), ' ')
    .replace(PRODUCT_RE, ' ')
    .replace(LABEL_RE, ' ')
    .replace(/\b\d+(?:\.\d+){2,}\b/g, ' ') // a.b.c is always a version
    .replace(/\b\d+(?:st|nd|rd|th)\b/g, ' ')
    .replace(/[A-Za-z_]+[-.]?\d[\w.]*|\d+[A-Za-z_][\w]*/g, (m) => (/^\d+(?:\.\d+)?(?:x|×|ms|s|µs|us|KB|MB|GB|kB|GHz|fps|k)$/.test(m) ? m : ' '))
    .replace(/\/\d+/g, ' ')
    .replace(/(?<![\d,.])(?:19[9]\d|20[0-3]\d)(?![\d,.]*\d)(?!\s*%)/g, ' ');
  return s;
}

/** Numbers left in a unit: [{text, value, decimals, percent}] */
export function numbersIn(md) {
  const out = [];
  const s = checkable(md);
  for (const m of s.matchAll(/(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\d])(\s*(?:%|per ?cent\b))?(\s*(?:×|x\b|times\b|-fold\b|fold\b))?/g)) {
    const text = m[0].trim();
    const int = m[1].replace(/,/g, '');
    const dec = m[2] || '';
    const value = Number(`${int}${dec ? `.${dec}` : ''}`);
    if (!dec && value < 10) continue;
    const before = s.slice(Math.max(0, m.index - 24), m.index);
    const kind = m[3] ? 'percent' : (m[4] || /(?:factor of|ratio (?:of|was|is)|times as (?:much|many|long) as)\s*$/i.test(before)) ? 'ratio' : 'plain';
    out.push({ text, value, decimals: dec.length, kind, trailingZeros: dec ? 0 : (int.match(/0+$/)?.[0].length ?? 0) });
  }
  return out;
}

/** Does v round to the printed number n? */
export function matches(n, v) {
  if (!Number.isFinite(v)) return false;
  v = Math.abs(v);
  const step = n.decimals ? 10 ** -n.decimals : 10 ** Math.min(n.trailingZeros, Math.max(0, String(Math.round(n.value)).length - 1));
  return Math.abs(v - n.value) <= step / 2 + 1e-9 * Math.max(1, v);
}

function numbersInText(s) {
  return [...String(s).matchAll(/(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?/g)].map((m) => Number(`${m[1].replace(/,/g, '')}${m[2] ? `.${m[2]}` : ''}`));
}

const cache = new Map();
/** Values of a dataset and the numbers derivable from it (see the header). */
export function datasetValues(d) {
  if (cache.has(d.id)) return cache.get(d.id);
  const direct = new Set();
  const numeric = d.columns.map((c) => c.type !== 'string');
  const grid = d.rows.map((r) => r.map((v, j) => (numeric[j] && typeof v === 'number' ? v : null)));
  for (const r of d.rows) for (const v of r) {
    if (typeof v === 'number') direct.add(v);
    else if (typeof v === 'string') for (const x of numbersInText(v)) direct.add(x);
  }
  const m = d.method || {};
  for (const k of ['requests', 'concurrency', 'duration_s', 'runs']) if (typeof m[k] === 'number') direct.add(m[k]);
  for (const t of [d.hardware, m.description, ...(d.caveats || []), ...(d.errata || []).flatMap((e) => [e.text, e.handling])]) {
    for (const x of numbersInText(t || '')) direct.add(x);
  }
  // Derived values by the kind of number they may explain: a percentage (ends in %), a ratio (ends in
  // ×, "times", "-fold") or a plain quantity (sum, difference).
  const derived = { percent: new Set(), ratio: new Set(), plain: new Set() };
  const pair = (a, b) => {
    if (a === null || b === null) return;
    derived.plain.add(a + b); derived.plain.add(Math.abs(a - b));
    if (b !== 0) { derived.ratio.add(a / b); derived.percent.add((a / b) * 100); derived.percent.add(Math.abs(a - b) / Math.abs(b) * 100); }
    if (a !== 0) { derived.ratio.add(b / a); derived.percent.add((b / a) * 100); derived.percent.add(Math.abs(a - b) / Math.abs(a) * 100); }
  };
  const rows = grid.length; const cols = d.columns.length;
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) for (let k = j + 1; k < cols; k++) pair(grid[i][j], grid[i][k]);
  for (let j = 0; j < cols; j++) {
    let sum = 0; let any = false;
    for (let i = 0; i < rows; i++) {
      if (grid[i][j] !== null) { sum += grid[i][j]; any = true; }
      for (let k = i + 1; k < rows; k++) pair(grid[i][j], grid[k][j]);
    }
    if (any) derived.plain.add(sum);
  }
  const out = { direct: [...direct], percent: [...derived.percent], ratio: [...derived.ratio], plain: [...derived.plain] };
  cache.set(d.id, out);
  return out;
}

/**
 * Pairs across datasets linked in one unit: the same column (same key) of two datasets with the same
 * columns, e.g. requests per second of one distribution in the Apache table and in the nginx table.
 */
export function crossValues(list) {
  const out = { percent: [], ratio: [], plain: [] };
  for (let x = 0; x < list.length; x++) for (let y = x + 1; y < list.length; y++) {
    const a = list[x]; const b = list[y];
    for (const [j, col] of a.columns.entries()) {
      if (col.type === 'string') continue;
      const k = b.columns.findIndex((c) => c.key === col.key);
      if (k < 0) continue;
      for (const ra of a.rows) for (const rb of b.rows) {
        const u = ra[j]; const v = rb[k];
        if (typeof u !== 'number' || typeof v !== 'number') continue;
        out.plain.push(u + v, Math.abs(u - v));
        if (v) { out.ratio.push(u / v); out.percent.push((u / v) * 100, Math.abs(u - v) / Math.abs(v) * 100); }
        if (u) { out.ratio.push(v / u); out.percent.push((v / u) * 100, Math.abs(u - v) / Math.abs(u) * 100); }
      }
    }
  }
  return out;
}

/** Paragraphs and list items of a Markdown body (code blocks and chart includes removed), with line numbers. */
export function units(body, firstLine = 1) {
  const lines = body.split('\n');
  const out = [];
  let cur = null; let inCode = false;
  const flush = () => { if (cur) out.push(cur); cur = null; };
  lines.forEach((line, i) => {
    if (/^\s*```/.test(line)) { inCode = !inCode; flush(); return; }
    if (inCode) return;
    if (!line.trim() || /^\s*<\/?div\b/.test(line) || /^\s*\{%-?\s*include\s+(?:chart|errata)\.html[^%]*%\}\s*$/.test(line) || /^\s*\|/.test(line)) { flush(); return; }
    if (/^\s*(?:[*+-]|\d+\.)\s+/.test(line) || /^#{1,6}\s/.test(line)) { flush(); cur = { line: firstLine + i, text: line }; return; }
    if (!cur) cur = { line: firstLine + i, text: line }; else cur.text += `\n${line}`;
  });
  flush();
  return out;
}

export const datasetLinks = (md) => [...new Set([...md.matchAll(/\/datasets\/([a-z0-9]+(?:-[a-z0-9]+)*)\//g)].map((m) => m[1]))];

/** Every number that fails in one post: [{where, number, datasets}] */
export function postProblems(p, datasets = loadDatasets()) {
  const out = [];
  const check = (where, md, ids) => {
    const known = ids.filter((id) => datasets.has(id));
    if (!known.length) return;
    const values = known.map((id) => datasetValues(datasets.get(id)));
    for (const n of numbersIn(md)) {
      const cross = crossValues(known.map((id) => datasets.get(id)));
      const ok = values.some((v) => v.direct.some((x) => matches(n, x)) || v[n.kind].some((x) => matches(n, x)))
        || cross[n.kind].some((x) => matches(n, x));
      if (!ok) out.push({ where, number: n.text, datasets: known });
    }
  };
  for (const u of units(p.body, p.bodyLine)) check(`${p.file}:${u.line}`, u.text, datasetLinks(u.text));
  (p.data.do_now || []).forEach((it, i) => check(`${p.file}: do_now[${i}]`, String(it.action || ''), datasetLinks(`${it.href || ''} ${it.action || ''}`)));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const want = process.argv.slice(2).map((f) => f.replace(/^.*\//, ''));
  const datasets = loadDatasets();
  let n = 0;
  for (const p of loadPosts()) {
    if (want.length && !want.includes(p.name)) continue;
    for (const x of postProblems(p, datasets)) { n++; console.log(`${x.where}: ${x.number} not in ${x.datasets.join(', ')}`); }
  }
  console.log(`${n} number(s) not found`);
  void readFileSync; void join; void ROOT;
}
