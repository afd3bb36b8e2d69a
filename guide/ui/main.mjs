// Wizard page entry: builds the form from the engine's questions, keeps the
// answers in the URL (history.replaceState), re-renders files, advice,
// warnings and pictures on every change, and offers the bundle downloads.
// Nothing from the URL or the engine is ever parsed as HTML.
// pipeline.mjs is the engine without its words and without its optional generators: the catalog (every reason,
// warning and piece of advice) is fetched as JSON and installed with setCatalog, and the generators the answers
// do not need yet are fetched when they do (generators.mjs), which keeps the page's JavaScript small.
import { GENERATOR_VERSION, QUESTIONS, parseAnswers, generateWith, generateSteps, toQuery, fromQuery, setCatalog } from '../engine/pipeline.mjs';
import * as registry from './generators.mjs';
import { basePath, slicer } from './dom.mjs';
import { buildForm, readForm, writeForm, showFieldNotes } from './form.mjs';
import { FOLLOWING_KEYS, dependentDefault } from '../engine/answers.mjs';
import { renderWarnings, renderAdvice, renderFiles, renderNotes, copyText, useHighlighter } from './output.mjs';

const STORE_KEY = 'scaling-rails-guide-checked';
const LOADING = 'Loading the generators for these answers…';
const BUNDLE = 'scaling-rails-config';
const $ = (id) => document.getElementById(id);

function loadChecked() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE_KEY) || '[]');
    return new Set(Array.isArray(v) ? v.filter((x) => typeof x === 'string').slice(0, 500) : []);
  } catch {
    return new Set();
  }
}

function saveChecked(set) {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify([...set]));
  } catch {
    // storage may be unavailable (private mode); the ticks then last for the visit
  }
}

function today() {
  return new Date().toISOString().slice(0, 10);
}

async function loadCatalog(root) {
  const url = root.getAttribute('data-catalog');
  if (!url) throw new Error('no data-catalog on the page');
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`the texts of the wizard (${url}) could not be loaded: HTTP ${res.status}`);
  const catalog = await res.json();
  if (!catalog || typeof catalog !== 'object' || Array.isArray(catalog)) throw new Error('the texts of the wizard are not a JSON object');
  setCatalog(catalog);
}

