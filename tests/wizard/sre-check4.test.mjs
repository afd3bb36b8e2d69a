// The fourth SRE check of the bundles (issue 23): defects found by reading the generated files, each proven on the
// generated output (the engine's model, README and CHECKLIST text, and deploy.sh's functions run by dash).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, readFileSync, existsSync, readlinkSync, symlinkSync, chmodSync, statSync, lstatSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { generate } from '../../guide/engine/index.mjs';

const DATE = '2026-11-25';
const gen = (a) => generate(a, { date: DATE });
const file = (r, p) => r.files.find((f) => f.path === p)?.content;

// D6: Unicorn's USR2 handover runs the whole server twice until the old master exits, but the plan was sized for the
// steady state only. The plan itself now holds that peak (its 'handover' line), the worker count is what fits with
// it, an info says why with Unicorn's SIGNALS as evidence, and where even one worker does not fit it is an error.
test('Unicorn: the memory plan holds the USR2 handover (the server twice), and the workers are what fits with it', () => {
  const uni = { jobs: 'none', server: 'unicorn', server_version: '6.1', worker_mb: 300, cores: 4 };
  const server = (m) => m.memory.filter((x) => ['monitor', 'master', 'workers', 'jit'].includes(x.kind)).reduce((s, x) => s + x.mb, 0);
  for (const ram_gb of [3, 4, 16]) {
    const r = gen({ ...uni, ram_gb });
    const m = r.model;
    const handover = m.memory.filter((x) => x.kind === 'handover');
    assert.equal(handover.length, 1, `${ram_gb} GB: one handover line`);
    assert.equal(handover[0].mb, server(m), `${ram_gb} GB: the handover line is the whole server again`);
    assert.equal(m.memory_total_mb, m.memory.reduce((s, x) => s + x.mb, 0));
    assert.ok(m.memory_total_mb <= m.ram_mb, `${ram_gb} GB: the plan with its handover fits: ${m.memory_total_mb} of ${m.ram_mb} MB`);
    // The worker count is the most that fits with the handover: one worker more would not.
    const perWorker = m.memory.filter((x) => x.kind === 'workers' || x.kind === 'jit').reduce((s, x) => s + x.mb, 0) / m.processes;
    const more = m.memory_total_mb + 2 * perWorker;
    const limited = r.warnings.some((w) => w.id === 'workers-limited-by-memory');
    if (limited) assert.ok(more > m.ram_mb, `${ram_gb} GB: ${m.processes} workers are the most that fit (one more: ${more} MB)`);
    assert.ok(!r.warnings.some((w) => /^deploy-memory/.test(w.id)), 'the deploy\'s boots (one copy, before the switch) need less than the handover in the plan');
    const why = r.warnings.find((w) => w.id === 'handover-memory');
    assert.ok(why, `${ram_gb} GB: the plan says why it counts the server twice`);
    assert.match(why.message, new RegExp(`counts the server twice \\(${handover[0].mb} MB more than the ${m.memory_total_mb - handover[0].mb} MB at rest: ${m.memory_total_mb} MB of ${m.ram_mb} MB\\)`));
    assert.ok(why.evidence.some((e) => /unicorn\/SIGNALS/.test(e.url || JSON.stringify(e))), JSON.stringify(why.evidence));
    const readme = file(r, 'README.md');
    assert.match(readme, /the same server again during a reload's handover \(USR2\)/, 'README\'s memory row names the handover term');
  }
  // Where even one worker does not fit twice (2 GB with the database on the host) but the steady state does, an
  // error too (every deploy runs the second server: SRE review 6, D3, plan-over.test.mjs), with what to do instead
  // of a plan sized for the steady state only; where the steady state does not fit either, an error as well.
  const small = gen({ ...uni, ram_gb: 2 });
  const over = small.warnings.find((w) => w.id === 'memory-over-budget');
  assert.equal(over?.severity, 'error', JSON.stringify(small.warnings.map((w) => w.id)));
  const tiny = gen({ ...uni, ram_gb: 1 });
  const tinyOver = tiny.warnings.find((w) => w.id === 'memory-over-budget');
  assert.ok(tiny.model.memory_total_mb - tiny.model.memory.find((x) => x.kind === 'handover').mb > tiny.model.ram_mb, 'at 1 GB the steady state does not fit either');
  assert.equal(tinyOver?.severity, 'error');
  assert.match(over.message, /the same server again during a reload's handover \(USR2\)/);
  assert.match(over.suggestion, /counts the app server twice because its reload \(USR2\).*restart instead of reload/);
  const steady = small.model.memory_total_mb - small.model.memory.find((x) => x.kind === 'handover').mb;
  assert.ok(steady <= small.model.ram_mb, `the steady state alone would fit (${steady} MB): the handover is what does not`);
  // A restart-only server (Puma here) has no handover line.
  assert.ok(!gen({ jobs: 'none', worker_mb: 300, ram_gb: 2 }).model.memory.some((x) => x.kind === 'handover'));
});


// D8: during a rolling deploy, before the restart and after every rollback the old code runs against the new schema.
// README step 7 says how to write migrations that survive it (expand first, ignored_columns before a drop, no rename
// in one deploy) with its sources, step 8 says a rollback does not undo migrations, and CHECKLIST has the item.
test('README and CHECKLIST: migrations the old release survives (expand/contract), and a rollback never undoes them', () => {
  const cases = [
    [{}, /`self\.ignored_columns \+= \["old_column"\]` in its model/, /sh deploy\.sh rollback/],
    [{ app_hosts: 2, lb: 'haproxy', db_host: 'separate', pooler: 'pgbouncer', domain: 'shop.example.com' }, /ignored_columns \+=/, /lb-rotation\.sh/],
    [{ rails: '4.2', ruby_version: '2.2', server: 'puma', server_version: '3.12', jobs: 'none' }, /super\.reject \{ \|c\| c\.name == "old_column" \}.*ignored_columns arrived in Rails 5\.0, this app runs 4\.2/, /rollback/],
  ];
  for (const [a, ignore, rollbackCmd] of cases) {
    const r = gen(a);
    const readme = file(r, 'README.md');
    const step7 = readme.slice(readme.indexOf('### 7. Deploy'), readme.indexOf('### 8. Roll back'));
    const step8 = readme.slice(readme.indexOf('### 8. Roll back'), readme.indexOf('\n### ', readme.indexOf('### 8. Roll back') + 5));
    const what = JSON.stringify(a);
    assert.match(step7, /Migrations and old code: migrations run before the new code starts, and no rollback undoes them/, what);
    assert.match(step7, ignore, what);
    for (const re of [/add tables and columns first/, /drop the column in a later deploy/, /never rename a column or table in one deploy/, /https:\/\/github\.com\/ankane\/strong_migrations#removing-a-column/, /https:\/\/api\.rubyonrails\.org\/classes\/ActiveRecord\/ModelSchema\/ClassMethods\.html#method-i-ignored_columns-3D/]) assert.match(step7, re, what);
    assert.match(step8, rollbackCmd, what);
    assert.match(step8, /not roll back migrations: the previous release runs against the new schema \(see "Migrations and old code" in step 7\)/, what);
    assert.match(file(r, 'CHECKLIST.md'), /- \[ \] Write migrations the old release survives \(expand, then contract\).*a code rollback does not roll back migrations \(evidence: https:\/\/github\.com\/ankane\/strong_migrations#removing-a-column\)/, what);
  }
});

// deploy.sh's functions, taken from the generated script and run with dash (as in deploy-script-markers.test.mjs).
const DEPLOY = file(gen({ domain: 'app.test' }), 'deploy.sh');
const LINES = DEPLOY.split('\n');
function fn(name) {
  const at = LINES.findIndex((l) => l.startsWith(`${name}() {`));
  assert.ok(at >= 0, `deploy.sh defines ${name}`);
  return LINES[at].endsWith('}') ? LINES[at] : LINES.slice(at, LINES.indexOf('}', at) + 1).join('\n');
}
function dash(root, body, fns) {
  const script = ['set -eu', `ROOT=${root} APP_USER=root`, ...fns.map(fn), body].join('\n');
  return spawnSync('dash', ['-c', script], { encoding: 'utf8', timeout: 20000 });
}
const [A, B] = ['20261101000000', '20261102000000'];
function layout(dir, current) {
  const root = join(dir, `app-${Math.random().toString(36).slice(2)}`);
  for (const r of [A, B]) { mkdirSync(join(root, 'releases', r), { recursive: true }); writeFileSync(join(root, 'releases', r, '.built'), ''); }
  symlinkSync(`releases/${current}`, join(root, 'current'));
  writeFileSync(join(root, 'releases', B, '.previous'), `${A}\n`);
  return root;
}
const marked = (root, r) => existsSync(join(root, 'releases', r, '.deploy-failed'));
const current = (root) => readlinkSync(join(root, 'current')).replace('releases/', '');

// D11: a rollback whose switch fails and whose way back fails /up too left the live release marked .deploy-failed
// (rollback marks the release it leaves first), so the next deploy's rollback would skip the release that ran. The
// end state now: current is the live release and carries no mark; the release that failed to go live is marked.
test('deploy.sh: after a double failure the release current points at is never marked .deploy-failed; the other one is', () => {
  const FNS = ['fail', 'as_user', 'switch_to', 'releases', 'current_release', 'usable', 'mark_failed', 'switch_back', 'rollback'];
  const dir = mkdtempSync(join(tmpdir(), 'sre4-double-'));
  try {
    // rollback B -> A: A fails /up, and so does B on the way back (a database outage, say).
    let root = layout(dir, B);
    let r = dash(root, 'went_live() { why="/up failed"; return 1; }\nrollback', FNS);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(current(root), B);
    assert.ok(!marked(root, B), 'the live release keeps no mark (rollback\'s own mark is gone)');
    assert.match(readFileSync(join(root, 'releases', A, '.deploy-failed'), 'utf8'), new RegExp(`rollback to ${A}: /up failed; switching back to ${B} failed too: /up failed`));
    assert.match(r.stderr, new RegExp(`current -> ${B} \\(live and not marked, though it failed too: see journalctl -u rails-app\\), release ${A} kept .* deploy\\.sh unmark ${A} once`));
    // A deploy's switch to B fails, and A fails on the way back: current A unmarked, B kept and marked.
    root = layout(dir, B);
    r = dash(root, `went_live() { why="/up failed"; return 1; }\nswitch_back ${A} ${B} "release ${B}: /up failed after the switch" remove`, FNS);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(current(root), A);
    assert.ok(!marked(root, A));
    assert.ok(marked(root, B) && existsSync(join(root, 'releases', B)), 'the release that failed is kept and marked');
    // The way back cannot even move current (a directory where the new link goes): current stays on A, the release
    // rollback went to, unmarked; B keeps the mark rollback gave it.
    root = layout(dir, B);
    r = dash(root, 'went_live() { mkdir -p "$ROOT/current.new/x"; why="/up failed"; return 1; }\nrollback', FNS);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(current(root), A);
    assert.ok(!marked(root, A), 'current is never marked');
    assert.ok(marked(root, B));
    assert.match(r.stderr, new RegExp(`switching back to ${B} failed too: pointing current at ${B} failed; current -> ${A} \\(live and not marked, though it failed to go live`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// D17: README step 4 installed the config files into current/config as root, inside the tree the service user owns
// (a link planted there would make root write elsewhere). Now the service user writes them (put: root opens the
// bundle's file and hands it over on stdin; mv replaces a link at the destination). The line is taken from README
// and run with dash as root, with the real user nobody as the service user.
test('README step 4: config files are written by the service user, never through a link planted in its tree', () => {
  const readme = file(gen({ domain: 'app.test' }), 'README.md');
  const put = readme.split('\n').find((l) => l.startsWith('put() {'));
  assert.ok(put, 'step 4 defines put');
  assert.match(readme, /^put config\/database\.yml \/var\/www\/app\/current\/config\/database\.yml 0640$/m);
  assert.match(readme, /^put config\/initializers\/allowed_hosts\.rb \/var\/www\/app\/current\/config\/initializers\/allowed_hosts\.rb 0644$/m);
  assert.doesNotMatch(readme.slice(readme.indexOf('### 4.'), readme.indexOf('### 5.')), /install [^\n]*current\/config/, 'no install as root into the release');
  const fnLine = put.replace(/runuser -u \S+ --/, 'runuser -u nobody --');
  const dir = mkdtempSync(join(tmpdir(), 'sre4-put-'));
  try {
    chmodSync(dir, 0o755);
    // The bundle: root's, unreadable by the service user.
    mkdirSync(join(dir, 'bundle/config/initializers'), { recursive: true, mode: 0o700 });
    chmodSync(join(dir, 'bundle'), 0o700);
    writeFileSync(join(dir, 'bundle/config/database.yml'), 'production: {}\n', { mode: 0o600 });
    writeFileSync(join(dir, 'bundle/config/initializers/x.rb'), '# x\n', { mode: 0o600 });
    // Root's file and directory the service user must not reach through links.
    writeFileSync(join(dir, 'roots-file'), 'root\n', { mode: 0o644 });
    mkdirSync(join(dir, 'roots-dir'), { mode: 0o755 });
    const app = join(dir, 'app');
    mkdirSync(join(app, 'releases/r1/config'), { recursive: true });
    symlinkSync('releases/r1', join(app, 'current'));
    spawnSync('chown', ['-R', '-h', 'nobody:nogroup', app]);
    const run = (args) => spawnSync('dash', ['-c', `set -eu\ncd ${join(dir, 'bundle')}\n${fnLine}\nput ${args}`], { encoding: 'utf8', timeout: 20000 });
    let r = run(`config/database.yml ${app}/current/config/database.yml 0640`);
    assert.equal(r.status, 0, r.stderr);
    const st = statSync(join(app, 'releases/r1/config/database.yml'));
    assert.equal(st.uid, Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim()), 'owned by the service user');
    assert.equal(st.mode & 0o777, 0o640);
    assert.equal(readFileSync(join(app, 'releases/r1/config/database.yml'), 'utf8'), 'production: {}\n');
    // A link the service user planted where the file goes: replaced, root's file untouched.
    rmSync(join(app, 'releases/r1/config/database.yml'));
    symlinkSync(join(dir, 'roots-file'), join(app, 'releases/r1/config/database.yml'));
    r = run(`config/database.yml ${app}/current/config/database.yml 0640`);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!lstatSync(join(app, 'releases/r1/config/database.yml')).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'roots-file'), 'utf8'), 'root\n');
    // A directory link into root's tree: the write fails (the service user may not write there), nothing lands.
    symlinkSync(join(dir, 'roots-dir'), join(app, 'releases/r1/config/initializers'));
    r = run(`config/initializers/x.rb ${app}/current/config/initializers/x.rb 0644`);
    assert.notEqual(r.status, 0);
    assert.deepEqual(readdirSync(join(dir, 'roots-dir')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// D21: releases an earlier deploy.sh wrote as root stayed root's after `adopt`, so the markers this deploy.sh writes
// as the service user (.built, .deploy-failed, .previous) failed in them. adopt now gives them to the service user
// (chown -R -h: links changed themselves, never followed). Run with dash as root, the real user nobody as APP_USER.
test('deploy.sh adopt: root-owned releases become the service user\'s (links not followed), then the live one is marked', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sre4-adopt-'));
  try {
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'roots-file'), 'root\n', { mode: 0o644 });
    const root = join(dir, 'app');
    for (const r of [A, B]) mkdirSync(join(root, 'releases', r, 'config'), { recursive: true });
    writeFileSync(join(root, 'releases', B, 'config/x.yml'), 'x\n');
    symlinkSync(join(dir, 'roots-file'), join(root, 'releases', B, 'config/link'));
    symlinkSync(`releases/${B}`, join(root, 'current'));
    const nobody = Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim());
    const r = spawnSync('dash', ['-c', ['set -eu', `ROOT=${root} APP_USER=nobody`, ...['fail', 'as_user', 'current_release', 'adopt'].map(fn), 'check_up() { true; }', 'adopt'].join('\n')], { encoding: 'utf8', timeout: 20000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`gave \\d+ file\\(s\\) under ${root.replace(/[.]/g, '\\.')}/releases to nobody`));
    for (const p of [`releases/${A}`, `releases/${B}`, `releases/${B}/config/x.yml`, `releases/${B}/.built`]) assert.equal(lstatSync(join(root, p)).uid, nobody, p);
    assert.equal(lstatSync(join(root, 'releases', B, 'config/link')).uid, nobody, 'the link itself');
    assert.equal(statSync(join(dir, 'roots-file')).uid, 0, 'never what a link points at');
    assert.match(readFileSync(join(root, 'releases', B, '.built'), 'utf8'), /^adopted /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// D10: check_up retried a fixed 5 times (about 65 s at worst, 660 s for Thin) and said only "/up failed". Now a
// deadline from the capability table (curl --retry-max-time), each try bounded, and a message naming the check, the
// deadline and curl's exit status. Run against a closed port with the deadline rewritten to 2 s.
test('deploy.sh check_up: a deadline from capability data, each try bounded, a message that says what failed', async () => {
  const line = LINES.find((l) => l.startsWith('check_up() {'));
  assert.match(line, /curl -fsS --max-time 10 --retry 60 --retry-all-errors --retry-delay 1 --retry-max-time 60 --resolve app\.test:443:127\.0\.0\.1 https:\/\/app\.test\/up/);
  const port = await new Promise((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); });
  const fnLine = line.replace('--retry-max-time 60', '--retry-max-time 2').replace('app.test:443:127.0.0.1 https://app.test/up', `app.test:${port}:127.0.0.1 https://app.test:${port}/up`);
  const t0 = Date.now();
  const r = spawnSync('dash', ['-c', `${fnLine}\ncheck_up`], { encoding: 'utf8', timeout: 30000 });
  const s = (Date.now() - t0) / 1000;
  assert.equal(r.status, 1, r.stderr);
  assert.ok(s < 15, `ended at the deadline (${s} s), not after 60 tries`);
  assert.match(r.stderr, /^deploy\.sh: no answer 200 from \/up through this host's proxy within 60 s of retries \(curl exit 7: 7 nothing listens, 22 an error status, 28 a try took over 10 s, 35\/60 TLS\); see journalctl -u rails-app$/m);
});

// D16: the release copy `tar -c | tar -x` checked only the extracting side: a file tar could not read left a release
// without it. The creating side's status now counts too. Run as the real user nobody (who cannot read a root-only
// file; root reads everything), with the three lines from the generated build_release.
test('deploy.sh build: a copy whose creating tar fails (an unreadable file) stops the build with a message', () => {
  const at = LINES.findIndex((l) => l.startsWith('  st=$(mktemp)'));
  assert.ok(at > 0, 'build_release checks the creating tar');
  const copy = LINES.slice(at, at + 4).join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'sre4-tar-'));
  try {
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'src/app'), { recursive: true });
    writeFileSync(join(dir, 'src/Gemfile'), 'source "https://rubygems.org"\n', { mode: 0o644 });
    writeFileSync(join(dir, 'src/app/a.rb'), '# a\n', { mode: 0o644 });
    spawnSync('chmod', ['-R', 'a+rX', join(dir, 'src')]);
    const copyAs = (name) => {
      mkdirSync(join(dir, name));
      spawnSync('chown', ['nobody:nogroup', join(dir, name)]);
      const script = ['set -eu', fn('fail'), 'as_user() { "$@"; }', `src=${join(dir, 'src')} new=${join(dir, name)} old=r0`, copy, 'echo copied'].join('\n');
      return spawnSync('runuser', ['-u', 'nobody', '--', 'dash', '-c', script], { encoding: 'utf8', timeout: 20000, cwd: '/' });
    };
    let r = copyAs('ok');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(join(dir, 'ok/app/a.rb'), 'utf8'), '# a\n');
    writeFileSync(join(dir, 'src/app/secret.rb'), '# root only\n', { mode: 0o600 });
    r = copyAs('bad');
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /copied/);
    assert.match(r.stderr, /^deploy\.sh: tar could not read all of \S+\/src \(exit 2: a file it may not read, or one that changed while it read it\); current stays at r0$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
