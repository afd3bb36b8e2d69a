// HTML fragments for dataset pages and chart figures. Built here, not in Liquid, so tests can call them.
import { esc, siteUrl } from './html.mjs';
import { formatCell, columnHeading, UNKNOWN } from './dataset-cells.mjs';
import { isNumeric } from './chart-spec.mjs';
import { NARROW_MEDIA } from './chart-variants.mjs';

// The desktop rendering keeps its historical name (<chart>-light.svg); the phone one is <chart>-narrow-light.svg.
export const chartAsset = (datasetId, chartId, variant, theme) => `/assets/generated/charts/${datasetId}/${chartId}-${variant === 'narrow' ? 'narrow-' : ''}${theme}.svg`;
export const chartPointsAsset = (datasetId, chartId, variant) => `/assets/generated/charts/${datasetId}/${chartId}-${variant}.json`;
export const CHART_VALUES_SCRIPT = '/assets/js/chart-values.mjs';
export const datasetUrl = (id) => `/datasets/${id}/`;
export const downloadUrl = (id, ext) => `/assets/generated/datasets/${id}.${ext}`;

function flaggedCells(dataset) {
  const set = new Set();
  for (const e of dataset.errata) for (const c of e.cells || []) set.add(`${c.row - 1}:${c.column}`);
  return set;
}

export function tableHtml(dataset, { columns = null, caption } = {}) {
  const cols = dataset.columns.map((c, i) => ({ c, i })).filter(({ c }) => !columns || columns.includes(c.key));
  const flagged = flaggedCells(dataset);
  const markers = new Set(dataset.failures.markers);
  const head = cols.map(({ c }) => `<th scope="col">${esc(columnHeading(c))}</th>`).join('');
  const body = dataset.rows.map((row, r) => {
    const cells = cols.map(({ c, i }, n) => {
      const v = row[i];
      const classes = [];
      if (isNumeric(c)) classes.push('num');
      if (typeof v === 'string' && isNumeric(c) && markers.has(v)) classes.push('failure');
      if (v === null) classes.push('unknown');
      if (flagged.has(`${r}:${c.key}`)) classes.push('flagged');
      const cls = classes.length ? ` class="${classes.join(' ')}"` : '';
      const text = esc(formatCell(c, v)) + (flagged.has(`${r}:${c.key}`) ? ' <span class="flag" title="See errata">†</span>' : '');
      return n === 0 ? `<th scope="row"${cls}>${text}</th>` : `<td${cls}>${text}</td>`;
    }).join('');
    return `<tr>${cells}</tr>`;
  }).join('\n');
  return `<div class="table-scroll" tabindex="0" role="region" aria-label="${esc(caption || dataset.title)}"><table class="data">
<caption>${esc(caption || dataset.title)}</caption>
<thead><tr>${head}</tr></thead>
<tbody>
${body}
</tbody></table></div>
<p class="table-key">${esc(UNKNOWN)} = unknown or withheld (see errata); † = flagged in errata${dataset.failures.markers.length ? `; ${esc(dataset.failures.markers.join(', '))} = failed run (${esc(dataset.failures.meaning)})` : ''}.</p>`;
}

// A figure with four renderings: phone and desktop layouts, light and dark. The first <source> whose
// media matches wins, so the phone ones come first. data-values-* name the value layer's data, which
// assets/js/chart-values.mjs (a deferred module; without JavaScript nothing changes) fetches on first use.
// On article pages a long table would cost more than the rest of the page (DOM size, style and layout
// work, bytes): above INLINE_TABLE_ROWS rows the figure links the dataset page's full table instead.
// Dataset pages (full: true) always carry the table.
export const INLINE_TABLE_ROWS = 12;

function chartTableHtml(dataset, chart, full) {
  if (full || dataset.rows.length <= INLINE_TABLE_ROWS) {
    return `<details class="chart-data"><summary>Data table for this chart</summary>
${tableHtml(dataset, { columns: chart.columns || null, caption: `Data for: ${chart.title}` })}
</details>`;
  }
  return `<p class="chart-data"><a href="${siteUrl(datasetUrl(dataset.id))}#data">Data table for this chart: ${dataset.rows.length} rows, on the dataset page</a></p>`;
}

