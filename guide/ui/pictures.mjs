// Two d3 pictures driven by the engine's model: the request path
// (proxy → processes × threads → pool → database, with connections against
// max_connections) and the host's memory budget. Geometry goes through
// .attr() only (no inline styles: the page runs under a strict CSP); colours
// come from classes in guide.css.
import { select } from 'd3-selection';
import { QUESTIONS } from '../engine/questions.mjs';

const W = 720;
const MAX_ROWS = 8; // processes drawn per host
const MAX_COLS = 16; // threads drawn per process
// Thousands separators by hand: toLocaleString builds a formatter per call and costs milliseconds.
const fmt = (n) => (Number.isFinite(n) ? String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : '?');
const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
const num = (n, d = 0) => (Number.isFinite(Number(n)) ? Number(n) : d);

function ensure(parent, tag, cls) {
  let s = parent.select(':scope > ' + tag + '.' + cls);
  if (s.empty()) s = parent.append(tag).attr('class', cls);
  return s;
}

function box(g, cls, x, y, w, hgt, lines) {
  const b = ensure(g, 'g', cls);
  ensure(b, 'rect', 'pic-box').attr('x', x).attr('y', y).attr('width', w).attr('height', hgt).attr('rx', 6);
  b.selectAll('text.pic-label')
    .data(lines)
    .join('text')
    .attr('class', (d, i) => 'pic-label' + (i ? ' pic-sub' : ''))
    .attr('x', x + w / 2)
    .attr('y', (d, i) => y + 18 + i * 15)
    .attr('text-anchor', 'middle')
    .text((d) => d);
  return b;
}

function arrow(g, cls, x1, y1, x2, y2) {
  ensure(g, 'line', cls)
    .classed('pic-arrow', true)
    .attr('x1', x1).attr('y1', y1).attr('x2', x2).attr('y2', y2)
    .attr('marker-end', 'url(#guide-arrowhead)');
}

function svgRoot(container, id, height, title, desc) {
  const root = select(container);
  let svg = root.select('svg');
  if (svg.empty()) {
    svg = root.append('svg').attr('class', 'guide-svg').attr('role', 'img')
      .attr('aria-labelledby', id + '-title ' + id + '-desc')
      .attr('preserveAspectRatio', 'xMinYMin meet');
    svg.append('title').attr('id', id + '-title');
    svg.append('desc').attr('id', id + '-desc');
  }
  svg.attr('viewBox', '0 0 ' + W + ' ' + height).attr('width', W).attr('height', height);
  svg.select('title').text(title);
  svg.select('desc').text(desc);
  return svg;
}

const JOB_NAMES = { solid_queue: 'Solid Queue', sidekiq: 'Sidekiq', good_job: 'GoodJob', delayed_job: 'Delayed Job' };

