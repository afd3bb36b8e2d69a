// SARIF 2.1.0 for code scanning: one result per finding, rules from _data/doctor_rules.json (each with its
// helpUri: the rule's anchor on the site's /guide/checks/ page), evidence as links in the message.
// Locations are always relative to %SRCROOT%: the app root that was passed (`--check DIR`; for a file, the folder
// above its config/), so URIs read config/database.yml wherever the command runs and whichever files have findings;
// without roots, the working directory when every file is inside it, else the deepest folder holding every file.
// originalUriBaseIds says which folder that was. Fingerprints hold no absolute or working-directory path, do not
// move when lines are added above, and are unique within the run.
import RULE_DATA from '../../_data/doctor_rules.json' with { type: 'json' };
import { jsonSafe } from './safe-text.mjs';

const LEVEL = { error: 'error', warning: 'warning', note: 'note' };
const SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

const posix = (p) => String(p).replace(/\\/g, '/');
const isAbs = (p) => p.startsWith('/') || /^[A-Za-z]:\//.test(p);
function normalize(p) {
  const out = [];
  for (const seg of p.split('/')) {
    if (seg === '..') out.pop();
    else if (seg && seg !== '.') out.push(seg);
  }
  return (p.startsWith('/') ? '/' : '') + out.join('/');
}
const dirOf = (p) => p.slice(0, Math.max(0, p.lastIndexOf('/'))) || '/';
const encodePath = (p) => p.split('/').map(encodeURIComponent).join('/');

/** The folder an input path stands for: a directory itself; a file, the app folder above its config/ (else its folder). */
function appFolder(abs, isDir) {
  if (isDir) return abs;
  const segs = dirOf(abs).split('/');
  const k = segs.lastIndexOf('config');
  return k > 0 ? segs.slice(0, k).join('/') || '/' : dirOf(abs);
}

/**
 * The root (absolute, no trailing slash) and a file → its path relative to that root.
 * roots: the paths that were passed, [{path, dir}] (the deepest folder holding them all is the root).
 */
export function sarifRoot(files, cwd, roots = []) {
  const base = normalize(posix(cwd || '/'));
  const absOf = (f) => (isAbs(posix(f)) ? normalize(posix(f)) : normalize(`${base}/${posix(f)}`));
  const abs = files.map(absOf);
  const inside = (a, root) => root === '/' || a === root || a.startsWith(`${root}/`);
  const given = roots.map((r) => appFolder(absOf(r.path), r.dir));
  const all = [...given, ...abs];
  let root = given.length ? given[0] : base;
  if (!all.every((a) => inside(a, root))) {
    root = given.length ? given[0] : abs.length ? dirOf(abs[0]) : base;
    for (const a of all) while (!inside(a, root)) root = dirOf(root);
  }
  const relative = (f) => {
    const a = isAbs(posix(f)) ? normalize(posix(f)) : normalize(`${base}/${posix(f)}`);
    return root === '/' ? a.slice(1) : a.slice(root.length + 1);
  };
  return { root, relative };
}

export function reportSarif(r, { toolVersion = '1.0.0', siteUrl = '', cwd = '/', roots = [] } = {}) {
  const page = `${siteUrl.replace(/\/$/, '')}${RULE_DATA.page}`;
  const rules = RULE_DATA.rules.map((x) => ({
    id: x.id, name: x.id, shortDescription: { text: x.short }, fullDescription: { text: x.full }, helpUri: `${page}#${x.id}`,
    help: { text: `${x.full} See ${page}#${x.id}` },
  }));
  const index = Object.fromEntries(rules.map((x, k) => [x.id, k]));
  const files = [...r.findings.flatMap((f) => [f.file, ...(f.related || []).map((x) => x.file)]), ...r.problems.map((p) => p.file)];
  const { root, relative } = sarifRoot(files, cwd, roots);
  // Messages name files as the command was typed (relative to the working directory): not in fingerprints.
  const own = (text, file) => String(text).split(file).join(relative(file));
  const loc = (file, line) => ({
    physicalLocation: { artifactLocation: { uri: encodePath(relative(file)), uriBaseId: '%SRCROOT%' }, region: { startLine: Math.max(1, line || 1) } },
  });
  // Stable: rule, file and setting (no line, no absolute path); a repeat gets /2, /3… so keys stay unique.
  const seen = new Map();
  const fingerprint = (parts) => {
    const key = parts.join('|');
    const n = (seen.get(key) || 0) + 1;
    seen.set(key, n);
    return { 'doctorFinding/v1': n > 1 ? `${key}|${n}` : key };
  };
  const results = r.findings.map((f) => ({
    ruleId: f.rule,
    ...(f.rule in index ? { ruleIndex: index[f.rule] } : {}),
    level: LEVEL[f.severity],
    message: { text: [`${f.setting ? `${f.setting}: ` : ''}${f.message}`, f.reason ? `Why: ${f.reason}` : '', ...(f.evidence || []).map((e) => `See: ${e.label} ${e.url}`), f.diff ? `Suggested change:\n${f.diff}` : ''].filter(Boolean).join('\n') },
    // A missing setting has no line of its own: point at the block that should hold it (or line 1), not where the
    // suggested lines would be inserted.
    locations: [loc(f.file, f.rule === 'missing' ? (f.anchor ?? 1) : f.line)],
    ...(f.related ? { relatedLocations: f.related.map((x, k) => ({ id: k, ...loc(x.file, x.line) })) } : {}),
    partialFingerprints: fingerprint([f.rule, relative(f.file), f.setting || [f.file, ...(f.related || []).map((x) => x.file)].reduce((m, p) => own(m, p), f.message)]),
  }));
  for (const p of r.problems) {
    results.push({
      ruleId: 'unreadable', ruleIndex: index.unreadable, level: 'error', message: { text: `${p.message} (${p.code}). Fix: ${p.fix}` },
      locations: [loc(p.file, p.line)], partialFingerprints: fingerprint(['unreadable', relative(p.file), p.code]),
    });
  }
  const sarif = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'scaling-rails-doctor', version: toolVersion, informationUri: page, rules } },
      originalUriBaseIds: { '%SRCROOT%': { uri: `file://${encodePath(root === '/' ? '/' : `${root}/`)}`, description: { text: 'The app folder that was checked (the deepest folder holding every path passed to --check)' } } },
      results,
    }],
  };
  return `${jsonSafe(JSON.stringify(sarif, null, 2))}\n`;
}
