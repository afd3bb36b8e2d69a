// Reads what the logging experiment (lab/bench/exp/logging.sh) records beside a measured wrk run whose Rails log went
// to a file: OUT.logbytes, "bytes=N" and "lines=N", how much the log grew during that run. Per request, those are
// divided by the requests wrk completed in the same run. A run whose STDOUT went to /dev/null has no such file: its
// bytes are unknown (null), never zero.
import fs from 'node:fs';
import path from 'node:path';
import { median } from './stats.mjs';

/** text → { bytes, lines } (non-negative integers), or null when the text is not a complete record. */
export function readLogBytes(text) {
  const kv = {};
  for (const line of String(text || '').split('\n')) {
    const m = /^(bytes|lines)=(\d+)$/.exec(line.trim());
    if (m) kv[m[1]] = Number(m[2]);
  }
  return Number.isSafeInteger(kv.bytes) && Number.isSafeInteger(kv.lines) ? { bytes: kv.bytes, lines: kv.lines } : null;
}

/** One good run's log growth per completed request ({ bytes, lines }), or null (no record, no requests). */
export function perRequest(raw, result) {
  if (!raw || !result.file || !result.metrics || !(result.metrics.requests > 0)) return null;
  const file = path.join(raw, result.file.replace(/\.txt$/, '.logbytes'));
  if (!fs.existsSync(file)) return null;
  const r = readLogBytes(fs.readFileSync(file, 'utf8'));
  return r ? { bytes: r.bytes / result.metrics.requests, lines: r.lines / result.metrics.requests } : null;
}

/** Median over the good runs of one configuration of bytes or lines per request; null when no run has a record. */
export function medianPerRequest(raw, ok, key) {
  const xs = ok.map((x) => perRequest(raw, x)).filter(Boolean).map((v) => v[key]);
  return xs.length ? median(xs) : null;
}