// The dataset's quality grade (schemas/dataset-1.schema.json, quality): next to every figure that has one.
// "Pinned", not "isolated": on the project's host the two vCPUs slow each other (the v6 review measured it).
const GRADE_TEXT = {
  benchmark: 'measured under the protocol (server and load pinned to separate vCPUs, quiet machine, enough long runs)',
  smoke: 'did not meet the measurement protocol; read it as a smoke test, not as a basis for conclusions',
};
function foreignLoadText(f) {
  return [
    f.foreign_cpu_pct_max !== null && f.foreign_cpu_pct_max !== undefined ? `foreign CPU up to ${f.foreign_cpu_pct_max} %` : 'foreign CPU not measured',
    f.steal_pct_max !== null && f.steal_pct_max !== undefined ? `steal up to ${f.steal_pct_max} %` : null,
    f.load_average_max !== null ? `load average up to ${f.load_average_max}` : null,
  ].filter(Boolean).join(', ');
}
export function qualityBadge(dataset) {
  const q = dataset.quality;
  if (!q) return '';
  return ` <span class="quality quality-${esc(q.grade)}"><strong>Grade: ${esc(q.grade)}</strong> — ${esc(GRADE_TEXT[q.grade])} (${esc(foreignLoadText(q.foreign_load))}).</span>`;
}
// The tries the driver repeated, by reason and per configuration (quality.repeats), and the load runs the host-speed
// probe left out: a reader sees how much of a dataset was measured again, and where.
const REPEAT_WORDS = { disturbed: 'disturbed', unsteady: 'unsteady', slow_host: 'slow host', unsteady_throughput: 'unsteady throughput' };
function repeatsText(q) {
  if (!q.repeats) return '';
  const why = (n) => Object.keys(REPEAT_WORDS).filter((k) => n[k] > 0).map((k) => `${n[k]} ${REPEAT_WORDS[k]}`).join(', ');
  const repeated = Object.entries(q.repeats.by_configuration).filter(([, n]) => why(n)).map(([k, n]) => `${k} (${why(n)})`);
  // runs_slow_host is graded from protocol version 5's code on; a dataset graded before it does not say. From
  // version 6 (a steadiness record) the probe leaves nothing out, and steadinessText says what it read.
  const slow = Number.isInteger(q.runs_slow_host) && !q.steadiness ? ` Runs left out for a slow host: ${q.runs_slow_host}.` : '';
  return ` Tries repeated: ${repeated.length ? `${why(q.repeats)} in all; ${repeated.join('; ')}` : 'none'}.${slow}`;
}
// Protocol version 7: how far apart the kept runs of one configuration lay (fastest over slowest).
function spreadText(q) {
  const r = q.run_spread;
  if (!r) return '';
  const worst = Object.entries(r.by_configuration).sort((a, b) => b[1] - a[1])[0];
  return ` Kept runs of one configuration, fastest over slowest: up to ${r.max_ratio}× (${worst[0]}).`;
}
// Protocol version 6: load runs judged by their own responses per window; the probe only recorded.
function steadinessText(q) {
  const s = q.steadiness;
  if (!s) return '';
  const words = { no_windows: 'without per-window counts', too_few_windows: 'too short', underpowered: 'too few responses per block' };
  const why = Object.entries(s.not_judged_why).map(([k, n]) => `${n} ${words[k] || k}`);
  const d = s.dispersion ? ` Dispersion of the judged runs' counts (1 for Poisson noise; the rule allows Poisson plus each second's wander): median ${s.dispersion.median} (${s.dispersion.min} to ${s.dispersion.max}).` : '';
  const probe = q.host_speed_probe && Number.isFinite(q.host_speed_probe.slow_pct_median) ? ` The host-speed probe, recorded only, read a median of ${q.host_speed_probe.slow_pct_median} % of its windows slow.` : '';
  return `${spreadText(q)} Throughput steadiness: ${s.judged} load runs judged, ${s.not_judged} not judged${why.length ? ` (${why.join(', ')})` : ''}; ${s.runs_unsteady_throughput} left out as unsteady.${d}${probe}`;
}
export function qualityHtml(dataset) {
  const q = dataset.quality;
  if (!q) return null;
  return `<strong class="quality quality-${esc(q.grade)}">${esc(q.grade)}</strong>: ${esc(GRADE_TEXT[q.grade])}. Measured foreign load: ${esc(foreignLoadText(q.foreign_load))} (${esc(q.foreign_load.source)}). Protocol: ${esc(q.protocol)}.${esc(repeatsText(q))}${esc(steadinessText(q))}${q.reasons.length ? `<ul>${q.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>` : ''}`;
}

export function figureHtml(dataset, chart, sizes, { full = false } = {}) {
  const src = (variant, theme) => siteUrl(chartAsset(dataset.id, chart.id, variant, theme));
  const dims = (variant) => `width="${sizes[variant].width}" height="${sizes[variant].height}"`;
  return `<figure class="chart" id="chart-${esc(dataset.id)}-${esc(chart.id)}" data-values-wide="${siteUrl(chartPointsAsset(dataset.id, chart.id, 'wide'))}" data-values-narrow="${siteUrl(chartPointsAsset(dataset.id, chart.id, 'narrow'))}">
<picture>
<source srcset="${src('narrow', 'dark')}" media="${NARROW_MEDIA} and (prefers-color-scheme: dark)" ${dims('narrow')}>
<source srcset="${src('narrow', 'light')}" media="${NARROW_MEDIA}" ${dims('narrow')}>
<source srcset="${src('wide', 'dark')}" media="(prefers-color-scheme: dark)" ${dims('wide')}>
<img src="${src('wide', 'light')}" alt="${esc(chart.alt)}" ${dims('wide')} loading="lazy" decoding="async">
</picture>
<figcaption><strong>${esc(chart.title)}.</strong> ${esc(chart.caption)} <a href="${siteUrl(datasetUrl(dataset.id))}">Dataset: ${esc(dataset.title)}</a> (${esc(dataset.source.location)}).${qualityBadge(dataset)}</figcaption>
${chartTableHtml(dataset, chart, full)}
<script type="module" src="${siteUrl(CHART_VALUES_SCRIPT)}"></script>
</figure>`;
}

export function errataHtml(dataset) {
  if (!dataset.errata.length) return '';
  const items = dataset.errata.map((e) => `<li><p>${esc(e.text)}</p><p><strong>How we handle it:</strong> ${esc(e.handling)}</p></li>`).join('\n');
  return `<aside class="errata" aria-label="Errata for ${esc(dataset.title)}">
<h2 class="errata-title">Errata in the source</h2>
<ul>
${items}
</ul>
<p><a href="${siteUrl(datasetUrl(dataset.id))}">See the dataset: ${esc(dataset.title)}</a></p>
</aside>`;
}

// Raw tool output committed under raw-output/ is published as plain files: link it. Other values are shown as text.
function rawOutput(value) {
  if (!value) return null;
  if (/^raw-output\/[A-Za-z0-9._\/-]+\.[A-Za-z0-9]+$/.test(value) && !value.includes('..')) return `<a href="${siteUrl(`/${value}`)}">${esc(value)}</a>`;
  if (/^https?:\/\//.test(value)) return `<a href="${esc(value)}">${esc(value)}</a>`;
  return esc(value);
}

function dl(pairs) {
  return `<dl class="provenance">\n${pairs.filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('\n')}\n</dl>`;
}

export function provenanceHtml(dataset, vocabulary) {
  const s = dataset.source;
  const m = dataset.method;
  const source = [
    s.url ? `<a href="${esc(s.url)}">${esc(s.document)}</a>` : esc(s.document),
    esc(s.author), s.publisher ? esc(s.publisher) : null, esc(s.location),
    s.lines ? `lines ${s.lines[0]}–${s.lines[1]}${s.seed_file ? ` of <code>${esc(s.seed_file)}</code>` : ''}` : null,
  ].filter(Boolean).join(', ');
  const method = [
    `${esc(vocabulary.tools[m.tool] || m.tool)}: ${esc(m.description)}`,
    m.requests ? `${esc(m.requests)} requests` : null,
    m.concurrency ? `concurrency ${esc(m.concurrency)}` : null,
    m.duration_s ? `${esc(m.duration_s)} s per run` : null,
    `runs per cell: ${m.runs === null ? 'not stated' : esc(m.runs)}`,
    `aggregation: ${esc(m.aggregation)}`,
    `warm-up: ${esc(m.warmup)}`,
    m.order ? `order: ${esc(m.order)}` : null,
    m.seed !== undefined && m.seed !== null ? `seed ${esc(m.seed)}` : null,
    m.command ? `command: <code>${esc(m.command)}</code>` : null,
  ].filter(Boolean).join('; ');
  const units = dataset.columns.map((c) => `<li><code>${esc(c.key)}</code> — ${esc(c.label)}: ${c.unit ? `${esc(c.unit)} (${esc(vocabulary.units[c.unit] || '')})` : c.unit_from ? `unit given per row in <code>${esc(c.unit_from)}</code>` : 'text'}${c.description ? `. ${esc(c.description)}` : ''}</li>`).join('');
  return dl([
    ['Source', source],
    ['Year', esc(dataset.year)],
    ['Topic', esc(vocabulary.topics[dataset.topic] || dataset.topic)],
    ['What was measured', esc(dataset.measured)],
    ['Quality grade', qualityHtml(dataset)],
    ['Hardware', esc(dataset.hardware)],
    ['Software', dataset.software.length ? dataset.software.map((x) => `${esc(x.name)} ${esc(x.version)}`).join(', ') : 'not stated'],
    ['Tool and method', method],
    ['Columns and units', `<ul>${units}</ul>`],
    ['Failures', `${dataset.failures.markers.length ? `Markers: ${dataset.failures.markers.map((x) => `<code>${esc(x)}</code>`).join(', ')}. ` : ''}${esc(dataset.failures.meaning)}`],
    ['Raw output', rawOutput(s.raw_output)],
    ['Attribution', esc(dataset.attribution)],
    ['Licence', esc(dataset.license)],
  ]);
}

export function datasetPageHtml(dataset, vocabulary, relatedTitles = {}) {
  const charts = (dataset.charts || []).map((c) => `{% include generated/charts-full/${dataset.id}--${c.id}.html %}`).join('\n');
  const caveats = dataset.caveats.length ? `<h2 id="caveats">Caveats</h2>\n<ul class="caveats">${dataset.caveats.map((c) => `<li>${esc(c)}</li>`).join('\n')}</ul>` : '';
  const related = (dataset.related || []).length ? `<h2 id="related">Related datasets</h2><ul>${dataset.related.map((id) => `<li><a href="${siteUrl(datasetUrl(id))}">${esc(relatedTitles[id] || id)}</a></li>`).join('')}</ul>` : '';
  return `<p class="lead">${esc(dataset.summary)}</p>
${dataset.quality ? `<p class="quality-note">${qualityBadge(dataset).trim()} <a href="#provenance">Why</a></p>` : ''}
<p class="downloads">Download: <a href="${siteUrl(downloadUrl(dataset.id, 'csv'))}" download>CSV</a> · <a href="${siteUrl(downloadUrl(dataset.id, 'json'))}" download>JSON (with provenance)</a></p>
${charts ? `<h2 id="charts">Charts</h2>\n${charts}` : '<p class="no-chart">This dataset is a configuration or metadata table; it has no chart.</p>'}
${errataHtml(dataset)}
<h2 id="data">Full table</h2>
${tableHtml(dataset)}
<h2 id="provenance">Provenance</h2>
${provenanceHtml(dataset, vocabulary)}
${caveats}
${related}`;
}
