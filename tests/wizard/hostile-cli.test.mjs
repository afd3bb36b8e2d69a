// The wizard's command line under attack (issue 26): a shared link's answers that name a system directory
// and root, a path with "..", and an --out with planted symbolic links, a file, "/" or a place nobody can
// write. Each must end with one line on stderr and its documented exit status, and nothing may be written
// outside --out (or at all, for a refusal).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, symlinkSync, statSync, existsSync, rmSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, fromQuery, DEFAULTS } from '../../guide/engine/index.mjs';
import { readmeSteps } from '../helpers/readme.mjs';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'guide', 'cli.mjs');
const cli = (args, cwd) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30000, cwd });
const tmp = () => mkdtempSync(join(tmpdir(), 'wizard-hostile-'));
// The refusal is one line (the info: findings of a successful run are not printed on a refusal).
const oneLine = (r) => { const lines = r.stderr.trim().split('\n'); assert.equal(lines.length, 1, r.stderr); assert.doesNotMatch(r.stderr, /\n\s+at |Error:/, 'no stack trace'); return lines[0]; };

function answersFile(dir, answers) {
  const f = join(dir, 'answers.json');
  writeFileSync(f, JSON.stringify(answers));
  return f;
}

test('permalink ?app_root=/etc&deploy_user=root: CLI exit 2 naming both and the allowed forms, nothing written', (t) => {
  const dir = tmp();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { answers: fromLink } = fromQuery('?app_root=/etc&deploy_user=root'); // what the page makes of the link
  assert.equal(fromLink.app_root, DEFAULTS.app_root);
  const raw = Object.fromEntries(new URLSearchParams('app_root=/etc&deploy_user=root'));
  const r = cli(['--answers', answersFile(dir, raw), '--out', join(dir, 'out')]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /invalid value for "app_root" \(Application directory\): "\/etc" is not below one of the documented roots.*; allowed: a directory of the app's own below \/srv, \/var\/www, \/opt or \/home\/USER/);
  assert.match(r.stderr, /invalid value for "deploy_user" \(Service user\): "root" is a system or service account.*; allowed: an unprivileged user/);
  assert.equal(existsSync(join(dir, 'out')), false, 'nothing written');
  for (const [key, value, reason] of [
    ['app_root', '/srv/my..app', /contains "\.\."/], ['app_root', '/srv', /is a shared directory itself/],
    ['app_root', '/home/deploy', /is a shared directory itself/], ['app_root', '/var/lib/postgresql/app', /not below one of the documented roots/],
    ['app_root', '/usr/local/app', /not below/], ['deploy_user', 'www-data', /system or service account/],
    ['deploy_user', 'systemd-network', /system or service account/], ['deploy_user', 'postgres', /system or service account/],
  ]) {
    const bad = cli(['--answers', answersFile(dir, { [key]: value }), '--format', 'json']);
    assert.equal(bad.status, 2, `${key}=${value}`);
    assert.match(bad.stderr, reason, `${key}=${value}`);
    assert.equal(bad.stdout, '', `${key}=${value}: no bundle printed (no silent substitution)`);
  }
  for (const ok of [{ app_root: '/srv/rails/current', deploy_user: 'rails_app' }, { app_root: '/home/deploy/app' }, { app_root: '/opt/shop' }]) {
    const good = cli(['--answers', answersFile(dir, ok), '--format', 'json']);
    assert.equal(good.status, 0, good.stderr);
    const unit = JSON.parse(good.stdout).files.find((f) => f.path === 'etc/systemd/system/rails-app.service').content;
    // The release layout's current link under the root, unless the root is already a release tool's current link.
    const wd = ok.app_root.endsWith('/current') ? ok.app_root : `${ok.app_root}/current`;
    assert.match(unit, new RegExp(`^WorkingDirectory=${wd}$`, 'm'));
  }
});

test('the page\'s reading of the link: each refusal is a note with its reason and the allowed forms, the bundle uses neither value', () => {
  const { answers, notes } = fromQuery('?app_root=/etc&deploy_user=root');
  const text = notes.map((n) => n.message).join('\n');
  assert.match(text, /Application directory \(app_root\): not allowed, the value is not below one of the documented roots.*Allowed: a directory of the app's own below \/srv/);
  assert.match(text, /Service user \(deploy_user\): not allowed, the value is a system or service account.*Allowed: an unprivileged user/);
  assert.doesNotMatch(text, /\/etc"|"root"/, 'the note does not echo the link\'s values');
  const files = generate(answers, { date: '2026-11-25' }).files;
  const all = files.map((f) => f.content).join('\n');
  assert.doesNotMatch(all, /^User=root$/m);
  assert.doesNotMatch(all, /install -d[^\n]* \/etc(\s|$)/);
});

test('README step 1 never changes the owner of an app root that exists; it gives the service user only its runtime directories', (t) => {
  const dir = tmp();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const root = join(dir, 'app');
  mkdirSync(join(root, 'log'), { recursive: true });
  const readme = generate({}, { date: '2026-11-25', appRoot: root }).files.find((f) => f.path === 'README.md').content;
  const step1 = readmeSteps(readme).get(1).join('\n');
  const lines = step1.split('\n').filter((l) => l.includes('install -d'));
  assert.deepEqual(lines.map((l) => l.replace(new RegExp(root, 'g'), 'ROOT')), [
    'test -d ROOT || install -d -o deploy -g deploy ROOT',
    'install -d -o deploy -g deploy ROOT/tmp ROOT/tmp/sockets ROOT/tmp/pids ROOT/log ROOT/storage ROOT/releases ROOT/shared/bundle',
  ]);
  // Run them, with an account that exists here (daemon) standing in for deploy: the root stays root's.
  execFileSync('sh', ['-ec', lines.join('\n').replace(/deploy/g, 'daemon')]);
  const daemon = Number(execFileSync('id', ['-u', 'daemon'], { encoding: 'utf8' }));
  assert.equal(statSync(root).uid, 0, 'the existing app root keeps its owner');
  for (const d of ['tmp', 'tmp/sockets', 'log', 'storage']) assert.equal(statSync(join(root, d)).uid, daemon, d);
  // A missing root is created for the service user.
  rmSync(root, { recursive: true });
  execFileSync('sh', ['-ec', lines.join('\n').replace(/deploy/g, 'daemon')]);
  assert.equal(statSync(root).uid, daemon);
});

test('--out with a planted symbolic link (out/etc → victim): exit 4, one line, nothing written anywhere', (t) => {
  const dir = tmp();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const f = answersFile(dir, {});
  mkdirSync(join(dir, 'victim'));
  mkdirSync(join(dir, 'out'));
  symlinkSync(join(dir, 'victim'), join(dir, 'out/etc'));
  const r = cli(['--answers', f, '--out', join(dir, 'out')]);
  assert.equal(r.status, 4, r.stderr);
  assert.match(oneLine(r), /refusing to write through .*\/out\/etc: it is a symbolic link/);
  assert.deepEqual(readdirSync(join(dir, 'victim')), [], 'nothing written through the link');
  assert.deepEqual(readdirSync(join(dir, 'out')), ['etc'], 'nothing written at all');
  // A link at a file's own place, even with --force: the file it points to is not touched.
  mkdirSync(join(dir, 'out2'));
  writeFileSync(join(dir, 'victim/secret'), 'keep');
  symlinkSync(join(dir, 'victim/secret'), join(dir, 'out2/README.md'));
  const l = cli(['--answers', f, '--out', join(dir, 'out2'), '--force']);
  assert.equal(l.status, 4, l.stderr);
  assert.match(oneLine(l), /README\.md: it is a symbolic link/);
  assert.equal(readFileSync(join(dir, 'victim/secret'), 'utf8'), 'keep');
  // --out itself a link.
  symlinkSync(join(dir, 'victim'), join(dir, 'linked'));
  const s = cli(['--answers', f, '--out', join(dir, 'linked')]);
  assert.equal(s.status, 4);
  assert.match(oneLine(s), /is a symbolic link; name a real directory/);
});

test('--out: no overwrite without --force (exit 5, files unchanged); --force replaces files, not what a link points to', (t) => {
  const dir = tmp();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const f = answersFile(dir, {});
  const out = join(dir, 'out');
  assert.equal(cli(['--answers', f, '--out', out]).status, 0);
  writeFileSync(join(out, 'README.md'), 'edited by hand');
  const again = cli(['--answers', f, '--out', out]);
  assert.equal(again.status, 5);
  assert.match(oneLine(again), /exists; nothing was written \(add --force/);
  assert.equal(readFileSync(join(out, 'README.md'), 'utf8'), 'edited by hand');
  const forced = cli(['--answers', f, '--out', out, '--force']);
  assert.equal(forced.status, 0, forced.stderr);
  assert.match(readFileSync(join(out, 'README.md'), 'utf8'), /^# Rails configuration bundle$/m);
  assert.ok(readdirSync(out).every((n) => !n.endsWith('.tmp')), 'no temporary file left');
});

test('--out /, a file, and a place that cannot be written: one line each, documented exit status', (t) => {
  const dir = tmp();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const f = answersFile(dir, {});
  const root = cli(['--answers', f, '--out', '/']);
  assert.equal(root.status, 4);
  assert.match(oneLine(root), /^--out \/: refusing to write a bundle into the root directory/);
  writeFileSync(join(dir, 'plain'), 'x');
  const file = cli(['--answers', f, '--out', join(dir, 'plain')]);
  assert.equal(file.status, 4);
  assert.match(oneLine(file), /exists and is not a directory/);
  const proc = cli(['--answers', f, '--out', '/proc/1/bundle/x']);
  assert.equal(proc.status, 6);
  assert.match(oneLine(proc), /^--out \/proc\/1\/bundle\/x: cannot create \/proc\/1\/bundle: /);
  const sys = cli(['--answers', f, '--out', '/sys/bundle']);
  assert.equal(sys.status, 6);
  assert.match(oneLine(sys), /cannot create \/sys\/bundle: (not permitted|permission denied|read-only file system)/);
  assert.ok(!lstatSync('/').isSymbolicLink());
});
