// The configuration checker's worker (assets/generated/guide-check-worker.js, a classic script so that browsers
// without module workers run it too): check() runs here, off the page's main thread, so a hostile or huge pasted
// file cannot freeze the page; the page (check.mjs) terminates the worker when its deadline passes.
// Messages in: {id, inputs, date, catalogUrl}. Out: {id, reading: path} before each file, then {id, report} or {id, error};
// the report's bundle keeps only the generated paths, and `query` holds the detected answers as the wizard's URL query.
import { setCatalog, hasCatalog, toQuery } from '../engine/core.mjs';
import { check } from '../check/index.mjs';

let catalog = null;

self.onmessage = async (event) => {
  const { id, inputs, date, catalogUrl } = event.data || {};
  try {
    if (!hasCatalog() && catalogUrl) {
      catalog = catalog || fetch(catalogUrl, { credentials: 'same-origin' }).then((res) => {
        if (!res.ok) throw new Error(`the wizard's texts could not be loaded: HTTP ${res.status}`);
        return res.json();
      });
      setCatalog(await catalog);
    }
    // Each file is announced before it is read: if the deadline passes, the page can name the file being read.
    const onRead = (path) => self.postMessage({ id, reading: path });
    const { bundle, ...report } = check(inputs, { date, onRead });
    // query: the detected answers as the wizard's URL query, for "Fill in these answers" on the page.
    const query = toQuery(Object.fromEntries(Object.entries(report.detected).map(([k, d]) => [k, d.value])));
    self.postMessage({ id, report: { ...report, query, bundle: { files: bundle.files.map((f) => ({ path: f.path })) } } });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};
