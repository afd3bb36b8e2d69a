// "Check my configuration" on the wizard page: the reader drops, picks or pastes config files; the
// doctor (guide/check/, the same modules as `node guide/cli.mjs --check`) runs here in the browser —
// nothing is uploaded — and its findings are shown with the same evidence links as the files.
// Loaded on demand (its own bundle, assets/generated/guide-check.js) so the page's first load stays
// within its JavaScript budget; the check itself runs in a Web Worker (check-worker.mjs, its own file) with a
// deadline (LIMITS.pageSeconds), so no input can block the page. Text from files is only ever set as text,
// never parsed as HTML.
import { LIMITS, looksBinary, decodeText } from '../check/limits.mjs';
import { h, safeHref, basePath } from './dom.mjs';

const NAMES = ['config/puma.rb', 'config/database.yml', 'config/environments/production.rb', 'Gemfile', 'Gemfile.lock', '.ruby-version',
  'config/unicorn.rb', 'nginx.conf', 'sites-enabled/app.conf', 'postgresql.conf', 'pgbouncer.ini', 'my.cnf', 'app.service', 'sysctl.d/60-app.conf', 'app.env'];

/**
 * mountCheck(root, button): called by the page (main.mjs) on the first click of "Check my configuration".
 * root is #guide (data-base, data-catalog); the checker replaces the contents of #guide-check.
 * "Fill in these answers" goes through the page's own applyQuery (window.__guide), so the form, the
 * files and the URL update exactly as when the reader edits the form.
 */
export async function mountCheck(root, button) {
  const status = document.getElementById('guide-status');
  try {
    if (button) button.disabled = true;
    const api = await mountCheckIn(document.getElementById('guide-check'), {
      base: basePath(root),
      catalogUrl: root.getAttribute('data-catalog'),
      workerUrl: root.getAttribute('data-check-worker'),
      // The worker wrote the detected answers as the wizard's query string (report.query): no engine copy here.
      applyAnswers: (query) => {
        window.__guide.applyQuery(`?${query}`);
        if (status) status.textContent = 'Answers filled in from your files.';
      },
    });
    document.documentElement.setAttribute('data-guide-check', 'ready');
    window.__guideCheck = api;
    return api;
  } catch (err) {
    if (button) button.disabled = false;
    if (status) status.textContent = `The checker could not start: ${String((err && err.message) || err)}`;
    return null;
  }
}

/**
 * mountCheckIn(section, {base, catalogUrl, workerUrl, applyAnswers}) → {addText, run, deadlineMs} (also for tests).
 * run() resolves to the report, or null when the check failed or passed its deadline (the status says which).
 */