export function drawRequestPath(container, model, answers, labels, flags = {}) {
  const processes = Math.max(0, Math.round(num(model.processes, 1)));
  const threads = Math.max(0, Math.round(num(model.threads, 1)));
  const hosts = Math.max(1, Math.round(num(model.app_hosts, 1)));
  const pool = num(model.pool);
  const jobs = num(model.job_workers);
  const runner = JOB_NAMES[model.jobs] || '';
  const jobConn = num(model.job_connections);
  const perProcess = num(model.web_connections_per_process, pool);
  const needed = num(model.connections_needed);
  const max = num(model.db_max_connections);
  const over = (max > 0 && needed > max) || Boolean(flags.tooMany);
  const rows = Math.min(processes, MAX_ROWS);
  const cols = Math.min(threads, MAX_COLS);
  const cell = 11;
  const gridH = Math.max(rows, 1) * (cell + 4);
  const top = 28;
  const appH = Math.max(96, 62 + gridH);
  const jobsH = runner ? 44 : 0; // the job runner's row under the app servers
  const height = top + appH + jobsH + 96;
  const desc = `${labels.proxy} forwards requests to ${hosts} app host(s), each running ${processes} process(es) × ${threads} thread(s); `
    + `each process has a database pool of ${pool}${perProcess > pool ? ` per database (${fmt(perProcess)} connections over its databases)` : ''}. `
    + (runner && model.jobs_in_puma ? `${runner} runs inside Puma: ${fmt(num(model.job_threads))} worker thread(s) on the pool of the Puma process. ` : '')
    + (runner && !model.jobs_in_puma ? `${runner} runs ${fmt(jobs)} job process(es) × ${fmt(num(model.job_threads))} thread(s) per host with ${fmt(jobConn)} connections. ` : '')
    + `${fmt(needed)} connections are needed of ${max ? fmt(max) : 'unknown'} max_connections`
    + (over ? ' — too many: see the warnings.' : '.');
  const svg = svgRoot(container, 'guide-pic-path', height, 'Request path', desc);

  let defs = svg.select('defs');
  if (defs.empty()) {
    defs = svg.append('defs');
    defs.append('marker').attr('id', 'guide-arrowhead').attr('viewBox', '0 0 10 10').attr('refX', 9).attr('refY', 5)
      .attr('markerWidth', 7).attr('markerHeight', 7).attr('orient', 'auto-start-reverse')
      .append('path').attr('class', 'pic-arrowhead').attr('d', 'M0,0L10,5L0,10z');
  }
  const g = ensure(svg, 'g', 'pic-path');
  const mid = top + appH / 2;

  // Columns: clients, proxy, app hosts, pool, database (x, width).
  const C = { cl: [4, 70], px: [94, 104], app: [222, 236], pool: [482, 78], db: [584, 132] };
  const right = (k) => C[k][0] + C[k][1];
  box(g, 'pic-clients', C.cl[0], mid - 24, C.cl[1], 48, ['Clients']);
  arrow(g, 'a1', right('cl'), mid, C.px[0] - 2, mid);
  box(g, 'pic-proxy', C.px[0], mid - 32, C.px[1], 64, [labels.proxy, labels.proxyVersion]);
  arrow(g, 'a2', right('px'), mid, C.app[0] - 2, mid);

  const [appX, appW] = C.app;
  const app = box(g, 'pic-app', appX, top, appW, appH,
    [`${labels.server} × ${hosts} host${hosts === 1 ? '' : 's'}`, `${processes} process${processes === 1 ? '' : 'es'} × ${threads} thread${threads === 1 ? '' : 's'}`]);
  app.classed('pic-stack', hosts > 1);
  const grid = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) grid.push({ r, c });
  const gx = appX + (appW - cols * (cell + 3)) / 2;
  ensure(app, 'g', 'pic-grid')
    .selectAll('rect')
    .data(grid)
    .join('rect')
    .attr('class', 'pic-thread')
    .attr('x', (d) => gx + d.c * (cell + 3))
    .attr('y', (d) => top + 48 + d.r * (cell + 4))
    .attr('width', cell)
    .attr('height', cell);
  const more = [];
  if (processes > rows) more.push(`+${processes - rows} more processes`);
  if (threads > cols) more.push(`+${threads - cols} more threads each`);
  ensure(app, 'text', 'pic-more').attr('class', 'pic-more pic-sub').attr('x', appX + appW / 2)
    .attr('y', top + appH - 8).attr('text-anchor', 'middle').text(more.join(', '));

  arrow(g, 'a3', right('app'), mid, C.pool[0] - 2, mid);
  box(g, 'pic-pool', C.pool[0], mid - 32, C.pool[1], 64, ['Pool', `${fmt(pool)} / process`]);
  // Job runner: its own processes and connections, straight to the database.
  const jobsBox = ensure(g, 'g', 'pic-jobs-row').attr('visibility', runner ? 'visible' : 'hidden');
  if (runner) {
    const jy = top + appH + 10;
    box(jobsBox, 'pic-jobs', appX, jy, appW, 30, [model.jobs_in_puma ? `${runner} inside Puma: ${fmt(num(model.job_threads))} threads` : `${runner}: ${fmt(jobs)} × ${fmt(num(model.job_threads))} threads, ${fmt(jobConn)} conn.`]);
    arrow(jobsBox, 'a5', appX + appW, jy + 15, C.db[0] + C.db[1] / 2, mid + 34);
  }
  arrow(g, 'a4', right('pool'), mid, C.db[0] - 2, mid);
  box(g, 'pic-db', C.db[0], mid - 32, C.db[1], 64, [labels.database, labels.databaseVersion])
    .classed('pic-over', over);

  // Connections gauge: needed against max_connections.
  const gy = top + appH + jobsH + 30;
  const scaleMax = Math.max(needed, max, 1) * 1.08;
  const gw = W - 8;
  const x = (v) => 4 + (Math.max(0, v) / scaleMax) * gw;
  const gauge = ensure(svg, 'g', 'pic-gauge');
  ensure(gauge, 'rect', 'pic-gauge-bg').attr('x', 4).attr('y', gy).attr('width', gw).attr('height', 18);
  ensure(gauge, 'rect', 'pic-gauge-bar').classed('pic-over', over)
    .attr('x', 4).attr('y', gy).attr('width', Math.max(0, x(needed) - 4)).attr('height', 18);
  ensure(gauge, 'line', 'pic-gauge-max').attr('x1', x(max)).attr('x2', x(max)).attr('y1', gy - 6).attr('y2', gy + 24)
    .attr('visibility', max > 0 ? 'visible' : 'hidden');
  ensure(gauge, 'text', 'pic-gauge-title').attr('class', 'pic-gauge-title pic-label').attr('x', 4).attr('y', gy - 10)
    .text(`Database connections: ${fmt(needed)} needed`
      + (runner && jobConn ? ` (incl. ${fmt(jobConn * hosts)} for ${runner})` : '')
      + (max ? ` of max_connections ${fmt(max)}` : ''));
  ensure(gauge, 'text', 'pic-gauge-note').attr('class', 'pic-gauge-note pic-sub').classed('pic-over-text', over)
    .attr('x', 4).attr('y', gy + 38)
    .text(needed > max && max > 0 ? `Over the limit by ${fmt(needed - max)}: see the warnings.`
      : over ? 'More connections than the database handles well without a pooler: see the warnings.'
        : max ? `${fmt(max - needed)} spare for consoles, migrations and monitoring`
          + (flags.raised ? ' (max_connections raised above the default in the database config).' : '.') : '');
  return { over, desc };
}

