// Parity tables (_data/parity/*.json) against the peers' outputs (tests/fixtures/parity/, written by
// scripts/parity-peers.mjs) and our generated edges. A configuration file becomes a list of statements, each
// "directive arg …" with whitespace collapsed and quotes removed, so the peers' and our files compare by text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../wizard/validators.mjs';
import { readNginx } from '../../guide/check/read-nginx.mjs';

/** Split one line or statement into tokens, honouring quotes and backslash escapes; stops at an unquoted #. */
function tokens(text) {
  const out = [];
  let cur = null;
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\' && i + 1 < text.length) { cur += ch + text[++i]; continue; }
      if (ch === quote) { quote = null; continue; }
      cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") { quote = ch; cur ??= ''; continue; }
    if (/\s/.test(ch)) { if (cur !== null) out.push(cur); cur = null; continue; }
    if (ch === '#' && cur === null) break;
    cur = (cur ?? '') + ch;
  }
  if (cur !== null) out.push(cur);
  return out;
}

const NGINX_CONTAINERS = new Set(['http', 'events', 'server']);

/** nginx, read by the doctor's own bounded reader: block headers are statements too, except the plain containers;
 * map bodies are skipped. */
export function nginxStatements(text) {
  return readNginx(text).settings
    .filter((s) => !(s.block && NGINX_CONTAINERS.has(s.name) && !s.args.length))
    .filter((s) => !s.ctx.split(' > ').some((c) => c.startsWith('map ')))
    .map((s) => [s.name, ...s.args].join(' '));
}

/** Apache: one directive per line; <Section args> opens a section (kept as a statement), </Section> closes it. */
export function apacheStatements(text) {
  const out = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('</')) continue;
    const open = /^<(\S+)\s*(.*)>$/.exec(line);
    out.push(open ? tokens(`${open[1]} ${open[2]}`).join(' ') : tokens(line).join(' '));
  }
  return out.filter(Boolean);
}

/** Caddyfile and haproxy.cfg: one statement per line; '{' at the end of a line opens a block, '}' closes it. */
export function lineStatements(text, { sections = [] } = {}) {
  const out = [];
  for (const raw of text.split('\n')) {
    const t = tokens(raw.trim().replace(/\{$/, '').trim());
    if (!t.length || (t.length === 1 && t[0] === '}')) continue;
    if (sections.includes(t[0])) continue;
    out.push(t.join(' '));
  }
  return out;
}

const HAPROXY_SECTIONS = ['global', 'defaults', 'frontend', 'backend', 'listen'];

export const PARSERS = {
  nginx: nginxStatements,
  apache: apacheStatements,
  caddyfile: (t) => lineStatements(t),
  haproxy: (t) => lineStatements(t, { sections: HAPROXY_SECTIONS }),
};

export function loadTable(name) {
  return JSON.parse(readFileSync(join(REPO, '_data/parity', `${name}.json`), 'utf8'));
}

export function fixture(file) {
  return readFileSync(join(REPO, 'tests/fixtures/parity', file), 'utf8');
}

/** The row a statement belongs to: the longest row directive that is the statement or a prefix of it at a word boundary. */
export function rowFor(rows, stmt) {
  let best = null;
  for (const r of rows) {
    if ((stmt === r.directive || stmt.startsWith(`${r.directive} `)) && (!best || r.directive.length > best.directive.length)) best = r;
  }
  return best;
}

export function valueOf(row, stmt) {
  return stmt.slice(row.directive.length).trim();
}

/** Statements grouped by row: Map(row → [values]), plus the statements no row covers. */
export function byRow(rows, statements) {
  const map = new Map();
  const unmatched = [];
  for (const s of statements) {
    const r = rowFor(rows, s);
    if (!r) { unmatched.push(s); continue; }
    if (!map.has(r)) map.set(r, []);
    map.get(r).push(valueOf(r, s));
  }
  return { map, unmatched };
}

export const list = (v) => (v === null || v === undefined ? [] : Array.isArray(v) ? v : [v]);
export const sortedUnique = (xs) => [...new Set(xs)].sort();
