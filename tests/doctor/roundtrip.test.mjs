// Round trip: the bundle the wizard generates, checked with `--check`, gives no findings and the
// answers the files can tell are detected back. Several answer sets, through the real CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, writeBundle } from './helpers.mjs';

// What the bundle itself tells must be detected; everything else (host facts, versions no generated file
// names, answers added to the engine later) is passed as --answers.
const DETECTED = ['server', 'proxy', 'database', 'adapter', 'pooler', 'db_host', 'domain', 'app_root'];

const SETS = [
  {},
  { cores: 8, ram_gb: 16, workload: 'io', rails: '8.1', server_version: '7.0', database_version: '17', ruby_version: '3.4' },
  { cores: 4, ram_gb: 8, pooler: 'pgbouncer', pooler_version: '1.24', app_hosts: 3, db_host: 'separate', rails: '7.1', workload: 'cpu' },
  { server: 'unicorn', server_version: '6.1', cores: 4, rails: '7.0', ruby_version: '3.1' },
  { database: 'mysql', adapter: 'trilogy', database_version: '8.4', rails: '7.2', proxy: 'apache', proxy_version: '2.4' },
  { database: 'sqlite', adapter: 'sqlite3', rails: '8.0', proxy: 'caddy', proxy_version: '2.8', cores: 2, ram_gb: 2 },
  { rails: '8.1', server_version: '7.1', domain: 'shop.example.org', app_root: '/srv/shop', jobs: 'sidekiq', job_processes: 2, tls: 'proxy' },
];

for (const set of SETS) {
  test(`round trip: ${JSON.stringify(set)} gives no findings`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctor-rt-'));
    try {
      const bundle = writeBundle(join(dir, 'bundle'), set);
      const given = Object.fromEntries(Object.entries(set).filter(([k]) => !DETECTED.includes(k)));
      writeFileSync(join(dir, 'answers.json'), JSON.stringify(given));
      const r = runCli(['--check', join(dir, 'bundle'), '--answers', join(dir, 'answers.json'), '--format', 'json', '--fail-on', 'note']);
      const report = JSON.parse(r.stdout);
      assert.deepEqual(report.problems, []);
      assert.deepEqual(report.findings.map((f) => `${f.file}:${f.line} ${f.rule} ${f.setting} ${f.message}`), []);
      assert.equal(r.code, 0, r.stderr);
      // Everything the bundle says about the stack is detected back from it.
      for (const key of DETECTED) {
        if (!(key in set)) continue;
        if (key === 'pooler' && set.pooler === 'none') continue;
        assert.equal(String(report.answers[key]), String(set[key]), `${key} detected from the bundle`);
        assert.ok(report.detected[key].file, `${key} has provenance`);
      }
      assert.ok(report.compared.length >= 2, `files compared: ${JSON.stringify(report.compared)}`);
      assert.ok(bundle.files.length > 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
