// What the local servers of a built site (scripts/lib/site-server.mjs for benchmarks,
// tests/helpers/static-server.mjs for tests) share: the content types, and which file a request names.
import { statSync } from 'node:fs';
import { join, normalize, extname, sep } from 'node:path';

export const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.json': 'application/json; charset=utf-8', '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8', '.csv': 'text/csv; charset=utf-8', '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png', '.ico': 'image/x-icon', '.webmanifest': 'application/manifest+json', '.gz': 'application/gzip', '.zip': 'application/zip',
};

export const contentType = (file) => CONTENT_TYPES[extname(file)] || 'application/octet-stream';

/**
 * The file under `root` that a request URL names (a directory means its index.html), as
 * {status: 200, file} or {status: 400|403|404}. The file must lie inside root itself: a plain prefix
 * test would let `/../_site-old/x` out of `_site`, so the comparison includes the separator.
 */
export function fileForRequest(root, url) {
  let path;
  try { path = decodeURIComponent(new URL(url, 'http://x').pathname); } catch { return { status: 400 }; }
  const top = normalize(root).replace(/[\\/]+$/, '');
  let file = normalize(join(top, path));
  if (file !== top && !file.startsWith(top + sep)) return { status: 403 };
  try { if (statSync(file).isDirectory()) file = join(file, 'index.html'); } catch { return { status: 404 }; }
  try { if (!statSync(file).isFile()) return { status: 404 }; } catch { return { status: 404 }; }
  return { status: 200, file };
}
