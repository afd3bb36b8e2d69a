// httperf text output → one row per run: rates, connection-time spread, reply status counts and every error counter.
import { col, skeleton, Markers, spreadChart, barChart, toolVersion, fmt } from './common.mjs';

export function parse(text) {
  const cmd = /^httperf (--.*)$/m.exec(text);
  if (!cmd && !/^Total: connections/m.test(text)) throw new Error('this does not look like httperf output (no "httperf --…" or "Total: connections" line)');
  const args = {};
  for (const m of (cmd ? cmd[1] : '').matchAll(/--([\w-]+)(?:=(\S+))?/g)) args[m[1]] = m[2] ?? true;
  const grab = (re) => { const m = re.exec(text); return m ? m.slice(1) : null; };
  const nums = (re) => { const g = grab(re); return g ? g.map((x) => (x === undefined ? null : Number(x))) : null; };
  const run = {
    command: cmd ? `httperf ${cmd[1].trim()}` : null,
    server: args.server || null, ssl: Boolean(args.ssl), port: args.port || (args.ssl ? '443' : '80'), uri: args.uri || '/', rate: args.rate ? Number(args.rate) : null,
    numConns: args['num-conns'] ? Number(args['num-conns']) : null, numCalls: args['num-calls'] ? Number(args['num-calls']) : null,
    timeout: args.timeout ? Number(args.timeout) : null,
    version: null,
  };
  const total = nums(/^Total: connections (\d+) requests (\d+) replies (\d+) test-duration ([\d.]+) s/m);
  if (total) [run.connections, run.requests, run.replies, run.duration] = total;
  run.durationText = grab(/test-duration ([\d.]+) s/)?.[0] ?? null;
  const ct = nums(/^Connection time \[ms\]: min ([\d.]+) avg ([\d.]+) max ([\d.]+) median ([\d.]+) stddev ([\d.]+)/m);
  run.connTime = ct ? { min: ct[0], avg: ct[1], max: ct[2], median: ct[3], stddev: ct[4] } : null;
  run.connect = nums(/^Connection time \[ms\]: connect ([\d.]+)/m)?.[0] ?? null;
  run.requestRate = nums(/^Request rate: ([\d.]+) req\/s/m)?.[0] ?? null;
  const rr = nums(/^Reply rate \[replies\/s\]: min ([\d.]+) avg ([\d.]+) max ([\d.]+) stddev ([\d.]+) \((\d+) samples\)/m);
  run.replyRate = rr ? { min: rr[0], avg: rr[1], max: rr[2], stddev: rr[3], samples: rr[4] } : null;
  const rt = nums(/^Reply time \[ms\]: response ([\d.]+) transfer ([\d.]+)/m);
  run.replyTime = rt ? { response: rt[0], transfer: rt[1] } : null;
  const st = nums(/^Reply status: 1xx=(\d+) 2xx=(\d+) 3xx=(\d+) 4xx=(\d+) 5xx=(\d+)/m);
  run.status = st ? { s1: st[0], s2: st[1], s3: st[2], s4: st[3], s5: st[4] } : null;
  run.netIo = nums(/^Net I\/O: ([\d.]+) KB\/s/m)?.[0] ?? null;
  const e1 = nums(/^Errors: total (\d+) client-timo (\d+) socket-timo (\d+) connrefused (\d+) connreset (\d+)/m);
  const e2 = nums(/^Errors: fd-unavail (\d+) addrunavail (\d+) ftab-full (\d+) other (\d+)/m);
  run.errors = { total: e1?.[0] ?? 0, clientTimo: e1?.[1] ?? 0, socketTimo: e1?.[2] ?? 0, connrefused: e1?.[3] ?? 0, connreset: e1?.[4] ?? 0, fdUnavail: e2?.[0] ?? 0, addrunavail: e2?.[1] ?? 0, ftabFull: e2?.[2] ?? 0, other: e2?.[3] ?? 0 };
  return run;
}

