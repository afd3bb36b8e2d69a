// wrk text output (with --latency for percentiles; optionally -s scripts/lib/importers/wrk-report.lua
// for a JSON line with exact counts and more percentiles) → dataset rows, one row per run.
import { timeToMs, metric, binaryToMiB, col, skeleton, Markers, spreadChart, barChart, toolVersion, fmt, round } from './common.mjs';

const num = (s) => (/nan/i.test(s) ? null : Number(s));

export function parse(text) {
  const run = { url: null, host: null, threads: null, connections: null, durationS: null, latency: null, reqSec: null, percentiles: {}, requests: null, elapsedS: null, readMiB: null, socket: { connect: 0, read: 0, write: 0, timeout: 0 }, non2xx: 0, rps: null, lua: null, windows: null, error: null };
  let m;
  if ((m = /^Running (\S+) test @ (\S+)/m.exec(text))) {
    run.durationS = timeToMs(m[1]) / 1000;
    run.url = m[2];
    try { run.host = new URL(m[2]).hostname; } catch { run.host = null; }
  }
  if ((m = /^\s*(\d+) threads? and (\d+) connections?/m.exec(text))) { run.threads = Number(m[1]); run.connections = Number(m[2]); }
  if ((m = /^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)%/m.exec(text))) {
    run.latency = { mean: timeToMs(m[1]), stdev: timeToMs(m[2]), max: timeToMs(m[3]), withinStdev: num(m[4]) };
  }
  if ((m = /^\s*Req\/Sec\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)%/m.exec(text))) {
    run.reqSec = { mean: metric(m[1]), stdev: metric(m[2]), max: metric(m[3]), withinStdev: num(m[4]) };
  }
  const dist = /Latency Distribution\n((?:\s+[\d.]+%\s+\S+\n?)+)/.exec(text);
  if (dist) for (const line of dist[1].trim().split('\n')) {
    const [p, v] = line.trim().split(/\s+/);
    run.percentiles[p.replace('%', '')] = timeToMs(v);
  }
  if ((m = /^\s*(\d+) requests in (\S+), (\S+) read/m.exec(text))) {
    run.requests = Number(m[1]);
    run.elapsedS = timeToMs(m[2]) / 1000;
    run.readMiB = binaryToMiB(m[3]);
  }
  if ((m = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text))) {
    run.socket = { connect: Number(m[1]), read: Number(m[2]), write: Number(m[3]), timeout: Number(m[4]) };
  }
  if ((m = /Non-2xx or 3xx responses: (\d+)/.exec(text))) run.non2xx = Number(m[1]);
  if ((m = /^Requests\/sec:\s+([\d.]+)/m.exec(text))) { run.rps = Number(m[1]); run.rpsDecimals = (m[1].split('.')[1] || '').length; }
  if ((m = /^WRK_JSON (\{.*\})\s*$/m.exec(text))) {
    run.lua = JSON.parse(m[1]);
    const l = run.lua;
    run.requests = l.requests;
    run.elapsedS = l.duration_us / 1e6;
    run.readMiB = round(l.bytes / 1024 ** 2, 6);
    run.socket = { connect: l.errors.connect, read: l.errors.read, write: l.errors.write, timeout: l.errors.timeout };
    run.non2xx = l.errors.status;
  }
  // wrk-report.lua with WRK_WINDOW_S: responses completed per window of the wall clock (first and last partial).
  if ((m = /^WRK_WINDOWS (\{.*\})\s*$/m.exec(text))) run.windows = JSON.parse(m[1]);
  if ((m = /unable to connect to (\S+) (.+)$/m.exec(text))) {
    run.error = `unable to connect: ${m[2].trim()}`;
    if (!run.host) { run.host = m[1].replace(/:\d+$/, ''); run.url = `http://${m[1]}/`; }
  }
  if (!run.url && !run.error) throw new Error('this does not look like wrk output (no "Running … test @ URL" line)');
  // wrk prints zeros (and -nan%) when it recorded no latency at all, e.g. every request timed out.
  run.noLatency = !run.error && (run.lua ? run.lua.latency_us.max === 0 : (!run.latency || run.latency.max === 0));
  return run;
}

