// The lab's failure paths: a damaged or half-built cache is detected, never used, and rebuilt; an unreachable
// package source, a missing mmdebstrap, too little space and a non-root user each give their named error.
// The damaged caches are hard-linked copies of the real one (seconds, little space): replacing a file in the
// copy never touches the original.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, symlinkSync, writeFileSync, rmSync, unlinkSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLab, runLabCommand } from '../helpers/lab.mjs';

const LAB_DIR = process.env.LAB_DIR || join(process.cwd(), '.lab');
const UNREACHABLE = 'http://127.0.0.1:9/debian'; // port 9 (discard) has no listener here: refused at once
let lab;
const scratch = [];

before(async () => { lab = await ensureLab(); });
after(() => {
  for (const dir of scratch) {
    // The lab's own clean unmounts anything a failed run left behind before removing.
    execFileSync('scripts/lab', ['clean'], { env: { ...process.env, LAB_DIR: dir }, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
});

// A hard-linked copy of the built lab (root filesystem, gems, Ruby 3.4 YJIT and services layers, package cache) in a scratch LAB_DIR.
function linkedCopy() {
  assert.ok(lab.ok, `the lab could not be built: ${lab.reason}`);
  const dir = mkdtempSync(join(LAB_DIR, '..', '.lab-test-'));
  scratch.push(dir);
  for (const part of ['rootfs', 'gems', 'debs', 'ruby-3.4-yjit', 'services', 'services.complete', 'services.sha256']) {
    if (existsSync(join(LAB_DIR, part))) execFileSync('cp', ['-al', join(LAB_DIR, part), join(dir, part)]);
  }
  return dir;
}

const lab_ = (args, env, timeout = 120) => runLabCommand(args, { env, timeout });

test('a damaged cache is detected, refused for runs, and rebuilt', { timeout: 1_800_000 }, async () => {
  const dir = linkedCopy();
  const env = { LAB_DIR: dir };
  // Replace (not edit: the copy shares inodes with the real cache) a key program with garbage.
  const wrk = join(dir, 'rootfs/usr/bin/wrk');
  unlinkSync(wrk);
  writeFileSync(wrk, '#!/bin/sh\necho not wrk\n', { mode: 0o755 });

  const status = await lab_(['status', '--json'], env);
  assert.match(JSON.parse(status.stdout).state, /not ready: the cache is damaged \(usr\/bin\/wrk: FAILED/);

  const run = await lab_(['run', '--', 'true'], env);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /the lab is not ready \(the cache is damaged .*\): run scripts\/lab build first/);

  // The rebuild reuses the package cache (no download) and keeps the gem layer, which does not depend on it.
  const build = await lab_(['build'], env, 1500);
  assert.equal(build.code, 0, build.stderr);
  assert.match(build.stderr, /building the base layer: the cache is damaged/);
  assert.doesNotMatch(build.stderr, /installing gems/);
  const wrkVersion = await lab_(['run', '--', 'sh', '-c', 'wrk --version 2>&1 | head -1'], env);
  assert.match(wrkVersion.stdout, /^wrk (debian\/)?4\.\d/, 'the rebuilt lab runs the real wrk again');
});

test('a half-built root filesystem is detected and never used', async () => {
  const dir = linkedCopy();
  const env = { LAB_DIR: dir, LAB_MIRROR: UNREACHABLE };
  unlinkSync(join(dir, 'rootfs/.lab/base-complete'));
  const status = await lab_(['status', '--json'], env);
  assert.match(JSON.parse(status.stdout).state, /half-built/);
  const run = await lab_(['run', '--', 'true'], env);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /half-built/);
  // build decides to rebuild; with the mirror unreachable it stops before touching anything, naming the source.
  const build = await lab_(['build'], env);
  assert.equal(build.code, 1);
  assert.match(build.stderr, /building|package source unreachable/);
  assert.ok(existsSync(join(dir, 'rootfs/usr/bin/ruby3.3')), 'nothing removed before the source was known to work');
});

test('an unreachable package source gives a named error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-empty-'));
  scratch.push(dir);
  const r = await lab_(['build'], { LAB_DIR: dir, LAB_MIRROR: UNREACHABLE });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /lab: error: package source unreachable: Debian trixie at http:\/\/127\.0\.0\.1:9\/debian\/dists\/trixie\/InRelease \(.*(refused|Failed to connect).*\)/);
});

test('too little space gives a named error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-empty-'));
  scratch.push(dir);
  const r = await lab_(['build'], { LAB_DIR: dir, LAB_MIN_FREE_GB: '1000000' });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /lab: error: not enough space in .*: \d+ MiB free, the lab needs 1000000 GiB/);
});

test('a machine without mmdebstrap gets told how to install it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-empty-'));
  scratch.push(dir);
  // A PATH with every program of /usr/bin except mmdebstrap.
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const name of readdirSync('/usr/bin')) if (name !== 'mmdebstrap') symlinkSync(join('/usr/bin', name), join(bin, name));
  const r = await lab_(['build'], { LAB_DIR: dir, PATH: `${bin}:/usr/sbin:/sbin` });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /lab: error: mmdebstrap is not installed: run scripts\/setup \(or apt-get install mmdebstrap\)/);
});

test('a user other than root is told why root is needed', () => {
  let stderr = '';
  try {
    execFileSync('runuser', ['-u', 'nobody', '--', 'scripts/lab', 'build'], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) { stderr = e.stderr.toString(); assert.equal(e.status, 1); }
  assert.match(stderr, /lab: error: the lab needs root \(it mounts file systems and creates namespaces\)/);
});

test('every subcommand explains itself with --help', async () => {
  for (const cmd of ['build', 'run', 'shell', 'status', 'clean']) {
    const r = await lab_([cmd, '--help'], {});
    assert.equal(r.code, 0, cmd);
    assert.match(r.stdout, new RegExp(`Usage: scripts/lab ${cmd}`));
  }
  const bad = await lab_(['run', '--ruby', '2.7', '--', 'true'], {});
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--ruby must be 3.3, 3.4 or 3.4-yjit, not '2.7'/);
});

test('a run cleans up after itself: processes stopped by id, mounts undone, writes discarded', { timeout: 300_000 }, async () => {
  assert.ok(lab.ok, lab.reason);
  // A process that ignores TERM is KILLed after the grace period; a file written outside /repo is gone.
  const r = await runLabCommand(['run', '--grace', '2', '--', 'sh', '-c',
    'touch /etc/lab-was-here; (trap "" TERM; sleep 600) & echo started'], { timeout: 120 });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /processes still running 2s after TERM: sending KILL/);
  assert.ok(!existsSync(join(LAB_DIR, 'rootfs/etc/lab-was-here')), 'writes outside /repo never reach the cache');
  const mounts = readFileSync('/proc/self/mounts', 'utf8');
  assert.ok(!mounts.includes(`${LAB_DIR}/runs`), 'no run layer left mounted');
  let sleepers = '';
  try { sleepers = execFileSync('pgrep', ['-f', '^sleep 600$']).toString().trim(); } catch (e) { assert.equal(e.status, 1, 'pgrep: none found'); }
  assert.equal(sleepers, '', 'no process of the run survives it');
  // A timeout stops the command with status 124.
  const t = await runLabCommand(['run', '--timeout', '2', '--', 'sleep', '30'], { timeout: 60 });
  assert.equal(t.code, 124);
});
