// Misses a second blind trial of --check found (issue 25, 2026-11-26), each proven on the lines of the app's own
// files. Files under a copyleft licence are not copied: the few lines that matter are reproduced inline, with the
// repository and commit they come from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import '../../guide/engine/index.mjs';
import { ROOT } from './helpers.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { readFile } from '../../guide/check/read.mjs';
import { serverConfigPaths } from '../../guide/check/read-deploy.mjs';
import { reportText } from '../../guide/check/report-text.mjs';
import { UNIT_ROLES } from '../../guide/engine/capabilities/process.mjs';
import { check } from '../../guide/check/index.mjs';

const lock = (gems) => `GEM\n  remote: https://rubygems.org/\n  specs:\n${gems.map(([n, v]) => `    ${n} (${v})\n`).join('')}\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n${gems.map(([n]) => `  ${n}\n`).join('')}`;
const strong = (r) => r.findings.filter((f) => f.severity !== 'note');

// exercism/website 91595cb12c1fad57942968863337ae1854d9e4d4 (AGPL-3.0, lines reproduced): config/sidekiq.yml has
// :queues: and no :concurrency:, Gemfile.lock sidekiq (6.1.2), config/database.yml's default: anchor pool: 5,
// config/puma.rb `threads threads_count, threads_count` from RAILS_MAX_THREADS { 5 }.
const EXERCISM = {
  'config/sidekiq.yml': '---\n:queues:\n  # Rails defaults\n  - mailers\n  - default\n',
  'config/database.yml': 'default: &default\n  adapter: mysql2\n  encoding: utf8mb4\n  collation: utf8mb4_unicode_ci\n  pool: 5\n  username: exercism_v3\n\nproduction:\n  primary:\n    <<: *default\n    database: exercism_v3\n',
  'config/puma.rb': 'max_threads_count = ENV.fetch("RAILS_MAX_THREADS", 5)\nmin_threads_count = ENV.fetch("RAILS_MIN_THREADS") { max_threads_count }\nthreads min_threads_count, max_threads_count\n',
};
const app = (files) => Object.entries(files).map(([path, text]) => ({ path, text }));

