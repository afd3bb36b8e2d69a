// Ruby and gem versions from Gemfile.lock, Gemfile, .ruby-version and .tool-versions.
import { readRuby } from './read-ruby.mjs';
import { cmp } from '../engine/version.mjs';

/** Gemfile.lock → {settings: [{name: gem, value: version, line}], ruby: {value, line}|null} */
export function readGemfileLock(src) {
  const settings = [];
  let ruby = null;
  const lines = src.split('\n');
  let section = '';
  lines.forEach((l, k) => {
    if (/^[A-Z]/.test(l)) { section = l.trim(); return; }
    if (section === 'GEM' || section === 'PATH' || section === 'GIT') {
      const m = /^ {4}([A-Za-z0-9_.-]+) \(([^)]+)\)\s*$/.exec(l);
      if (m) settings.push({ name: m[1], value: m[2].replace(/-[a-z].*$/, ''), line: k + 1 });
    } else if (section === 'RUBY VERSION') {
      const m = /^\s+(ruby|jruby|truffleruby)\s+([\d.]+)(?:p\d+)?(?:\s*\((\w+)\s+([\d.]+)\))?/.exec(l);
      if (m) ruby = m[3] ? { impl: m[3], value: m[4], line: k + 1 } : { impl: 'ruby', value: m[2], line: k + 1 };
    }
  });
  return { settings, ruby, notes: [] };
}

/** Gemfile → {settings: [{name: gem, value: requirement, line}], ruby: {value, line}|null} */
export function readGemfile(src) {
  const r = readRuby(src);
  const settings = [];
  let ruby = null;
  for (const c of r.calls) {
    if (c.name === 'gem' && c.args[0]?.known && typeof c.args[0].value === 'string') {
      // Groups: `group :development, :test do … end` around the gem, or `group:`/`groups:` in its options.
      const groups = [];
      if (c.inBlock === 'group' && c.blockArgs) groups.push(...symbolsOf(c.blockArgs));
      for (const a of c.args.slice(1)) { const m = /^(?:group|groups):\s*(.+)$|^:(?:group|groups)\s*=>\s*(.+)$/.exec(a.text || ''); if (m) groups.push(...symbolsOf(m[1] || m[2])); }
      settings.push({
        name: c.args[0].value, value: c.args.slice(1).filter((a) => a.known && typeof a.value === 'string').map((a) => a.value).join(', '), line: c.line,
        groups, devOnly: groups.length > 0 && groups.every((g) => DEV_GROUPS.has(g)),
      });
    }
    // requirement: every string argument (`ruby ">= 3.2", "< 3.5"`), as Bundler reads them; `ruby file: …` has none.
    if (c.name === 'ruby' && !c.receiver && c.args[0]?.known && typeof c.args[0].value === 'string') ruby = { impl: 'ruby', value: c.args[0].value.replace(/^[~>=<\s]+/, ''), line: c.line, requirement: c.args.filter((a) => a.known && typeof a.value === 'string' && /^[~>=<!\s]*\d/.test(a.value)).map((a) => a.value).join(', ') };
  }
  return { settings, ruby, notes: r.notes };
}

const DEV_GROUPS = new Set(['development', 'test', 'ci', 'lint', 'linters', 'rubocop']);
const symbolsOf = (src) => [...String(src).matchAll(/:(\w+)|["'](\w+)["']/g)].map((m) => m[1] || m[2]);

/**
 * The lowest version a Gemfile requirement allows ("~> 5.0", ">= 6", "5.2.1"), or null when it
 * only sets an upper bound ("< 7", "<= 6.1", "!= 6.0"): `< 7` says nothing of the version in use.
 */
export function lowerBound(req) {
  let best = null;
  for (const part of String(req || '').split(',')) {
    const m = /^\s*(~>|>=|=|>)?\s*(\d+(?:\.\d+)*)\s*$/.exec(part);
    if (m && !best) best = m[2];
  }
  return best;
}

/**
 * Does `version` meet a RubyGems requirement ("3.3.0", "~> 3.3.0", ">= 3.2, < 3.5")? A bare version means "=";
 * "~> 3.3.0" is ">= 3.3.0, < 3.4", "~> 3.3" is ">= 3.3, < 4". → true, false, or null when a part is not readable.
 */
export function satisfies(version, requirement) {
  const parts = String(requirement || '').split(',').map((x) => x.trim()).filter(Boolean);
  if (!parts.length) return null;
  for (const part of parts) {
    const m = /^(~>|>=|<=|!=|=|>|<)?\s*(\d+(?:\.\d+)*)$/.exec(part);
    if (!m) return null;
    const [op, v] = [m[1] || '=', m[2]];
    const c = cmp(version, v);
    if (op === '~>') {
      const seg = v.split('.');
      const upper = seg.length > 1 ? [...seg.slice(0, -2), Number(seg[seg.length - 2]) + 1].join('.') : String(Number(seg[0]) + 1);
      if (c < 0 || cmp(version, upper) >= 0) return false;
    } else if (!({ '=': c === 0, '!=': c !== 0, '>=': c >= 0, '<=': c <= 0, '>': c > 0, '<': c < 0 })[op]) return false;
  }
  return true;
}

/** .ruby-version: "3.3.0", "ruby-3.3.0", "jruby-9.4.5.0", "truffleruby-24.0.0" */
export function readRubyVersion(src) {
  const k = src.split('\n').findIndex((l) => l.trim() && !l.trim().startsWith('#'));
  if (k < 0) return { ruby: null, settings: [], notes: [] };
  const m = /^(?:(ruby|jruby|truffleruby|rbx|ree)-)?(\d+(?:\.\d+){0,3})/.exec(src.split('\n')[k].trim());
  return { ruby: m ? { impl: m[1] || 'ruby', value: m[2], line: k + 1 } : null, settings: [], notes: [] };
}

/** .tool-versions (asdf, mise): "ruby 3.3.0", "postgres 16.2" */
export function readToolVersions(src) {
  const settings = [];
  let ruby = null;
  src.split('\n').forEach((l, k) => {
    const m = /^\s*([\w-]+)\s+(\S+)/.exec(l);
    if (!m || l.trim().startsWith('#')) return;
    settings.push({ name: m[1], value: m[2], line: k + 1 });
    if (m[1] === 'ruby') { const v = readRubyVersion(m[2]).ruby; if (v) ruby = { ...v, line: k + 1 }; }
  });
  return { settings, ruby, notes: [] };
}
