// Table-driven unit tests: one block per rule, each with cases from the 2010 era to today.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generate, DEFAULTS } from '../../guide/engine/index.mjs';
import { derive } from '../../guide/engine/derive.mjs';
import { gcVarsRead } from '../../guide/engine/generators/ruby-env.mjs';
import { dslName } from '../../guide/engine/generators/puma.mjs';
import { keyExists, schedulerChoice } from '../../guide/engine/generators/sysctl.mjs';
import { cmp, inRange } from '../../guide/engine/version.mjs';

const gen = (over) => generate({ ...DEFAULTS, ...over }, { date: '2026-01-01' });
const file = (r, path) => r.files.find((f) => f.path === path)?.content;
const code = (text) => (text || '').split('\n').filter((l) => l.trim() && !l.trim().startsWith('#')).join('\n');
const warningIds = (r) => r.warnings.map((w) => w.id);
const advice = (r, id) => r.advice.find((a) => a.id === id);

test('version comparison', () => {
  for (const [a, b, want] of [['2.6.32', '2.6.4', 1], ['4.12', '4.9', 1], ['3.3', '3.3.0', 0], ['1.8.7', '1.9', -1], ['10.0', '9.4', 1]]) {
    assert.equal(cmp(a, b), want, `${a} vs ${b}`);
  }
  assert.equal(inRange('4.11', { until: '4.12' }), true);
  assert.equal(inRange('4.12', { until: '4.12' }), false);
});

test('GC variables per Ruby era: only names the interpreter reads', () => {
  const cases = [
    { ruby: 'ree', v: '1.8.7', set: ['RUBY_HEAP_MIN_SLOTS', 'RUBY_HEAP_SLOTS_INCREMENT', 'RUBY_HEAP_SLOTS_GROWTH_FACTOR', 'RUBY_GC_MALLOC_LIMIT', 'RUBY_HEAP_FREE_MIN'], not: ['RUBY_FREE_MIN'] },
    { ruby: 'cruby', v: '1.8.7', set: [], not: ['RUBY_HEAP_MIN_SLOTS', 'RUBY_GC_MALLOC_LIMIT'] },
    { ruby: 'cruby', v: '1.9.1', set: [], not: ['RUBY_HEAP_MIN_SLOTS'] },
    { ruby: 'cruby', v: '1.9.3', set: ['RUBY_HEAP_MIN_SLOTS', 'RUBY_FREE_MIN', 'RUBY_GC_MALLOC_LIMIT'], not: ['RUBY_HEAP_FREE_MIN', 'RUBY_HEAP_SLOTS_INCREMENT'] },
    { ruby: 'cruby', v: '2.0', set: ['RUBY_HEAP_MIN_SLOTS', 'RUBY_FREE_MIN', 'RUBY_GC_MALLOC_LIMIT'], not: ['RUBY_GC_HEAP_INIT_SLOTS'] },
    { ruby: 'cruby', v: '2.1', set: ['RUBY_GC_HEAP_INIT_SLOTS'], not: ['RUBY_HEAP_MIN_SLOTS', 'RUBY_FREE_MIN'] },
    { ruby: 'cruby', v: '3.2', set: ['RUBY_GC_HEAP_INIT_SLOTS'], not: ['RUBY_GC_HEAP_0_INIT_SLOTS'] },
    { ruby: 'cruby', v: '3.3', set: [], not: ['RUBY_GC_HEAP_INIT_SLOTS', 'RUBY_HEAP_MIN_SLOTS'] },
    { ruby: 'cruby', v: '3.4', set: [], not: ['RUBY_GC_HEAP_INIT_SLOTS'] },
    { ruby: 'jruby', v: '9.4', set: [], not: ['RUBY_GC_MALLOC_LIMIT', 'RUBY_YJIT_ENABLE'] },
    { ruby: 'truffleruby', v: '24.0', set: [], not: ['RUBY_GC_MALLOC_LIMIT'] },
  ];
  for (const c of cases) {
    const r = gen({ ruby: c.ruby, ruby_version: c.v, rails: c.v < '1.9.3' || c.ruby === 'ree' ? '2.3.5' : c.v < '2.2' ? '4.2' : '7.0' });
    const env = code(file(r, 'config/ruby.env'));
    const set = env.split('\n').map((l) => l.split('=')[0]);
    for (const name of c.set) assert.ok(set.includes(name), `${c.ruby} ${c.v} should set ${name}`);
    for (const name of c.not) assert.ok(!set.includes(name), `${c.ruby} ${c.v} must not set ${name}`);
    const reads = gcVarsRead(derive(r.answers));
    for (const name of set.filter((n) => /^RUBY_(GC|HEAP|FREE)/.test(n))) assert.ok(reads.includes(name), `${name} not read by ${c.ruby} ${c.v}`);
  }
  // 3.3/3.4 know five heaps; later versions must not get hard-coded heap indexes.
  assert.ok(gcVarsRead(derive({ ...DEFAULTS, ruby_version: '3.4' })).includes('RUBY_GC_HEAP_4_INIT_SLOTS'));
  assert.ok(!gcVarsRead(derive({ ...DEFAULTS, ruby_version: '4.0' })).includes('RUBY_GC_HEAP_0_INIT_SLOTS'));
});

