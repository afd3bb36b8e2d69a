// Unified diffs for suggested changes: replace one line, or insert lines after one. A line of the file longer than
// LIMITS.diffLineChars gives no diff (null): a suggestion cannot be shown faithfully without echoing it whole, and
// every finding on that file would repeat it (a 128 KB line made a 2.7 MB JSON report).
import { LIMITS } from './limits.mjs';

const tooLong = (l) => typeof l === 'string' && l.length > LIMITS.diffLineChars;

const hunk = (path, oldStart, oldLines, newLines) => [
  `--- a/${rel(path)}`,
  `+++ b/${rel(path)}`,
  `@@ -${oldStart},${oldLines.length} +${oldStart},${newLines.length} @@`,
  ...oldLines.map((l) => `-${l}`),
  ...newLines.map((l) => `+${l}`),
].join('\n');

/** Replace line `line` (1-based) of `text` by `replacement` (one or more lines), keeping its indentation. */
export function replaceLine(path, text, line, replacement) {
  const lines = text.split('\n');
  const old = lines[line - 1] ?? '';
  if (tooLong(old)) return null;
  const indent = /^\s*/.exec(old)[0];
  const repl = reindent(replacement, indent);
  return hunk(path, line, [old], repl);
}

/** Insert `addition` after line `after` (0 = at the top), indented like that line (or `indent`). */
export function insertAfter(path, text, after, addition, indent) {
  const lines = text.split('\n');
  if (after > 0) {
    const ctx = lines[after - 1];
    if (tooLong(ctx)) return null;
    const ind = indent ?? /^\s*/.exec(ctx)[0];
    const add = reindent(addition, ind);
    return [`--- a/${rel(path)}`, `+++ b/${rel(path)}`, `@@ -${after},1 +${after},${add.length + 1} @@`, ` ${ctx}`, ...add.map((l) => `+${l}`)].join('\n');
  }
  const add = reindent(addition, indent ?? '');
  return [`--- a/${rel(path)}`, `+++ b/${rel(path)}`, `@@ -0,0 +1,${add.length} @@`, ...add.map((l) => `+${l}`)].join('\n');
}

function reindent(block, indent) {
  const lines = (Array.isArray(block) ? block : String(block).split('\n'));
  const base = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)[0].length));
  return lines.map((l) => (l.trim() ? indent + l.slice(Number.isFinite(base) ? base : 0) : ''));
}

// git-style a/ b/ prefixes on a relative path.
const rel = (p) => String(p).replace(/\\/g, '/').replace(/^\/+/, '');
