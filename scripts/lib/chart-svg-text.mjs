// Reads the text a rendered chart SVG draws (size, colour, opacity) and measures it the way a
// reader sees it: rendered size on the page, and contrast against the figure's background.
// Shared by tests/charts/ and scripts/bench-pages.mjs.

const attr = (attrs, name) => new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attrs)?.[1];

// Every <text> element of a Vega SVG (Vega writes font-size, fill and opacity on each one).
export function svgTexts(svg) {
  const out = [];
  for (const m of svg.matchAll(/<text\b([^>]*)>([\s\S]*?)<\/text>/g)) {
    const a = m[1];
    const size = attr(a, 'font-size');
    out.push({
      text: m[2].replace(/<[^>]+>/g, '').trim(),
      fontSize: size ? parseFloat(size) : 16, // SVG's default when a text names no size
      fill: attr(a, 'fill') || '#000000', // SVG's default fill is black: exactly the unreadable case in dark mode
      opacity: Number(attr(a, 'opacity') ?? 1) * Number(attr(a, 'fill-opacity') ?? 1),
    });
  }
  return out.filter((t) => t.text !== '' && t.fill !== 'none' && t.opacity > 0);
}

export function svgWidth(svg) {
  return Number(/^<svg\b[^>]*?\swidth="([\d.]+)"/.exec(svg)?.[1]);
}

export function smallestFont(svg) {
  const sizes = svgTexts(svg).map((t) => t.fontSize);
  return sizes.length ? Math.min(...sizes) : null;
}

// #rgb / #rrggbb / rgb(r, g, b) → [r, g, b] in 0..255.
export function parseColor(c) {
  const s = String(c).trim().toLowerCase();
  let m = /^#([0-9a-f]{3})$/.exec(s);
  if (m) return [...m[1]].map((h) => parseInt(h + h, 16));
  m = /^#([0-9a-f]{6})$/.exec(s);
  if (m) return [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16));
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(s);
  if (m) return [m[1], m[2], m[3]].map(Number);
  const named = { black: [0, 0, 0], white: [255, 255, 255] };
  if (named[s]) return named[s];
  throw new Error(`unknown colour ${c}`);
}

// WCAG 2 relative luminance and contrast ratio.
function luminance([r, g, b]) {
  const lin = (v) => { const x = v / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(fg, bg, opacity = 1) {
  const b = parseColor(bg);
  // A translucent text colour is seen blended with the background.
  const f = parseColor(fg).map((v, i) => v * opacity + b[i] * (1 - opacity));
  const [hi, lo] = [luminance(f), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// The page background per theme, read from the stylesheet (the figure is drawn on var(--bg)).
export function themeBackgrounds(css) {
  const light = /:root\s*\{[^}]*--bg:\s*([^;]+);/.exec(css)?.[1];
  const dark = /prefers-color-scheme:\s*dark[^{]*\{\s*:root\s*\{[^}]*--bg:\s*([^;]+);/.exec(css)?.[1];
  if (!light || !dark) throw new Error('assets/css/main.css: --bg not found for both themes');
  return { light: light.trim(), dark: dark.trim() };
}
