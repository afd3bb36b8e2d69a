// deploy.sh after the third SRE check (issue 23): what root writes inside the service user's tree, and the release
// markers (.built, .deploy-failed) that decide where switch and rollback may go. The functions are taken from the
// generated script and run with dash on release layouts in a temporary directory; only what the function being
// tested calls to reach the server (went_live's restart and /up, adopt's /up check, switch's go_live) is defined by
// the test, since the lab proves those (faults-deploys.test.mjs). As root, like the script.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, readFileSync, existsSync, readlinkSync, chmodSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../../guide/engine/index.mjs';

const sh = generate({ domain: 'app.test' }, { date: '2026-11-25' }).files.find((f) => f.path === 'deploy.sh').content;
const lines = sh.split('\n');
/** The definition of function NAME: its one line, or from `NAME() {` to the closing `}` line. */
function fn(name) {
  const at = lines.findIndex((l) => l.startsWith(`${name}() {`));
  assert.ok(at >= 0, `deploy.sh defines ${name}`);
  return lines[at].endsWith('}') ? lines[at] : lines.slice(at, lines.indexOf('}', at) + 1).join('\n');
}
const FNS = ['fail', 'as_user', 'switch_to', 'releases', 'current_release', 'usable', 'since_live', 'mark_failed', 'named', 'switch_back', 'rollback', 'unmark', 'adopt', 'switch_built', 'go_live', 'plain_secrets'];
const A = '20261101000000';
const B = '20261102000000';
const C = '20261103000000';

/** Runs BODY with dash after the script's functions, in a layout under ROOT; APP_USER defaults to root. */
function run(root, body, user = 'root') {
  const script = ['set -eu', `ROOT=${root} APP_USER=${user}`, ...FNS.map(fn), body].join('\n');
  return spawnSync('dash', ['-c', script], { encoding: 'utf8', timeout: 20000 });
}

/** A release layout: RELEASES built (a .built marker each), current -> CURRENT. */
function layout(dir, releases, current, built = releases) {
  const root = join(dir, `app-${Math.random().toString(36).slice(2)}`);
  for (const r of releases) mkdirSync(join(root, 'releases', r), { recursive: true });
  for (const r of built) writeFileSync(join(root, 'releases', r, '.built'), '');
  if (current) symlinkSync(`releases/${current}`, join(root, 'current'));
  return root;
}
const marked = (root, r) => existsSync(join(root, 'releases', r, '.deploy-failed'));
const current = (root) => readlinkSync(join(root, 'current')).replace('releases/', '');

