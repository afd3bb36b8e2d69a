// A strict PNG check for images a pull request's preview run produced, made in the trusted comment job with
// Node's own zlib (nothing from node_modules runs there). "Starts with the PNG signature" let any file through;
// this decodes the whole image: every chunk's length and CRC, IHDR first with a valid colour type and bit
// depth within the size limits, only the chunks an image needs (no text, no unknown data), IDAT inflated to
// exactly the bytes its rows need with a valid filter byte on each row, IEND last and nothing after it.
import { inflateSync } from 'node:zlib';

export const PNG_LIMITS = Object.freeze({ bytes: 1024 * 1024, width: 4096, height: 4096 });
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// Critical chunks and the colour/gamma/size chunks image writers (sharp/libspng) add; nothing that carries text.
const ALLOWED = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'pHYs', 'bKGD']);
// Colour type → [channels, allowed bit depths].
const COLOUR = { 0: [1, [1, 2, 4, 8, 16]], 2: [3, [8, 16]], 3: [1, [1, 2, 4, 8]], 4: [2, [8, 16]], 6: [4, [8, 16]] };

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** { width, height } of a well-formed PNG; throws an Error saying what is wrong otherwise. */
export function verifyPng(buf) {
  const bad = (why) => { throw new Error(`not a well-formed PNG: ${why}`); };
  if (buf.length > PNG_LIMITS.bytes) bad(`${buf.length} bytes, over the ${PNG_LIMITS.bytes}-byte limit`);
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) bad('no PNG signature');
  let pos = 8;
  let header = null;
  let palette = false;
  const idat = [];
  let ended = false;
  let last = '';
  while (pos < buf.length) {
    if (ended) bad('data after IEND');
    if (pos + 12 > buf.length) bad('a chunk runs past the end of the file');
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) bad('a chunk type that is not four letters');
    if (pos + 12 + len > buf.length) bad(`chunk ${type} runs past the end of the file`);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (crc32(buf.subarray(pos + 4, pos + 8 + len)) !== buf.readUInt32BE(pos + 8 + len)) bad(`chunk ${type} has a wrong CRC`);
    if (!ALLOWED.has(type)) bad(`chunk ${type} is not allowed in a chart image`);
    if (!header && type !== 'IHDR') bad('IHDR is not the first chunk');
    if (type === 'IHDR') {
      if (header) bad('a second IHDR');
      if (len !== 13) bad('IHDR of the wrong length');
      const [width, height] = [body.readUInt32BE(0), body.readUInt32BE(4)];
      const [depth, colour, compression, filter, interlace] = body.subarray(8, 13);
      if (!width || !height || width > PNG_LIMITS.width || height > PNG_LIMITS.height) bad(`${width} × ${height} pixels, outside 1–${PNG_LIMITS.width} × 1–${PNG_LIMITS.height}`);
      if (!COLOUR[colour] || !COLOUR[colour][1].includes(depth)) bad(`colour type ${colour} with bit depth ${depth}`);
      if (compression !== 0 || filter !== 0 || interlace !== 0) bad('compression, filter or interlace method other than 0');
      header = { width, height, depth, colour };
    } else if (type === 'PLTE') {
      if (palette || idat.length || len === 0 || len % 3 || len > 768) bad('a misplaced or malformed PLTE');
      palette = true;
    } else if (type === 'IDAT') {
      if (idat.length && last !== 'IDAT') bad('IDAT chunks that are not consecutive');
      idat.push(body);
    } else if (type === 'IEND') {
      if (len !== 0) bad('IEND with data');
      ended = true;
    } else if (idat.length) bad(`chunk ${type} after the image data`);
    last = type;
    pos += 12 + len;
  }
  if (!ended) bad('no IEND');
  if (!idat.length) bad('no image data');
  if (header.colour === 3 && !palette) bad('a palette image without PLTE');
  const [channels] = COLOUR[header.colour];
  const rowBytes = Math.ceil((header.width * channels * header.depth) / 8);
  const expected = header.height * (rowBytes + 1);
  let raw;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch (e) { bad(`the image data does not inflate (${e.code || e.message})`); }
  if (raw.length !== expected) bad(`the image data has ${raw.length} bytes; ${header.width} × ${header.height} needs ${expected}`);
  for (let y = 0; y < header.height; y++) if (raw[y * (rowBytes + 1)] > 4) bad(`row ${y + 1} has an unknown filter type`);
  return { width: header.width, height: header.height };
}
