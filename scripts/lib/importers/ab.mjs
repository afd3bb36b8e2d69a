// ApacheBench (ab) text output → dataset rows, one row per run.
// Keeps ab's connection-time table (min, mean, sd, median, max) and its percentile table.
import { serverHeaderSoftware, col, skeleton, Markers, spreadChart, barChart, toolVersion, fmt, decimalsOf } from './common.mjs';

const field = (text, name) => {
  const m = new RegExp(`^${name}:\\s+(.*)$`, 'm').exec(text);
  return m ? m[1].trim() : null;
};

export function parse(text) {
  if (!/This is ApacheBench|Benchmarking \S+|Server Hostname:/.test(text)) throw new Error('this does not look like ApacheBench output (no "This is ApacheBench" or "Server Hostname:" line)');
  const run = { version: null, host: null, port: null, path: null, concurrency: null, complete: null, failed: 0, failedBy: { connect: 0, receive: 0, length: 0, exceptions: 0 }, non2xx: 0, writeErrors: 0, timeTaken: null, rps: null, tpr: null, tprAll: null, transfer: null, times: {}, percentiles: {}, error: null };
  let m;
  if ((m = /This is ApacheBench, Version (\S+)/.exec(text))) run.version = m[1];
  if ((m = /^Benchmarking (\S+)/m.exec(text))) run.host = m[1];
  run.host = field(text, 'Server Hostname') || run.host;
  run.port = field(text, 'Server Port');
  run.path = field(text, 'Document Path');
  run.server = field(text, 'Server Software');
  run.scheme = /^SSL\/TLS Protocol:/m.test(text) ? 'https' : 'http';
  const num = (name) => { const v = field(text, name); return v === null ? null : Number(v.split(/\s+/)[0]); };
  run.concurrency = num('Concurrency Level');
  run.timeTaken = field(text, 'Time taken for tests')?.split(/\s+/)[0] ?? null;
  run.complete = num('Complete requests');
  run.failed = num('Failed requests') ?? 0;
  if ((m = /\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)/.exec(text))) {
    run.failedBy = { connect: Number(m[1]), receive: Number(m[2]), length: Number(m[3]), exceptions: Number(m[4]) };
  }
  run.non2xx = num('Non-2xx responses') ?? 0;
  run.writeErrors = num('Write errors') ?? 0;
  run.rps = field(text, 'Requests per second')?.split(/\s+/)[0] ?? null;
  const tpr = [...text.matchAll(/^Time per request:\s+([\d.]+) \[ms\] \(mean(, across all concurrent requests)?\)/gm)];
  for (const t of tpr) if (t[2]) run.tprAll = t[1]; else run.tpr = t[1];
  run.transfer = field(text, 'Transfer rate')?.split(/\s+/)[0] ?? null;
  for (const phase of ['Connect', 'Processing', 'Waiting', 'Total']) {
    if ((m = new RegExp(`^${phase}:\\s+(-?\\d+)\\s+(-?\\d+)\\s+([\\d.]+)\\s+(-?\\d+)\\s+(-?\\d+)`, 'm').exec(text))) {
      run.times[phase.toLowerCase()] = { min: Number(m[1]), mean: Number(m[2]), sd: Number(m[3]), median: Number(m[4]), max: Number(m[5]) };
    }
  }
  for (const p of text.matchAll(/^\s+(\d+)%\s+(\d+)( \(longest request\))?$/gm)) run.percentiles[p[1]] = Number(p[2]);
  // ab stops early on a socket error or timeout: it prints the APR error and, if any finished, how many.
  if ((m = /(apr_\w+(?:\(\))?): (.+?) \((\d+)\)/.exec(text))) {
    run.error = `${m[1]}: ${m[2]}`;
    run.errorKind = /timeout/i.test(m[2]) ? 'TIMEOUT' : /refused|connect/i.test(m[2] + m[1]) ? 'CONNECT-FAILED' : 'ABORTED';
    const t = /Total of (\d+) requests completed/.exec(text);
    run.complete = t ? Number(t[1]) : 0;
  }
  return run;
}

