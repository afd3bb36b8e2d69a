// Exact values on demand for the static chart images: hover with a mouse, tap on a touch screen, or
// focus the chart and move with the arrow keys; the value, its unit and any flag (failure, erratum)
// appear next to the mark and are announced to screen readers. Progressive: without JavaScript the
// page is unchanged (image, caption, data table). The positions of the marks come from the build
// (scripts/lib/chart-points.mjs), one file per layout, fetched the first time a chart is used.

const cache = new Map();
const load = (url) => {
  if (!cache.has(url)) cache.set(url, fetch(url).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${url}: HTTP ${r.status}`)))));
  return cache.get(url);
};

const el = (tag, cls, attrs = {}) => Object.assign(document.createElement(tag), { className: cls }, attrs);

function enhance(figure) {
  const picture = figure.querySelector('picture');
  const img = picture?.querySelector('img');
  if (!img || figure.querySelector('.chart-frame')) return;
  const title = figure.querySelector('figcaption strong')?.textContent.replace(/\.$/, '') || img.alt;
  const frame = el('div', 'chart-frame');
  picture.before(frame);
  frame.append(picture);
  const overlay = el('div', 'chart-overlay', { tabIndex: 0 });
  overlay.setAttribute('role', 'group');
  overlay.setAttribute('aria-roledescription', 'chart values');
  overlay.setAttribute('aria-label', `${title}: exact values. Arrow keys move between them.`);
  const mark = el('div', 'chart-mark', { hidden: true });
  const tip = el('div', 'chart-tip', { hidden: true });
  tip.setAttribute('aria-hidden', 'true');
  const live = el('div', 'visually-hidden');
  live.setAttribute('aria-live', 'polite');
  frame.append(overlay, mark, tip, live);

  let current = -1;
  // A click or tap also focuses the overlay; only keyboard focus should jump to the first value.
  let pointerAt = -Infinity;
  const data = () => {
    const narrow = /-narrow-(?:light|dark)\.svg$/.test(img.currentSrc || '');
    return load(figure.dataset[narrow ? 'valuesNarrow' : 'valuesWide']);
  };

  function show(d, i, announce) {
    current = i;
    const [x, y, w, h, label] = d.points[i];
    const scale = img.getBoundingClientRect().width / d.width;
    Object.assign(mark.style, { left: `${x * scale}px`, top: `${y * scale}px`, width: `${Math.max(w * scale, 2)}px`, height: `${Math.max(h * scale, 2)}px` });
    tip.textContent = label;
    mark.hidden = false;
    tip.hidden = false;
    // Beside the mark, kept inside the chart: to the right when there is room, else to the left; above it when it is low.
    const fw = frame.clientWidth;
    const tw = tip.offsetWidth;
    const left = (x + w) * scale + 8 + tw <= fw ? (x + w) * scale + 8 : Math.max(0, x * scale - 8 - tw);
    const top = Math.min(Math.max(0, y * scale), Math.max(0, frame.clientHeight - tip.offsetHeight));
    Object.assign(tip.style, { left: `${left}px`, top: `${top}px` });
    if (announce) live.textContent = label.replace(/\n/g, '; ');
  }

  function hide() {
    current = -1;
    mark.hidden = true;
    tip.hidden = true;
  }

  // The mark under the pointer, or the nearest one within reach of a fingertip.
  function pick(d, ev, reach) {
    const r = img.getBoundingClientRect();
    const s = d.width / r.width;
    const px = (ev.clientX - r.left) * s;
    const py = (ev.clientY - r.top) * s;
    let best = -1;
    let bestDist = reach * s;
    d.points.forEach(([x, y, w, h], i) => {
      const dx = Math.max(x - px, 0, px - x - w);
      const dy = Math.max(y - py, 0, py - y - h);
      const dist = Math.hypot(dx, dy);
      // Inside several boxes (a point on a line): the smallest box is the most specific.
      if (dist < bestDist || (dist === 0 && bestDist === 0 && w * h < d.points[best][2] * d.points[best][3])) { best = i; bestDist = dist; }
    });
    return best;
  }

  overlay.addEventListener('pointermove', (ev) => {
    if (ev.pointerType !== 'mouse') return;
    data().then((d) => { const i = pick(d, ev, 6); if (i < 0) hide(); else if (i !== current) show(d, i, false); }, hide);
  });
  overlay.addEventListener('pointerleave', (ev) => { if (ev.pointerType === 'mouse') hide(); });
  overlay.addEventListener('pointerdown', (ev) => {
    pointerAt = ev.timeStamp;
    if (ev.pointerType === 'mouse') return;
    data().then((d) => { const i = pick(d, ev, 24); if (i < 0) hide(); else show(d, i, true); }, hide);
  });
  overlay.addEventListener('focus', (ev) => {
    if (ev.timeStamp - pointerAt < 1000) return;
    data().then((d) => { if (current < 0 && d.points.length) show(d, 0, true); }, hide);
  });
  overlay.addEventListener('blur', hide);
  overlay.addEventListener('keydown', (ev) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity }[ev.key];
    if (ev.key === 'Escape') { hide(); return; }
    if (step === undefined) return;
    ev.preventDefault();
    data().then((d) => {
      const n = d.points.length;
      if (!n) return;
      const next = step === -Infinity ? 0 : step === Infinity ? n - 1 : current < 0 ? 0 : (current + step + n) % n;
      show(d, next, true);
    });
  });
}

document.querySelectorAll('figure.chart[data-values-wide]').forEach(enhance);
