// The YJIT memory bound on small hosts, for every Ruby version the wizard offers: config/ruby.env sets RUBYOPT only
// with options the chosen Ruby accepts, and the memory budget holds back what the option allows. The accepted
// options are written here from the primary sources, independently of capabilities/ruby.mjs:
//   3.2: --yjit-exec-mem-size (NEWS-3.2.0 "JIT"); no RubyVM::YJIT.enable, no --yjit-disable
//   3.3: + --yjit-disable and RubyVM::YJIT.enable (NEWS-3.3.0 "YJIT")
//   3.4: + --yjit-mem-size (NEWS-3.4.0 "YJIT"; `ruby --help` of the lab's 3.4 YJIT build lists it)
//   4.0: the same options; RubyVM::YJIT.enable also takes mem_size: (NEWS-4.0.0 "JIT"), which 3.4 rejects
// The lab proof of the 3.4 line is tests/lab/yjit-mem-bound.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';
import { gte } from '../../guide/engine/version.mjs';

const ACCEPTS = [
  { since: '3.4', options: ['--yjit-exec-mem-size', '--yjit-disable', '--yjit-mem-size'] },
  { since: '3.3', options: ['--yjit-exec-mem-size', '--yjit-disable'] },
  { since: '3.2', options: ['--yjit-exec-mem-size'] },
  { since: '0', options: [] }, // 3.1's YJIT is experimental: the wizard does not enable it
];
const accepted = (v) => ACCEPTS.find((r) => gte(v, r.since)).options;
const RBENV = '/home/deploy/.rbenv/versions/x/bin';
const CRUBY = ['1.8.7', '1.9.3', '2.0', '2.3', '2.6', '2.7', '3.0', '3.1', '3.2', '3.2.9', '3.3.0', '3.3', '3.3.9', '3.4', '3.4.7', '4.0'];

function run(answers) {
  const b = generate({ distro: 'debian-13', ruby_path: RBENV, ...answers }, { date: '2026-11-25' });
  const env = b.files.find((f) => f.path === 'config/ruby.env')?.content ?? '';
  const opt = /^RUBYOPT="?([^"\n]*)"?$/m.exec(env)?.[1];
  const jit = b.model.memory.find((m) => m.kind === 'jit');
  return { b, env, opt, jit };
}

test('small hosts: RUBYOPT bounds YJIT with an option every offered CRuby version accepts; the budget counts the bound', () => {
  for (const v of CRUBY) {
    for (const rails of ['7.1', '8.1']) {
      if (!gte(v, '3.2') && rails === '8.1') continue;
      const { env, opt, jit } = run({ ruby_version: v, rails, ram_gb: 2 });
      const yjitOn = /^RUBY_YJIT_ENABLE=1$/m.test(env) || /config\.yjit/.test(env);
      if (!gte(v, '3.2')) { assert.equal(opt, undefined, `${v}: no YJIT, no RUBYOPT`); continue; }
      assert.ok(yjitOn, `${v}/${rails}: YJIT is on`);
      assert.ok(opt, `${v}/${rails}: a 2 GB host gets a YJIT bound:\n${env}`);
      const names = opt.split(' ').map((o) => o.split('=')[0]);
      for (const n of names) assert.ok(accepted(v).includes(n), `${v}: ${n} is an option Ruby ${v} accepts`);
      // Rails 7.2+ on 3.3+ enables YJIT after boot: the bound must not enable it at boot (and override config.yjit).
      const railsEnables = rails === '8.1' && gte(v, '3.3');
      assert.equal(names.includes('--yjit-disable'), railsEnables, `${v}/${rails}: --yjit-disable only where Rails enables YJIT`);
      assert.equal(/^RUBY_YJIT_ENABLE=1$/m.test(env), !railsEnables, `${v}/${rails}: RUBY_YJIT_ENABLE only where Rails does not enable it`);
      const size = /--yjit-(exec-)?mem-size=(\d+)/.exec(opt);
      assert.ok(size, opt);
      // 3.4+: the total itself; before: the code block, whose total YJIT's docs put at 3–4× (the budget takes 3.5×).
      const perProcess = size[1] ? Math.round(Number(size[2]) * 3.5) : Number(size[2]);
      assert.equal(size[1] === undefined, gte(v, '3.4'), `${v}: --yjit-mem-size from 3.4, --yjit-exec-mem-size before`);
      assert.ok(perProcess <= 64, `${v}: at most 64 MiB of YJIT per process on a small host (${perProcess})`);
      assert.ok(jit, `${v}: YJIT memory is in the budget`);
      assert.match(jit.label, new RegExp(`× ${perProcess} MB`), `${v}: the budget line shows the bound: ${jit.label}`);
      assert.equal(jit.mb % perProcess, 0, `${v}: processes × ${perProcess} MB`);
      assert.doesNotMatch(env, /mem_size:/, 'never config.yjit = { mem_size: } (Ruby 3.3/3.4 raise on it)');
    }
  }
});

test('no bound where none is needed or YJIT does not run: larger hosts, Debian\'s Ruby without YJIT, JRuby, TruffleRuby', () => {
  for (const v of ['3.2', '3.3', '3.4', '4.0']) {
    const big = run({ ruby_version: v, rails: '8.1', ram_gb: 4 });
    assert.equal(big.opt, undefined, `${v} on 4 GB: the default ceiling, no RUBYOPT`);
    assert.ok(big.jit, `${v} on 4 GB: the default ceiling is budgeted`);
  }
  assert.equal(run({ ruby_version: '3.4', rails: '8.1', ram_gb: 4 }).jit.label.includes('× 128 MB'), true, '3.4 default: 128 MiB');
  assert.equal(run({ ruby_version: '3.3', rails: '8.1', ram_gb: 4 }).jit.label.includes('× 168 MB'), true, '3.3.1+ default: 48 × 3.5');
  assert.equal(run({ ruby_version: '3.3.0', rails: '8.1', ram_gb: 4 }).jit.label.includes('× 224 MB'), true, '3.3.0 default: 64 × 3.5');
  const debian = run({ ruby_version: '3.4', rails: '8.1', ram_gb: 1, ruby_path: '/usr/bin' });
  assert.equal(debian.opt, undefined, 'Debian\'s ruby3.4 has no YJIT: an option would only warn');
  assert.equal(debian.jit, undefined);
  for (const [ruby, v] of [['jruby', '10.0'], ['truffleruby', '25.0']]) {
    const r = run({ ruby, ruby_version: v, rails: '8.1', ram_gb: 2 });
    assert.equal(r.opt, undefined, `${ruby}: no YJIT options`);
  }
});