export async function mountCheckIn(section, { base = '/', catalogUrl, workerUrl, applyAnswers }) {
  const checker = workerChecker(new URL(workerUrl || './guide-check-worker.js', import.meta.url).href, catalogUrl && new URL(catalogUrl, location.href).href);
  const inputs = []; // {path, text, notes?} | {path, problem}
  const listEl = h('ul', { class: 'guide-check-inputs', 'aria-label': 'Files to check' });
  const status = h('p', { class: 'guide-status', role: 'status', 'aria-live': 'polite' });
  const results = h('div', { class: 'guide-check-results', id: 'guide-check-results' });
  const fileInput = h('input', { type: 'file', id: 'guide-check-files', multiple: true });
  const drop = h('div', { class: 'guide-check-drop', id: 'guide-check-drop', tabindex: '0', role: 'group', 'aria-label': 'Drop files here' },
    h('p', null, 'Drop config files or folders here, or ', h('label', { for: 'guide-check-files' }, 'choose files'), '.'), fileInput);
  const nameInput = h('input', { type: 'text', id: 'guide-check-name', list: 'guide-check-names', value: 'config/puma.rb', autocomplete: 'off', spellcheck: 'false' });
  const names = h('datalist', { id: 'guide-check-names' }, NAMES.map((n) => h('option', { value: n })));
  const paste = h('textarea', { id: 'guide-check-paste', rows: '8', spellcheck: 'false', autocomplete: 'off' });
  const addBtn = h('button', { type: 'button', class: 'guide-button secondary', id: 'guide-check-add' }, 'Add pasted file');
  const runBtn = h('button', { type: 'button', class: 'guide-button', id: 'guide-check-run' }, 'Check these files');
  section.replaceChildren(
    h('p', { class: 'guide-help' }, 'Everything runs in this browser: your files are read here and never uploaded. ',
      'The checker detects your answers from the files (each with its file and line), generates the bundle for them with the same engine, ',
      'and lists what differs, what is obsolete for your versions and what two files disagree on.'),
    drop,
    h('div', { class: 'guide-check-paste' },
      h('p', null, h('label', { for: 'guide-check-name' }, 'File name (tells the checker what it is)'), ' ', nameInput, names),
      h('p', null, h('label', { for: 'guide-check-paste' }, 'Paste the file\u2019s text')), paste, h('p', null, addBtn)),
    listEl,
    h('p', null, runBtn, ' ', h('button', { type: 'button', class: 'guide-button secondary', id: 'guide-check-clear' }, 'Remove all files')),
    status, results,
  );

  const say = (t) => { status.textContent = t; };
  function renderList() {
    listEl.replaceChildren(...inputs.map((x, k) => h('li', null, h('code', null, x.path), x.problem ? ` — ${x.problem.message}` : ` (${x.text.length} characters) `,
      h('button', { type: 'button', class: 'guide-button secondary', 'data-remove': String(k), 'aria-label': `Remove ${x.path}` }, 'Remove'))));
  }
  function add(entry) {
    if (inputs.length >= LIMITS.files) { say(`At most ${LIMITS.files} files; ${entry.path} was not added.`); return; }
    const total = inputs.reduce((n, x) => n + (x.text ? x.text.length : 0), 0) + (entry.text ? entry.text.length : 0);
    if (total > LIMITS.totalBytes) {
      entry = { path: entry.path, problem: { code: 'too-much-input', file: entry.path, line: 0, message: `over ${LIMITS.totalBytes} bytes in all: not added`, fix: 'check fewer or smaller files at a time' } };
    }
    const i = inputs.findIndex((x) => x.path === entry.path);
    if (i >= 0) inputs[i] = entry; else inputs.push(entry);
    renderList();
  }
  function addText(path, text) {
    const shown = String(path).trim() || 'pasted.txt';
    const t = String(text).replace(/^\uFEFF/, '');
    if (t.length > LIMITS.fileBytes) { add({ path: shown, problem: { code: 'too-large', file: shown, line: 0, message: `${t.length} characters, over the ${LIMITS.fileBytes}-byte limit for one config file`, fix: 'paste the config file itself, not a dump or log' } }); return; }
    add({ path: shown, text: t });
  }
  async function addFile(file, path) {
    const shown = path || file.webkitRelativePath || file.name;
    if (file.size > LIMITS.fileBytes) { add({ path: shown, problem: { code: 'too-large', file: shown, line: 0, message: `${file.size} bytes, over the ${LIMITS.fileBytes}-byte limit for one config file`, fix: 'add the config file itself, not a dump or log' } }); return; }
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (looksBinary(bytes)) { add({ path: shown, problem: { code: 'binary', file: shown, line: 0, message: 'binary file: skipped', fix: 'add text config files only' } }); return; }
    const { text, notes } = decodeText(bytes);
    add({ path: shown, text, ...(notes.length ? { notes } : {}) });
  }
  // Folders dropped from the desktop: walk them (depth-limited); symlinks are not exposed by browsers.
  async function addEntry(entry, prefix, depth) {
    if (!entry || depth > LIMITS.depth) return;
    if (entry.isFile) { await new Promise((resolve) => entry.file((f) => addFile(f, prefix + entry.name).then(resolve), resolve)); return; }
    if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((resolve) => reader.readEntries(resolve, () => resolve([])));
        if (!batch.length) break;
        for (const e of batch) await addEntry(e, `${prefix}${entry.name}/`, depth + 1);
      }
    }
  }

  fileInput.addEventListener('change', async () => {
    for (const f of fileInput.files) await addFile(f);
    say(`${inputs.length} file(s) ready to check.`);
    fileInput.value = '';
  });
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('is-over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('is-over'));
  drop.addEventListener('drop', async (e) => {
    e.preventDefault();
    drop.classList.remove('is-over');
    const items = [...(e.dataTransfer.items || [])].map((it) => (it.webkitGetAsEntry ? it.webkitGetAsEntry() : null));
    if (items.some(Boolean)) for (const entry of items) await addEntry(entry, '', 0);
    else for (const f of e.dataTransfer.files) await addFile(f);
    say(`${inputs.length} file(s) ready to check.`);
  });
  addBtn.addEventListener('click', () => {
    if (!paste.value.trim()) { say('Paste a file\u2019s text first.'); paste.focus(); return; }
    addText(nameInput.value, paste.value);
    paste.value = '';
    say(`${inputs.length} file(s) ready to check.`);
  });
  listEl.addEventListener('click', (e) => {
    const k = e.target && e.target.getAttribute('data-remove');
    if (k === null || k === undefined) return;
    inputs.splice(Number(k), 1);
    renderList();
  });
  section.querySelector('#guide-check-clear').addEventListener('click', () => { inputs.length = 0; renderList(); results.replaceChildren(); say('No files.'); });

  const api = { addText, run, deadlineMs: LIMITS.pageSeconds * 1000 };
  async function run() {
    if (!inputs.length) { say('Add at least one file.'); return null; }
    runBtn.disabled = true;
    say(`Checking ${inputs.length} file(s)\u2026`);
    let report;
    try {
      report = await checker.run(inputs.map((x) => ({ ...x })), new Date().toISOString().slice(0, 10), api.deadlineMs);
    } catch (err) {
      say(String((err && err.message) || err));
      return null;
    } finally {
      runBtn.disabled = false;
    }
    renderReport(results, report, { base, applyAnswers });
    const n = (s) => report.findings.filter((f) => f.severity === s).length;
    say(`Checked ${inputs.length} file(s): ${n('error')} error(s), ${n('warning')} warning(s), ${n('note')} note(s)${report.problems.length ? `, ${report.problems.length} file(s) not readable` : ''}.`);
    window.__guideCheckReport = report;
    return report;
  }
  runBtn.addEventListener('click', run);
  return api;
}

