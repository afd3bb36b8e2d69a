// HTML escaping for text that comes from data files. Braces are escaped too: generated fragments
// are included by Jekyll and pass through Liquid, which must never see `{{` or `{%` from data.
const MAP = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '{': '&#123;', '}': '&#125;' };

export function esc(value) {
  return String(value).replace(/[&<>"'{}]/g, (c) => MAP[c]);
}

// A site-relative URL passed through Jekyll's relative_url so a non-empty baseurl works.
export function siteUrl(path) {
  if (!/^\/[A-Za-z0-9/_.\-]*$/.test(path)) throw new Error(`unsafe site path: ${path}`);
  return `{{ '${path}' | relative_url }}`;
}