export async function start(root) {
  const base = basePath(root);
  try {
    await loadCatalog(root);
  } catch (err) {
    const box = $('guide-error');
    box.textContent = 'The wizard could not start: ' + String((err && err.message) || err)
      + '. The default bundle and the command-line version below still work.';
    box.hidden = false;
    $('guide-app').hidden = false;
    document.documentElement.setAttribute('data-guide', 'failed');
    return null;
  }
  const form = $('guide-form');
  const el = {
    app: $('guide-app'),
    notes: $('guide-url-notes'),
    notesList: $('guide-url-notes-list'),
    error: $('guide-error'),
    summary: $('guide-summary'),
    warnings: $('guide-warnings'),
    errors: $('guide-errors'),
    errorsList: $('guide-errors-list'),
    advice: $('guide-advice'),
    toc: $('guide-file-toc'),
    files: $('guide-files'),
    path: $('guide-pic-path'),
    pathText: $('guide-pic-path-text'),
    mem: $('guide-pic-mem'),
    memText: $('guide-pic-mem-text'),
    status: $('guide-status'),
    permalink: $('guide-permalink'),
  };
  const checked = loadChecked();
  // pending: the fetch of generators the newest answers need, while it runs (downloads wait for it).
  // resultFor: the permalink of the answers state.result was generated for.
  const state = { answers: null, result: null, resultFor: '', permalink: '', pending: null };

  buildForm(form, QUESTIONS);

  function permalinkFor(answers) {
    const q = toQuery(answers);
    return location.origin + location.pathname + (q ? '?' + q : '');
  }

  function announce(text) {
    el.status.textContent = text;
  }

  // The two pictures (d3-selection and the drawing code, about 7 KB gzip) are a chunk of their own, fetched with
  // the first render: the form, lists and files do not wait for them. The newest render draws; an older one that
  // resolves late is dropped. data-guide-pictures names the answers drawn (the page tests wait for it).
  let picturesModule = null;
  let picturesFor = null;
  function drawPictures(result, answers, warnings) {
    const mine = (picturesFor = state.permalink);
    picturesModule ??= import('./pictures.mjs');
    return picturesModule.then(({ drawBoth }) => {
      if (mine !== picturesFor) return;
      const text = drawBoth(el.path, el.mem, result.model || {}, answers, warnings);
      el.pathText.textContent = text.path;
      el.memText.textContent = text.memory;
      document.documentElement.setAttribute('data-guide-pictures', mine);
    }, () => {
      el.pathText.textContent = 'The pictures could not be loaded; the files and lists above are complete.';
    });
  }

  // Renders the answers now, or, when they need a generator the page has not fetched yet, once it arrives (then
  // returns null). Only the newest answers are rendered.
  function render(answers) {
    const t0 = performance.now();
    state.answers = answers;
    state.permalink = permalinkFor(answers);
    const missing = registry.missingFor(answers);
    if (missing.length) {
      const mine = state.permalink;
      announce(LOADING);
      const pending = registry.load(missing).then(() => {
        if (mine === state.permalink) {
          state.pending = null;
          render(state.answers);
        }
      }, (err) => {
        // Newer answers have taken over (and may have their own fetch pending): this failure is not theirs.
        if (mine !== state.permalink) return;
        state.pending = null;
        announce('');
        el.error.textContent = 'The generators for these answers could not be loaded (' + String((err && err.message) || err)
          + '); the files below are for the previous answers. Reload the page to try again.';
        el.error.hidden = false;
      });
      state.pending = pending;
      return null;
    }
    let result;
    try {
      result = generateWith(registry.current(), answers, { date: today(), permalink: state.permalink });
    } catch (err) {
      return failed(err, t0);
    }
    return show(answers, result, t0);
  }

  function failed(err, t0) {
    el.error.textContent = 'The generator failed for these answers: ' + String((err && err.message) || err);
    el.error.hidden = false;
    window.__guideRenderMs = performance.now() - t0;
    return window.__guideRenderMs;
  }

  // The first render runs the generators in slices of about 10 ms with a task boundary between them: the first
  // run of each is slow (the JavaScript engine compiles it; ~200 ms in all on a phone-speed CPU), and one long
  // task would block input and paint. Later renders are synchronous and take a few milliseconds.
  async function renderFirst(answers) {
    const t0 = performance.now();
    state.answers = answers;
    state.permalink = permalinkFor(answers);
    const mine = state.permalink;
    // The page is visible (and read by assistive technology) while the slices run: the link is right already.
    el.permalink.href = mine;
    el.permalink.textContent = mine;
    const missing = registry.missingFor(answers);
    if (missing.length) {
      try {
        await registry.load(missing);
      } catch {
        return mine === state.permalink ? render(answers) : null; // render() reports the failure to load
      }
    }
    let result;
    try {
      const steps = generateSteps(registry.current(), answers, { date: today(), permalink: mine });
      const pause = slicer();
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) {
          result = step.value;
          break;
        }
        await pause();
      }
    } catch (err) {
      return mine === state.permalink ? failed(err, t0) : null;
    }
    // A reader who changed an answer meanwhile has been served by render(); these answers are stale.
    if (mine !== state.permalink) return null;
    return show(answers, result, t0);
  }

  function show(answers, result, t0) {
    el.error.hidden = true;
    if (el.status.textContent === LOADING) announce('');
    const t1 = performance.now();
    state.result = result;
    state.resultFor = state.permalink;
    const files = result.files || [];
    const advice = result.advice || [];
    const warnings = result.warnings || [];
    // Errors (a stack that cannot boot, an impossible topology) go above the download buttons, the rest below them.
    const errors = warnings.filter((w) => w.severity === 'error');
    renderWarnings(el.errorsList, errors, base);
    el.errors.hidden = errors.length === 0;
    renderWarnings(el.warnings, warnings.filter((w) => w.severity !== 'error'), base);
    renderAdvice(el.advice, advice, base, checked);
    const t2 = performance.now();
    renderFiles(el.toc, el.files, files, onCopy);
    const t3 = performance.now();
    drawPictures(result, answers, warnings);
    el.summary.textContent = `${files.length} files, ${advice.length} checklist items, ${warnings.length} warning${warnings.length === 1 ? '' : 's'} `
      + `— generator ${GENERATOR_VERSION}.`;
    el.permalink.href = state.permalink;
    el.permalink.textContent = state.permalink;
    scheduleUrl();
    const t4 = performance.now();
    window.__guideRenderMs = t4 - t0;
    window.__guideRenderParts = { generate: t1 - t0, lists: t2 - t1, files: t3 - t2, pictures: t4 - t3 };
    return window.__guideRenderMs;
  }

  // history.replaceState costs milliseconds (a round trip to the browser process) and browsers
  // throttle bursts of it, so the address bar follows the answers shortly after the last change.
  let urlTimer = 0;
  function syncUrl() {
    clearTimeout(urlTimer);
    urlTimer = 0;
    const q = state.permalink.indexOf('?');
    const url = location.pathname + (q >= 0 ? state.permalink.slice(q) : '') + location.hash;
    if (url !== location.pathname + location.search + location.hash) history.replaceState(null, '', url);
  }
  function scheduleUrl() {
    clearTimeout(urlTimer);
    urlTimer = setTimeout(syncUrl, 150);
  }

  function onCopy(section, button) {
    copyText(section._content || '').then((ok) => {
      button.textContent = ok ? 'Copied' : 'Copy failed';
      announce(ok ? `Copied ${section.dataset.path} to the clipboard.` : 'Copying failed; select the text and copy it by hand.');
      setTimeout(() => {
        button.textContent = 'Copy';
      }, 1500);
    });
  }

  // A version or adapter field still at the previous choice's default follows a new choice (Unicorn's 6.1, not
  // Puma's 8.0; MySQL's mysql2, not PostgreSQL's pg).
  let formAnswers = null;
  function fromForm() {
    const raw = readForm(form, QUESTIONS);
    const follow = formAnswers ? FOLLOWING_KEYS.filter((k) => raw[k] === dependentDefault(k, formAnswers)) : [];
    for (const k of follow) delete raw[k];
    const { answers, notes } = parseAnswers(raw);
    for (const k of follow) {
      const c = form.elements.namedItem(k);
      if (c && c !== document.activeElement && c.value !== answers[k]) c.value = answers[k];
    }
    formAnswers = answers;
    showFieldNotes(form, QUESTIONS, notes);
    render(answers);
  }

  // first: the page's first render (sliced; ms is then a promise).
  function applyQuery(search, first = false) {
    const { answers, notes } = fromQuery(search);
    formAnswers = answers;
    writeForm(form, QUESTIONS, answers);
    showFieldNotes(form, QUESTIONS, []);
    renderNotes(el.notes, el.notesList, notes);
    const ms = first ? renderFirst(answers) : render(answers);
    return { answers, notes, ms };
  }

  form.addEventListener('input', fromForm);
  form.addEventListener('change', fromForm);
  form.addEventListener('submit', (e) => e.preventDefault());
  $('guide-reset').addEventListener('click', () => {
    applyQuery('');
    announce('All answers are back to their defaults.');
  });
  $('guide-url-notes-dismiss').addEventListener('click', () => {
    el.notes.hidden = true;
  });

  el.advice.addEventListener('change', (e) => {
    const id = e.target && e.target.getAttribute('data-advice');
    if (id === null || id === undefined) return;
    if (e.target.checked) checked.add(id);
    else checked.delete(id);
    saveChecked(checked);
  });
  $('guide-print').addEventListener('click', () => window.print());

  async function download(kind) {
    await state.pending;
    // The files on the page are for older answers when a generator could not be fetched: no mixed bundle.
    if (state.resultFor !== state.permalink) {
      announce('The bundle is not ready for these answers: ' + (el.error.hidden ? 'try again in a moment.' : el.error.textContent));
      return;
    }
    // These answers and their files, as they are now: the reader may change an answer while the chunk loads.
    const { result, answers, permalink } = state;
    // The bundle's file list, the archive writers (fflate) and the save are a chunk of their own, fetched on the first download.
    let chunk;
    try {
      chunk = await import('./download.mjs');
    } catch (err) {
      announce('The download could not start: the archive code did not load (' + String((err && err.message) || err) + '). Reload the page to try again.');
      return;
    }
    const n = await chunk.saveBundle(kind, result, answers, { permalink, date: today(), version: GENERATOR_VERSION, questions: QUESTIONS }, BUNDLE);
    announce(`Downloaded ${n} files as ${kind === 'zip' ? '.zip' : '.tar.gz'}.`);
  }
  $('guide-download-zip').addEventListener('click', () => download('zip'));
  $('guide-download-tgz').addEventListener('click', () => download('tgz'));

  // The configuration checker (guide/ui/check.mjs) is its own bundle, fetched on the first click.
  $('guide-check-open').onclick = (e) => import(root.dataset.check).then((m) => m.mountCheck(root, e.target));

  for (const n of document.querySelectorAll('.guide-static')) n.hidden = true;
  el.app.hidden = false;
  const first = applyQuery(location.search, true);
  const firstRender = first.ms;
  state.pending = firstRender;

  window.__guide = {
    render: (answers) => render(parseAnswers(answers).answers),
    applyQuery,
    syncUrl,
    // Fetches every optional generator, so that render() is synchronous for any answers (tests, benchmarks).
    loadGenerators: () => registry.load(),
    bundleFiles: async () => {
      await state.pending;
      const { bundleFiles } = await import('./download.mjs');
      return state.resultFor === state.permalink
        ? bundleFiles(state.result, state.answers, { permalink: state.permalink, date: today(), version: GENERATOR_VERSION, questions: QUESTIONS }) : null;
    },
    get permalink() {
      return state.permalink;
    },
    get answers() {
      return { ...state.answers };
    },
  };
  first.ms = await firstRender;
  if (state.pending === firstRender) state.pending = null;
  document.documentElement.setAttribute('data-guide', 'ready');
  // The highlighter is a chunk of its own (about 2 KB gzip), fetched once the files are on the page as plain text.
  import('./highlight.mjs').then((m) => useHighlighter(m, el.files)).then(() => {
    document.documentElement.setAttribute('data-guide-highlight', 'ready');
  }, () => document.documentElement.setAttribute('data-guide-highlight', 'unavailable'));
  // guide-chunks.json (scripts/build-guide.mjs) names every chunk fetched on demand: cached now for offline use.
  // The offline mode is a chunk too: it registers the service worker after the page is ready.
  import('./offline.mjs')
    .then(({ enableOffline }) => enableOffline(base, new URL('./guide-chunks.json', import.meta.url).href))
    .then((ok) => document.documentElement.setAttribute('data-guide-offline', ok ? 'ready' : 'unavailable'),
      () => document.documentElement.setAttribute('data-guide-offline', 'unavailable'));
  return first;
}

const root = document.getElementById('guide');
if (root) start(root);
