// Serves a built site directory on 127.0.0.1 (random port) for tests. It stops itself after
// `maxLifetimeMs` even if a test forgets to call close(), so CI never hangs on it.
import http from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { contentType, fileForRequest } from '../../scripts/lib/static-files.mjs';

export function startStaticServer(root, { maxLifetimeMs = 15 * 60 * 1000 } = {}) {
  const server = http.createServer((req, res) => {
    const found = fileForRequest(root, req.url);
    if (found.status === 400 || found.status === 403) { res.writeHead(found.status).end(); return; }
    if (found.status === 404) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      try { createReadStream(join(root, '404.html')).pipe(res); } catch { res.end('not found'); }
      return;
    }
    const { file } = found;
    const st = statSync(file);
    res.writeHead(200, { 'content-type': contentType(file), 'content-length': st.size, 'cache-control': 'no-store' });
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
