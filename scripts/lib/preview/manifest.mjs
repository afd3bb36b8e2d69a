// The preview artifact's manifest, checked strictly before the trusted comment job uses any of it: the
// artifact is made by a pull request's own code, so anything beyond the shape build.mjs writes (an unknown
// field, a wrong type, a path other than the one an image may have, more entries or bytes than a preview
// needs) refuses the whole artifact with the reason, instead of being dropped silently. The chart images
// are then decoded in full (png.mjs); only those are published.
import { readFileSync, lstatSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { verifyPng, PNG_LIMITS } from './png.mjs';

export const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MANIFEST_LIMITS = Object.freeze({ manifestBytes: 2 * 1024 * 1024, datasets: 30, chartsPerDataset: 8, images: 40, imageBytes: 8 * 1024 * 1024, list: 5000, text: 4000, rawOutput: 200 });
const SHA = /^[0-9a-f]{40}$/;

function check(cond, where, why) {
  if (!cond) throw new Error(`preview artifact refused: ${where}: ${why}`);
}
const isInt = (v) => Number.isInteger(v) && v >= 0;
const isText = (v, max = MANIFEST_LIMITS.text) => typeof v === 'string' && v.length <= max;
function only(obj, where, keys) {
  check(obj && typeof obj === 'object' && !Array.isArray(obj), where, 'not an object');
  for (const k of Object.keys(obj)) check(keys.includes(k), where, `unknown field "${k.slice(0, 40)}"`);
}
function list(v, where, max, each) {
  check(Array.isArray(v), where, 'not a list');
  check(v.length <= max, where, `${v.length} entries, more than ${max}`);
  v.forEach((x, i) => each(x, `${where}[${i}]`));
}

function checkDiff(diff, where) {
  if (diff === null || diff === undefined) return;
  only(diff, where, ['columnsAdded', 'columnsRemoved', 'added', 'removed', 'changed']);
  for (const k of ['columnsAdded', 'columnsRemoved', 'added', 'removed']) list(diff[k] ?? [], `${where}.${k}`, MANIFEST_LIMITS.list, (x, w) => check(isText(x), w, 'not a short text'));
  list(diff.changed ?? [], `${where}.changed`, MANIFEST_LIMITS.list, (c, w) => {
    only(c, w, ['key', 'cells']);
    check(isText(c.key), `${w}.key`, 'not a short text');
    list(c.cells, `${w}.cells`, 1000, (x, wc) => { only(x, wc, ['column', 'from', 'to']); for (const k of ['column', 'from', 'to']) check(isText(x[k]), `${wc}.${k}`, 'not a short text'); });
  });
}

function checkDataset(d, where) {
  only(d, where, ['id', 'status', 'title', 'problems', 'charts', 'diff', 'page']);
  check(ID.test(String(d.id)), `${where}.id`, 'not a dataset id');
  check(['added', 'changed', 'removed'].includes(d.status), `${where}.status`, 'not added, changed or removed');
  check(d.title === null || d.title === undefined || isText(d.title), `${where}.title`, 'not a short text');
  list(d.problems ?? [], `${where}.problems`, MANIFEST_LIMITS.list, (p, w) => {
    only(p, w, ['line', 'column', 'field', 'message', 'fix']);
    check(isInt(p.line) && isInt(p.column ?? 1), w, 'line and column are not numbers');
    for (const k of ['field', 'message', 'fix']) check(isText(p[k]), `${w}.${k}`, 'not a short text');
  });
  list(d.charts ?? [], `${where}.charts`, MANIFEST_LIMITS.chartsPerDataset, (c, w) => {
    only(c, w, ['id', 'title', 'alt', 'png']);
    check(ID.test(String(c.id)), `${w}.id`, 'not a chart id');
    check(c.png === `charts/${d.id}--${c.id}.png`, `${w}.png`, 'not the one path this chart\'s image may have');
    for (const k of ['title', 'alt']) check(isText(c[k]), `${w}.${k}`, 'not a short text');
  });
  checkDiff(d.diff, `${where}.diff`);
  check(d.page === null || d.page === undefined || d.page === `site/datasets/${d.id}/index.html`, `${where}.page`, 'not this dataset\'s page');
}

/** Reads and checks DIR/manifest.json and every image it names; → { manifest, images: [{file, name}] }. */
export function readManifest(dir) {
  const file = join(dir, 'manifest.json');
  check(existsSync(file), 'manifest.json', 'missing');
  const st = lstatSync(file);
  check(st.isFile(), 'manifest.json', 'not a regular file');
  check(st.size <= MANIFEST_LIMITS.manifestBytes, 'manifest.json', `${st.size} bytes, more than ${MANIFEST_LIMITS.manifestBytes}`);
  let m;
  try { m = JSON.parse(readFileSync(file, 'utf8')); } catch (e) { check(false, 'manifest.json', `not JSON (${e.message.slice(0, 80)})`); }
  only(m, 'manifest', ['format', 'pr', 'head_sha', 'base_sha', 'datasets', 'raw_output']);
  check(m.format === 'scaling-rails/preview@1', 'manifest.format', 'not scaling-rails/preview@1');
  check(m.pr === null || isInt(m.pr), 'manifest.pr', 'not a pull request number');
  check(SHA.test(String(m.head_sha)) && SHA.test(String(m.base_sha)), 'manifest', 'head_sha or base_sha is not a commit');
  list(m.datasets, 'manifest.datasets', MANIFEST_LIMITS.datasets, checkDataset);
  const ids = m.datasets.map((d) => d.id);
  check(new Set(ids).size === ids.length, 'manifest.datasets', 'a dataset listed twice');
  list(m.raw_output ?? [], 'manifest.raw_output', MANIFEST_LIMITS.rawOutput, (p, w) => {
    only(p, w, ['file', 'reason', 'fix']);
    for (const k of ['file', 'reason', 'fix']) check(isText(p[k]), `${w}.${k}`, 'not a short text');
  });
  const images = [];
  let bytes = 0;
  for (const d of m.datasets) {
    for (const c of d.charts ?? []) {
      const name = `${d.id}--${c.id}.png`;
      const path = join(dir, 'charts', name);
      check(existsSync(path) && lstatSync(path).isFile(), c.png, 'missing or not a regular file');
      const size = lstatSync(path).size;
      check(size <= PNG_LIMITS.bytes, c.png, `${size} bytes, more than ${PNG_LIMITS.bytes}`);
      bytes += size;
      try { verifyPng(readFileSync(path)); } catch (e) { check(false, c.png, e.message); }
      images.push({ file: path, name });
    }
  }
  check(images.length <= MANIFEST_LIMITS.images, 'manifest', `${images.length} images, more than ${MANIFEST_LIMITS.images}`);
  check(bytes <= MANIFEST_LIMITS.imageBytes, 'manifest', `${bytes} bytes of images, more than ${MANIFEST_LIMITS.imageBytes}`);
  return { manifest: m, images };
}