/**
 * The worker that runs check(), started on first use and replaced after a deadline: a worker still reading
 * when the deadline passes is terminated (the only way to stop a script), and the message names the file.
 */
function workerChecker(url, catalogUrl) {
  let worker = null;
  let seq = 0;
  return {
    run(inputs, date, deadlineMs) {
      if (!worker) worker = new Worker(url);
      const w = worker;
      const id = ++seq;
      return new Promise((resolve, reject) => {
        let reading; // undefined: not started; a path: reading it; null: every file read
        const stop = (err) => {
          clearTimeout(timer);
          w.terminate();
          if (worker === w) worker = null;
          reject(err);
        };
        const timer = setTimeout(() => stop(new Error(`The check stopped after ${deadlineMs / 1000} s, the time limit for one check, ${reading ? `while reading ${reading}` : reading === null ? 'after reading the files' : 'before reading the files'}. Remove that file or check it with the command line (node guide/cli.mjs --check).`)), deadlineMs);
        w.onmessage = (e) => {
          const m = e.data || {};
          if (m.id !== id) return;
          if ('reading' in m) { reading = m.reading; return; }
          clearTimeout(timer);
          if (m.error) reject(new Error(`The checker failed: ${m.error}`));
          else resolve(m.report);
        };
        w.onerror = (e) => { e.preventDefault(); stop(new Error(`The checker failed: ${e.message || 'its worker did not start'}`)); };
        w.postMessage({ id, inputs, date, catalogUrl });
      });
    },
  };
}

