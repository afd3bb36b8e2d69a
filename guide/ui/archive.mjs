// Bundle writers for the wizard download: a deflated ZIP (fflate) and a gzipped ustar TAR (the TAR headers written
// here, gzip by fflate). No DOM here, so Node can use it too (scripts/build-guide.mjs writes the default bundle
// with it). fflate writes the ZIP, its CRC-32 and DEFLATE; no maintained TAR writer fits: nanotar 0.3 puts names
// in the 100-byte ustar field only (no prefix field, no PAX header), which would cut the bundle's longer paths.
import { zipSync, gzipSync } from 'fflate';

const encoder = new TextEncoder();

/**
 * Turns an engine path into a safe relative archive path: no leading slash,
 * no empty, "." or ".." segments, no backslashes or control characters.
 */
export function safePath(path) {
  const parts = String(path)
    .replace(/[\u0000-\u001f\u007f\\]/g, '_')
    .split('/')
    .filter((p) => p !== '' && p !== '.' && p !== '..');
  return parts.length ? parts.join('/') : 'file';
}

function isExecutable(file) {
  return /\.(sh|bash)$/.test(file.path) || String(file.content).startsWith('#!');
}

/** files: [{path, content}] → [{name, data (Uint8Array), mode}] under `root/`. */
export function prepare(files, root) {
  const seen = new Set();
  const out = [];
  for (const f of files) {
    let name = (root ? safePath(root) + '/' : '') + safePath(f.path);
    while (seen.has(name)) name += '_';
    seen.add(name);
    out.push({ name, data: encoder.encode(String(f.content)), mode: isExecutable(f) ? 0o755 : 0o644 });
  }
  return out;
}

function concat(chunks) {
  let len = 0;
  for (const c of chunks) len += c.length;
  const out = new Uint8Array(len);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

// fflate writes a ZIP entry's DOS date and time from the Date's local fields, and DOS dates run from 1980 to
// 2099: this Date has the UTC fields of `date` (clamped) as its local ones, so a bundle is the same on every machine.
function dosDate(date) {
  const d = new Date(Math.min(Math.max(date.getTime(), Date.UTC(1980, 0, 1)), Date.UTC(2099, 11, 31)));
  return new Date(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
}

/** A ZIP archive (DEFLATE, UTF-8 names, Unix modes so that unzip keeps scripts executable). */
export function zip(files, { root = '', date = new Date() } = {}) {
  const mtime = dosDate(date);
  const entries = {};
  for (const e of prepare(files, root)) {
    // os 3 = Unix: the high 16 bits of the external attributes are the file's mode (S_IFREG | permissions).
    entries[e.name] = [e.data, { level: 6, mtime, os: 3, attrs: ((0o100000 | e.mode) << 16) >>> 0 }];
  }
  return zipSync(entries);
}

function field(block, at, len, text) {
  const b = encoder.encode(text);
  block.set(b.subarray(0, len), at);
}

function octal(n, width) {
  // width includes the trailing NUL
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function splitName(name) {
  const bytes = encoder.encode(name);
  if (bytes.length <= 100) return { name, prefix: '' };
  for (let i = name.length - 1; i > 0; i--) {
    if (name[i] !== '/') continue;
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(rest).length <= 100) return { name: rest, prefix };
  }
  throw new Error('path too long for a tar archive: ' + name);
}

/** An uncompressed POSIX ustar archive. */
export function tar(files, { root = '', date = new Date() } = {}) {
  const entries = prepare(files, root);
  const mtime = Math.floor(date.getTime() / 1000);
  const chunks = [];
  for (const e of entries) {
    const h = new Uint8Array(512);
    const { name, prefix } = splitName(e.name);
    field(h, 0, 100, name);
    field(h, 100, 8, octal(e.mode, 8));
    field(h, 108, 8, octal(0, 8));
    field(h, 116, 8, octal(0, 8));
    field(h, 124, 12, octal(e.data.length, 12));
    field(h, 136, 12, octal(mtime, 12));
    field(h, 148, 8, '        ');
    field(h, 156, 1, '0');
    field(h, 257, 6, 'ustar\0');
    field(h, 263, 2, '00');
    field(h, 265, 32, 'root');
    field(h, 297, 32, 'root');
    field(h, 345, 155, prefix);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += h[i];
    field(h, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
    chunks.push(h, e.data);
    const pad = (512 - (e.data.length % 512)) % 512;
    if (pad) chunks.push(new Uint8Array(pad));
  }
  chunks.push(new Uint8Array(1024));
  return concat(chunks);
}

/** gzip (fflate), with the bundle's date as the member's modification time. */
export function gzip(bytes, date = new Date()) {
  return gzipSync(bytes, { level: 9, mtime: date });
}

/** Async for the callers' sake (it used to stream through CompressionStream); the work is synchronous. */
export async function tarGz(files, options = {}) {
  return gzip(tar(files, options), options.date);
}
