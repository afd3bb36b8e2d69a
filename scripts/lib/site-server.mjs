// Serves a built site directory on 127.0.0.1 (a free port) the way a production host would:
// text responses gzip-compressed when the client accepts it, long-lived caching for assets.
// For benchmarks (scripts/bench-lighthouse.mjs), where transfer sizes must be realistic.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { contentType, fileForRequest } from './static-files.mjs';

const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.svg', '.xml', '.csv', '.txt', '.webmanifest']);

export function startSiteServer(root) {
  const cache = new Map();
  const server = http.createServer((req, res) => {
    const found = fileForRequest(root, req.url);
    if (found.status !== 200) {
      res.writeHead(found.status, { 'content-type': 'text/plain; charset=utf-8' }).end(found.status === 404 ? 'not found' : '');
      return;
    }
    const { file } = found;
    let body = readFileSync(file);
    const ext = extname(file);
    const headers = {
      'content-type': contentType(file),
      'cache-control': ext === '.html' ? 'no-cache' : 'public, max-age=31536000',
      vary: 'accept-encoding',
    };
    if (COMPRESSIBLE.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      if (!cache.has(file)) cache.set(file, gzipSync(body, { level: 9 }));
      body = cache.get(file);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = body.length;
    res.writeHead(200, headers).end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }) });
    });
  });
}
