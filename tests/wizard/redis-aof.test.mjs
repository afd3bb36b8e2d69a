// Proof in the lab that README step 3 of the Sidekiq bundle keeps the jobs of a Redis that already holds data with
// the append-only file off (SRE check 6, D2). Debian 13's redis-server (the lab's services layer) is started by its
// own unit through the README shims' systemctl, with Debian's redis.conf (appendonly no, data in dump.rdb), and
// given keys shaped like Sidekiq's (jobs and a queue list), saved to dump.rdb. Then README step 3 runs as generated:
//   - without the lines that turn the append-only file on live first (taken out of the same block): the restart
//     into appendonly yes starts Redis empty. This proves the defect the lines are for;
//   - as generated: every key survives the restart, and Redis runs with the append-only file on;
//   - again, unchanged: no restart, keys there; again after rails.conf changed (AOF already on): one restart, from
//     the append-only file, keys there.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { generate } from '../../guide/engine/index.mjs';
import { readmeSteps, stepScript } from '../helpers/readme.mjs';

const KEYS = 200;
const QUEUED = 50;

// Step 3's block without the live switch: from its `if [ -n "$REDIS" ]` line to the `fi` that closes it.
function withoutSwitch(block) {
  const lines = block.split('\n');
  const from = lines.findIndex((l) => l.startsWith('if [ -n "$REDIS" ]'));
  const to = lines.indexOf('fi', from);
  assert.ok(from > 0 && to > from, 'step 3 has the live switch to the append-only file');
  return [...lines.slice(0, from), ...lines.slice(to + 1)].join('\n');
}

test('lab: README step 3 turns on the append-only file without losing the data of a running Redis (and without it, the data is lost)', { timeout: 300_000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const bundle = generate({ domain: 'app.test', jobs: 'sidekiq', database: 'sqlite', adapter: 'sqlite3' }, { date: '2026-11-27' });
  const steps = readmeSteps(bundle.files.find((f) => f.path === 'README.md').content);
  assert.ok(steps.has(3), 'README has a shell block for step 3');
  const unsafe = new Map([[3, steps.get(3).map(withoutSwitch)]]);

  const { dir, inLab: B } = writeBundle(bundle, '.wizard-redis-aof-');
  try {
    const script = String.raw`
export PATH=/repo/tests/wizard/lab/readme-shims:$PATH
stop_all() { systemctl stop redis-server 2>/dev/null || true; }
trap 'rc=$?; [ $rc = 0 ] || tail -n 20 /var/log/redis/redis-server.log; stop_all; exit $rc' EXIT
cp /etc/redis/redis.conf /tmp/redis.conf.debian
# A host as found: Debian's redis.conf (no include, appendonly no), Redis running, holding jobs saved in dump.rdb.
found() {
  systemctl stop redis-server
  for i in $(seq 100); do pgrep -x redis-server >/dev/null || break; sleep 0.1; done
  cp /tmp/redis.conf.debian /etc/redis/redis.conf && rm -f /etc/redis/rails.conf && rm -rf /var/lib/redis/*
  systemctl start redis-server
  echo "found=aof:$(redis-cli CONFIG GET appendonly | sed -n 2p)"
  for i in $(seq ${KEYS}); do echo "SET job:$i payload-$i"; done | redis-cli >/dev/null
  for i in $(seq ${QUEUED}); do echo "RPUSH queue:default job:$i"; done | redis-cli >/dev/null
  redis-cli SAVE >/dev/null
}
keys() { echo "$1=$(redis-cli DBSIZE) queued:$(redis-cli LLEN queue:default) aof:$(redis-cli CONFIG GET appendonly | sed -n 2p) restarts:$(grep -c '^systemctl restart redis-server$' /var/log/readme-shims.log || true)"; : > /var/log/readme-shims.log; }
found
${stepScript(unsafe, 3, { cd: B })}
keys without
found
${stepScript(steps, 3, { cd: B })}
keys with
${stepScript(steps, 3, { cd: B })}
keys rerun
echo '# changed' >> /etc/redis/rails.conf
${stepScript(steps, 3, { cd: B })}
keys changed
`;
    const started = Date.now();
    const r = await labScript(script, { timeout: 240, services: true });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.code, 0, out);
    const all = KEYS + 1;
    assert.equal(r.stdout.match(/^found=aof:no$/gm)?.length, 2, `Redis ran with Debian's appendonly no before step 3: ${out}`);
    assert.match(r.stdout, /^without=0 queued:0 aof:yes restarts:1$/m, `without the switch the restart loses every key (the defect): ${out}`);
    assert.match(r.stdout, new RegExp(`^with=${all} queued:${QUEUED} aof:yes restarts:1$`, 'm'), `step 3 keeps every key: ${out}`);
    assert.match(r.stdout, new RegExp(`^rerun=${all} queued:${QUEUED} aof:yes restarts:0$`, 'm'), `a re-run changes nothing: ${out}`);
    assert.match(r.stdout, new RegExp(`^changed=${all} queued:${QUEUED} aof:yes restarts:1$`, 'm'), `a re-run with a changed rails.conf restarts from the append-only file: ${out}`);
    console.log(r.stdout.split('\n').filter((l) => /^(found|without|with|rerun|changed)=/.test(l)).join('\n'));
    console.log(`lab run: ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