export function drawMemory(container, model) {
  const items = (Array.isArray(model.memory) ? model.memory : [])
    .map((m) => ({ label: String(m && m.label), mb: Math.max(0, num(m && m.mb)) }));
  const ram = num(model.ram_mb);
  const total = items.reduce((s, m) => s + m.mb, 0);
  const over = ram > 0 && total > ram;
  const legendRows = Math.ceil(items.length / 2);
  const height = 78 + legendRows * 22 + 10;
  const desc = `Estimated memory use ${fmt(total)} MB of ${fmt(ram)} MB RAM`
    + (over ? ', over the budget' : '') + ': ' + items.map((m) => `${m.label} ${fmt(m.mb)} MB`).join(', ') + '.';
  const svg = svgRoot(container, 'guide-pic-mem', height, 'Memory budget', desc);
  const scaleMax = Math.max(total, ram, 1) * 1.05;
  const bw = W - 8;
  const x = (v) => (v / scaleMax) * bw;
  let at = 4;
  const segs = items.map((m, i) => {
    const s = { ...m, i, x: at, w: x(m.mb) };
    at += s.w;
    return s;
  });
  const g = ensure(svg, 'g', 'pic-mem');
  ensure(g, 'text', 'pic-mem-title').attr('class', 'pic-mem-title pic-label').attr('x', 4).attr('y', 16)
    .text(`${fmt(total)} MB estimated of ${fmt(ram)} MB RAM` + (over ? ' — over budget' : ''));
  ensure(g, 'rect', 'pic-mem-bg').attr('x', 4).attr('y', 26).attr('width', bw).attr('height', 26);
  g.selectAll('rect.pic-seg')
    .data(segs)
    .join('rect')
    .attr('class', (d) => 'pic-seg pic-c' + (d.i % 6))
    .attr('x', (d) => d.x)
    .attr('y', 26)
    .attr('width', (d) => Math.max(0, d.w))
    .attr('height', 26);
  ensure(g, 'line', 'pic-mem-ram').classed('pic-over', over)
    .attr('x1', 4 + x(ram)).attr('x2', 4 + x(ram)).attr('y1', 20).attr('y2', 58);
  ensure(g, 'text', 'pic-mem-ramlabel').attr('class', 'pic-mem-ramlabel pic-sub')
    .attr('x', Math.min(4 + x(ram), W - 4)).attr('y', 70).attr('text-anchor', 'end').text('RAM');
  const legend = g.selectAll('g.pic-legend')
    .data(segs)
    .join((enter) => {
      const e = enter.append('g').attr('class', 'pic-legend');
      e.append('rect').attr('width', 12).attr('height', 12);
      e.append('text');
      return e;
    })
    .attr('transform', (d) => `translate(${4 + (d.i % 2) * 360},${82 + Math.floor(d.i / 2) * 22})`);
  legend.select('rect').attr('class', (d) => 'pic-c' + (d.i % 6)).attr('y', 0);
  legend.select('text').attr('class', 'pic-sub').attr('x', 18).attr('y', 11).text((d) => `${clip(d.label, 46)}: ${fmt(d.mb)} MB`);
  return { over, desc };
}

const optionLabel = (key, value) => {
  const q = QUESTIONS.find((x) => x.key === key);
  const o = q && q.options && q.options.find((x) => x.value === value);
  return o ? o.label : String(value);
};

/**
 * Both pictures of a render (guide/ui/main.mjs, once this chunk has loaded): the request path, labelled with the
 * answers' choices and flagged by the connection warnings, and the memory plan; → their text descriptions.
 */
export function drawBoth(pathContainer, memContainer, model, answers, warnings) {
  const labels = {
    proxy: answers.proxy === 'none' ? 'No proxy' : optionLabel('proxy', answers.proxy),
    proxyVersion: answers.proxy === 'none' ? '' : String(answers.proxy_version),
    server: optionLabel('server', answers.server),
    database: optionLabel('database', answers.database),
    databaseVersion: String(answers.database_version),
  };
  const ids = new Set(warnings.map((w) => w.id));
  const path = drawRequestPath(pathContainer, model, answers, labels, { tooMany: ids.has('too-many-db-connections'), raised: ids.has('max-connections-raised') }).desc;
  return { path, memory: drawMemory(memContainer, model).desc };
}