test('deploy.sh: root never copies through a link planted in the service user\'s tree (assets shared with the running release, config files)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-links-'));
  try {
    chmodSync(dir, 0o755);
    // Root's: a directory the service user cannot write, and a file it cannot read.
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'secret'), 'root-only\n', { mode: 0o600 });
    const root = join(dir, 'app');
    mkdirSync(join(root, 'releases/r1/public/assets'), { recursive: true });
    mkdirSync(join(root, 'releases/r1/config'), { recursive: true });
    mkdirSync(join(root, 'releases/r2/public/assets/evil'), { recursive: true });
    mkdirSync(join(root, 'releases/r2/config'), { recursive: true });
    writeFileSync(join(root, 'releases/r2/public/assets/evil/x-n3w.css'), 'new');
    // What the service user planted in the running release: an assets directory and a config file that are links.
    symlinkSync(join(dir, 'outside'), join(root, 'releases/r1/public/assets/evil'));
    symlinkSync(join(dir, 'secret'), join(root, 'releases/r1/config/database.yml'));
    symlinkSync('releases/r1', join(root, 'current'));
    spawnSync('chown', ['-R', '-h', 'nobody:nogroup', root]);
    const share = spawnSync('dash', ['-c', ['set -eu', `ROOT=${root} APP_USER=nobody new=${root}/releases/r2`, fn('as_user'), fn('share_assets'), 'share_assets'].join('\n')], { encoding: 'utf8', timeout: 20000 });
    assert.notEqual(share.status, 0, 'the copy through the planted link fails');
    assert.ok(!existsSync(join(dir, 'outside/x-n3w.css')), 'nothing written into root\'s directory');
    // The config files: copied as the service user, who cannot read what the link points at.
    const copy = lines.find((l) => l.includes('for f in $CONFIG_FILES; do'));
    assert.match(copy, /as_user install -D -m 0640 "\$ROOT\/current\/config\/\$f" "\$new\/config\/\$f" \|\| fail /);
    const cfg = spawnSync('dash', ['-c', ['set -eu', `ROOT=${root} APP_USER=nobody new=${root}/releases/r2 old=r1 CONFIG_FILES=database.yml`, fn('fail'), fn('as_user'), copy].join('\n')], { encoding: 'utf8', timeout: 20000 });
    assert.equal(cfg.status, 1, cfg.stderr);
    assert.match(cfg.stderr, /copying config\/database\.yml from the current release failed; current stays at r1/);
    assert.ok(!existsSync(join(root, 'releases/r2/config/database.yml')), 'root\'s file never copied into the release');
    // Everything else in the release is written by the service user too: no install -o, chown or cp as root.
    const build = sh.slice(sh.indexOf('build_release() {'), sh.indexOf('\n}\n', sh.indexOf('build_release() {')));
    assert.doesNotMatch(build, /^\s*(install|chown|cp|ln|mkdir)\b/m);
    assert.match(build, /\| as_user tar -xf - -C "\$new" \|\| \{ rm -f "\$st"; fail /m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('deploy.sh switch: only a release built since current went live, or one named; never a stale or failed one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-switch-'));
  try {
    // A live, B built before current last moved (a rollback to A came after), C built after it, D failed.
    const D = '20261104000000';
    const root = layout(dir, [A, B, C, D], A);
    spawnSync('touch', ['-d', '2026-11-02 12:00', join(root, 'releases', B, '.built')]);
    spawnSync('touch', ['-h', '-d', '2026-11-03 09:00', join(root, 'current')]);
    spawnSync('touch', ['-d', '2026-11-03 12:00', join(root, 'releases', C, '.built'), join(root, 'releases', D, '.built')]);
    writeFileSync(join(root, 'releases', D, '.deploy-failed'), 'x\n');
    const pick = (arg) => run(root, `go_live() { keep=yes; echo "go_live $r"; }\nswitch_built "${arg}"`);
    let r = pick('');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^go_live ${C}$`, 'm'));
    // Without C: B is usable but older than the move of current, so nothing is picked by itself.
    rmSync(join(root, 'releases', C), { recursive: true });
    r = pick('');
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`no release built since ${A} went live: run deploy\\.sh build first, or name the release: deploy\\.sh switch RELEASE`));
    // Named, B goes; a failed one, the current one, a name that is no release, a path: refused.
    r = pick(B);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^go_live ${B}$`, 'm'));
    for (const [name, msg] of [[D, 'is not usable: .*deploy\\.sh unmark'], [A, 'is current already'], ['20991231000000', 'no release 20991231000000'], ['../..', 'no release \\.\\./\\.\\.']]) {
      r = pick(name);
      assert.equal(r.status, 1, name);
      assert.match(r.stderr, new RegExp(msg), name);
      assert.doesNotMatch(r.stdout, /go_live/);
    }
    assert.match(sh, /^  switch\) lock; switch_built "\$\{2:-\}" ;;$/m);
    // A named, known-good release that fails /up after the switch (the database restarting): switched back, and the
    // release is kept and marked, never removed (SRE check 23b, D4: it was rm -rf'd, leaving nothing to roll back to).
    const good = layout(dir, [A, B], B);
    r = run(good, `went_live() { why="/up failed"; [ "$(current_release)" != ${A} ]; }\nswitch_built ${A}`);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`release ${A}: /up failed after the switch; switched back to ${B}, which answers /up`));
    assert.equal(current(good), B);
    assert.ok(existsSync(join(good, 'releases', A, '.built')), `release ${A} kept`);
    assert.ok(marked(good, A), `release ${A} marked .deploy-failed (deploy.sh unmark clears it)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('deploy.sh rollback: the release it leaves is marked before current moves; unmark clears a mark; a switch back clears rollback\'s own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-rollback-'));
  try {
    const fresh = () => { const root = layout(dir, [A, B], B); writeFileSync(join(root, 'releases', B, '.previous'), `${A}\n`); return root; };
    // Cut short right after the switch (the SSH session lost: SIGHUP): B stays marked, so no later switch picks it.
    let root = fresh();
    let r = run(root, 'went_live() { kill -HUP $$; sleep 5; }\nrollback');
    assert.notEqual(r.status, 0);
    assert.equal(current(root), A);
    assert.match(readFileSync(join(root, 'releases', B, '.deploy-failed'), 'utf8'), new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ rolled back from ${B} to ${A}\\n$`));
    // The switch itself fails: the mark goes again, current stays.
    root = fresh();
    mkdirSync(join(root, 'current.new/x'), { recursive: true });
    r = run(root, 'went_live() { echo should-not-run; }\nrollback');
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`pointing current at ${A} failed; current stays at ${B}`));
    assert.equal(current(root), B);
    assert.ok(!marked(root, B));
    // The old release fails /up, the way back works: current on B again, unmarked, exit 1.
    root = fresh();
    r = run(root, `went_live() { why="/up failed"; [ "$(current_release)" != ${A} ]; }\nrollback`);
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`rollback to ${A}: /up failed; switched back to ${B}, which answers /up`));
    assert.equal(current(root), B);
    assert.ok(!marked(root, B), 'a switch back clears the mark rollback set');
    // Both fail (a transient outage): A is marked with both reasons and the message says how to clear it.
    root = fresh();
    r = run(root, 'went_live() { why="/up failed"; return 1; }\nrollback');
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`switching back to ${B} failed too: /up failed; .*deploy\\.sh unmark ${A} once the cause is fixed`));
    assert.ok(marked(root, A));
    r = run(root, `unmark ${A}`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`release ${A} was marked \\.deploy-failed: \\S+ rollback to ${A}: /up failed; switching back to ${B} failed too`));
    assert.ok(!marked(root, A));
    assert.equal(run(root, `usable ${A} && echo usable`).stdout.trim(), 'usable');
    for (const [name, msg] of [[A, `release ${A} is not marked`], ['../x', 'no release \\.\\./x']]) {
      r = run(root, `unmark ${name}`);
      assert.equal(r.status, 1);
      assert.match(r.stderr, new RegExp(msg));
    }
    assert.match(sh, /^  unmark\) \[ \$# -ge 2 \] \|\| fail "usage: deploy\.sh unmark RELEASE"; lock; unmark "\$2" ;;$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('deploy.sh adopt: once, marks only the live release usable, with its reason, and only when it answers /up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-adopt-'));
  try {
    // Releases an earlier deploy.sh built: no .built anywhere, so rollback has nowhere to go.
    let root = layout(dir, [A, B], B, []);
    let r = run(root, 'rollback');
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`no release before ${B} \\(see deploy\\.sh adopt\\)`));
    r = run(root, 'check_up() { true; }\nadopt');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`marked the live release ${B} usable`));
    assert.match(readFileSync(join(root, 'releases', B, '.built'), 'utf8'), /^adopted \S+ by deploy\.sh adopt: live and answering \/up, built by an earlier deploy\.sh\n$/);
    assert.ok(!existsSync(join(root, 'releases', A, '.built')), 'only the live release');
    r = run(root, 'check_up() { true; }\nadopt');
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`release ${B} has its \\.built marker already`));
    // Not answering /up: nothing marked.
    root = layout(dir, [A, B], B, []);
    r = run(root, 'check_up() { false; }\nadopt');
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`the live release ${B} does not answer /up`));
    assert.ok(!existsSync(join(root, 'releases', B, '.built')));
    // No current: nothing to adopt.
    root = layout(dir, [A], null, []);
    r = run(root, 'check_up() { true; }\nadopt');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /points at no release/);
    assert.match(sh, /^  adopt\) lock; adopt ;;$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// README steps 7 and 8: a rollback is as slow as the restart it does (an earlier text said "in seconds", which
