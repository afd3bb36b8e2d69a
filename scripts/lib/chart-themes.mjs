// Vega-Lite configs for the site's light and dark themes (colours match assets/css/main.css).
const base = {
  background: 'transparent',
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 12, gridOpacity: 0.6 },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  title: { fontSize: 14 },
};

export const THEMES = {
  light: {
    ...base,
    axis: { ...base.axis, labelColor: '#333842', titleColor: '#1b1f24', domainColor: '#6b7280', tickColor: '#6b7280', gridColor: '#d9dde3' },
    legend: { ...base.legend, labelColor: '#333842', titleColor: '#1b1f24', symbolBaseFillColor: '#4b5563', symbolBaseStrokeColor: '#4b5563' },
    header: { labelColor: '#333842', titleColor: '#1b1f24' },
    title: { ...base.title, color: '#1b1f24', subtitleColor: '#4b5563' },
    text: { color: '#1b1f24' },
    range: { category: ['#1f5fa8', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490', '#a16207', '#4b5563'] },
    mark: { color: '#1f5fa8' },
    rule: { color: '#4b5563' },
  },
  dark: {
    ...base,
    axis: { ...base.axis, labelColor: '#d4d8de', titleColor: '#eef0f3', domainColor: '#9aa3ad', tickColor: '#9aa3ad', gridColor: '#3a4048' },
    // A legend for dashes or shapes draws its symbols in a base colour that defaults to black.
    legend: { ...base.legend, labelColor: '#d4d8de', titleColor: '#eef0f3', symbolBaseFillColor: '#b5bcc5', symbolBaseStrokeColor: '#b5bcc5' },
    // Facet headers default to black, invisible on the dark figure background.
    header: { labelColor: '#d4d8de', titleColor: '#eef0f3' },
    title: { ...base.title, color: '#eef0f3', subtitleColor: '#b5bcc5' },
    text: { color: '#eef0f3' },
    range: { category: ['#7cb3f2', '#fb923c', '#4ade80', '#c084fc', '#f87171', '#22d3ee', '#facc15', '#cbd5e1'] },
    mark: { color: '#7cb3f2' },
    rule: { color: '#b5bcc5' },
  },
};