function link(e, base) {
  const href = safeHref(e.url, base);
  return href ? h('a', { href }, e.label) : h('span', null, e.label);
}

// The page's own rendering of the generated file (output.mjs gives each an id), so the finding sits
// next to the line the wizard writes; after "Fill in these answers" the page shows the same bundle.
function generatedLink(path) {
  const sec = document.querySelector(`.guide-file[data-path="${CSS.escape(path)}"]`);
  return sec && sec.id ? h('a', { href: `#${sec.id}` }, h('code', null, path)) : h('code', null, path);
}

function renderReport(root, r, { base, applyAnswers }) {
  const detected = Object.entries(r.detected);
  const parts = [];
  parts.push(h('h3', null, 'Detected answers'));
  if (detected.length) {
    parts.push(h('table', { class: 'guide-check-answers' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Answer'), h('th', { scope: 'col' }, 'Value'), h('th', { scope: 'col' }, 'From'))),
      h('tbody', null, detected.map(([k, d]) => h('tr', null, h('th', { scope: 'row' }, k), h('td', null, String(d.value)),
        h('td', null, d.file ? h('code', null, `${d.file}${d.line ? `:${d.line}` : ''}`) : 'given', d.from ? ` ${d.from}` : ''))))));
    parts.push(h('p', null, h('button', { type: 'button', class: 'guide-button', id: 'guide-check-apply' }, 'Fill in these answers'),
      ' The form above then shows the bundle for them.'));
  } else {
    parts.push(h('p', null, 'Nothing could be detected from these files.'));
  }
  if (r.undetected.length) parts.push(h('p', { class: 'guide-help' }, 'Not detected, defaults assumed: ', r.undetected.map((u) => `${u.key} = ${u.assumed}`).join(', '), '. Set them in the form for exact advice.'));
  if (r.problems.length) {
    parts.push(h('h3', null, 'Files that could not be read'));
    parts.push(h('ul', { class: 'guide-check-problems' }, r.problems.map((p) => h('li', null, h('code', null, `${p.file}${p.line ? `:${p.line}` : ''}`), ` ${p.message}. Fix: ${p.fix}`))));
  }
  if (r.notCompared.length) parts.push(h('p', { class: 'guide-help' }, 'Not compared (no such file given): ', r.notCompared.map((n) => n.generated).join(', '), '.'));
  parts.push(h('h3', null, `Findings (${r.findings.length})`));
  if (!r.findings.length) parts.push(h('p', null, 'No findings: these files match what the wizard generates for the detected answers.'));
  parts.push(h('ol', { class: 'guide-check-findings' }, r.findings.map((f) => h('li', { class: `guide-finding is-${f.severity}`, 'data-rule': f.rule },
    h('p', null, h('strong', { class: 'guide-finding-severity' }, f.severity), ' ', h('code', null, `${f.file}${f.line ? `:${f.line}` : ''}`), ' ', f.message),
    f.assumes ? h('p', { class: 'guide-help' }, `Depends on answers that were not detected: ${f.assumes.join(', ')}.`) : null,
    f.reason ? h('p', null, 'Why: ', f.reason) : null,
    f.generated ? h('p', null, 'Generated file: ', generatedLink(f.generated)) : null,
    (f.evidence || []).length ? h('p', { class: 'guide-evidence' }, 'Evidence: ', (f.evidence || []).map((e, k) => [k ? ', ' : '', link(e, base)])) : null,
    f.diff ? h('details', null, h('summary', null, 'Suggested change'), h('pre', { tabindex: '0' }, h('code', null, f.diff))) : null))));
  root.replaceChildren(...parts);
  const apply = root.querySelector('#guide-check-apply');
  if (apply) apply.addEventListener('click', () => applyAnswers(r.query));
}