const PCTS = ['50', '66', '75', '80', '90', '95', '98', '99', '100'];

// ab -g FILE: one line per request (starttime, seconds, ctime, dtime, ttime, wait), times in whole ms.
const GNUPLOT_HEADER = /^starttime\tseconds\tctime\tdtime\tttime\twait\s*$/;
export function isGnuplot(text) {
  return GNUPLOT_HEADER.test(text.split('\n', 1)[0]);
}

export function parseGnuplot(text) {
  const lines = text.split('\n').slice(1).filter((l) => l.trim());
  return lines.map((l, i) => {
    const f = l.split('\t');
    if (f.length !== 6) throw new Error(`ab -g file, line ${i + 2}: expected 6 tab-separated fields, found ${f.length}`);
    const [, seconds, ctime, dtime, ttime, wait] = f.map((x) => x.trim());
    return { request: i + 1, seconds: Number(seconds), ctime: Number(ctime), dtime: Number(dtime), ttime: Number(ttime), wait: Number(wait) };
  });
}

function samplesDataset(inputs, opts) {
  const runs = inputs.map((i) => ({ label: i.label, samples: parseGnuplot(i.text) }));
  const columns = [
    col('run', 'Run', 'string', null, 'Label of the ab -g file the row comes from.'),
    col('request', 'Request', 'integer', 'count', 'Line in the ab -g file (ab writes the requests sorted by time).'),
    col('start_s', 'Start (Unix time)', 'integer', 's', 'When the request started, whole seconds since 1970.'),
    col('connect_ms', 'ctime', 'integer', 'ms', 'Time to connect.'),
    col('processing_ms', 'dtime', 'integer', 'ms', 'Time from connected to done (ab\'s Processing).'),
    col('total_ms', 'ttime', 'integer', 'ms', 'Total time of the request (ab\'s Total).'),
    col('waiting_ms', 'wait', 'integer', 'ms', 'Time waiting for the first byte of the response (ab\'s Waiting).'),
  ];
  const rows = runs.flatMap((r) => r.samples.map((x) => [r.label, x.request, x.seconds, x.ctime, x.dtime, x.ttime, x.wait]));
  if (!rows.length) throw new Error('the ab -g file has no requests');
  const stats = runs.map((r) => {
    const t = r.samples.map((x) => x.ttime).sort((a, b) => a - b);
    const q = (p) => t[Math.min(t.length - 1, Math.ceil((p / 100) * t.length) - 1)];
    return { label: r.label, n: t.length, median: q(50), p99: q(99), max: t[t.length - 1] };
  });
  const counts = [...new Set(stats.map((x) => x.n))];
  const multi = runs.length > 1;
  const chart = {
    id: 'histogram',
    title: 'Time per request: every request',
    caption: 'How many requests took each time (ab -g samples, whole milliseconds); a long right tail means some users waited much longer than the median.',
    alt: `Histogram of ${rows.length} request times from ApacheBench. ${stats.map((x) => `${x.label}: median ${x.median} ms, 99th percentile ${x.p99} ms, longest ${x.max} ms`).join('; ')}.`,
    columns: ['run', 'request', 'total_ms'],
    spec: {
      width: 480,
      height: multi ? 120 : 240,
      mark: { type: 'bar' },
      encoding: {
        x: { field: 'total_ms', type: 'quantitative', bin: { maxbins: 40 }, title: 'Total time per request (ms)' },
        y: { aggregate: 'count', type: 'quantitative', title: 'Requests' },
        ...(multi ? { row: { field: 'run', type: 'nominal', sort: null, title: 'Run' } } : {}),
      },
    },
  };
  const version = toolVersion('ab', ['-V'], /Version (\S+)/);
  return skeleton(opts, {
    toolName: 'ApacheBench',
    web: true,
    titleWhat: `time of every single request (ab -g${multi ? `, ${runs.length} runs` : ''})`,
    remote: false,
    title: `ApacheBench: every request${multi ? ` (${runs.length} runs)` : ''}`,
    summary: stats.map((x) => `${multi ? `${x.label}: ` : ''}half of the ${x.n} requests took at most ${x.median} ms, 99% at most ${x.p99} ms and the slowest ${x.max} ms`).join('; ') + '.',
    location: inputs.map((i) => i.rawPath || i.file).join(', '),
    rawOutput: inputs.map((i) => i.rawPath || i.file).join(', '),
    measured: 'Connect, processing, waiting and total time of every single request of an ApacheBench run, from its -g (gnuplot) file.',
    software: [{ name: 'ApacheBench', version: version || 'not stated' }],
    method: {
      tool: 'ab',
      description: `ApacheBench with -g: one row per request${counts.length === 1 ? ` (${counts[0]} per run)` : ''}. The URL and concurrency are in the text report of the same run, which can be imported as its own dataset.`,
      requests: counts.length === 1 ? counts[0] : null,
      concurrency: null,
      duration_s: null,
      runs: 1,
      aggregation: 'raw samples',
      warmup: opts.warmup || 'not stated',
    },
    columns, rows,
    failures: { markers: [], meaning: 'ab writes only completed requests to its -g file; failed and timed-out requests are counted in the text report of the same run, not here.' },
    caveats: ['ab records times in whole milliseconds, so requests faster than 1 ms show as 0.'],
    charts: [chart],
  });
}