test('YJIT: experimental in 3.1, env var on 3.2, Rails 7.2 config.yjit on 3.3+, arm64 from 3.2', () => {
  const cases = [
    { v: '3.0', rails: '7.0', env: false, comment: false },
    { v: '3.1', rails: '7.0', env: false, comment: /experimental/ },
    { v: '3.2', rails: '7.1', env: true },
    { v: '3.3', rails: '7.1', env: true },
    { v: '3.3', rails: '7.2', env: false, comment: /config\.yjit/ },
    { v: '3.4', rails: '8.0', env: false, comment: /config\.yjit/ },
    { v: '3.1', rails: '7.0', arch: 'arm64', env: false, warn: 'yjit-arm64-needs-3-2' },
    { v: '3.2', rails: '7.1', arch: 'arm64', env: true },
    // Debian's own Ruby 3.3/3.4 (bin /usr/bin) is built without YJIT: nothing to enable, no memory to budget.
    { v: '3.3', rails: '8.1', path: '/usr/bin', env: false, comment: /built without it/, missing: true },
    { v: '3.4', rails: '8.1', path: '/usr/bin/', env: false, comment: /built without it/, missing: true },
    { v: '3.3', rails: '7.1', path: '/usr/bin', env: false, comment: /built without it/, missing: true },
    { v: '3.3', rails: '8.1', path: '/usr/bin', distro: 'ubuntu-24.04', env: false, comment: /config\.yjit/ },
    { v: '4.0', rails: '8.1', path: '/usr/bin', env: false, comment: /config\.yjit/ },
    { v: '3.1', rails: '7.0', path: '/usr/bin', distro: 'debian-12', env: false, comment: /experimental/ },
  ];
  for (const c of cases) {
    // An rbenv Ruby unless the case says otherwise: the YJIT rules are about the version, not the build.
    const r = gen({ ruby_version: c.v, rails: c.rails, arch: c.arch || 'x86_64', ruby_path: c.path || '/home/deploy/.rbenv/versions/x/bin', distro: c.distro || 'debian-13' });
    const env = file(r, 'config/ruby.env');
    assert.equal(/^RUBY_YJIT_ENABLE=1$/m.test(env), c.env, `${c.v}/${c.rails}/${c.arch}`);
    if (c.comment) assert.match(env, c.comment);
    if (c.warn) assert.ok(warningIds(r).includes(c.warn));
    assert.equal(r.model.memory.some((m) => m.kind === 'jit'), c.env || /config\.yjit/.test(env), `YJIT memory counted for ${c.v}`);
    const yjitAdvice = advice(r, 'ruby-yjit');
    if (c.missing) {
      assert.ok(yjitAdvice.evidence.some((e) => e.url === '/datasets/rebench-2026-interpreters/'), 'cites the lab measurement');
      // ruby.env's comment states the packaging fact with its sources: Debian's changelog (--disable-yjit), the
      // package tracker (ruby3.4 only in experimental) and the lab's record of the installed package.
      assert.match(env, /--disable-yjit/);
      assert.match(env, /^# {3}see: https:\/\/metadata\.ftp-master\.debian\.org\/changelogs\/\/main\/r\/ruby3\.3\//m);
      assert.match(env, /^# {3}see: https:\/\/tracker\.debian\.org\/pkg\/ruby3\.4$/m);
      assert.match(env, /^# {3}see: \/datasets\/rebench-2026-interpreters\/$/m);
      assert.match(JSON.stringify(yjitAdvice), /ruby_path/);
    } else if (yjitAdvice) assert.doesNotMatch(JSON.stringify(yjitAdvice), /built without/);
  }
  // Where YJIT runs, its advice cites the lab's measurement of YJIT's memory per Puma process.
  const yjitOn = advice(gen({ ruby_version: '3.4', rails: '8.1', ruby_path: '/home/deploy/.rbenv/versions/x/bin', distro: 'debian-13' }), 'ruby-yjit');
  assert.ok(yjitOn.evidence.some((e) => e.url === '/datasets/rebench-2026-app-servers-yjit/'), 'cites the YJIT memory dataset');
  // MJIT is never enabled, and Rails advice warns against it on 2.6–3.2.
  for (const v of ['2.6', '3.2']) assert.ok(advice(gen({ ruby_version: v, rails: '6.1' }), 'ruby-no-mjit'));
  assert.equal(advice(gen({ ruby_version: '3.3' }), 'ruby-no-mjit'), undefined);
});

test('sysctl: somaxconn only before 5.4, tcp_tw_recycle never, keys exist for the kernel', () => {
  const cases = [['2.6.32', true], ['4.9', true], ['4.19', true], ['5.4', false], ['6.1', false]];
  for (const [kernel, somaxconn] of cases) {
    const r = gen({ kernel });
    const s = code(file(r, 'etc/sysctl.d/60-rails.conf'));
    assert.equal(/^net\.core\.somaxconn = 4096$/m.test(s), somaxconn, kernel);
    assert.doesNotMatch(s, /tcp_tw_recycle|tcp_timestamps|tcp_tw_reuse/);
    for (const line of s.split('\n')) assert.ok(keyExists(line.split(' = ')[0], kernel), line);
  }
  assert.equal(keyExists('net.ipv4.tcp_tw_recycle', '4.11'), true);
  assert.equal(keyExists('net.ipv4.tcp_tw_recycle', '4.12'), false);
  assert.equal(file(gen({ os: 'freebsd' }), 'etc/sysctl.d/60-rails.conf'), undefined);
  assert.equal(file(gen({ os: 'macos' }), 'etc/systemd/system/rails-app.service'), undefined);
});

test('I/O scheduler: deadline on pre-5.0 kernels, kernel defaults (mq-deadline/none) from 5.0', () => {
  const cases = [['2.6.32', 'hdd', 'deadline'], ['2.6.32', 'nvme', null], ['4.9', 'nvme', null], ['4.19', 'nvme', null], ['4.19', 'ssd', 'deadline'], ['5.0', 'hdd', null], ['6.1', 'nvme', null]];
  for (const [kernel, storage, want] of cases) {
    assert.equal(schedulerChoice(derive({ ...DEFAULTS, kernel, storage })), want, `${kernel}/${storage}`);
    const rule = file(gen({ kernel, storage }), 'etc/udev/rules.d/60-io-scheduler.rules');
    assert.equal(Boolean(rule), Boolean(want));
  }
});

test('Puma DSL names follow the Puma version', () => {
  const cases = [['on_worker_boot', '3.12', 'on_worker_boot'], ['on_worker_boot', '6.4', 'on_worker_boot'], ['on_worker_boot', '7.1', 'before_worker_boot'], ['on_worker_boot', '8.0', 'before_worker_boot'], ['nakayoshi_fork', '5.6', 'nakayoshi_fork'], ['nakayoshi_fork', '6.4', null], ['fork_worker', '4.3', null]];
  for (const [name, v, want] of cases) assert.equal(dslName(name, v), want, `${name} @ ${v}`);
  // Rails < 4 needs a reconnect hook; its name depends on Puma.
  assert.match(file(gen({ rails: '3.2', ruby_version: '1.9.3', server_version: '3.12' }), 'config/puma.rb'), /^on_worker_boot do/m);
  assert.doesNotMatch(file(gen({ rails: '7.2' }), 'config/puma.rb'), /worker_boot/);
});

test('Puma sizing: threads by Rails version and workload, workers by cores, single mode without fork', () => {
  // jobs: 'none' — a job runner takes memory from the same 4 GB (tested below), which would limit the workers.
  const cases = [
    { over: { rails: '7.2', jobs: 'none' }, threads: 3, workers: 2 },
    { over: { rails: '7.1', jobs: 'none' }, threads: 5, workers: 2 },
    { over: { rails: '7.2', workload: 'io', jobs: 'none' }, threads: 5, workers: 2 },
    { over: { rails: '7.2', workload: 'cpu', cores: 8, ram_gb: 16 }, threads: 2, workers: 8 },
    { over: { cores: 1 }, threads: 3, workers: null },
    { over: { ruby: 'jruby', ruby_version: '9.4', adapter: 'jdbc' }, threads: 8, workers: null },
    { over: { ruby: 'truffleruby', ruby_version: '24.0' }, threads: 8, workers: null },
  ];
  for (const c of cases) {
    // Puma 6.4 writes `workers Integer(ENV.fetch("WEB_CONCURRENCY") { N })`; 6.5+ reads WEB_CONCURRENCY itself.
    const r = gen({ server_version: '6.4', ...c.over });
    const p = file(r, 'config/puma.rb');
    assert.match(p, new RegExp(`RAILS_MAX_THREADS"\\) \\{ ${c.threads} \\}`), JSON.stringify(c.over));
    if (c.workers) assert.match(p, new RegExp(`WEB_CONCURRENCY"\\) \\{ ${c.workers} \\}`));
    else assert.doesNotMatch(p, /^workers /m);
    assert.equal(r.model.threads, c.threads);
    // websockets is on by default: Action Cable's 4 worker threads share the web process's pool (issue 24); on a Ruby
    // that cannot fork the default Solid Queue runs inside Puma, so its worker threads do too (trial D3).
    assert.equal(r.model.pool, c.threads + 4 + (r.model.jobs_in_puma ? r.model.job_threads : 0));
    assert.equal(r.model.jobs_in_puma, !c.workers && Boolean(c.over.ruby), JSON.stringify(c.over));
  }
  // Before fork: Process.warmup on 3.3+, GC.compact on 2.7–3.2, nothing before 2.7.
  assert.match(file(gen({ ruby_version: '3.3', jobs: 'none' }), 'config/puma.rb'), /Process\.warmup/);
  assert.match(file(gen({ ruby_version: '3.1', rails: '7.0', jobs: 'none' }), 'config/puma.rb'), /GC\.compact/);
  assert.doesNotMatch(file(gen({ ruby_version: '2.6', rails: '6.0', jobs: 'none' }), 'config/puma.rb'), /GC\.compact|Process\.warmup/);
});

test('impossible combinations: warning with explanation and a substitute, never silent', () => {
  const cases = [
    { over: { ruby: 'jruby', ruby_version: '9.4', server: 'unicorn' }, id: 'fork-server-without-fork', has: 'config/puma.rb', hasnt: 'config/unicorn.rb' },
    { over: { ruby: 'truffleruby', ruby_version: '24.0', server: 'pitchfork' }, id: 'fork-server-without-fork', has: 'config/puma.rb', hasnt: 'config/pitchfork.rb' },
    { over: { rails: '6.1', database: 'mysql', database_version: '8.0', adapter: 'trilogy' }, id: 'trilogy-before-rails-7-1', yml: /adapter: mysql2/ },
    { over: { rails: '7.1', database: 'mysql', database_version: '8.0', adapter: 'trilogy' }, id: null, yml: /adapter: trilogy/ },
    { over: { ruby: 'ree', ruby_version: '1.8.7', rails: '4.0' }, id: 'ree-with-new-rails' },
    { over: { ruby: 'cruby', ruby_version: '2.6', rails: '7.0' }, id: 'ruby-too-old-for-rails' },
    { over: { rails: '5.0', ruby_version: '2.4', database: 'mysql', database_version: '5.7', adapter: 'mysql' }, id: 'legacy-mysql-adapter', yml: /adapter: mysql2/ },
    { over: { rails: '2.3.5', ruby: 'ree', ruby_version: '1.8.7', database: 'mysql', database_version: '5.0', adapter: 'mysql' }, id: 'legacy-mysql-adapter', yml: /adapter: mysql$/m },
    { over: { database: 'postgresql', adapter: 'mysql2' }, id: 'adapter-database-mismatch', yml: /adapter: postgresql/ },
    { over: { ruby: 'jruby', ruby_version: '9.4', adapter: 'pg' }, id: 'c-extension-adapter-on-jruby', yml: /adapter: postgresql/ },
    { over: { adapter: 'jdbc' }, id: 'jdbc-without-jruby', yml: /adapter: postgresql/ },
    { over: { database: 'sqlite', database_version: '3.40', adapter: 'sqlite3', app_hosts: 3 }, id: 'sqlite-single-host' },
    { over: { database: 'mysql', database_version: '8.0', adapter: 'mysql2', pooler: 'pgbouncer' }, id: 'pgbouncer-needs-postgresql', hasnt: 'etc/pgbouncer/pgbouncer.ini' },
    { over: { server: 'unicorn', proxy: 'none' }, id: 'needs-buffering-proxy' },
    { over: { server: 'unicorn', proxy: 'caddy', proxy_version: '2.6' }, id: 'needs-buffering-proxy' },
    { over: { server: 'pitchfork', kernel: '2.6.32' }, id: 'pitchfork-reforking-needs-linux' },
    { over: { server: 'puma', server_version: '7.1', ruby_version: '2.7', rails: '6.1' }, id: 'puma-needs-newer-ruby' },
    { over: { server: 'falcon', rails: '6.1', ruby_version: '3.0' }, id: 'falcon-before-rails-7' },
    { over: { jobs: 'good_job', database: 'mysql', database_version: '8.4', adapter: 'mysql2' }, id: 'good-job-needs-postgresql' },
    { over: { jobs: 'good_job', database: 'sqlite', database_version: '3.46', adapter: 'sqlite3' }, id: 'good-job-needs-postgresql' },
    { over: { os: 'freebsd', init: 'systemd' }, id: 'systemd-needs-linux', hasnt: 'etc/systemd/system/rails-app.service' },
    { over: { os: 'macos', init: 'systemd' }, id: 'systemd-needs-linux', hasnt: 'etc/sysctl.d/60-rails.conf' },
  ];
  for (const c of cases) {
    const r = gen(c.over);
    if (c.id) {
      const w = r.warnings.find((x) => x.id === c.id);
      assert.ok(w, `${c.id} expected for ${JSON.stringify(c.over)}; got ${warningIds(r)}`);
      assert.ok(w.message.length > 20 && w.suggestion.length > 10);
    } else {
      assert.ok(!warningIds(r).some((id) => /trilogy|mismatch|jdbc/.test(id)));
    }
    if (c.has) assert.ok(file(r, c.has), `${c.has} expected`);
    if (c.hasnt) assert.equal(file(r, c.hasnt), undefined, `${c.hasnt} not expected`);
    if (c.yml) assert.match(file(r, 'config/database.yml'), c.yml);
  }
});

test('dead systems still get an answer and a migration path', () => {
  const cases = [
    { over: { server: 'thin', server_version: '1.8.2' }, id: 'dead-server-thin', files: ['config/thin.yml', 'migrate-to/config/puma.rb'] },
    { over: { server: 'mongrel', server_version: '1.1.5', rails: '2.3.5', ruby_version: '1.8.7' }, id: 'dead-server-mongrel', files: ['config/mongrel_cluster.yml', 'migrate-to/config/puma.rb'] },
    { over: { server: 'webrick', server_version: '1.8' }, id: 'webrick-in-production', files: ['migrate-to/config/puma.rb'] },
    { over: { proxy: 'cherokee', proxy_version: '1.2' }, id: 'dead-proxy-cherokee', files: ['migrate-to/etc/nginx/sites-enabled/rails-app.conf', 'migrate-to/etc/nginx/nginx.conf'] },
    { over: { ruby: 'ree', ruby_version: '1.8.7', rails: '2.3.5' }, id: 'dead-ruby-ree', files: ['config/ruby.env'] },
    { over: { ruby: 'rubinius', ruby_version: '3.0', rails: '4.2' }, id: 'dead-ruby-rubinius', files: ['config/ruby.env'] },
  ];
  for (const c of cases) {
    const r = gen(c.over);
    const w = r.warnings.find((x) => x.id === c.id);
    assert.ok(w && w.suggestion, `${c.id}: ${warningIds(r)}`);
    for (const f of c.files) assert.ok(file(r, f), `${f} for ${c.id}`);
  }
});

test('Rails advice uses the API of the chosen version', () => {
  const cases = [
    { rails: '2.3.5', ruby: 'ree', v: '1.8.7', eager: /find\(:all, :include => :comments\)/, batches: /:batch_size => 1000/, finders: /find\(:first, :conditions/, not: /includes\(|\bin_batches|`insert_all`|find_by\(/ },
    { rails: '3.2', v: '1.9.3', eager: /includes\(:comments\)/, batches: /batch_size: 1000/, finders: /find\(:first/, not: /strict_loading_by_default|in_batches\(|`insert_all`/ },
    { rails: '4.2', v: '2.2', eager: /includes/, finders: /find_by\(created_at: time\)/, not: /in_batches\(/ },
    { rails: '5.2', v: '2.5', batches: /in_batches\(of: 1000\)/, not: /`insert_all`/ },
    { rails: '6.1', v: '2.7', eager: /strict_loading_by_default/, transactions: /`insert_all`/ },
    { rails: '7.2', v: '3.3', eager: /strict_loading/, transactions: /insert_all/, batches: /in_batches/ },
  ];
  for (const c of cases) {
    const r = gen({ rails: c.rails, ruby: c.ruby || 'cruby', ruby_version: c.v });
    const text = r.advice.map((a) => a.body).join('\n');
    if (c.eager) assert.match(advice(r, 'rails-eager-loading').body, c.eager, c.rails);
    if (c.batches) assert.match(advice(r, 'rails-batches').body, c.batches, c.rails);
    if (c.finders) assert.match(advice(r, 'rails-finders').body, c.finders, c.rails);
    if (c.transactions) assert.match(advice(r, 'rails-transactions').body, c.transactions, c.rails);
    if (c.not) {
      // Mentions of newer APIs are allowed only as "arrives in Rails X" notes.
      for (const line of text.split('\n')) if (c.not.test(line)) assert.match(line, /arrive|Rails \d/, `${c.rails}: ${line}`);
    }
    for (const a of r.advice) {
      assert.ok(a.evidence.length > 0, `${a.id} has evidence`);
      for (const e of a.evidence) assert.match(e.url, /^(https?:\/\/|\/datasets\/[a-z0-9-]+\/$|\/articles\/)/);
      assert.equal(a.applies, true);
    }
  }
  // Downloads: header per proxy and Rails version.
  assert.match(advice(gen({ downloads: true }), 'rails-sendfile').body, /x_sendfile_header = "X-Accel-Redirect"/);
  assert.match(advice(gen({ downloads: true, proxy: 'apache', proxy_version: '2.4.62' }), 'rails-sendfile').body, /"X-Sendfile"/);
  assert.match(advice(gen({ downloads: true, rails: '2.3.5', ruby: 'ree', ruby_version: '1.8.7' }), 'rails-sendfile').body, /X-Accel-Redirect/);
});

test('nginx upstream keepalive only to TCP upstreams, where it exists and is not yet the default', () => {
  // A Unix socket (the Linux default) gets none: a Puma hot restart would leave nginx stale connections (502).
  assert.doesNotMatch(file(gen({ proxy_version: '1.22', websockets: false }), 'etc/nginx/sites-enabled/rails-app.conf'), /keepalive \d+;/);
  const cases = [['0.7.65', false], ['1.0', false], ['1.2.4', true], ['1.22', true], ['1.29.7', false]];
  for (const [v, want] of cases) {
    // macOS binds Puma to 127.0.0.1:3000 (TCP), where keepalive saves a handshake per request.
    const site = file(gen({ os: 'macos', proxy_version: v, websockets: false }), 'etc/nginx/sites-enabled/rails-app.conf');
    assert.equal(/^\s+keepalive \d+;/m.test(site), want, v);
    assert.equal(/proxy_http_version 1\.1;/.test(site), want, v);
  }
  // Unicorn closes connections: no upstream keepalive.
  assert.doesNotMatch(file(gen({ server: 'unicorn', server_version: '6.1' }), 'etc/nginx/sites-enabled/rails-app.conf'), /keepalive \d+;/);
  for (const v of ['1.2.5', '1.3.8', '1.22']) assert.match(file(gen({ proxy_version: v }), 'etc/nginx/nginx.conf'), /worker_processes auto;/, v);
  for (const v of ['1.2.4', '1.3.0']) assert.match(file(gen({ proxy_version: v }), 'etc/nginx/nginx.conf'), /worker_processes 2;/, v);
  assert.match(file(gen({ proxy_version: '1.0' }), 'etc/nginx/nginx.conf'), /worker_processes 2;/);
  assert.doesNotMatch(file(gen({}), 'etc/nginx/nginx.conf'), /^\s*use epoll/m);
});

test('database.yml: pool key and PgBouncer settings by version', () => {
  assert.match(file(gen({ rails: '8.1', ruby_version: '3.4' }), 'config/database.yml'), /^\s+max_connections: <%= ENV\.fetch\("RAILS_MAX_THREADS"\) \{ 3 \}\.to_i \+ 4 %>/m);
  assert.match(file(gen({ rails: '8.1', ruby_version: '3.4', websockets: false }), 'config/database.yml'), /^\s+max_connections: <%= ENV\.fetch\("RAILS_MAX_THREADS"\) \{ 3 \} %>/m);
  assert.match(file(gen({ rails: '8.0', ruby_version: '3.4' }), 'config/database.yml'), /^\s+pool: /m);
  const cases = [['1.18', true, false], ['1.21', false, true], ['1.24', false, true]];
  for (const [v, noPrepared, maxPrepared] of cases) {
    const r = gen({ pooler: 'pgbouncer', pooler_version: v });
    assert.equal(/prepared_statements: false/.test(file(r, 'config/database.yml')), noPrepared, v);
    assert.equal(/^max_prepared_statements = /m.test(file(r, 'etc/pgbouncer/pgbouncer.ini')), maxPrepared, v);
    assert.match(file(r, 'config/database.yml'), /port: 6432/);
    // Off for the app (transaction pooling), on for migrations, which use PgBouncer's session-mode aliases.
    assert.match(file(r, 'config/database.yml'), /^\s+advisory_locks: <%= ENV\["RAILS_DB_MIGRATE"\] \? true : false %>$/m);
  }
  // The advisory_locks switch exists from Rails 6.0; Rails 5.x gets a comment instead, older Rails nothing.
  const yml = (rails, ruby_version) => file(gen({ pooler: 'pgbouncer', rails, ruby_version }), 'config/database.yml');
  assert.doesNotMatch(yml('5.2', '2.5'), /^\s+advisory_locks:/m);
  assert.match(yml('5.2', '2.5'), /no advisory_locks switch/);
  assert.doesNotMatch(yml('4.2', '2.2'), /advisory/);
  assert.match(yml('6.0', '2.6'), /^\s+advisory_locks: <%= ENV\["RAILS_DB_MIGRATE"\] \? true : false %>/m);
});

test('migrations (issue 23): their own timeouts, PgBouncer session-mode aliases, once per deploy', () => {
  const r = gen({ app_hosts: 2, lb: 'haproxy', db_host: 'separate', pooler: 'pgbouncer' });
  const yml = file(r, 'config/database.yml');
  // The app role keeps its 30 s statement_timeout; migrations unset it and get a short lock_timeout.
  assert.match(file(r, 'db-host/setup/postgresql-roles.sql'), /ALTER ROLE app SET statement_timeout = '30s';/);
  // Behind PgBouncer's transaction pooling a session SET passes to other clients with the server connection, so the
  // job process gets no statement timeout of its own there (SRE review, reproduced on PgBouncer 1.18): migrations only.
  assert.match(yml, /^\s+variables:\n(?:\s+#.*\n)*\s+statement_timeout: <%= 0 if ENV\["RAILS_DB_MIGRATE"\] %>\n\s+lock_timeout: <%= "5s" if ENV\["RAILS_DB_MIGRATE"\] %>$/m);
  assert.doesNotMatch(file(r, 'config/jobs.env'), /JOBS_STATEMENT_TIMEOUT/);
  // On a direct connection: what each process gets, rendered by Ruby's ERB as Rails renders database.yml: web
  // processes nothing (the role's 30 s applies), the job process its own bound from config/jobs.env, migrations none.
  const d = gen({});
  const dyml = file(d, 'config/database.yml');
  assert.match(dyml, /^\s+variables:\n(?:\s+#.*\n)*\s+statement_timeout: <%= ENV\["RAILS_DB_MIGRATE"\] \? 0 : ENV\["JOBS_STATEMENT_TIMEOUT"\] %>\n\s+lock_timeout: <%= "5s" if ENV\["RAILS_DB_MIGRATE"\] %>$/m);
  const vars = dyml.match(/^\s+variables:\n(?:\s+#.*\n)*((?:\s+\w+: .*\n?){2})/m)[1];
  const jobsEnv = Object.fromEntries(file(d, 'config/jobs.env').split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => l.split('=')));
  assert.equal(jobsEnv.JOBS_STATEMENT_TIMEOUT, '5min');
  const render = (env) => execFileSync('ruby', ['-rerb', '-e', 'print ERB.new(STDIN.read).result'], { input: vars, encoding: 'utf8', env: { PATH: process.env.PATH, ...env } }).replace(/\s+/g, ' ').trim();
  assert.equal(render({}), 'statement_timeout: lock_timeout:');
  assert.equal(render({ JOBS_STATEMENT_TIMEOUT: jobsEnv.JOBS_STATEMENT_TIMEOUT }), 'statement_timeout: 5min lock_timeout:');
  assert.equal(render({ RAILS_DB_MIGRATE: '1', JOBS_STATEMENT_TIMEOUT: '5min' }), 'statement_timeout: 0 lock_timeout: 5s');
  for (const db of ['app_production', 'app_production_cache', 'app_production_queue', 'app_production_cable']) {
    assert.match(yml, new RegExp(`database: <%= ENV\\["RAILS_DB_MIGRATE"\\] \\? "${db}_migrate" : "${db}" %>`));
    assert.match(file(r, 'db-host/etc/pgbouncer/pgbouncer.ini'), new RegExp(`^${db}_migrate = host=127\\.0\\.0\\.1 port=5432 dbname=${db} pool_mode=session pool_size=4$`, 'm'));
  }
  // Two server connections per migrating host, for each of the 2 app hosts: a second host started by mistake stops on
  // Rails' lock at once instead of queueing in PgBouncer (SRE check 4, D9); 3 hosts, 6.
  assert.match(file(gen({ app_hosts: 3, lb: 'haproxy', db_host: 'separate', pooler: 'pgbouncer' }), 'db-host/etc/pgbouncer/pgbouncer.ini'), /^app_production_migrate = .* pool_mode=session pool_size=6$/m);
  assert.match(file(r, 'db-host/etc/pgbouncer/pgbouncer.ini').replace(/\n; /g, ' '), /4 for 2 app host\(s\), so a migration started on a second host by mistake gets its connections and stops at once on the lock/);
  assert.match(file(r, 'db-host/etc/pgbouncer/pg_hba.conf'), /^hostssl \S*app_production_migrate\S* app 10\.0\.1\.11\/32 /m);
  const readme = file(r, 'README.md');
  assert.match(readme, /RAILS_DB_MIGRATE=1 \/usr\/bin\/bundle exec bin\/rails db:prepare/);
  // deploy.sh migrates (the app's role, RAILS_DB_MIGRATE=1) on the first host only (the others pass --no-migrate).
  assert.match(file(r, 'deploy.sh'), /\[ "\$migrate" = no \] \|\| as_app_secrets "\$new" RAILS_DB_MIGRATE=1 "\$BUNDLE" exec bin\/rails db:migrate/);
  // Behind the bundle's balancer the hosts go one at a time, each drained first (lb-rotation.sh, faults-rolling.test.mjs).
  // Built on every host first, migrations on the first only; then switched host by host.
  assert.match(readme, /# Migrate on the first app host only.*\n# On app1.*\nsh deploy\.sh build \/path\/to\/checkout\n# On app2.*\nsh deploy\.sh build \/path\/to\/checkout --no-migrate\n# On the balancer: .*\nsh lb-host\/lb-rotation\.sh drain app1\n# On app1.*\nsh deploy\.sh switch$/m);
  // Without PgBouncer the database name stays; the timeouts still apply. No PostgreSQL, no variables.
  const direct = file(gen({}), 'config/database.yml');
  assert.match(direct, /^\s+database: app_production$/m);
  assert.match(direct, /statement_timeout: <%= ENV\["RAILS_DB_MIGRATE"\] \? 0 : ENV\["JOBS_STATEMENT_TIMEOUT"\] %>/);
  // No PostgreSQL, no statement timeouts: the job process gets no JOBS_STATEMENT_TIMEOUT either. MySQL's migrations get
  // their own metadata-lock wait instead (SRE check 5, D6; tests/wizard/sre-check5.test.mjs renders it).
  assert.doesNotMatch(file(gen({ database: 'mysql', adapter: 'trilogy' }), 'config/jobs.env'), /JOBS_STATEMENT_TIMEOUT/);
  const mysqlYml = file(gen({ database: 'mysql', adapter: 'trilogy' }), 'config/database.yml');
  assert.match(mysqlYml, /^\s+variables:\n(?:\s+#.*\n)*\s+lock_wait_timeout: <%= 5 if ENV\["RAILS_DB_MIGRATE"\] %>$/m);
  assert.doesNotMatch(mysqlYml, /statement_timeout|lock_timeout:/);
});

test('connections: max_connections follows hosts × processes × pool, with a remedy when it gets large', () => {
  // Without a job runner and before Rails 8's extra databases: hosts × processes × pool, the pool being threads
  // + Action Cable's 4 workers (websockets default on).
  const small = gen({ jobs: 'none', rails: '7.2' });
  assert.equal(small.model.connections_needed, 2 * (3 + 4));
  assert.equal(gen({ jobs: 'none', rails: '7.2', websockets: false }).model.connections_needed, 6);
  assert.equal(small.model.db_server_max_connections, 100);
  assert.ok(!warningIds(small).includes('max-connections-raised'));
  const raised = gen({ app_hosts: 11, cores: 4, ram_gb: 16, workload: 'io', jobs: 'none', rails: '7.2', websockets: false });
  assert.equal(raised.model.connections_needed, 11 * 4 * 5);
  assert.ok(raised.model.db_server_max_connections >= 220 + 5 + 3);
  assert.match(raised.warnings.find((w) => w.id === 'max-connections-raised').message, /\(11 host\(s\) × 4 process\(es\) × 5 connections = 220; pool 5 thread\(s\) = 5\)/);
  assert.ok(warningIds(raised).includes('max-connections-raised'));
  const huge = gen({ app_hosts: 20, cores: 8, ram_gb: 32, workload: 'io' });
  assert.ok(warningIds(huge).includes('too-many-db-connections'));
  assert.match(huge.warnings.find((w) => w.id === 'too-many-db-connections').suggestion, /PgBouncer/);
  const pooled = gen({ app_hosts: 20, cores: 8, ram_gb: 32, workload: 'io', pooler: 'pgbouncer' });
  assert.ok(!warningIds(pooled).includes('too-many-db-connections'));
  assert.equal(pooled.model.db_server_max_connections, 100);
  assert.ok(pooled.model.db_max_connections >= pooled.model.connections_needed);
  const mysql = gen({ database: 'mysql', database_version: '8.0', adapter: 'mysql2' });
  assert.equal(mysql.model.db_server_max_connections, 151);
});

test('memory budget: workers limited by RAM, warning when even one does not fit', () => {
  const fits = gen({});
  assert.ok(fits.model.memory_total_mb <= fits.model.ram_mb);
  const limited = gen({ cores: 16, ram_gb: 4 });
  assert.ok(limited.model.processes < 16);
  assert.ok(warningIds(limited).includes('workers-limited-by-memory'));
  const over = gen({ ram_gb: 0.5 });
  assert.ok(over.model.memory_total_mb > over.model.ram_mb);
  assert.equal(over.warnings.find((w) => w.id === 'memory-over-budget')?.severity, 'error', 'a plan over RAM is an error (CLI exit 3)');
  const separate = gen({ cores: 16, ram_gb: 4, db_host: 'separate' });
  assert.ok(separate.model.processes > limited.model.processes, 'moving the DB away frees memory for workers');
  assert.ok(!separate.model.memory.some((m) => m.kind === 'database'));
});

test('Passenger directive names per Passenger version', () => {
  const site = (v) => code(file(gen({ server: 'passenger', server_version: v, proxy: 'apache', proxy_version: '2.4.62' }), 'etc/apache2/sites-available/rails-app.conf'));
  assert.match(site('2.2'), /RailsSpawnMethod smart/);
  assert.doesNotMatch(site('2.2'), /PassengerMinInstances|PassengerAppRoot/);
  assert.match(site('3.0'), /PassengerMinInstances/);
  assert.match(site('6.0'), /PassengerSpawnMethod smart/);
  assert.match(site('6.0'), /PassengerMaxPreloaderIdleTime 0/);
  assert.match(code(file(gen({ server: 'passenger', server_version: '6.0', proxy: 'apache', ruby: 'jruby', ruby_version: '9.4' }), 'etc/apache2/sites-available/rails-app.conf')), /PassengerSpawnMethod direct/);
});

test('nginx variables and Apache modules by version; Unicorn launcher by Rails version', async () => {
  const site = (v) => file(gen({ proxy_version: v }), 'etc/nginx/sites-enabled/rails-app.conf');
  for (const [v, want] of [['0.7.65', false], ['1.2.5', false], ['1.2.6', true], ['1.3.0', false], ['1.3.9', true], ['1.22', true]]) {
    assert.equal(/X-Request-Start/.test(site(v)), want, `$msec on nginx ${v}`);
  }
  const { apacheModules } = await import('../../guide/engine/generators/apache.mjs');
  const mods = (v) => apacheModules(derive({ ...DEFAULTS, server: 'thin', server_version: '1.8.2', proxy: 'apache', proxy_version: v }));
  assert.ok(mods('2.4.62').includes('lbmethod_byrequests'));
  assert.ok(!mods('2.2').includes('lbmethod_byrequests') && mods('2.2').includes('proxy_balancer'));
  const unit = (rails, ruby, v) => file(gen({ server: 'unicorn', server_version: '4.8', rails, ruby, ruby_version: v }), 'etc/systemd/system/rails-app.service');
  assert.match(unit('2.3.5', 'ree', '1.8.7'), /exec unicorn_rails -c/);
  assert.match(unit('4.2', 'cruby', '2.2'), /exec unicorn -c/);
});

test('a 1 GB host whose plan does not fit: error-level finding, and the command line exits 3 (issue 23)', async () => {
  const { spawnSync } = await import('node:child_process');
  const cli = new URL('../../guide/cli.mjs', import.meta.url).pathname;
  const r = spawnSync(process.execPath, [cli, '--answers', '-', '--format', 'json', '--date', '2026-11-25'], { input: JSON.stringify({ ram_gb: 1 }), encoding: 'utf8' });
  assert.equal(r.status, 3, r.stderr);
  const w = JSON.parse(r.stdout).warnings.find((x) => x.id === 'memory-over-budget');
  assert.equal(w.severity, 'error');
  assert.match(JSON.stringify(w), /SOLID_QUEUE_IN_PUMA/, 'the finding names the smaller plan');
  assert.equal(spawnSync(process.execPath, [cli, '--answers', '-', '--format', 'json', '--date', '2026-11-25'], { input: JSON.stringify({ ram_gb: 4 }), encoding: 'utf8' }).status, 0);
});

