// Shared pieces of the importers: number parsing in the tools' own notations, the dataset
// skeleton every importer fills, and chart specs that show spread and failures.
import { execFileSync } from 'node:child_process';
import { detectMachine, hardwareText, softwareList } from './machine.mjs';

export const FORMAT = 'scaling-rails/dataset@1';
export const SCHEMA_REF = '../../schemas/dataset-1.schema.json';

// "187.00us" / "1.13ms" / "2.01s" / "1.05m" → milliseconds (wrk's format_time_us notation).
const TIME_MS = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };
export function timeToMs(text) {
  const m = /^(-?[\d.]+)\s*(ns|us|µs|μs|ms|s|m|h)$/.exec(String(text).trim());
  if (!m) throw new Error(`not a duration: "${text}"`);
  return round(Number(m[1]) * TIME_MS[m[2]], 6);
}

// "11.67k" / "8.80M" → plain number (wrk's format_metric and benchmark-ips' scale: k, M, B/G, T, Q powers of 1000).
const METRIC = { '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, B: 1e9, T: 1e12, Q: 1e15 };
export function metric(text) {
  const m = /^(-?[\d.]+)\s*([kKMGBTQ]?)$/.exec(String(text).trim());
  if (!m) throw new Error(`not a number: "${text}"`);
  return round(Number(m[1]) * METRIC[m[2]], 6);
}

// "1.98MB" / "512.00KB" / "0.00B" (wrk's format_binary, powers of 1024) → MiB.
const BINARY = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };
export function binaryToMiB(text) {
  const m = /^([\d.]+)\s*(B|KB|MB|GB|TB)$/.exec(String(text).trim());
  if (!m) throw new Error(`not a size: "${text}"`);
  return round((Number(m[1]) * BINARY[m[2]]) / 1024 ** 2, 6);
}

export function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

// Digits after the point, so a column can keep the precision the tool printed.
export function decimalsOf(text) {
  const m = /\.(\d+)/.exec(String(text));
  return m ? m[1].length : 0;
}

export const col = (key, label, type, unit, description, extra = {}) => ({ key, label, type, ...(unit ? { unit } : {}), ...(description ? { description } : {}), ...extra });

