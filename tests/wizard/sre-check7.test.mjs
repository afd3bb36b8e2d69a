// The seventh stop on issue 23's SRE review (/work/notes/sre6-review.md): the blocker fixed there, checked on the
// generated README (the order of its shell lines), for each way the wizard installs a MySQL-family server.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';

const DATE = '2026-11-27';
const readme = (a) => generate(a, { date: DATE }).files.find((f) => f.path === 'README.md').content;
const lines = (text) => text.split('\n');
const MULTI = { app_hosts: 2, lb: 'nginx', db_host: 'separate', app_addresses: '10.0.0.11,10.0.0.12', db_address: '10.0.0.20', lb_address: '10.0.0.10' };

// The line that feeds the grants file to a client, and the client it names.
const grantsLines = (text) => lines(text).filter((l) => /^\S+ < (db-host\/)?setup\/mysql-grants\.sql$/.test(l));

// D1: MariaDB's own packages from 11.0 move the `mysql` names into -compat packages (its RPMs install none from
// 11.4.5), so a host set up from MariaDB's repository may have no `mysql`: the grants never ran and db:prepare was
// refused. Where README installs from MariaDB's repository the grants go to `mariadb`, after the server's install.
test('D1: README feeds the grants to mariadb where MariaDB comes from its own repository, after installing it', () => {
  const cases = [
    { name: 'rocky-9 on the host', a: { distro: 'rocky-9', cores: 2, ram_gb: 4, database: 'mariadb', database_version: '11.8', jobs: 'solid_queue' }, file: 'setup/mysql-grants.sql' },
    { name: 'rocky-9 database host', a: { distro: 'rocky-9', cores: 4, ram_gb: 8, database: 'mariadb', database_version: '11.8', ...MULTI }, file: 'db-host/setup/mysql-grants.sql' },
  ];
  for (const { name, a, file } of cases) {
    const text = readme(a);
    assert.deepEqual(grantsLines(text), [`mariadb < ${file}`], name);
    const all = lines(text);
    const repo = all.findIndex((l) => l.includes('/etc/yum.repos.d/MariaDB.repo'));
    const server = all.findIndex((l) => /dnf install -y MariaDB-server$/.test(l));
    const grants = all.indexOf(`mariadb < ${file}`);
    assert.ok(repo >= 0 && repo < server && server < grants, `${name}: repository, then MariaDB-server, then the grants`);
  }
});

test('D1: the distributions\' own MariaDB packages and MySQL keep the mysql client', () => {
  const cases = [
    // Debian 13 ships 11.8 itself (booted with `mysql` in the lab), Rocky 9 ships 10.5.
    { name: 'debian-13 MariaDB 11.8', a: { distro: 'debian-13', database: 'mariadb', database_version: '11.8' } },
    { name: 'rocky-9 MariaDB 10.5', a: { distro: 'rocky-9', database: 'mariadb', database_version: '10.5' } },
    { name: 'ubuntu-24.04 MySQL 8.0', a: { distro: 'ubuntu-24.04', database: 'mysql', database_version: '8.0' } },
  ];
  for (const { name, a } of cases) {
    const text = readme({ cores: 4, ram_gb: 8, ...a });
    assert.deepEqual(grantsLines(text), ['mysql < setup/mysql-grants.sql'], name);
    assert.doesNotMatch(text, /MariaDB\.repo|mariadb\.org/, `${name}: no vendor repository`);
  }
});
