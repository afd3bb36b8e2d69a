// Service worker for the wizard (/guide/). The page sends the list of URLs it
// loaded ("precache"); afterwards every same-origin GET is network-first with
// the cache as fallback, so the wizard keeps working offline and stays fresh
// online. Navigations match the cached page whatever the query string.
const CACHE = 'scaling-rails-guide-v1';
// Only the wizard's own URLs are cached or served from the cache: its folder and the site's assets, never
// anything else of the origin (raw-output/ holds contributors' files). Cache Storage is shared by every page of
// the origin, so an entry is served only if the worker could have stored it: a response fetched from that very
// path (a Response made up by a script has no URL, one fetched elsewhere has another path).
const BASE = new URL(self.registration.scope).pathname.replace(/guide\/$/, '');
const ours = (path) => path.startsWith(BASE + 'guide/') || path.startsWith(BASE + 'assets/');
const genuine = (hit, path) => {
  if (!hit || !hit.url) return null;
  const from = new URL(hit.url);
  return from.origin === self.location.origin && from.pathname === path ? hit : null;
};

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('scaling-rails-guide-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type !== 'precache' || !Array.isArray(data.urls)) return;
  const port = event.ports && event.ports[0];
  const urls = data.urls
    .filter((u) => typeof u === 'string' && u.startsWith('/') && !u.startsWith('//') && ours(new URL(u, self.location.origin).pathname))
    .slice(0, 100);
  // Chunks have hashed names (guide-<name>-<hash>.js): drop those of earlier builds that this page no longer lists.
  const chunk = /\/guide-[\w-]+-[\w-]{8}\.js$/;
  const prune = (cache) => cache.keys().then((keys) => Promise.all(keys
    .filter((k) => chunk.test(new URL(k.url).pathname) && !urls.includes(new URL(k.url).pathname))
    .map((k) => cache.delete(k))));
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(urls).then(() => prune(cache)))
      .then(() => port && port.postMessage({ ok: true }))
      .catch(() => port && port.postMessage({ ok: false })),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || !ours(url.pathname)) return;
  const navigation = req.mode === 'navigate';
  event.respondWith(
    fetch(req)
      .then((res) => {
        if (res.ok && res.type === 'basic') {
          const copy = res.clone();
          const key = navigation ? new Request(url.origin + url.pathname) : req;
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        // After a deploy, a page loaded from the previous build asks for chunks that no longer exist: the cached
        // copy of that build's chunk keeps it working.
        if (res.status === 404 && !navigation) return caches.match(req).then((hit) => genuine(hit, url.pathname) || res);
        return res;
      })
      .catch(() =>
        caches.match(req, { ignoreSearch: navigation }).then((hit) => genuine(hit, url.pathname) || Response.error()),
      ),
  );
});
