// Suggested lines must run in the app they are written for (issue 25, user trial): a `[differs] threads`
// suggestion wrote the wizard's own local `max_threads` into apps that never define it, and Puma raised
// NameError when it loaded the config; nginx suggestions likewise named the bundle's upstream rails_app and @rails.
// (Every Ruby diff on the whole corpus is applied and read again in
// corpus.test.mjs, with undefinedInSuggestions from helpers.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { runApp } from '../../scripts/lib/doctor-corpus.mjs';
import { collect } from '../../guide/check/collect.mjs';
import { check } from '../../guide/check/index.mjs';
import { applyDiff } from './helpers.mjs';
import { readFile } from '../../guide/check/read.mjs';
import { ownLocals, ownNginxNames } from '../../guide/check/own-names.mjs';

test('campfire and vita-min: the threads note labels the wizard\'s 3, 3 as its preference and writes no diff', () => {
  // A wizard number written into the app would replace the app's own choice (issue 25): the note says why instead.
  for (const app of ['campfire', 'vita-min']) {
    const f = runApp(app).report.findings.find((x) => x.setting === 'threads' && x.rule === 'differs');
    assert.equal(f.severity, 'note', app);
    assert.equal(f.diff, null, app);
    assert.match(f.message, /^threads is 5, 5; the wizard's preference for these answers is 3, 3, a choice: it rests on answers the files do not tell \(.+\); no change is suggested$/, app);
  }
});

test('a local the app defines from the same ENV variable and value is kept by name', () => {
  const gen = readFile({ path: 'config/puma.rb', kind: 'puma', text: 'max_threads = Integer(ENV.fetch("RAILS_MAX_THREADS") { 3 })\nthreads max_threads, max_threads\n' }).assigns;
  const same = readFile({ path: 'config/puma.rb', kind: 'puma', text: 'n = ENV.fetch("RAILS_MAX_THREADS") { 3 }\nthreads 1, n\n' }).assigns;
  assert.deepEqual(ownLocals(['threads max_threads, max_threads'], gen, same), ['threads n, n']);
  const other = readFile({ path: 'config/puma.rb', kind: 'puma', text: 'n = ENV.fetch("RAILS_MAX_THREADS") { 5 }\nthreads 1, n\n' }).assigns;
  assert.deepEqual(ownLocals(['threads max_threads, max_threads'], gen, other), ['threads 3, 3']);
  assert.deepEqual(ownLocals(['threads max_threads, max_threads'], gen, gen), ['threads max_threads, max_threads']);
});

test('nginx suggestions, each applied alone, pass nginx -t and name only the file\'s own upstream and named locations', () => {
  // The generated bundle's upstream is rails_app and its named location @rails; this file says app_server and @app
  // and has no map for $connection_upgrade (a suggestion using it without the map fails nginx -t).
  const dir = mkdtempSync(join(tmpdir(), 'doctor-nginx-'));
  try {
    const conf = [
      `pid ${dir}/nginx.pid;`, `error_log ${dir}/error.log;`, 'events {}', 'http {',
      `  access_log off; client_body_temp_path ${dir}/b; proxy_temp_path ${dir}/p; fastcgi_temp_path ${dir}/f; uwsgi_temp_path ${dir}/u; scgi_temp_path ${dir}/s;`,
      '  upstream app_server {', '    server 127.0.0.1:9;', '  }', '  server {', '    listen 127.0.0.1:8089;', `    root ${dir};`,
      '    try_files $uri/index.html $uri @app;', '    location @app {', '      proxy_pass http://app_server;', '    }', '  }', '}', '',
    ].join('\n');
    writeFileSync(join(dir, 'nginx.conf'), conf);
    const nginxT = (file) => spawnSync('/usr/sbin/nginx', ['-t', '-q', '-p', dir, '-c', file], { encoding: 'utf8', timeout: 10000 });
    assert.equal(nginxT(join(dir, 'nginx.conf')).status, 0, 'the file itself is valid');
    // The suggestions are for the nginx that validates them (http2 on; needs 1.25.1, Debian 12 has 1.22), plain HTTP (a certificate line alone is not a valid config).
    const version = /nginx\/(\d+\.\d+)/.exec(spawnSync('/usr/sbin/nginx', ['-v'], { encoding: 'utf8' }).stderr)[1];
    // websockets given: the location block's Upgrade lines rest on it, and a suggestion resting on an assumed answer has no diff.
    const report = check(collect([join(dir, 'nginx.conf')], undefined, dir), { answers: { proxy_version: version, tls: 'none', websockets: false } });
    const diffs = report.findings.filter((f) => f.diff);
    assert.ok(diffs.length >= 3, `${diffs.length} suggestions`);
    for (const [k, f] of diffs.entries()) {
      const { text } = applyDiff(conf, f.diff);
      const added = f.diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).join('\n');
      assert.doesNotMatch(added, /rails_app|@rails\b/, `${f.rule} ${f.setting}`);
      writeFileSync(join(dir, `try-${k}.conf`), text);
      const r = nginxT(join(dir, `try-${k}.conf`));
      assert.equal(r.status, 0, `${f.rule} ${f.setting}:\n${added}\n${r.stderr}`);
    }
    assert.ok(diffs.some((f) => /@app\b/.test(f.diff) || /http:\/\/app_server/.test(f.diff)), 'names rewritten to the file\'s own');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('nginx names: the file\'s single upstream or proxy_pass target; no counterpart, no suggestion', () => {
  const gen = 'upstream rails_app { server x; }\nmap $http_upgrade $connection_upgrade { default upgrade; }\nlocation @rails { proxy_pass http://rails_app; }\n';
  assert.deepEqual(ownNginxNames(['proxy_pass http://rails_app;'], gen, ['upstream web { server y; }']), ['proxy_pass http://web;']);
  assert.deepEqual(ownNginxNames(['proxy_pass http://rails_app;'], gen, ['location / { proxy_pass http://127.0.0.1:3000; }']), ['proxy_pass http://127.0.0.1:3000;']);
  assert.equal(ownNginxNames(['proxy_pass http://rails_app;'], gen, ['upstream a { } upstream b { }']), null);
  assert.equal(ownNginxNames(['try_files $uri @rails;'], gen, ['server { }']), null);
  assert.equal(ownNginxNames(['proxy_set_header Connection $connection_upgrade;'], gen, ['server { }']), null);
  assert.deepEqual(ownNginxNames(['map $http_upgrade $connection_upgrade {', '}'], gen, ['server { }']), ['map $http_upgrade $connection_upgrade {', '}']);
  assert.deepEqual(ownNginxNames(['proxy_set_header Connection $connection_upgrade;'], gen, ['map $http_upgrade $connection_upgrade { }']), ['proxy_set_header Connection $connection_upgrade;']);
});
