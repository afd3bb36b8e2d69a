// The Sidekiq bundle's files say what they are about (no engine output test covered these texts before the lab
// proof, tests/wizard/lab-sidekiq-bundle.test.mjs, read them): the Sidekiq unit's comments name Sidekiq, not Puma
// or Solid Queue; README's file table says how to install a systemd drop-in and the Redis include file; Redis's
// settings are Sidekiq's (noeviction, append-only file, loopback) and the drop-ins order both units after the
// distribution's Redis unit and give them REDIS_URL.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';

const bundle = generate({ domain: 'app.test', jobs: 'sidekiq' }, { date: '2026-11-25' });
const file = (p) => bundle.files.find((f) => f.path === p)?.content ?? assert.fail(`${p} in the bundle`);
const comments = (text, key) => {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`${key}=`));
  const out = [];
  for (let i = at - 1; i >= 0 && lines[i].startsWith('#'); i--) out.unshift(lines[i]);
  return out.join('\n');
};

test('the Sidekiq unit and its environment file describe Sidekiq, not Puma or Solid Queue', () => {
  const unit = file('etc/systemd/system/rails-jobs@.service');
  assert.match(comments(unit, 'WatchdogSec'), /Sidekiq pings the watchdog/);
  assert.doesNotMatch(comments(unit, 'WatchdogSec'), /Puma/);
  const env = file('config/jobs.env');
  assert.match(comments(env, 'RAILS_MAX_THREADS'), /Sidekiq's concurrency/);
  assert.doesNotMatch(env, /Solid Queue/);
});

test('README says how to install the drop-ins and the Redis include file', () => {
  const readme = file('README.md');
  const row = (p) => readme.split('\n').find((l) => l.startsWith(`| ${p} |`)) ?? assert.fail(`${p} in README's file table`);
  for (const p of ['etc/systemd/system/rails-app.service.d/redis.conf', 'etc/systemd/system/rails-jobs@.service.d/redis.conf']) {
    assert.match(row(p), /A drop-in: .*daemon-reload/);
    assert.doesNotMatch(row(p), /enable --now/, 'a drop-in is not a unit to enable');
  }
  assert.match(row('etc/redis/rails.conf'), /step 3 includes it/);
  // The include line counts as a change: Redis restarts only then or when rails.conf changed (SRE check 5, m1).
  assert.match(readme, /^grep -qx 'include \/etc\/redis\/rails\.conf' \/etc\/redis\/redis\.conf \|\| \{ echo 'include \/etc\/redis\/rails\.conf' >> \/etc\/redis\/redis\.conf; REDIS=1; \}$/m);
});

test('Redis is set up for Sidekiq and both units are ordered after it with REDIS_URL', () => {
  const conf = file('etc/redis/rails.conf');
  for (const line of ['maxmemory-policy noeviction', 'appendonly yes', 'appendfsync everysec', 'bind 127.0.0.1 -::1']) {
    assert.match(conf, new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'), line);
  }
  const mb = Number(/^maxmemory (\d+)mb$/m.exec(conf)[1]);
  for (const unit of ['rails-app.service', 'rails-jobs@.service']) {
    const dropIn = file(`etc/systemd/system/${unit}.d/redis.conf`);
    assert.match(dropIn, /^After=redis-server\.service$/m);
    assert.match(dropIn, /^Wants=redis-server\.service$/m);
    assert.match(dropIn, /^Environment=REDIS_URL=redis:\/\/127\.0\.0\.1:6379\/0$/m);
  }
  assert.ok(mb >= 128 && mb <= 1024, `maxmemory ${mb} MB within the budget's 128 MB–1 GB`);
});