export function toDataset(inputs, opts) {
  const g = inputs.filter((i) => isGnuplot(i.text)).length;
  if (g === inputs.length) return samplesDataset(inputs, opts);
  if (g > 0) throw new Error('give either ab text reports or ab -g files in one import, not both (import the -g files as their own dataset)');
  const runs = inputs.map((i) => ({ ...parse(i.text), label: i.label, file: i.file }));
  const markers = new Markers();
  const hasPct = runs.some((r) => Object.keys(r.percentiles).length);
  const columns = [
    col('run', 'Run', 'string', null, 'Label of the run (the output file name unless given).'),
    col('url', 'URL', 'string', null, 'Server Hostname, Server Port and Document Path as ab printed them.'),
    col('concurrency', 'Concurrency Level', 'integer', 'connections', 'ab -c'),
    col('complete_requests', 'Complete requests', 'integer', 'requests'),
    col('failed_requests', 'Failed requests', 'integer', 'requests', 'ab counts a response whose length differs from the first one as failed (Length), as well as connect, receive and exception failures.'),
    col('failed_connect', 'Failed: connect', 'integer', 'count'),
    col('failed_receive', 'Failed: receive', 'integer', 'count'),
    col('failed_length', 'Failed: length', 'integer', 'count', 'Responses whose body length differed from the first response; harmless for pages whose length varies.'),
    col('failed_exceptions', 'Failed: exceptions', 'integer', 'count'),
    col('write_errors', 'Write errors', 'integer', 'count'),
    col('non_2xx', 'Non-2xx responses', 'integer', 'requests'),
    col('time_taken_s', 'Time taken for tests', 'number', 's', null, { decimals: 3 }),
    col('requests_per_s', 'Requests per second', 'number', 'req/s', 'Mean over the run, as ab printed it.', { decimals: 2 }),
    col('time_per_request_ms', 'Time per request (mean)', 'number', 'ms', null, { decimals: 3 }),
    col('time_per_request_all_ms', 'Time per request (mean, across all concurrent requests)', 'number', 'ms', null, { decimals: 3 }),
    col('transfer_kb_s', 'Transfer rate', 'number', 'KB/s', 'ab\'s Kbytes/sec received (ab divides by 1024).', { decimals: 2 }),
    col('connect_mean_ms', 'Connect mean', 'integer', 'ms'),
    col('processing_mean_ms', 'Processing mean', 'integer', 'ms'),
    col('waiting_mean_ms', 'Waiting mean', 'integer', 'ms'),
    col('total_min_ms', 'Total min', 'integer', 'ms'),
    col('total_mean_ms', 'Total mean', 'integer', 'ms'),
    col('total_sd_ms', 'Total sd', 'number', 'ms', 'Standard deviation of the total time per request.', { decimals: 1 }),
    col('total_median_ms', 'Total median', 'integer', 'ms'),
    col('total_max_ms', 'Total max', 'integer', 'ms'),
    ...(hasPct ? PCTS.map((p) => col(`p${p}_ms`, `${p}%`, 'integer', 'ms', p === '100' ? 'Longest request.' : `${p}% of the requests were served within this time.`)) : []),
  ];
  const rows = runs.map((r) => {
    const fail = r.error ? markers.mark(r.errorKind) : null;
    const v = (x) => (fail ? fail : x === null || x === undefined ? null : Number(x));
    const t = r.times;
    const cells = {
      run: r.label,
      url: r.host ? `${r.scheme}://${r.host}${r.port && r.port !== (r.scheme === 'https' ? '443' : '80') ? `:${r.port}` : ''}${r.path || ''}` : null,
      concurrency: r.concurrency,
      complete_requests: r.complete,
      failed_requests: r.error ? fail : r.failed,
      failed_connect: v(r.failedBy.connect), failed_receive: v(r.failedBy.receive), failed_length: v(r.failedBy.length), failed_exceptions: v(r.failedBy.exceptions),
      write_errors: v(r.writeErrors), non_2xx: v(r.non2xx),
      time_taken_s: v(r.timeTaken), requests_per_s: v(r.rps), time_per_request_ms: v(r.tpr), time_per_request_all_ms: v(r.tprAll), transfer_kb_s: v(r.transfer),
      connect_mean_ms: v(t.connect?.mean), processing_mean_ms: v(t.processing?.mean), waiting_mean_ms: v(t.waiting?.mean),
      total_min_ms: v(t.total?.min), total_mean_ms: v(t.total?.mean), total_sd_ms: v(t.total?.sd), total_median_ms: v(t.total?.median), total_max_ms: v(t.total?.max),
    };
    for (const p of PCTS) cells[`p${p}_ms`] = v(r.percentiles[p]);
    return columns.map((c) => (cells[c.key] === undefined ? null : cells[c.key]));
  });
  // Keep the printed precision: if ab printed more digits than the default, widen decimals.
  for (const [key, pick] of [['time_taken_s', (r) => r.timeTaken], ['requests_per_s', (r) => r.rps]]) {
    const d = Math.max(...runs.map((r) => (pick(r) ? decimalsOf(pick(r)) : 0)));
    const c = columns.find((x) => x.key === key);
    if (d > 0) c.decimals = d;
  }

  const same = (f) => (runs.every((r) => f(r) === f(runs[0])) ? f(runs[0]) : null);
  const ok = runs.filter((r) => !r.error && r.rps !== null);
  const best = ok.length ? ok.reduce((a, b) => (Number(b.rps) > Number(a.rps) ? b : a)) : null;
  const failedTotal = runs.reduce((s, r) => s + (r.failed - r.failedBy.length) + r.non2xx + r.writeErrors, 0);
  const urls = [...new Set(rows.map((r) => r[1]).filter(Boolean))];
  const summary = best
    ? `${runs.length === 1 ? 'The run' : `Best of ${runs.length} runs`} served ${best.rps} requests per second at concurrency ${best.concurrency}${best.percentiles['99'] !== undefined ? ` with 99% of requests within ${best.percentiles['99']} ms` : ''}${failedTotal ? `; ${failedTotal} requests failed or returned non-2xx across the runs` : ''}.`
    : `ab stopped before finishing in every run (${runs.map((r) => r.error).join('; ')}).`;
  const stats = hasPct
    ? [{ key: 'total_min_ms', label: 'min' }, { key: 'p50_ms', label: 'p50' }, { key: 'p75_ms', label: 'p75' }, { key: 'p90_ms', label: 'p90' }, { key: 'p95_ms', label: 'p95' }, { key: 'p99_ms', label: 'p99' }, { key: 'p100_ms', label: 'max' }]
    : [{ key: 'total_min_ms', label: 'min' }, { key: 'total_median_ms', label: 'median' }, { key: 'total_mean_ms', label: 'mean' }, { key: 'total_max_ms', label: 'max' }];
  const charts = [
    spreadChart({
      title: 'Time per request: spread per run',
      caption: 'Each line runs from the fastest to the slowest request of the run (ab\'s Total connection time, whole milliseconds); the shapes mark ab\'s percentiles.',
      alt: `Spread of request times per ab run. ${best ? `Best run ${best.label}: median ${best.times.total?.median} ms, longest ${best.times.total?.max} ms.` : 'No run finished.'}`,
      yField: 'run', yTitle: 'Run', xTitle: 'Time per request (ms)', stats, columns, rows,
    }),
    barChart({
      id: 'throughput', title: 'Requests per second per run',
      caption: 'Bars are ab\'s mean requests per second; a label counts non-2xx responses, write errors and failed requests where there were any.',
      alt: `Requests per second per ab run: ${runs.map((r) => `${r.label} ${r.error ? `stopped (${r.errorKind})` : `${r.rps} req/s`}`).join('; ')}.`,
      yField: 'run', yTitle: 'Run', key: 'requests_per_s', xTitle: 'Requests per second',
      errorKeys: ['failed_connect', 'failed_receive', 'failed_exceptions', 'write_errors', 'non_2xx'], columns, rows,
    }),
  ];
  const caveats = [];
  if (runs.some((r) => r.failedBy.length > 0)) caveats.push('ab counts responses whose length differs from the first one as failed ("Length"); for pages whose size varies that is not an error, so read failed_length separately.');
  const version = runs.find((r) => r.version)?.version || toolVersion('ab', ['-V'], /Version (\S+)/);
  const conc = same((r) => r.concurrency);
  const complete = same((r) => r.complete);
  const servers = [...new Set(runs.map((r) => r.server).filter(Boolean))];
  const one = runs[0];
  const url1 = urls[0] || one.host || 'an unknown URL';
  let where = url1;
  try { const u = new URL(url1); where = `${u.pathname}${u.search} on ${u.host}`; } catch { /* keep as printed */ }
  return skeleton(opts, {
    toolName: 'ApacheBench',
    web: true,
    serverSoftware: servers.map(serverHeaderSoftware),
    titleWhat: `requests per second and time per request of ${where}${conc ? ` at concurrency ${conc}` : ''} (ab${runs.length > 1 ? `, ${runs.length} runs` : ''})`,
    // ab prints the request count, concurrency and URL, not its command line: rebuilt from them.
    command: runs.length === 1 && urls[0] && one.concurrency && one.complete && !one.error ? `ab -n ${one.complete} -c ${one.concurrency} ${urls[0]}` : null,
    title: `ApacheBench: ${urls[0] || runs[0].host || 'unknown URL'}${runs.length > 1 ? ` (${runs.length} runs)` : ''}`,
    summary,
    location: inputs.map((i) => i.rawPath || i.file).join(', '),
    rawOutput: inputs.map((i) => i.rawPath || i.file).join(', '),
    measured: `Requests per second and time per request of HTTP requests to ${urls.join(', ') || 'the server'} generated by ApacheBench${conc ? ` at concurrency ${conc}` : ''}, with failed requests and non-2xx responses counted.`,
    hosts: runs.map((r) => r.host),
    software: [{ name: 'ApacheBench', version: version || 'not stated' }],
    method: {
      tool: 'ab',
      description: `ApacheBench ${runs.length === 1 ? 'run' : `runs (${runs.length})`}; one row per run, with ab's connection-time table and ${hasPct ? 'percentile table' : 'no percentile table'}.`,
      requests: complete && complete > 0 ? complete : null,
      concurrency: conc,
      duration_s: null,
      runs: 1,
      aggregation: 'single run',
      warmup: opts.warmup || 'not stated',
    },
    columns, rows,
    failures: {
      markers: markers.list(),
      meaning: 'Failures are data: failed_* columns break down ab\'s Failed requests (connect, receive, length, exceptions), non_2xx counts responses with another status and write_errors failed sends. ' +
        'When ab stopped early every measurement of that run reads TIMEOUT (no reply within ab -s), CONNECT-FAILED (connection refused or reset) or ABORTED (another socket error); complete_requests then holds the count ab reported before stopping.',
    },
    caveats,
    charts,
  });
}
