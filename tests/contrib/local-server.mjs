// A small HTTP server on 127.0.0.1 for the importer tests. It counts what it answered, so tests
// can compare a tool's report with the server's own numbers. It closes itself after `lifetimeMs`.
//   /        200 "hello world\n"
//   /err     every third request gets a 500
//   /slow    answers after `slowMs` (to provoke client timeouts)
// Every response names the server (`Server: scaling-rails-test/1.0`), as nginx or Puma behind a proxy would.
import http from 'node:http';

export async function startServer({ lifetimeMs = 120000, slowMs = 3000 } = {}) {
  const counts = { total: 0, ok: 0, errors: 0, slow: 0 };
  let errSeq = 0;
  const pending = new Set();
  const server = http.createServer((req, res) => {
    counts.total++;
    res.setHeader('server', 'scaling-rails-test/1.0');
    if (req.url.startsWith('/err')) {
      errSeq++;
      if (errSeq % 3 === 0) { counts.errors++; res.writeHead(500, { 'content-type': 'text/plain' }); res.end('error\n'); return; }
    } else if (req.url.startsWith('/slow')) {
      counts.slow++;
      const t = setTimeout(() => { pending.delete(t); res.end('late\n'); }, slowMs);
      pending.add(t);
      return;
    }
    counts.ok++;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello world\n');
  });
  server.keepAliveTimeout = 2000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const stopTimer = setTimeout(() => close(), lifetimeMs);
  stopTimer.unref();
  function close() {
    clearTimeout(stopTimer);
    for (const t of pending) clearTimeout(t);
    pending.clear();
    server.closeAllConnections?.();
    return new Promise((resolve) => server.close(() => resolve()));
  }
  return { port, url: `http://127.0.0.1:${port}`, counts, reset() { Object.assign(counts, { total: 0, ok: 0, errors: 0, slow: 0 }); errSeq = 0; }, close };
}
