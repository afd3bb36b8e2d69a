// Registers guide/sw.js (scope: the wizard's folder) and asks it to cache the
// page and every asset the page loaded, so the wizard works offline once loaded.
// Resolves to true once the cache is filled, false when there is no service worker.

/** `chunkList`: URL of a JSON {chunks: [file names]} of the scripts the page fetches only on demand (chunks of guide.js). */
async function onDemand(chunkList) {
  const res = await fetch(chunkList, { credentials: 'same-origin' });
  const { chunks } = res.ok ? await res.json() : {};
  return Array.isArray(chunks) ? chunks.filter((c) => typeof c === 'string' && /^[\w.-]+\.js$/.test(c)).map((c) => new URL(c, chunkList).pathname) : [];
}

export async function enableOffline(base, chunkList) {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return false;
  const scope = base + 'guide/';
  try {
    const later = await onDemand(chunkList);
    await navigator.serviceWorker.register(scope + 'sw.js', { scope });
    const reg = await navigator.serviceWorker.ready;
    const worker = reg.active;
    if (!worker) return false;
    const urls = new Set([location.pathname, ...later]);
    for (const el of document.querySelectorAll('link[rel~="stylesheet"][href], link[rel~="icon"][href], script[src], img[src]')) {
      const u = new URL(el.href || el.src, location.href);
      if (u.origin === location.origin) urls.add(u.pathname + u.search);
    }
    // Scripts named in data-* attributes of #guide (the configuration checker) load on demand: cache them too.
    for (const v of Object.values(document.getElementById('guide').dataset)) if (/\.js$/.test(v)) urls.add(new URL(v, location.href).pathname);
    // Everything else the page fetched so far (the catalog JSON, fonts…).
    for (const entry of performance.getEntriesByType('resource')) {
      const u = new URL(entry.name, location.href);
      if (u.origin === location.origin && !u.pathname.endsWith('/sw.js')) urls.add(u.pathname + u.search);
    }
    return await new Promise((resolve) => {
      const channel = new MessageChannel();
      const timer = setTimeout(() => resolve(false), 15000);
      channel.port1.onmessage = (e) => {
        clearTimeout(timer);
        resolve(Boolean(e.data && e.data.ok));
      };
      worker.postMessage({ type: 'precache', urls: [...urls] }, [channel.port2]);
    });
  } catch {
    return false;
  }
}
