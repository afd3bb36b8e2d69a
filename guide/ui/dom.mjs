// Tiny DOM builder. Text is always set through text nodes; attributes through
// setAttribute, with event-handler and style attributes refused, so data can
// never become markup or inline code (the page runs under a strict CSP).

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (/^on/i.test(name) || name === 'style') throw new Error('refused attribute ' + name);
      if (name === 'class') el.className = value;
      else if (name === 'hidden' || name === 'checked' || name === 'selected' || name === 'disabled') el[name] = Boolean(value);
      else el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Site base path from the page (`data-base`), always ending with "/". */
export function basePath(root) {
  const b = (root && root.getAttribute('data-base')) || '/';
  return b.endsWith('/') ? b : b + '/';
}

/**
 * Returns an href for an evidence link, or null when the URL may not be linked.
 * Allowed: absolute http(s) URLs and site-relative paths ("/datasets/x/"),
 * which get the site's base path. Everything else (javascript:, data:,
 * protocol-relative "//host", relative paths, control characters) → null.
 */
export function safeHref(url, base = '/') {
  if (typeof url !== 'string' || url.length > 2000) return null;
  if (/[\u0000-\u001f\u007f\s\\]/.test(url)) return null;
  if (url.startsWith('/') && !url.startsWith('//')) {
    const b = base.endsWith('/') ? base.slice(0, -1) : base;
    return b && !url.startsWith(b + '/') ? b + url : url;
  }
  if (/^https?:\/\/[^/]/i.test(url)) {
    try {
      const u = new URL(url);
      return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * A yield point for long work: call `await pause()` between steps; it hands the main thread back to the browser
 * (a task boundary, so input and paint can run) once `ms` have passed since the last hand-back.
 */
export function slicer(ms = 10) {
  let since = performance.now();
  return async function pause() {
    if (performance.now() - since <= ms) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    since = performance.now();
  };
}