export function toolVersion(cmd, args, pattern) {
  let out = '';
  try {
    out = execFileSync(cmd, args, { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    out = `${e.stdout || ''}${e.stderr || ''}`;
  }
  const m = pattern.exec(out);
  return m ? m[1] : null;
}

export function gitUserName() {
  try {
    return execFileSync('git', ['config', 'user.name'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch { return null; }
}

const LOCAL = /^(127\.\d+\.\d+\.\d+|localhost|\[?::1\]?)$/i;
export function isLocalHost(host) {
  return LOCAL.test(String(host || ''));
}

// App servers a contributor may name with --software; a web benchmark without one gets a TODO.
const APP_SERVERS = /^(app server|puma|unicorn|falcon|passenger|phusion passenger|pitchfork|iodine|thin|agoo|webrick|itsi|rackup|mongrel)$/i;

// --software NAME=VERSION (repeatable) → [{ name, version }].
export function softwareOption(values = []) {
  return [].concat(values).map((v) => {
    const m = /^([^=]+)=(.+)$/.exec(String(v));
    if (!m || !m[1].trim() || !m[2].trim()) throw new Error(`--software "${v}": write NAME=VERSION, e.g. --software puma=8.0.0 --software rails=8.1.4`);
    return { name: m[1].trim(), version: m[2].trim() };
  });
}

// A Server response header ("nginx/1.26.0", "WEBrick/1.8.1 (Ruby/3.3.8)") → a software entry.
export function serverHeaderSoftware(header) {
  if (!header) return null;
  const m = /^([^/\s]+)\/(\S.*)$/.exec(header.trim());
  return m ? { name: m[1], version: `${m[2]} (from the Server response header)` } : { name: header.trim(), version: 'not stated (Server response header without a version)' };
}

// Software of a dataset: what the contributor named, what the tool output told, and a TODO for
// whatever a web benchmark of a Rails app must state (app server, Rails) when nobody named it.
export function provenanceSoftware(given, facts) {
  const list = [...given];
  const has = (re) => list.some((s) => re.test(s.name));
  for (const s of facts.serverSoftware || []) if (!list.some((x) => x.name.toLowerCase() === s.name.toLowerCase())) list.push(s);
  if (facts.web) {
    if (!has(APP_SERVERS)) list.push({ name: 'App server', version: 'TODO: name and version of the app server that answered (e.g. --software puma=8.0.0)' });
    if (!has(/^(rails|ruby on rails)$/i)) list.push({ name: 'Rails', version: 'TODO: Rails version of the app (e.g. --software rails=8.1.4; "not used" if it is not a Rails app)' });
  }
  return [...list, ...(facts.software || [])];
}

// "Puma 8.0.0, Rails 8.1.4: throughput and latency of / on 127.0.0.1:3000 at 8 connections (wrk)"
export function humanTitle(given, facts) {
  // Named app server and Rails, short: "(notes)" dropped, "not used" left out, "App server=X" shown as X.
  const stack = given.filter((s) => (APP_SERVERS.test(s.name) || /^(rails|ruby on rails)$/i.test(s.name)) && !/^not\b/i.test(s.version))
    .map((s) => {
      const version = s.version.replace(/\s*\(.*\)\s*$/, '');
      return /^app server$/i.test(s.name) ? version : `${s.name.replace(/^\w/, (c) => c.toUpperCase())} ${version}`;
    });
  const what = facts.titleWhat || facts.title;
  const title = stack.length ? `${stack.join(', ')}: ${what}` : what.replace(/^\w/, (c) => c.toUpperCase());
  return title.length > 160 ? `${title.slice(0, 157)}…` : title;
}

// The fields every imported dataset shares. `facts` comes from the importer; `opts` from the command line.
// Anything that cannot be known from the tool output or the machine is left as a "TODO: …" placeholder,
// which scripts/validate rejects, so a half-filled dataset is never published.
export function skeleton(opts, facts) {
  const machine = opts.machine || detectMachine();
  const author = opts.author || gitUserName() || 'TODO: your name (or handle) as the person who measured this';
  const hosts = facts.hosts || [];
  const local = hosts.length > 0 && hosts.every(isLocalHost);
  const hardware = opts.hardware
    || (facts.remote === false || local || hosts.length === 0
      ? `${local ? 'Load generator and server on the same machine: ' : ''}${hardwareText(machine)}`
      : `Load generator: ${hardwareText(machine)}. Server: TODO: CPU, cores, RAM and disk of the server that was measured`);
  const caveats = [...(facts.caveats || [])];
  if (local) caveats.push(`The load generator and the server ran on the same machine (${machine.cores} logical cores), so they competed for CPU; absolute numbers are lower than on separate machines.`);
  if (facts.method.runs === 1) caveats.push('Each row is a single run; repeat the run a few times before drawing conclusions from small differences.');
  const given = softwareOption(opts.software);
  const method = { ...facts.method };
  const command = opts.command || facts.command;
  if (command) method.command = command;
  if (!opts.command && facts.command) method.description += ' The command line was reconstructed from the output (pass --command to record the exact one).';
  const ds = {
    $schema: SCHEMA_REF,
    format: FORMAT,
    id: opts.id,
    title: opts.title || humanTitle(given, facts),
    topic: opts.topic || 'TODO: one of the topics in _data/vocabulary.json (e.g. app-server, proxy, ruby, gc)',
    year: opts.year ? Number(opts.year) : new Date().getUTCFullYear(),
    summary: opts.summary || facts.summary,
    source: {
      document: opts.document || `${facts.toolName} output contributed to Scaling Rails`,
      author,
      ...(opts.url ? { url: opts.url } : {}),
      location: facts.location,
      ...(facts.rawOutput ? { raw_output: facts.rawOutput } : {}),
    },
    measured: opts.measured || facts.measured,
    hardware,
    software: softwareList(machine, provenanceSoftware(given, facts)),
    method,
    columns: facts.columns,
    rows: facts.rows,
    failures: facts.failures,
    errata: [],
    caveats,
    attribution: `Measured by ${author.startsWith('TODO') ? 'the contributor' : author}; imported from ${facts.toolName} output with scripts/import.`,
    license: opts.license || 'CC-BY-4.0',
    charts: facts.charts.filter((c) => !c.spec.layer || c.spec.layer.length > 0),
  };
  return ds;
}

// Track failure markers actually used, so failures.markers lists exactly those (the validator rejects unused ones).
export class Markers {
  constructor() { this.used = new Set(); }
  mark(m) { this.used.add(m); return m; }
  list() { return [...this.used].sort(); }
}

// One Vega-Lite layer that writes the failure marker (TIMEOUT, CONNECT-FAILED …) on a row whose cells failed.
// It names every failed column's `<key>_failure` field, so failed runs are visible, not missing.
export function failureLayers(keys, yField, failedKeys) {
  const failedHere = keys.filter((k) => failedKeys.has(k));
  if (!failedHere.length) return [];
  return [{
    transform: [{ calculate: failedHere.map((k) => `datum.${k}_failure`).join(' || '), as: 'failure' }, { filter: 'datum.failure' }],
    mark: { type: 'text', align: 'left', baseline: 'middle', dx: 4 },
    encoding: { y: { field: yField, type: 'nominal', sort: null }, x: { value: 0 }, text: { field: 'failure' } },
  }];
}

// Columns (by key) that hold at least one failure marker string.
export function failedColumns(columns, rows) {
  const out = new Set();
  columns.forEach((c, i) => { if (c.type !== 'string' && rows.some((r) => typeof r[i] === 'string')) out.add(c.key); });
  return out;
}

// Chart: one horizontal line per run from the fastest to the slowest statistic, one point shape per statistic.
// Log scale when the values span more than a factor of 20 (latency tails usually do).
export function spreadChart({ id = 'latency-spread', title, caption, alt, yField, yTitle, stats, xTitle, columns, rows }) {
  const keys = stats.map((s) => s.key);
  const idx = keys.map((k) => columns.findIndex((c) => c.key === k));
  const values = rows.flatMap((r) => idx.map((i) => r[i])).filter((v) => typeof v === 'number');
  const positive = values.length > 0 && values.every((v) => v > 0);
  const log = positive && Math.max(...values) / Math.min(...values) > 20;
  const labelExpr = stats.map((s) => `datum.statistic === '${s.key}' ? '${s.label}'`).join(' : ') + " : ''";
  const failed = failedColumns(columns, rows);
  // Vega warns (and the build fails) on a layer whose data is empty, so layers are only added when they have rows.
  const measured = values.length > 0;
  return {
    id, title, caption, alt,
    columns: [yField, ...keys],
    spec: {
      width: 480,
      height: { step: 32 },
      layer: [
        ...(!measured ? [] : [{
          transform: [{ fold: keys, as: ['statistic', 'value'] }, { filter: 'isValid(datum.value)' }],
          mark: { type: 'rule' },
          encoding: {
            y: { field: yField, type: 'nominal', sort: null, title: yTitle },
            x: { aggregate: 'min', field: 'value', type: 'quantitative' },
            x2: { aggregate: 'max', field: 'value' },
          },
        },
        {
          transform: [{ fold: keys, as: ['statistic', 'value'] }, { filter: 'isValid(datum.value)' }, { calculate: labelExpr, as: 'point' }],
          mark: { type: 'point', filled: true, size: 60 },
          encoding: {
            y: { field: yField, type: 'nominal', sort: null, title: yTitle },
            x: { field: 'value', type: 'quantitative', title: xTitle, scale: log ? { type: 'log' } : { zero: true } },
            shape: { field: 'point', type: 'nominal', title: 'Statistic', sort: stats.map((s) => s.label) },
          },
        }]),
        ...failureLayers(keys, yField, failed),
      ],
    },
  };
}

// Chart: one bar per row, plus a text label for rows that had failures (errors, non-2xx, timeouts).
export function barChart({ id, title, caption, alt, yField, yTitle, key, xTitle, errorKeys = [], columns, rows, log = false, errorBar = null }) {
  const failed = failedColumns(columns, rows);
  const idx = (k) => columns.findIndex((c) => c.key === k);
  const hasValue = rows.some((r) => typeof r[idx(key)] === 'number');
  const hasErrors = rows.some((r) => errorKeys.reduce((sum, k) => sum + (typeof r[idx(k)] === 'number' ? r[idx(k)] : 0), 0) > 0);
  const layers = [];
  if (hasValue) {
    layers.push({
      mark: { type: 'bar' },
      encoding: {
        y: { field: yField, type: 'nominal', sort: null, title: yTitle },
        x: { field: key, type: 'quantitative', title: xTitle, ...(log ? { scale: { type: 'log' } } : {}) },
      },
    });
  }
  if (errorBar && hasValue) {
    layers.push({
      transform: [{ calculate: `datum.${key} - datum.${errorBar}`, as: 'low' }, { calculate: `datum.${key} + datum.${errorBar}`, as: 'high' }],
      mark: { type: 'rule' },
      encoding: { y: { field: yField, type: 'nominal', sort: null }, x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } },
    });
  }
  if (errorKeys.length && hasErrors && hasValue) {
    const sum = errorKeys.map((k) => `(datum.${k} || 0)`).join(' + ');
    layers.push({
      transform: [{ calculate: sum, as: 'failed' }, { filter: 'datum.failed > 0' }, { calculate: "format(datum.failed, 'd') + ' failed'", as: 'failed_label' }],
      mark: { type: 'text', align: 'left', baseline: 'middle', dx: 4 },
      encoding: { y: { field: yField, type: 'nominal', sort: null }, x: { field: key, type: 'quantitative' }, text: { field: 'failed_label' } },
    });
  }
  layers.push(...failureLayers([key, ...errorKeys], yField, failed));
  return { id, title, caption, alt, columns: [yField, key, ...errorKeys], spec: { width: 480, height: { step: 32 }, layer: layers } };
}

export function fmt(n, digits = 2) {
  return typeof n === 'number' ? String(round(n, digits)) : String(n);
}
