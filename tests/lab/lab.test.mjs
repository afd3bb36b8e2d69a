// The modern-stack lab, end to end: build (cached), the reference Rails 8.1 app booted with Puma 8 on
// PostgreSQL 17, on SQLite and on Ruby 3.4; `status` reports exact versions. Failure paths live in
// lab-failures.test.mjs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ensureLab, labScript, runLabCommand } from '../helpers/lab.mjs';

let lab;
before(async () => { lab = await ensureLab(); });

function requireLab() {
  assert.ok(lab.ok, `the lab could not be built: ${lab.reason}`);
}

// Boots the app and checks the pages a measurement would use; prints one line per check for the assertions.
const bootAndProbe = (db) => `
  lab-app prepare --db ${db} >&2
  lab-app serve --port 3000 >&2
  for path in /up /api /regular /heavy /patterns/eager /static/small.html; do
    printf 'status %s %s\\n' "$path" "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:3000$path")"
  done
  printf 'puma %s\\n' "$(cd /srv/app && bundle exec puma --version | awk '{print $3}')"
  printf 'rails %s\\n' "$(cd /srv/app && bin/rails runner 'print Rails.version' 2>/dev/null)"
  printf 'ruby %s\\n' "$(ruby -e 'print RUBY_VERSION')"
  printf 'adapter %s\\n' "$(cd /srv/app && bin/rails runner 'print ActiveRecord::Base.connection.adapter_name' 2>/dev/null)"
  lab-app stop
`;

function parse(stdout) {
  const out = {};
  for (const line of stdout.split('\n')) {
    const [key, ...rest] = line.trim().split(' ');
    if (key === 'status') out[rest[0]] = rest[1];
    else if (key) out[key] = rest.join(' ');
  }
  return out;
}

function assertBooted(r, { ruby, adapter }) {
  assert.equal(r.code, 0, `lab run failed (${r.code}):\n${r.stderr.slice(-3000)}`);
  const out = parse(r.stdout);
  for (const path of ['/up', '/api', '/regular', '/heavy', '/patterns/eager', '/static/small.html']) {
    assert.equal(out[path], '200', `${path} answered ${out[path]}\n${r.stderr.slice(-2000)}`);
  }
  assert.match(out.puma, /^8\./, 'Puma 8 serves the app');
  assert.match(out.rails, /^8\.1\./, 'the app runs Rails 8.1');
  assert.match(out.ruby, ruby);
  assert.equal(out.adapter, adapter);
}

test('a cached build is quick (≤ 30 s)', async () => {
  requireLab();
  const r = await runLabCommand(['build'], { timeout: 120 });
  assert.equal(r.code, 0, r.stderr);
  const seconds = Number(/checked in (\d+) s/.exec(r.stderr)?.[1]);
  assert.ok(seconds <= 30, `cached build took ${seconds} s: ${r.stderr}`);
});

test('Rails 8.1 + Puma 8 + PostgreSQL 17 on Ruby 3.3 answers 200', { timeout: 600_000 }, async () => {
  requireLab();
  const r = await labScript(`${bootAndProbe('postgresql')}
    printf 'postgres %s\\n' "$(psql -h 127.0.0.1 -U lab -d lab_production -Atc 'show server_version')"
    printf 'databases %s\\n' "$(psql -h 127.0.0.1 -U lab -d postgres -Atc "select string_agg(datname, ',' order by datname) from pg_database where datname like 'lab_production%'")"`, { timeout: 420 });
  assertBooted(r, { ruby: /^3\.3\./, adapter: 'PostgreSQL' });
  const out = parse(r.stdout);
  assert.match(out.postgres, /^17\./);
  assert.equal(out.databases, 'lab_production,lab_production_cable,lab_production_cache,lab_production_queue',
    'primary, cache, queue and cable databases (Rails 8 layout)');
});

test('the same app on SQLite answers 200, with its files under storage/', { timeout: 600_000 }, async () => {
  requireLab();
  const r = await labScript(`${bootAndProbe('sqlite')}
    printf 'files %s\\n' "$(cd /srv/app/storage && ls *.sqlite3 | sort | tr '\\n' ',')"`, { timeout: 420 });
  assertBooted(r, { ruby: /^3\.3\./, adapter: 'SQLite' });
  assert.equal(parse(r.stdout).files, 'production.sqlite3,production_cable.sqlite3,production_cache.sqlite3,production_queue.sqlite3,');
});

test('the same app on Ruby 3.4 answers 200', { timeout: 600_000 }, async () => {
  requireLab();
  const r = await labScript(bootAndProbe('postgresql'), { timeout: 420, ruby: '3.4' });
  assertBooted(r, { ruby: /^3\.4\./, adapter: 'PostgreSQL' });
});

test('status lists exact versions of every component', async () => {
  requireLab();
  const r = await runLabCommand(['status', '--json'], { timeout: 120 });
  assert.equal(r.code, 0, r.stderr);
  const status = JSON.parse(r.stdout);
  assert.equal(status.state, 'ready');
  const version = (name) => status.components.find((c) => c.name === name)?.version;
  // Debian package versions are exact (epoch, upstream, Debian revision); gem versions come from Gemfile.lock.
  const exact = {
    'ruby3.3': /^3\.3\.\d+-\d/, 'ruby3.4': /^3\.4\.\d+-\d/, 'postgresql-17': /^17\.\d+-\d/, 'mariadb-server': /^1:11\.8\.\d+/,
    nginx: /^1\.26\.\d+-\d/, apache2: /^2\.4\.\d+-\d/, caddy: /^2\.\d+\.\d+/, haproxy: /^3\.\d+\.\d+/, pgbouncer: /^1\.\d+\.\d+/,
    sqlite3: /^3\.\d+\.\d+/, libjemalloc2: /^5\.3\./, wrk: /^4\./, hyperfine: /^1\./, rails: /^8\.1\.4$/, puma: /^8\.\d+\.\d+$/,
  };
  for (const [name, pattern] of Object.entries(exact)) assert.match(version(name) ?? '(missing)', pattern, name);
  const rubies = status.components.filter((c) => c.kind === 'ruby').map((c) => c.version);
  for (const description of rubies) assert.match(description, /built without YJIT/, 'Debian builds Ruby 3.3/3.4 without YJIT: status says so');
  assert.match(status.size, /^\d+(\.\d+)?[MG]$/);
});
