// Serves a built site directory on 127.0.0.1 (random port) for tests. It stops itself after
// `maxLifetimeMs` even if a test forgets to call close(), so CI never hangs on it.
import http from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { join, normalize, extname } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.json': 'application/json; charset=utf-8', '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8', '.csv': 'text/csv; charset=utf-8', '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png', '.ico': 'image/x-icon', '.webmanifest': 'application/manifest+json', '.gz': 'application/gzip', '.zip': 'application/zip',
};

export function startStaticServer(root, { maxLifetimeMs = 15 * 60 * 1000 } = {}) {
  const server = http.createServer((req, res) => {
    let path;
    try { path = decodeURIComponent(new URL(req.url, 'http://x').pathname); } catch { res.writeHead(400).end(); return; }
    let file = normalize(join(root, path));
    if (!file.startsWith(normalize(root))) { res.writeHead(403).end(); return; }
    try { if (statSync(file).isDirectory()) file = join(file, 'index.html'); } catch { /* 404 below */ }
    let st;
    try { st = statSync(file); } catch { st = null; }
    if (!st || !st.isFile()) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      try { createReadStream(join(root, '404.html')).pipe(res); } catch { res.end('not found'); }
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'content-length': st.size, 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      const timer = setTimeout(() => server.close(), maxLifetimeMs);
      timer.unref();
      server.keepAliveTimeout = 1000;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        close: () => new Promise((r) => { clearTimeout(timer); server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}