// Unicorn's full handover, up to its wait, is not); Puma's hot restart on one host states the wait it leaves and why
// the bundle keeps it (phased restarts need workers without preload_app!); the markers and their commands are named.
test('README: a rollback takes as long as the restart (Unicorn: the handover); Puma on one host states its wait; unmark and adopt explained', () => {
  const readme = (a) => {
    const md = generate({ domain: 'app.test', ...a }, { date: '2026-11-25' }).files.find((f) => f.path === 'README.md').content;
    return { step7: md.slice(md.indexOf('### 7.'), md.indexOf('### 8.')), step8: md.slice(md.indexOf('### 8.'), md.indexOf('### 9.')) };
  };
  const puma = readme({});
  assert.match(puma.step8, /Nothing is built, so it takes as long as that restart, which boots the old release's code: the app's boot time/);
  assert.match(puma.step8, /`sh deploy\.sh unmark RELEASE` clears the mark/);
  assert.match(puma.step8, /`sh deploy\.sh adopt` marks the live release usable \(only that one/);
  assert.match(puma.step7, /requests wait in Puma's socket backlog while the new release boots/);
  // Not "none fails" without a bound (SRE check 23b, D7): past the backlog or nginx's timeout they get 502 or 504.
  assert.match(puma.step7, /past the backlog \(1024 connections.*\) or nginx's proxy_read_timeout \(60 s\) they get 502 or 504/);
  assert.match(puma.step7, /Puma does one only without preload_app! .*docs\/restart\.md/);
  const unicorn = readme({ server: 'unicorn', server_version: '6.1' });
  assert.match(unicorn.step8, /Unicorn's handover ends only once the new master has booted the app .*up to 120 s/);
  assert.doesNotMatch(unicorn.step7, /Puma's (socket )?backlog/);
  for (const r of [puma, unicorn]) assert.doesNotMatch(r.step8, /in seconds/);
  // Behind the bundle's balancer the switch runs out of rotation: no wait to explain.
  const multi = readme({ app_hosts: 2, lb: 'haproxy', db_host: 'separate' });
  assert.match(multi.step7, /^sh deploy\.sh switch$/m);
  assert.doesNotMatch(multi.step7, /Puma's (socket )?backlog/);
});

test('deploy.sh reads the secrets file only when the shell and systemd read it the same way (SRE check 23b, D3)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-secrets-'));
  try {
    const check = (text) => { writeFileSync(join(dir, 'secrets.env'), text); return run(dir, `SECRETS=${join(dir, 'secrets.env')}\nplain_secrets && echo plain`); };
    let r = check('# a comment\n\nRAILS_MASTER_KEY=\nDATABASE_PASSWORD=0f3a9c_./:@%+=,~-Zz\n');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^plain$/m);
    const marker = join(dir, 'ran-as-root');
    for (const [line, value] of [[2, `S3cr$et;touch ${marker}`], [2, '"quoted"'], [2, 'two words']]) {
      r = check(`RAILS_MASTER_KEY=\nDATABASE_PASSWORD=${value}\n`);
      assert.equal(r.status, 1, value);
      assert.match(r.stderr, new RegExp(`secrets\\.env line ${line}: only letters, digits and _ \\. / : @ % \\+ = , ~ - in values`), value);
    }
    assert.ok(!existsSync(marker), 'nothing in the file was run');
    assert.match(sh, /^as_app_secrets\(\) \{ plain_secrets && /m, 'every step that sources the file checks it first');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('deploy.sh deploy|build: anything after SOURCE_DIR but --no-migrate is refused, so a typo never migrates (SRE check 23b, D15)', () => {
  const line = sh.split('\n').find((l) => l.startsWith('  deploy|build) '));
  const call = (args) => spawnSync('dash', ['-c', `fail() { echo "fail: $*" >&2; exit 1; }\nlock() { :; }\ndeploy() { echo "deploy $1 migrate=$2"; }\nbuild() { echo "build $1 migrate=$2"; }\ncase "$1" in\n${line}\nesac`, 'deploy.sh', ...args], { encoding: 'utf8', timeout: 10000 });
  assert.match(call(['deploy', '/src']).stdout, /^deploy \/src migrate=yes$/m);
  assert.match(call(['build', '/src', '--no-migrate']).stdout, /^build \/src migrate=no$/m);
  for (const args of [['deploy', '/src', '--no-migrat'], ['build', '/src', '--no-migrate', 'x'], ['deploy']]) {
    const r = call(args);
    assert.equal(r.status, 1, args.join(' '));
    assert.match(r.stderr, /usage: deploy\.sh (deploy|build) SOURCE_DIR \[--no-migrate\]/);
    assert.equal(r.stdout, '', `${args.join(' ')}: nothing ran`);
  }
});
