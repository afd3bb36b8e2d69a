// The lab's YJIT layer (scripts/lib/lab/build-ruby-yjit.sh): Ruby 3.4 built from Debian's ruby3.4 source package
// with YJIT, at /opt/ruby-3.4-yjit beside the packaged Rubies. It reports YJIT enabled, it is the Ruby that really
// runs (not Debian's ruby3.4 behind a launcher), and the reference Rails 8.1 app boots and serves on it with the
// lab's 3.4.0 gems. A damaged layer is refused by name while the other Rubies keep working.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureLab, labRun, labScript, runLabCommand } from '../helpers/lab.mjs';

const LAB_DIR = process.env.LAB_DIR || join(process.cwd(), '.lab');
let lab;
const scratch = [];
before(async () => { lab = await ensureLab(); });
after(() => {
  for (const dir of scratch) {
    execFileSync('scripts/lab', ['clean'], { env: { ...process.env, LAB_DIR: dir }, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
});
const requireLab = () => assert.ok(lab.ok, `the lab could not be built: ${lab.reason}`);

test('ruby --yjit on the YJIT layer reports YJIT enabled; it is the layer\'s Ruby 3.4, Debian-patched', async () => {
  requireLab();
  const r = await labRun(['ruby', '--yjit', '-e', 'p RubyVM::YJIT.enabled?'], { ruby: '3.4-yjit', timeout: 60 });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'true');
  const facts = await labRun(['ruby', '-e', 'puts RUBY_VERSION, RbConfig.ruby, RbConfig::CONFIG["ruby_version"], RbConfig::CONFIG["arch"], RubyVM::YJIT.enabled?'],
    { ruby: '3.4-yjit', timeout: 60 });
  assert.equal(facts.code, 0, facts.stderr);
  const [version, path, abi, arch, enabledWithoutFlag] = facts.stdout.trim().split('\n');
  assert.match(version, /^3\.4\.\d+$/);
  assert.equal(path, '/opt/ruby-3.4-yjit/bin/ruby');
  assert.equal(abi, '3.4.0', 'the same ABI folder as Debian\'s ruby3.4: the lab\'s gems are shared');
  assert.equal(arch, 'x86_64-linux-gnu', 'Debian\'s multiarch layout, as the packaged ruby3.4');
  assert.equal(enabledWithoutFlag, 'false', 'YJIT stays off unless asked for (--yjit, RUBY_YJIT_ENABLE or Rails\' config.yjit)');
  // The source package the layer was built from, recorded by the build.
  const src = await labRun(['cat', '/opt/ruby-3.4-yjit/DEBIAN-SOURCE-VERSION'], { ruby: '3.4-yjit', timeout: 60 });
  assert.match(src.stdout.trim(), /^3\.4\.\d+-\d+/);
  // status names the layer and what built it.
  const status = JSON.parse((await runLabCommand(['status', '--json'], { timeout: 120 })).stdout);
  assert.equal(status.yjit, 'ready');
  const row = status.components.find((c) => c.kind === 'ruby-yjit');
  assert.match(row?.version ?? '(missing)', /^ruby 3\.4\.\d+ .*\+YJIT.*from Debian source ruby3\.4 3\.4\.\d+-\d+.*rustc 1\.\d+.*built in \d+ s$/);
});

test('Rails 8.1 boots on the YJIT build, Puma 8 serves with YJIT on, and LAB_YJIT=off turns it off', { timeout: 300_000 }, async () => {
  requireLab();
  // LAB_YJIT=on only makes responses name the serving process's Ruby and YJIT state; YJIT itself is Rails' default.
  const r = await labScript(`
    lab-app prepare --db sqlite >&2
    LAB_YJIT=on lab-app serve --port 3000 >&2
    for path in /up /heavy; do printf 'status %s %s\\n' "$path" "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:3000$path")"; done
    printf 'served %s\\n' "$(curl -s -D - -o /dev/null http://127.0.0.1:3000/heavy | tr -d '\\r' | sed -n 's/^x-lab-ruby: //p')"
    pid=$(cat /srv/app/tmp/pids/server.pid)
    printf 'exe %s\\n' "$(readlink /proc/$pid/exe)"
    # Production, as the server runs (Rails 8.1 enables YJIT outside development and test); the last line only:
    # Active Storage prints a warning about image_processing on stdout in production.
    eval "$(lab-app env)"
    printf 'rails %s\\n' "$(cd /srv/app && bin/rails runner 'print Rails.version' 2>/dev/null | tail -n 1)"
    printf 'runner %s\\n' "$(cd /srv/app && bin/rails runner 'print RubyVM::YJIT.enabled?' 2>/dev/null | tail -n 1)"
    printf 'off %s\\n' "$(cd /srv/app && LAB_YJIT=off bin/rails runner 'print RubyVM::YJIT.enabled?' 2>/dev/null | tail -n 1)"
    lab-app stop >&2`, { ruby: '3.4-yjit', timeout: 240 });
  assert.equal(r.code, 0, `lab run failed (${r.code}):\n${r.stderr.slice(-3000)}`);
  const out = Object.fromEntries(r.stdout.trim().split('\n').map((l) => { const [k, ...v] = l.split(' '); return [k === 'status' ? v.shift() : k, v.join(' ')]; }));
  assert.equal(out['/up'], '200');
  assert.equal(out['/heavy'], '200');
  assert.equal(out.exe, '/opt/ruby-3.4-yjit/bin/ruby', 'Puma runs in the YJIT build, not in Debian\'s ruby3.4');
  assert.equal(out.served, '/opt/ruby-3.4-yjit/bin/ruby; YJIT on', 'the process that served /heavy had YJIT on (Rails 8.1 default)');
  assert.match(out.rails, /^8\.1\./);
  assert.equal(out.runner, 'true');
  assert.equal(out.off, 'false');
});

test('a damaged YJIT layer is refused by name; the other Rubies still run', { timeout: 120_000 }, async () => {
  requireLab();
  const dir = mkdtempSync(join(LAB_DIR, '..', '.lab-test-'));
  scratch.push(dir);
  for (const part of ['rootfs', 'gems', 'ruby-3.4-yjit']) {
    if (existsSync(join(LAB_DIR, part))) execFileSync('cp', ['-al', join(LAB_DIR, part), join(dir, part)]);
  }
  const ruby = join(dir, 'ruby-3.4-yjit/bin/ruby');
  unlinkSync(ruby); // replaced, not edited: the copy shares inodes with the real layer
  writeFileSync(ruby, '#!/bin/sh\necho not ruby\n', { mode: 0o755 });
  const env = { LAB_DIR: dir };
  const refused = await runLabCommand(['run', '--ruby', '3.4-yjit', '--', 'ruby', '-v'], { env, timeout: 60 });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /--ruby 3\.4-yjit is not available \(the Ruby 3\.4 YJIT layer is damaged \(bin\/ruby: FAILED/);
  const other = await runLabCommand(['run', '--ruby', '3.4', '--', 'ruby', '-e', 'print RUBY_VERSION'], { env, timeout: 60 });
  assert.equal(other.code, 0, other.stderr);
  assert.match(other.stdout, /^3\.4\./);
  const status = JSON.parse((await runLabCommand(['status', '--json'], { env, timeout: 60 })).stdout);
  assert.match(status.state, /^ready/, 'the base lab is usable without the YJIT layer');
  assert.match(status.yjit, /damaged/);
});