export function toDataset(inputs, opts) {
  const runs = inputs.map((i) => ({ ...parse(i.text), label: i.label }));
  const markers = new Markers();
  const columns = [
    col('run', 'Run', 'string', null, 'Label of the run (the output file name unless given).'),
    col('url', 'URL', 'string', null, 'From httperf --server, --port and --uri.'),
    col('rate', 'Requested rate', 'number', 'req/s', 'httperf --rate (connections started per second); empty when not given.'),
    col('num_conns', 'Connections planned', 'integer', 'count', 'httperf --num-conns'),
    col('num_calls', 'Calls per connection', 'integer', 'count', 'httperf --num-calls'),
    col('connections', 'Connections', 'integer', 'count'),
    col('requests', 'Requests', 'integer', 'requests'),
    col('replies', 'Replies', 'integer', 'requests'),
    col('test_duration_s', 'Test duration', 'number', 's', null, { decimals: 3 }),
    col('request_rate', 'Request rate', 'number', 'req/s', null, { decimals: 1 }),
    col('reply_rate_min', 'Reply rate min', 'number', 'req/s', 'Reply rate is sampled every 5 s; short runs have no samples.', { decimals: 1 }),
    col('reply_rate_avg', 'Reply rate avg', 'number', 'req/s', null, { decimals: 1 }),
    col('reply_rate_max', 'Reply rate max', 'number', 'req/s', null, { decimals: 1 }),
    col('reply_rate_stddev', 'Reply rate stddev', 'number', 'req/s', null, { decimals: 1 }),
    col('reply_rate_samples', 'Reply rate samples', 'integer', 'samples'),
    col('conn_time_min_ms', 'Connection time min', 'number', 'ms', 'Time from opening to closing a connection that completed.', { decimals: 1 }),
    col('conn_time_median_ms', 'Connection time median', 'number', 'ms', null, { decimals: 1 }),
    col('conn_time_avg_ms', 'Connection time avg', 'number', 'ms', null, { decimals: 1 }),
    col('conn_time_max_ms', 'Connection time max', 'number', 'ms', null, { decimals: 1 }),
    col('conn_time_stddev_ms', 'Connection time stddev', 'number', 'ms', null, { decimals: 1 }),
    col('connect_ms', 'Connect time', 'number', 'ms', null, { decimals: 1 }),
    col('reply_response_ms', 'Reply time: response', 'number', 'ms', null, { decimals: 1 }),
    col('reply_transfer_ms', 'Reply time: transfer', 'number', 'ms', null, { decimals: 1 }),
    col('net_io_kb_s', 'Net I/O', 'number', 'KB/s', null, { decimals: 1 }),
    col('status_1xx', '1xx', 'integer', 'requests'),
    col('status_2xx', '2xx', 'integer', 'requests'),
    col('status_3xx', '3xx', 'integer', 'requests'),
    col('status_4xx', '4xx', 'integer', 'requests'),
    col('status_5xx', '5xx', 'integer', 'requests'),
    col('errors_total', 'Errors total', 'integer', 'count'),
    col('client_timeouts', 'client-timo', 'integer', 'count', 'No reply within httperf --timeout.'),
    col('socket_timeouts', 'socket-timo', 'integer', 'count'),
    col('conn_refused', 'connrefused', 'integer', 'count'),
    col('conn_reset', 'connreset', 'integer', 'count'),
    col('fd_unavail', 'fd-unavail', 'integer', 'count', 'httperf ran out of file descriptors (a client-side limit, not a server failure).'),
    col('addr_unavail', 'addrunavail', 'integer', 'count', 'Client ran out of local ports (client-side limit).'),
    col('ftab_full', 'ftab-full', 'integer', 'count'),
    col('other_errors', 'other', 'integer', 'count'),
  ];
  const rows = runs.map((r) => {
    // With no reply at all httperf prints 0.0 for every time statistic: those zeros are not measurements.
    const noReply = !r.replies;
    const fail = noReply ? markers.mark(r.errors.clientTimo > 0 ? 'TIMEOUT' : r.errors.connrefused > 0 ? 'CONNECT-FAILED' : 'NO-REPLY') : null;
    const t = (v) => (fail ? fail : v ?? null);
    const e = r.errors;
    const cells = {
      run: r.label, url: r.server ? `${r.ssl ? 'https' : 'http'}://${r.server}${r.port !== (r.ssl ? '443' : '80') ? `:${r.port}` : ''}${r.uri}` : null,
      rate: r.rate, num_conns: r.numConns, num_calls: r.numCalls, connections: r.connections ?? null, requests: r.requests ?? null, replies: r.replies ?? null,
      test_duration_s: r.duration ?? null, request_rate: r.requestRate,
      reply_rate_min: r.replyRate && r.replyRate.samples ? r.replyRate.min : null, reply_rate_avg: r.replyRate && r.replyRate.samples ? r.replyRate.avg : null,
      reply_rate_max: r.replyRate && r.replyRate.samples ? r.replyRate.max : null, reply_rate_stddev: r.replyRate && r.replyRate.samples ? r.replyRate.stddev : null,
      reply_rate_samples: r.replyRate?.samples ?? null,
      conn_time_min_ms: t(r.connTime?.min), conn_time_median_ms: t(r.connTime?.median), conn_time_avg_ms: t(r.connTime?.avg), conn_time_max_ms: t(r.connTime?.max), conn_time_stddev_ms: t(r.connTime?.stddev),
      connect_ms: r.connect, reply_response_ms: t(r.replyTime?.response), reply_transfer_ms: t(r.replyTime?.transfer), net_io_kb_s: r.netIo,
      status_1xx: r.status?.s1 ?? null, status_2xx: r.status?.s2 ?? null, status_3xx: r.status?.s3 ?? null, status_4xx: r.status?.s4 ?? null, status_5xx: r.status?.s5 ?? null,
      errors_total: e.total, client_timeouts: e.clientTimo, socket_timeouts: e.socketTimo, conn_refused: e.connrefused, conn_reset: e.connreset,
      fd_unavail: e.fdUnavail, addr_unavail: e.addrunavail, ftab_full: e.ftabFull, other_errors: e.other,
    };
    return columns.map((c) => (cells[c.key] === undefined ? null : cells[c.key]));
  });
  const same = (f) => (runs.every((x) => f(x) === f(runs[0])) ? f(runs[0]) : null);
  const ok = runs.filter((r) => r.replies);
  const best = ok.length ? ok.reduce((a, b) => (b.requestRate > a.requestRate ? b : a)) : null;
  const errs = runs.reduce((s, r) => s + r.errors.total + (r.status ? r.status.s4 + r.status.s5 : 0), 0);
  const urls = [...new Set(rows.map((r) => r[1]).filter(Boolean))];
  const charts = [
    spreadChart({
      title: 'Connection time spread per run',
      caption: 'Each line runs from the shortest to the longest connection of the run; the shapes mark httperf\'s min, median, average and max.',
      alt: `Connection times per httperf run. ${best ? `Run ${best.label}: median ${best.connTime.median} ms, max ${best.connTime.max} ms.` : 'No run got a reply.'}`,
      yField: 'run', yTitle: 'Run', xTitle: 'Connection time (ms)',
      stats: [{ key: 'conn_time_min_ms', label: 'min' }, { key: 'conn_time_median_ms', label: 'median' }, { key: 'conn_time_avg_ms', label: 'avg' }, { key: 'conn_time_max_ms', label: 'max' }],
      columns, rows,
    }),
    barChart({
      id: 'request-rate', title: 'Request rate per run',
      caption: 'Bars are httperf\'s request rate; a label counts errors (timeouts, refused and reset connections, client limits) and 4xx/5xx replies where there were any.',
      alt: `Request rate per httperf run: ${runs.map((r) => `${r.label} ${r.requestRate} req/s${r.errors.total ? ` with ${r.errors.total} errors` : ''}`).join('; ')}.`,
      yField: 'run', yTitle: 'Run', key: 'request_rate', xTitle: 'Requests per second',
      errorKeys: ['errors_total', 'status_4xx', 'status_5xx'], columns, rows,
    }),
  ];
  const version = toolVersion('httperf', ['-V'], /httperf-(\S+?)\s/);
  const caveats = [];
  if (runs.some((r) => r.errors.fdUnavail || r.errors.addrunavail)) caveats.push('httperf hit a client-side limit (file descriptors or local ports); those errors say nothing about the server.');
  if (runs.some((r) => r.replyRate && !r.replyRate.samples)) caveats.push('httperf samples the reply rate every 5 seconds; runs shorter than that have no reply-rate statistics (empty cells).');
  return skeleton(opts, {
    toolName: 'httperf',
    web: true,
    titleWhat: `request rate and connection times of ${runs[0].uri} on ${runs[0].server || 'an unknown host'}${same((r) => r.rate) ? ` at ${same((r) => r.rate)} connections per second` : ''} (httperf${runs.length > 1 ? `, ${runs.length} runs` : ''})`,
    // httperf echoes its own command line as the first line of its output.
    command: runs.length === 1 ? runs[0].command : null,
    title: `httperf: ${urls[0] || 'unknown URL'}${runs.length > 1 ? ` (${runs.length} runs)` : ''}`,
    summary: best
      ? `${runs.length === 1 ? 'The run' : `Best of ${runs.length} runs`} sustained ${best.requestRate} requests per second with a median connection time of ${best.connTime.median} ms${errs ? `; ${errs} errors or 4xx/5xx replies across the runs` : ''}.`
      : `No run got a reply (${runs.map((r) => `${r.errors.total} errors`).join(', ')}).`,
    location: inputs.map((i) => i.rawPath || i.file).join(', '),
    rawOutput: inputs.map((i) => i.rawPath || i.file).join(', '),
    measured: `Request rate, connection times and reply status of HTTP requests to ${urls.join(', ') || 'the server'} generated by httperf${same((r) => r.rate) ? ` at ${same((r) => r.rate)} connections per second` : ''}, with every httperf error counter.`,
    hosts: runs.map((r) => r.server),
    software: [{ name: 'httperf', version: version || 'not stated' }],
    method: {
      tool: 'httperf',
      description: `httperf ${runs.length === 1 ? 'run' : `runs (${runs.length})`}; one row per run${same((r) => r.timeout) ? `, --timeout ${same((r) => r.timeout)} s` : ''}.`,
      requests: same((r) => r.requests) || null,
      concurrency: null,
      duration_s: null,
      runs: 1,
      aggregation: 'single run',
      warmup: opts.warmup || 'not stated',
    },
    columns, rows,
    failures: {
      markers: markers.list(),
      meaning: 'Failures are data: errors_total and the columns after it are httperf\'s error counters, status_4xx/5xx count error replies. ' +
        'When a run got no reply at all, httperf prints 0.0 for its times; those cells read TIMEOUT (client timeouts), CONNECT-FAILED (refused) or NO-REPLY instead.',
    },
    caveats,
    charts,
  });
}