test('Sidekiq 6 with no concurrency set runs its default 10 threads: above pool 5, an error (exercism 2021-03)', () => {
  const r = check(app({ ...EXERCISM, 'Gemfile.lock': lock([['mysql2', '0.5.3'], ['puma', '5.2.2'], ['rails', '6.1.3'], ['sidekiq', '6.1.2']]) }));
  assert.deepEqual(strong(r).map((f) => `${f.severity} ${f.rule} ${f.file}:${f.line}`), ['error pool-below-concurrency config/sidekiq.yml:1']);
  const f = strong(r)[0];
  assert.deepEqual([f.found, f.expected], ['10', '5']);
  assert.match(f.message, /Sidekiq runs 10 threads \(Sidekiq 6's default, sidekiq 6\.1\.2 at Gemfile\.lock:\d+; RAILS_MAX_THREADS unset\) but production's pool is 5/);
});

test('Sidekiq ≥ 7 defaults to 5 threads (no error on pool 5); RAILS_MAX_THREADS, when set, is its concurrency; 5.2–6.x default to 10', () => {
  const gems = (v) => lock([['mysql2', '0.5.3'], ['rails', '7.1.0'], ['sidekiq', v]]);
  assert.deepEqual(strong(check(app({ ...EXERCISM, 'Gemfile.lock': gems('7.3.9') }))), []);
  // Sidekiq 5.2.0 lowered DEFAULTS concurrency from 25 to 10 (lib/sidekiq.rb at the tags): 10 threads on pool 5.
  assert.deepEqual(strong(check(app({ ...EXERCISM, 'Gemfile.lock': gems('5.2.9') }))).filter((f) => f.rule === 'pool-below-concurrency').map((f) => f.found), ['10']);
  // RAILS_MAX_THREADS=12 in the app's environment (a .env file) gives Sidekiq 12 threads, above the literal pool 5.
  const env = check(app({ ...EXERCISM, 'Gemfile.lock': gems('7.3.9'), '.env': 'RAILS_MAX_THREADS=12\n' }));
  assert.deepEqual(strong(env).filter((f) => f.rule === 'pool-below-concurrency' && f.file === 'config/sidekiq.yml').map((f) => f.found), ['12']);
  // No Gemfile.lock: the version, hence the default, is unknown, nothing is claimed.
  assert.deepEqual(strong(check(app(EXERCISM))), []);
});

// errbit/errbit 68eede7514cd9854e1455c7e70e495b005938dab (MIT; tests/fixtures/trial-apps/errbit-2025-03-07):
// config/puma.default.rb line 9 `rackup DefaultRackup`, Gemfile.lock puma (6.6.0). errbit reverted that Puma bump
// (errbit PR #1686): DefaultRackup went in Puma 6.0 (puma PR #2928) and the line raises at boot.
const ERRBIT = join(ROOT, 'tests', 'fixtures', 'trial-apps', 'errbit-2025-03-07');
const errbitFile = (p) => readFileSync(join(ERRBIT, p), 'utf8');

test('rackup DefaultRackup on Puma ≥ 6: an error whose fix is to delete the line; on Puma 5 nothing (errbit 2025-03)', () => {
  const run = (lockText) => check([{ path: 'config/puma.rb', text: errbitFile('config/puma.default.rb') }, { path: 'Gemfile.lock', text: lockText }]);
  const r = run(errbitFile('Gemfile.lock'));
  const f = r.findings.filter((x) => x.rule === 'obsolete' && x.setting === 'rackup');
  assert.deepEqual(f.map((x) => `${x.severity} ${x.file}:${x.line}`), ['error config/puma.rb:9']);
  assert.match(f[0].message, /DefaultRackup was removed in Puma 6\.0; Puma 6\.6\.0 stops at boot .*delete the line/);
  assert.ok(f[0].evidence.some((e) => e.url === 'https://github.com/puma/puma/pull/2928'));
  const five = run(errbitFile('Gemfile.lock').replace('    puma (6.6.0)\n', '    puma (5.6.9)\n'));
  assert.deepEqual(five.findings.filter((x) => x.setting === 'rackup'), []);
  // rackup with a path stays valid on every version.
  const path = check([{ path: 'config/puma.rb', text: 'rackup "config.ru"\n' }, { path: 'Gemfile.lock', text: errbitFile('Gemfile.lock') }]);
  assert.deepEqual(path.findings.filter((x) => x.setting === 'rackup'), []);
});

test('puma -C FILE in the Procfile web line is the Puma config: read and compared, config/puma.rb not “not compared” (errbit 2025-03)', () => {
  // errbit's Procfile `web: bundle exec puma -C config/puma.default.rb`, its Dockerfile
  // `CMD ["bundle", "exec", "puma", "-C", "config/puma.default.rb"]`; it has no config/puma.rb.
  const inputs = collect([ERRBIT], undefined, ERRBIT);
  assert.ok(inputs.some((x) => x.path === 'config/puma.default.rb'), inputs.map((x) => x.path).join(' '));
  const r = check(inputs);
  assert.equal(r.files.find((f) => f.path === 'config/puma.default.rb')?.kind, 'puma');
  assert.deepEqual(r.notCompared.filter((n) => n.generated === 'config/puma.rb'), []);
  assert.ok(r.compared.some((c) => c.files.includes('config/puma.default.rb')));
  assert.deepEqual(r.findings.filter((f) => f.severity !== 'note').map((f) => `${f.severity} ${f.rule} ${f.file}:${f.line}`), ['error obsolete config/puma.default.rb:9']);
  assert.match(reportText(r), /config\/puma\.default\.rb:9: error: \[obsolete\] rackup/);
  assert.doesNotMatch(reportText(r), /Not compared[^\n]*config\/puma\.rb/);
});

test('-C/--config from the Dockerfile’s final stage, Kamal’s cmd and the Procfile; absolute, climbing and non-Puma commands not followed', () => {
  const read = (path, text) => readFile({ path, text });
  const paths = (files) => serverConfigPaths(files).map((x) => `${x.path} ${x.file}:${x.line}`);
  assert.deepEqual(paths([read('Dockerfile', 'FROM ruby AS build\nCMD ["puma", "-C", "config/build.rb"]\nFROM ruby\nCMD ["bundle", "exec", "puma", "-C", "config/puma.default.rb"]\n')]),
    ['config/puma.default.rb Dockerfile:4']);
  assert.deepEqual(paths([read('config/deploy.yml', 'service: app\nimage: app\nservers:\n  web:\n    hosts: [10.0.0.1]\n    cmd: bundle exec puma --config=./config/puma/kamal.rb\n')]),
    ['config/puma/kamal.rb config/deploy.yml:6']);
  assert.deepEqual(paths([read('Procfile', 'web: bundle exec puma -C /etc/puma.rb\nworker: bundle exec sidekiq -C config/sidekiq.yml\n')]), []);
  assert.deepEqual(paths([read('Procfile', 'web: bundle exec puma --config ../shared/puma.rb\n')]), []);
  assert.deepEqual(paths([read('Procfile', 'web: bundle exec rails server -C\n')]), []);
});

// mysociety/alaveteli 351eb61e0619a6f462bfc6f823c93cc42251d573 (AGPL-3.0, lines reproduced): config/puma.service.example
// and config/sidekiq.service.example, given as systemd units (their [Service] lines, ERB kept as written).
const UNIT = (exec) => `[Unit]\nDescription=<%= daemon_name %>\nAfter=network.target\n\n[Service]\nType=notify\n\nWatchdogSec=10\n\nUser=<%= user %>\nGroup=<%= user %>\nUMask=0002\n\nWorkingDirectory=<%= vhost_dir %>/<%= vcspath %>\n\n${exec}\n\nRestartSec=1\nRestart=always\n\n[Install]\nWantedBy=multi-user.target\n`;
const ALAVETELI = [
  { path: 'etc/systemd/system/puma.service', text: UNIT("ExecStart=/bin/bash -lc 'bundle exec puma -C config/puma.rb'\nExecStop=/bin/bash -lc 'bundle exec pumactl stop -F config/puma.rb'") },
  { path: 'etc/systemd/system/sidekiq.service', text: UNIT("ExecStart=/bin/bash -lc 'bundle exec sidekiq -e <%= rails_env %>'") },
  { path: 'Gemfile.lock', text: lock([['pg', '1.5.9'], ['puma', '6.6.0'], ['rails', '8.0.2'], ['sidekiq', '7.3.9']]) },
];

test('systemd: a user’s unit is compared with the generated unit of its role, by ExecStart; no -TSTP reload on a Puma unit (alaveteli)', () => {
  const r = check(ALAVETELI, { answers: { jobs: 'sidekiq' } });
  const on = (file, key) => r.findings.filter((f) => f.file === file && f.setting === key);
  const web = 'etc/systemd/system/puma.service';
  const jobs = 'etc/systemd/system/sidekiq.service';
  // Each unit compared with one generated unit: puma.service with rails-app.service, sidekiq.service with rails-jobs@.service.
  const pairs = Object.fromEntries(r.compared.filter((c) => c.kind === 'systemd').map((c) => [c.generated.split('/').pop(), c.files]));
  assert.deepEqual(pairs['rails-app.service'], [web]);
  assert.deepEqual(pairs['rails-jobs@.service'], [jobs]);
  assert.deepEqual(on(web, 'ExecReload').map((f) => f.expected).filter((v) => /TSTP/.test(v)), []);
  assert.doesNotMatch(r.findings.filter((f) => f.file === web).map((f) => f.message).join('\n'), /TSTP|PartOf rails-app\.service/);
  // No ExecReload suggested for the Sidekiq unit either: TSTP only quiets Sidekiq (no new jobs, no new code) until it
  // stops, so a reload that sends it leaves the runner idle; Sidekiq's own example unit has no ExecReload
  // (sidekiq/sidekiq examples/systemd/sidekiq.service: "Use `systemctl kill -s TSTP sidekiq` to quiet").
  assert.deepEqual(on(jobs, 'ExecReload').map((f) => f.expected), []);
  // A user's Sidekiq unit whose reload sends TSTP is told it leaves the runner idle; a web unit's TSTP is not judged here.
  const tstp = check([{ ...ALAVETELI[1], text: ALAVETELI[1].text.replace("sidekiq -e <%= rails_env %>'", "sidekiq -e <%= rails_env %>'\nExecReload=/bin/kill -TSTP $MAINPID") }, ALAVETELI[2]], { answers: { jobs: 'sidekiq' } });
  const quiet = tstp.findings.filter((f) => f.file === jobs && f.setting === 'ExecReload');
  assert.deepEqual(quiet.map((f) => [f.rule, f.severity, f.found]), [['jobs-not-run', 'warning', '/bin/kill -TSTP $MAINPID']]);
  assert.match(quiet[0].message, /only quiets Sidekiq.*systemctl kill -s TSTP/);
  // One finding per key and unit (no setting suggested twice from two generated units).
  const keys = r.findings.filter((f) => f.file === web).map((f) => f.setting);
  assert.deepEqual(keys, [...new Set(keys)]);
});

test('unit roles from ExecStart: Delayed Job’s rake jobs:work and bin/jobs are jobs, rails server and unicorn web, a wrapper script neither', () => {
  const role = (exec) => UNIT_ROLES.find((x) => x.exec.test(exec))?.role || 'any';
  assert.deepEqual(['/usr/bin/bundle exec rake jobs:work', 'bin/jobs', '/usr/bin/bundle exec good_job start', 'bundle exec sidekiq -e production',
    'bin/rails server -p 3000', '/usr/bin/bundle exec unicorn -c config/unicorn.rb', './bin/thrust ./bin/rails server', '/usr/local/bin/start-app.sh'].map(role),
  ['jobs', 'jobs', 'jobs', 'jobs', 'web', 'web', 'web', 'any']);
});
