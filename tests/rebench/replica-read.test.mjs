// The replica experiment's reader (scripts/rebench replica): what lab/bench/replica-client.rb printed in a real lab
// run (a --quick run, selector-0s cell, kept as the fixture) is read into the figures; a run without answered pairs
// or with too many failed requests is a failed run, and a run whose pollers failed has no lag figure (not a zero).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { readReplica } from '../../scripts/lib/rebench/replica-read.mjs';

const real = fs.readFileSync(new URL('./fixtures/replica-client-selector-0s.txt', import.meta.url), 'utf8');
const kv = Object.fromEntries(real.trim().split('\n').map((l) => l.split('=')));

test('replica: a real client report becomes the read latency, read-your-writes and lag figures', () => {
  const m = readReplica(real);
  assert.equal(m.error, undefined);
  assert.equal(m.p50_ms, Number(kv.read_p50_ms));
  assert.equal(m.p99_ms, Number(kv.read_p99_ms));
  assert.equal(m.requests, 2 * Number(kv.done));
  assert.equal(m.replica.read_on_reading_pct, Number(kv.read_on_reading_pct));
  assert.equal(m.replica.lag_p50_ms, Number(kv.lag_p50_ms));
  assert.ok(m.replica.lag_p50_ms <= m.replica.lag_p99_ms && m.replica.lag_p99_ms <= m.replica.lag_max_ms, 'lag percentiles in order');
});

test('replica: no answered pair, too many failures or a client error is a failed run; a failed poller leaves no lag', () => {
  const none = readReplica(real.replace(/^done=.*$/m, 'done=0'));
  assert.match(none.error, /none of the 20 .* failed run, not a zero/);
  const failing = readReplica(real.replace(/^errors=.*$/m, 'errors=5'));
  assert.match(failing.error, /5 of 20 pairs had a failed request/);
  assert.match(readReplica('n=20\ndone=0\nerror=Errno::ECONNREFUSED: refused\n').error, /client failed: Errno::ECONNREFUSED/);
  assert.match(readReplica('').error, /no replica-client summary/);
  const polls = readReplica(`${real}poll_error=PG::ConnectionBad: no server\n`);
  assert.equal(polls.error, undefined);
  assert.equal(polls.replica.lag_p50_ms, null);
  assert.equal(polls.replica.poll_error, 'PG::ConnectionBad: no server');
});
