// Suggested lines are copied from the generated bundle, whose names (the local `max_threads`, the upstream
// `rails_app`, the named location `@rails`, the map variable `$connection_upgrade`) mean nothing in the user's
// files: applied as written, Ruby raises NameError at load and nginx refuses the config or answers 500. Each name
// becomes the app's own (same meaning) or a literal value; a suggestion whose name has no counterpart is dropped
// (null) rather than shown broken.

/**
 * Ruby: each generated local is replaced by the app's local that reads the same ENV variable with the same
 * value, else by its literal value (else its generated expression, in parentheses).
 */
export function ownLocals(out, genAssigns, userAssigns) {
  const mine = new Set(userAssigns.map((a) => a.name));
  const subst = new Map();
  for (const a of genAssigns) {
    if (mine.has(a.name) && sameOrigin(a.value, userAssigns.find((u) => u.name === a.name)?.value)) continue;
    const same = userAssigns.find((u) => !u.conditional && sameOrigin(a.value, u.value));
    subst.set(a.name, same ? same.name : a.value.known && typeof a.value.value === 'number' ? String(a.value.value)
      : a.value.known && typeof a.value.value === 'string' ? JSON.stringify(a.value.value) : `(${a.value.text})`);
  }
  if (!subst.size) return out;
  const re = new RegExp(`(?<![\\w.:@$"'])(${[...subst.keys()].join('|')})\\b(?!\\s*[:(])`, 'g');
  return out.map((l) => l.replace(re, (m) => subst.get(m)));
}

// Same ENV variable (or none) and same resolved value.
const sameOrigin = (a, b) => !!a && !!b && a.known && b.known && (a.env || null) === (b.env || null) && String(a.value) === String(b.value);

const strip = (t) => String(t).replace(/#[^\n]*/g, '');
const all = (re, text) => [...new Set([...strip(text).matchAll(re)].map((m) => m[1]))];
const UPSTREAM = /(?:^|[\s;{}])upstream\s+([\w.-]+)\s*\{/g;
const PROXY_TO = /\bproxy_pass\s+https?:\/\/([^\s;/$]+)/g;
const NAMED = /\blocation\s+@([\w-]+)\s*\{/g;
const MAPPED = /(?:^|[\s;{}])map\s+\S+\s+\$([\w]+)\s*\{/g;

/**
 * nginx: the generated upstream, named location and map variables in `out`, rewritten to the user's files' own
 * (texts: every nginx file given, a map in nginx.conf serves a site file). → lines, or null when a name has none.
 */
export function ownNginxNames(out, genText, texts) {
  const user = texts.join('\n');
  const swaps = [];
  // Upstream: the user's own upstream, else the one address every proxy_pass uses.
  const ups = all(UPSTREAM, user);
  const targets = all(PROXY_TO, user);
  const upTo = ups.length === 1 ? ups[0] : ups.length === 0 && targets.length === 1 ? targets[0] : null;
  for (const name of all(UPSTREAM, genText)) if (!ups.includes(name)) swaps.push([new RegExp(`(https?://)${esc(name)}(?=[\\s;/])`, 'g'), upTo && `$1${upTo}`]);
  const named = all(NAMED, user);
  for (const name of all(NAMED, genText)) if (!named.includes(name)) swaps.push([new RegExp(`@${esc(name)}\\b`, 'g'), named.length === 1 && `@${named[0]}`]);
  // A map's variable only exists where the map is: a suggestion that is the map itself defines it.
  const defines = all(MAPPED, out.join('\n'));
  const mapped = all(MAPPED, user);
  for (const name of all(MAPPED, genText)) if (!mapped.includes(name) && !defines.includes(name)) swaps.push([new RegExp(`\\$${esc(name)}\\b`, 'g'), null]);
  let lines = out;
  for (const [re, to] of swaps) {
    if (!lines.some((l) => re.test(l.replace(/#.*$/, '')))) continue;
    re.lastIndex = 0;
    if (!to) return null;
    lines = lines.map((l) => l.replace(re, to));
  }
  return lines;
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