// "/ on 127.0.0.1:3000" from a URL, for titles.
export function target(url) {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search} on ${u.host}`;
  } catch { return url || 'an unknown URL'; }
}

const PCTS = [['50', 'p50_ms', 'p50'], ['75', 'p75_ms', 'p75'], ['90', 'p90_ms', 'p90'], ['99', 'p99_ms', 'p99'], ['99.9', 'p99_9_ms', 'p99.9'], ['99.99', 'p99_99_ms', 'p99.99']];

export function toDataset(inputs, opts) {
  const runs = inputs.map((i) => ({ ...parse(i.text), label: i.label, file: i.file }));
  const markers = new Markers();
  const anyLua = runs.some((r) => r.lua);
  const pcts = PCTS.filter(([p]) => runs.some((r) => (r.lua && !r.noLatency ? r.lua.latency_us.percentiles[p] !== undefined : r.percentiles[p] !== undefined)));
  const columns = [
    col('run', 'Run', 'string', null, 'Label of the run (the output file name unless given).'),
    col('url', 'URL', 'string'),
    col('threads', 'Threads', 'integer', 'threads', 'wrk -t'),
    col('connections', 'Connections', 'integer', 'connections', 'wrk -c: connections kept open.'),
    col('duration_s', 'Duration', 'number', 's', 'wrk -d: planned length of the run.'),
    col('requests', 'Requests', 'integer', 'requests', 'Responses completed, whatever their status.'),
    col('requests_per_s', 'Requests/sec', 'number', 'req/s', 'Requests/sec as wrk printed it.', { decimals: 2 }),
    col('read_mib', 'Read', 'number', 'MiB', 'Bytes read from the server (wrk prints powers of 1024).'),
    col('latency_mean_ms', 'Latency mean', 'number', 'ms'),
    col('latency_stdev_ms', 'Latency stdev', 'number', 'ms', 'Standard deviation of latency.'),
    ...(anyLua ? [col('latency_min_ms', 'Latency min', 'number', 'ms', 'From the wrk-report.lua JSON line.')] : []),
    ...pcts.map(([p, key]) => col(key, `Latency ${p}%`, 'number', 'ms', `${p}th percentile of latency.`)),
    col('latency_max_ms', 'Latency max', 'number', 'ms'),
    col('socket_connect_errors', 'Connect errors', 'integer', 'count', 'wrk "Socket errors: connect".'),
    col('socket_read_errors', 'Read errors', 'integer', 'count'),
    col('socket_write_errors', 'Write errors', 'integer', 'count'),
    col('socket_timeouts', 'Timeouts', 'integer', 'count', 'Requests that took longer than wrk --timeout (default 2 s).'),
    col('non_2xx_3xx', 'Non-2xx/3xx responses', 'integer', 'requests', 'Responses with status 400 or higher; wrk still counts them in requests and requests/sec.'),
  ];
  const rows = runs.map((r) => {
    const fail = r.error ? markers.mark('CONNECT-FAILED') : r.noLatency ? markers.mark(r.socket.timeout > 0 ? 'TIMEOUT' : 'NO-RESPONSE') : null;
    const lat = (v) => (fail ? fail : v);
    const l = r.lua && !r.noLatency ? r.lua.latency_us : null;
    const ms = (us) => (us === null || us === undefined ? null : round(us / 1000, 6));
    const cells = {
      run: r.label, url: r.url, threads: r.threads, connections: r.connections, duration_s: r.durationS,
      requests: r.error ? fail : r.requests, requests_per_s: r.error ? fail : r.rps, read_mib: r.error ? fail : r.readMiB,
      latency_mean_ms: lat(l ? round(l.mean / 1000, 6) : r.latency?.mean ?? null),
      latency_stdev_ms: lat(l ? round(l.stdev / 1000, 6) : r.latency?.stdev ?? null),
      latency_min_ms: lat(l ? ms(l.min) : null),
      latency_max_ms: lat(l ? ms(l.max) : r.latency?.max ?? null),
      socket_connect_errors: r.error ? 1 : r.socket.connect,
      socket_read_errors: r.socket.read, socket_write_errors: r.socket.write, socket_timeouts: r.socket.timeout,
      non_2xx_3xx: r.non2xx,
    };
    for (const [p, key] of pcts) cells[key] = lat(l ? ms(l.percentiles[p]) : r.percentiles[p] ?? null);
    return columns.map((c) => (cells[c.key] === undefined ? null : cells[c.key]));
  });

  const same = (f) => (runs.every((r) => f(r) === f(runs[0])) ? f(runs[0]) : null);
  const conns = same((r) => r.connections);
  const dur = same((r) => r.durationS);
  const ok = runs.filter((r) => !r.error && !r.noLatency);
  const best = ok.length ? ok.reduce((a, b) => (b.rps > a.rps ? b : a)) : null;
  const p99 = (r) => (r.lua ? r.lua.latency_us.percentiles['99'] / 1000 : r.percentiles['99']);
  const totalErrors = runs.reduce((s, r) => s + r.socket.connect + r.socket.read + r.socket.write + r.socket.timeout + r.non2xx + (r.error ? 1 : 0), 0);
  const summary = best
    ? `${runs.length === 1 ? 'The run' : `Best of ${runs.length} runs`} reached ${fmt(best.rps)} req/s with ${best.connections} connections${p99(best) !== undefined ? `, 99th percentile latency ${fmt(p99(best), 3)} ms` : ''}${totalErrors ? `; ${totalErrors} requests failed or errored across the runs` : ''}.`
    : `No run completed a measurable request (${runs.map((r) => r.error || (r.socket.timeout ? 'timeouts' : 'no response')).join(', ')}).`;
  // Without --latency wrk gives only mean, stdev and max: the spread is then mean → max.
  const statCols = [
    ...(anyLua ? [{ key: 'latency_min_ms', label: 'min' }] : []),
    ...(pcts.length ? pcts.map(([, key, label]) => ({ key, label })) : [{ key: 'latency_mean_ms', label: 'mean' }]),
    { key: 'latency_max_ms', label: 'max' },
  ];
  const charts = [
    spreadChart({
      title: 'Latency spread per run',
      caption: 'Each line runs from the fastest to the slowest latency statistic wrk reported for that run; the shapes mark the percentiles.',
      alt: `Latency percentiles per run from wrk. ${best ? `Best run ${best.label}: median ${fmt(best.lua ? best.lua.latency_us.percentiles['50'] / 1000 : best.percentiles['50'] ?? best.latency.mean, 3)} ms, maximum ${fmt(best.lua ? best.lua.latency_us.max / 1000 : best.latency.max, 3)} ms.` : 'No run recorded latency.'}`,
      yField: 'run', yTitle: 'Run', xTitle: 'Latency (ms)', stats: statCols, columns, rows,
    }),
    barChart({
      id: 'throughput', title: 'Requests per second per run',
      caption: 'Bars are wrk\'s Requests/sec; a label gives the number of socket errors, timeouts and non-2xx/3xx responses where there were any.',
      alt: `Requests per second per run from wrk: ${runs.map((r) => `${r.label} ${r.error ? 'failed to connect' : `${fmt(r.rps)} req/s`}`).join('; ')}.`,
      yField: 'run', yTitle: 'Run', key: 'requests_per_s', xTitle: 'Requests per second',
      errorKeys: ['socket_connect_errors', 'socket_read_errors', 'socket_write_errors', 'socket_timeouts', 'non_2xx_3xx'], columns, rows,
    }),
  ];
  const version = toolVersion('wrk', ['-v'], /^wrk (\S+)/m);
  const first = runs.find((r) => !r.error) || runs[0];
  const connList = [...new Set(runs.map((r) => r.connections).filter(Boolean))].sort((a, b) => a - b);
  const load = connList.length > 1 ? `${connList[0]}–${connList[connList.length - 1]} connections` : connList.length ? `${connList[0]} connection${connList[0] === 1 ? '' : 's'}` : null;
  const facts = {
    toolName: 'wrk',
    web: true,
    titleWhat: `throughput and latency of ${target(first.url)}${load ? ` at ${load}` : ''} (wrk${runs.length > 1 ? `, ${runs.length} runs` : ''})`,
    // wrk does not echo its command line; this rebuilds it from what it printed.
    command: runs.length === 1 && first.url && first.threads ? `wrk -t${first.threads} -c${first.connections} -d${first.durationS}s${Object.keys(first.percentiles).length || first.lua ? ' --latency' : ''}${first.lua ? ' -s scripts/lib/importers/wrk-report.lua' : ''} ${first.url}` : null,
    title: `wrk: ${runs[0].url}${runs.length > 1 ? ` (${runs.length} runs)` : ''}`,
    summary,
    location: inputs.map((i) => i.rawPath || i.file).join(', '),
    rawOutput: inputs.map((i) => i.rawPath || i.file).join(', '),
    measured: `Throughput (requests per second) and latency of HTTP requests to ${[...new Set(runs.map((r) => r.url))].join(', ')} generated by wrk${dur ? ` for ${dur} s per run` : ''}${conns ? ` over ${conns} connections` : ''}, with socket errors, timeouts and non-2xx/3xx responses counted.`,
    hosts: runs.map((r) => r.host),
    software: [{ name: 'wrk', version: version || 'not stated' }],
    method: {
      tool: 'wrk',
      description: `wrk ${runs.length === 1 ? 'run' : `runs (${runs.length})`} against ${[...new Set(runs.map((r) => r.url))].join(', ')}; one row per run${pcts.length ? ', latency percentiles from --latency' : ''}${anyLua ? ' and the wrk-report.lua JSON line' : ''}.`,
      requests: runs.length === 1 && typeof rows[0][columns.findIndex((c) => c.key === 'requests')] === 'number' ? runs[0].requests || null : null,
      concurrency: conns,
      duration_s: dur,
      runs: 1,
      aggregation: 'single run',
      warmup: opts.warmup || 'not stated',
    },
    columns, rows,
    failures: {
      markers: markers.list(),
      meaning: 'Failures are data: the socket error columns hold wrk\'s connect, read, write and timeout counts and non_2xx_3xx the responses with status 400 or higher (wrk counts those in requests and requests/sec). ' +
        'A latency cell reads TIMEOUT or NO-RESPONSE when wrk recorded no latency for the run, and every cell of a run reads CONNECT-FAILED when wrk could not connect at all.',
    },
    caveats: runs.some((r) => r.non2xx > 0) ? ['Some responses had status 400 or higher; wrk counts them as completed requests, so requests/sec includes errors.'] : [],
    charts,
  };
  return skeleton(opts, facts);
}
