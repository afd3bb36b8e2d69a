// Measures, in a real browser page, how large each chart's smallest text is drawn: the SVG's smallest
// font size × the width the <img> is drawn at ÷ the SVG's own width. Which SVG is measured is the one
// the browser chose (img.currentSrc), so the <source media> switch is part of what is measured.
// Used by tests/charts/legibility.test.mjs and scripts/bench-pages.mjs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { smallestFont, svgWidth } from './chart-svg-text.mjs';

export const MIN_TEXT_PX = 11;

// A reader of the site's files: URL path (baseurl already stripped) → SVG text, cached.
export function siteSvgReader(siteDir, baseurl = '') {
  const cache = new Map();
  return (url) => {
    let path = new URL(url).pathname;
    if (baseurl && path.startsWith(baseurl)) path = path.slice(baseurl.length);
    if (!cache.has(path)) cache.set(path, readFileSync(join(siteDir, decodeURIComponent(path)), 'utf8'));
    return cache.get(path);
  };
}

// Every chart on the loaded page: { id, src, drawn, column, svgWidth, font, px }.
export async function measureCharts(page, readSvg) {
  // Lazy images below the fold have no currentSrc yet: load them all, as a reader scrolling would.
  await page.evaluate(() => Promise.all([...document.querySelectorAll('figure.chart picture img')].map((img) => {
    img.loading = 'eager';
    if (img.complete && img.naturalWidth) return null;
    return new Promise((resolve) => {
      img.addEventListener('load', resolve, { once: true });
      img.addEventListener('error', resolve, { once: true });
      setTimeout(resolve, 10000);
    });
  })));
  const found = await page.$$eval('figure.chart', (figures) => figures.map((f) => {
    const img = f.querySelector('picture img');
    const cs = getComputedStyle(f);
    return {
      id: f.id,
      src: img.currentSrc,
      drawn: img.getBoundingClientRect().width,
      column: f.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
    };
  }));
  return found.map((c) => {
    const svg = readSvg(c.src);
    const width = svgWidth(svg);
    const font = smallestFont(svg);
    return { ...c, svgWidth: width, font, px: font === null ? null : font * c.drawn / width };
  });
}
