// Search page behaviour. The index (search.json) is fetched only when the reader focuses or
// uses the search box. Results are built with createElement/textContent (never innerHTML).
// Keyboard: type to search; ArrowDown moves into the results, ArrowUp/ArrowDown between them,
// Escape returns to the box (a second Escape clears it).
import { prepare, search, safeUrl } from './search-core.mjs';

const form = document.querySelector('form[data-search]');
if (form) init(form);

function init(form) {
  const input = form.querySelector('input[type="search"]');
  const status = document.getElementById('search-status');
  const results = document.getElementById('search-results');
  const all = document.getElementById('search-all');
  const help = document.getElementById('search-help');
  let loading = null;
  let prepared = null;
  let pending = 0;

  if (help) help.hidden = false;

  function load() {
    loading ??= fetch(form.dataset.index, { credentials: 'same-origin' })
      .then((r) => { if (!r.ok) throw new Error(`HTTP ${r.status}`); return r.json(); })
      .then((data) => { prepared = prepare(Array.isArray(data.items) ? data.items : []); })
      .catch((e) => { loading = null; throw e; });
    return loading;
  }

  function item(hit) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = safeUrl(hit.item.url) ?? '#';
    a.textContent = hit.item.title;
    const kind = document.createElement('span');
    kind.className = 'search-kind';
    kind.textContent = hit.item.type === 'article' ? 'Article' : 'Dataset';
    const summary = document.createElement('p');
    summary.textContent = hit.item.summary ?? '';
    li.append(kind, ' ', a, summary);
    return li;
  }

  async function render() {
    const query = input.value.trim();
    const ticket = ++pending;
    const url = new URL(window.location.href);
    if (query) url.searchParams.set('q', query); else url.searchParams.delete('q');
    window.history.replaceState(null, '', url);
    if (!query) {
      results.replaceChildren();
      results.hidden = true;
      all.hidden = false;
      status.textContent = '';
      return;
    }
    try {
      await load();
    } catch {
      status.textContent = 'The search index could not be loaded; the full list below still works.';
      return;
    }
    if (ticket !== pending) return; // a newer keystroke is being handled
    const hits = search(prepared, query);
    results.replaceChildren(...hits.map(item));
    results.hidden = hits.length === 0;
    all.hidden = hits.length > 0;
    status.textContent = hits.length === 0
      ? `No results for “${query}”. All articles and datasets are listed below.`
      : `${hits.length} result${hits.length === 1 ? '' : 's'} for “${query}”.`;
  }

  function links() { return [...results.querySelectorAll('a')]; }

  input.addEventListener('focus', () => { load().catch(() => {}); }, { once: true });
  input.addEventListener('input', render);
  form.addEventListener('submit', (e) => { e.preventDefault(); render().then(() => links()[0]?.focus()); });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' && links().length) { e.preventDefault(); links()[0].focus(); }
    if (e.key === 'Escape' && input.value) { e.preventDefault(); input.value = ''; render(); }
  });
  results.addEventListener('keydown', (e) => {
    const list = links();
    const i = list.indexOf(document.activeElement);
    if (i < 0) return;
    if (e.key === 'ArrowDown') { e.preventDefault(); list[Math.min(i + 1, list.length - 1)].focus(); }
    if (e.key === 'ArrowUp') { e.preventDefault(); (i === 0 ? input : list[i - 1]).focus(); }
    if (e.key === 'Escape') { e.preventDefault(); input.focus(); }
  });

  const initial = new URL(window.location.href).searchParams.get('q');
  if (initial) { input.value = initial; render(); }
}
