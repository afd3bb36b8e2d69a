// Bundle writers for the wizard download: a store-only ZIP and a ustar TAR
// (gzipped with CompressionStream). No DOM here, so Node can use it too
// (scripts/build-guide.mjs writes the default bundle with it).

const encoder = new TextEncoder();

let crcTable = null;
function table() {
  if (crcTable) return crcTable;
  crcTable = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crcTable[n] = c >>> 0;
  }
  return crcTable;
}

/** CRC-32 (IEEE 802.3, as used by ZIP and gzip) of a byte array. */
export function crc32(bytes) {
  const t = table();
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

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

function dosDateTime(date) {
  const y = Math.max(1980, date.getUTCFullYear());
  const time = (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1);
  const day = ((y - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
  return { time, day };
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

/** A store-only (uncompressed) ZIP archive with UTF-8 names. */
export function zip(files, { root = '', date = new Date() } = {}) {
  const entries = prepare(files, root);
  const { time, day } = dosDateTime(date);
  const chunks = [];
  const central = [];
  let offset = 0;
  for (const e of entries) {
    const name = encoder.encode(e.name);
    const crc = crc32(e.data);
    const local = new Uint8Array(30 + name.length);
    const v = new DataView(local.buffer);
    v.setUint32(0, 0x04034b50, true);
    v.setUint16(4, 20, true); // version needed
    v.setUint16(6, 0x0800, true); // UTF-8 names
    v.setUint16(8, 0, true); // stored
    v.setUint16(10, time, true);
    v.setUint16(12, day, true);
    v.setUint32(14, crc, true);
    v.setUint32(18, e.data.length, true);
    v.setUint32(22, e.data.length, true);
    v.setUint16(26, name.length, true);
    v.setUint16(28, 0, true);
    local.set(name, 30);
    chunks.push(local, e.data);

    const cd = new Uint8Array(46 + name.length);
    const w = new DataView(cd.buffer);
    w.setUint32(0, 0x02014b50, true);
    w.setUint16(4, (3 << 8) | 20, true); // made by Unix, spec 2.0
    w.setUint16(6, 20, true);
    w.setUint16(8, 0x0800, true);
    w.setUint16(10, 0, true);
    w.setUint16(12, time, true);
    w.setUint16(14, day, true);
    w.setUint32(16, crc, true);
    w.setUint32(20, e.data.length, true);
    w.setUint32(24, e.data.length, true);
    w.setUint16(28, name.length, true);
    // extra, comment, disk, internal attributes stay 0
    w.setUint32(38, ((0o100000 | e.mode) << 16) >>> 0, true);
    w.setUint32(42, offset, true);
    cd.set(name, 46);
    central.push(cd);
    offset += local.length + e.data.length;
  }
  const cdBytes = concat(central);
  const end = new Uint8Array(22);
  const x = new DataView(end.buffer);
  x.setUint32(0, 0x06054b50, true);
  x.setUint16(8, entries.length, true);
  x.setUint16(10, entries.length, true);
  x.setUint32(12, cdBytes.length, true);
  x.setUint32(16, offset, true);
  return concat([...chunks, cdBytes, end]);
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

/** gzip through the platform's CompressionStream (browsers, Node ≥ 18). */
export async function gzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function tarGz(files, options) {
  return gzip(tar(files, options));
}
