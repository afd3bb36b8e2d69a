// Output rendering: warnings, the advice checklist with evidence links, and one
// highlighted block per generated file with a copy button. Only text nodes and
// createElement; links pass safeHref().
import { h, safeHref, slicer } from './dom.mjs';

// The highlighter (highlight.mjs) is a chunk the page fetches after its first render (main.mjs): until it
// arrives a file is plain text, then useHighlighter colours every file on the page.
let highlighter = null;

function paint(sec) {
  const code = sec.querySelector('pre code');
  if (highlighter) {
    highlighter.updateHighlight(code, sec._lang, sec._content);
  } else {
    code.textContent = sec._content;
    code._lines = null;
  }
}

/**
 * Installs the highlighter module and colours the files already in `list`, a few at a time with a task boundary
 * between (colouring all of them at once was one long task on a phone-speed CPU). Resolves when done.
 */
export async function useHighlighter(mod, list) {
  highlighter = mod;
  const pause = slicer();
  for (const sec of [...list.children]) {
    if (sec.isConnected) paint(sec);
    await pause();
  }
}

/** Text with `code` spans (the engine's texts use Markdown backticks) as text nodes and <code>. */
export function inline(text) {
  return String(text).split(/(`[^`\n]+`)/).map((part) => (part.length > 2 && part.startsWith('`') && part.endsWith('`') ? h('code', null, part.slice(1, -1)) : part));
}

const SEVERITIES = new Set(['error', 'warning', 'info']);

export function evidenceList(evidence, base) {
  if (!Array.isArray(evidence) || evidence.length === 0) return null;
  const items = evidence.map((e) => {
    const label = String((e && e.label) || (e && e.url) || 'source');
    const href = safeHref(e && e.url, base);
    return h('li', null, href ? h('a', { href, rel: /^https?:/.test(href) ? 'noopener noreferrer' : null }, label) : label);
  });
  return h('ul', { class: 'guide-evidence', 'aria-label': 'Evidence' }, items);
}

/** Replaces el's children with items, reusing an element whose signature is unchanged (less layout). */
function keyed(el, items, sig, make) {
  const old = new Map();
  for (const c of el.children) old.set(c._sig, c);
  const next = items.map((item, i) => {
    const k = sig(item, i);
    const reuse = old.get(k);
    if (reuse) {
      old.delete(k);
      return reuse;
    }
    const made = make(item, i);
    made._sig = k;
    return made;
  });
  if (next.length !== el.children.length || next.some((n, i) => el.children[i] !== n)) el.replaceChildren(...next);
}

const evSig = (ev) => (Array.isArray(ev) ? ev.map((e) => (e && e.label) + '\u0001' + (e && e.url)).join('\u0002') : '');

export function renderWarnings(el, warnings, base) {
  keyed(el, warnings, (w) => [w.id, w.severity, w.message, w.suggestion, evSig(w.evidence)].join('\u0003'), (w) => {
    const sev = SEVERITIES.has(w.severity) ? w.severity : 'warning';
    return h('li', { class: 'guide-warning sev-' + sev },
      h('strong', { class: 'guide-sev' }, sev === 'error' ? 'Will not work: ' : sev === 'info' ? 'Note: ' : 'Warning: '),
      inline(w.message || ''),
      w.suggestion ? h('span', null, ' ', inline(w.suggestion)) : null,
      evidenceList(w.evidence, base));
  });
  el.hidden = warnings.length === 0;
}

/** checked: Set of advice ids the reader ticked (kept across re-renders). */
export function renderAdvice(el, advice, base, checked) {
  keyed(el, advice, (a, i) => [i, a.id, a.title, a.body, a.applies, evSig(a.evidence)].join('\u0003'), (a, i) => {
    const id = 'guide-advice-' + i;
    const box = h('input', { type: 'checkbox', id, 'data-advice': String(a.id) });
    box.checked = checked.has(String(a.id));
    const na = a.applies === false;
    return h('li', { class: 'guide-advice-item' + (na ? ' guide-advice-na' : '') },
      h('div', { class: 'guide-advice-head' }, box, h('label', { for: id }, String(a.title || a.id),
        na ? h('span', { class: 'guide-na' }, ' (does not apply to these versions)') : null)),
      a.body ? h('p', null, inline(a.body)) : null,
      evidenceList(a.evidence, base));
  });
}

/** Renders files; reuses a file's section when its path is unchanged. */
export function renderFiles(toc, list, files, onCopy) {
  const existing = new Map();
  for (const sec of list.children) existing.set(sec.dataset.path, sec);
  const sections = [];
  const links = [];
  files.forEach((f, i) => {
    const path = String(f.path);
    const content = String(f.content);
    const anchor = 'guide-file-' + i;
    let sec = existing.get(path);
    if (!sec) {
      const button = h('button', { type: 'button', class: 'guide-copy' }, 'Copy');
      button.addEventListener('click', () => onCopy(sec, button));
      sec = h('section', { class: 'guide-file', 'data-path': path },
        h('div', { class: 'guide-file-head' },
          h('h3', null, h('code', null, path)),
          h('span', { class: 'guide-lang' }),
          button),
        h('pre', { class: 'guide-code', tabindex: '0' }, h('code')));
    }
    sec.id = anchor;
    const lang = String(f.language || 'text');
    const badge = sec.querySelector('.guide-lang');
    if (badge.textContent !== lang) badge.textContent = lang;
    if (sec._content !== content || sec._lang !== lang) {
      sec.querySelector('pre code').className = 'language-' + lang.replace(/[^a-z0-9_-]/gi, '');
      sec._content = content;
      sec._lang = lang;
      paint(sec);
    }
    sections.push(sec);
    links.push(anchor + '\u0001' + path);
  });
  // Re-inserting unchanged sections would force their style and layout again: only touch the
  // containers when the list of files changed.
  if (sections.length !== list.children.length || sections.some((sec, i) => list.children[i] !== sec)) list.replaceChildren(...sections);
  const tocSig = links.join('\u0002');
  if (toc._sig !== tocSig) {
    toc._sig = tocSig;
    toc.replaceChildren(...links.map((l) => {
      const [anchor, path] = l.split('\u0001');
      return h('li', null, h('a', { href: '#' + anchor }, path));
    }));
  }
}

export function renderNotes(el, list, notes) {
  list.replaceChildren(...notes.map((n) => h('li', null, String(n.message))));
  el.hidden = notes.length === 0;
}

/** Copies text with the async clipboard API, falling back to execCommand. */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy path (permission denied, unfocused document…)
  }
  const ta = h('textarea', { class: 'guide-offscreen', readonly: true, 'aria-hidden': 'true', tabindex: '-1' });
  ta.value = text;
  document.body.append(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  ta.remove();
  return ok;
}
