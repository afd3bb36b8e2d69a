// Distribution families as command tables: every command in a bundle README's shell steps is checked against the
// table of the family the bundle is for (capabilities/family-commands.mjs): its program is a shared one or the
// family's own, `systemctl` names the family's units (or the bundle's own), installs name the family's packages, and
// nothing of another family leaks in (no apt-get, adduser or editor on RHEL; no dnf or useradd on Debian). RHEL cannot
// be booted in the lab: this structural check is its proof, and its README says so.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';
import { derive } from '../../guide/engine/derive.mjs';
import { FAMILY_COMMANDS, COMMON_PROGRAMS } from '../../guide/engine/capabilities/family-commands.mjs';
import { pgMajor } from '../../guide/engine/generators/postgresql.mjs';
import { buildMatrix } from './matrix.mjs';

const DATE = '2026-11-25';

/** Shell blocks of a README, as lines. */
function shellLines(readme) {
  return [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1].split('\n')).filter((l) => l && !l.startsWith('#'));
}

/** Simple commands of a line: split at && || ; | outside quotes, groups and redirections dropped. */
export function commands(line) {
  const out = [];
  let cur = '';
  let q = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) { if (c === q) q = null; cur += c; continue; }
    if (c === '"' || c === "'") { q = c; cur += c; continue; }
    const two = line.slice(i, i + 2);
    if (two === '&&' || two === '||') { out.push(cur); cur = ''; i++; continue; }
    if (c === ';' || c === '|') { out.push(cur); cur = ''; continue; }
    cur += c;
  }
  out.push(cur);
  return out.map((c) => c.trim().replace(/^[{(]\s*/, '').replace(/\s*[})]$/, '').trim()).filter((c) => c && c !== '}' && c !== ')');
}

const SHELL_WORDS = ['if', 'then', 'else', 'elif', 'fi', '!'];

function check(r) {
  const ctx = derive(r.answers);
  const fam = FAMILY_COMMANDS[ctx.family.id];
  const readme = r.files.find((f) => f.path === 'README.md').content;
  const lines = shellLines(readme);
  if (!fam) return { lines: 0, family: ctx.family.id };
  const major = r.answers.database === 'postgresql' ? pgMajor(r.answers.database_version) : '';
  const fill = (s) => s.replace(/\{major\}/g, major).replace(/\{bin\}/g, ctx.rubyBin);
  const programs = new Set([...COMMON_PROGRAMS, ...fam.programs].map(fill));
  // The family's row and its per-release rows (byEl: RHEL 10's package and unit names).
  const rows = [fam, ...Object.values(fam.byEl || {})];
  const units = new Set(rows.flatMap((row) => Object.values(row.services || {})).map(fill));
  const packages = new Set([...rows.flatMap((row) => Object.values(row.packages || {})), fam.mysqlRepo?.package || '', fam.mariadbRepo?.package || ''].map(fill).flatMap((p) => p.split(' ')));
  const problems = [];
  // Shell functions the README defines itself (step 4's `put() { …; }`): their name is a command of the README, and
  // their body's commands are checked like any other line.
  const defined = new Set(lines.flatMap((l) => [...l.matchAll(/(?:^|[;&|]\s*)([A-Za-z_][\w-]*)\(\)\s*\{/g)].map((m) => m[1])));
  for (const line of lines) {
    for (const cmd of commands(line)) {
      // Shell keywords (if, then, fi, …) and variable assignments are not programs: the program is what follows them.
      const words = cmd.split(/\s+/);
      while (words.length && (SHELL_WORDS.includes(words[0]) || /^[A-Za-z_][A-Za-z0-9_]*=\S*$/.test(words[0]))) words.shift();
      if (!words.length) continue;
      // A subshell's opening parenthesis after a keyword (`then (umask 077 && …)`) is not part of the program.
      const prog = words[0].replace(/^\(+/, '');
      if (defined.has(prog.replace(/\(\)$/, ''))) continue;
      if (!programs.has(prog)) problems.push(`${ctx.family.id}: "${prog}" (in: ${line}) is not in the family's table`);
      if (prog === 'systemctl' && ['restart', 'reload', 'start', 'stop', 'enable'].includes(words[1])) {
        for (const u of words.slice(2).filter((w) => !w.startsWith('-'))) {
          if (!units.has(u) && !/^(rails-app|rails-jobs(@\d+)?|kamal-proxy)(\.service)?$/.test(u)) problems.push(`${ctx.family.id}: unit "${u}" (in: ${line}) is not the family's`);
        }
      }
      if ((prog === 'apt-get' || prog === 'dnf') && words[1] === 'install') {
        // A local release package (MySQL's mysql-apt-config, fetched by the line before) is not a package name.
        for (const p of words.slice(2).filter((w) => !w.startsWith('-') && !w.startsWith('https://') && !w.startsWith('/tmp/') && w !== 'epel-release' && w !== 'postgresql-common')) {
          if (!packages.has(p)) problems.push(`${ctx.family.id}: package "${p}" (in: ${line}) is not in the family's package table`);
        }
      }
    }
  }
  return { lines: lines.length, family: ctx.family.id, problems, readme };
}

test('the command splitter keeps quoted hooks whole', () => {
  assert.deepEqual(commands(`command -v nginx >/dev/null || apt-get install -y nginx`), ['command -v nginx >/dev/null', 'apt-get install -y nginx']);
  assert.deepEqual(commands(`certbot certonly --deploy-hook 'cat a b > c && chmod 0600 c'`).length, 1);
  assert.deepEqual(commands(`test -x x || { echo "no: here"; exit 1; }`), ['test -x x', 'echo "no: here"', 'exit 1']);
  // The check finds a Debian command, unit or package in a RHEL README.
  const r = generate({ distro: 'rocky-9' }, { date: DATE });
  const readme = r.files.find((f) => f.path === 'README.md');
  for (const [from, to] of [['useradd --system', 'adduser --system'], ['systemctl restart postgresql-', 'systemctl restart postgresql-x'], ['dnf install -y nginx', 'dnf install -y apache2']]) {
    const bad = { ...r, files: [{ ...readme, content: readme.content.replace(from, to) }] };
    assert.ok(check(bad).problems.length > 0, `${to} is flagged`);
  }
});

test('every README command of every bundle comes from its family\'s table', () => {
  const answers = [...buildMatrix()];
  // The RHEL family across the choices that change the steps.
  for (const proxy of ['nginx', 'apache', 'caddy', 'kamal-proxy']) {
    for (const database of ['postgresql', 'mysql', 'mariadb', 'sqlite']) {
      answers.push({ distro: 'rocky-9', proxy, database, database_version: { postgresql: '16', mysql: '8.0', mariadb: '10.11', sqlite: '3.40' }[database], adapter: { postgresql: 'pg', mysql: 'trilogy', mariadb: 'mysql2', sqlite: 'sqlite3' }[database] });
    }
  }
  // EL10 (its own package names, Valkey, no module lines): rhel10.test.mjs.
  for (const database of ['postgresql', 'mysql', 'mariadb']) answers.push({ distro: 'rocky-10', database, jobs: 'sidekiq', adapter: database === 'postgresql' ? 'pg' : 'trilogy' });
  answers.push({ distro: 'almalinux-9', pooler: 'pgbouncer', app_root: '/srv/rails/current', ruby_path: '/home/deploy/.rbenv/versions/3.4.7/bin' });
  // MySQL from the vendor's repository: Debian (none shipped), Ubuntu 24.04 and RHEL 9 (8.0 shipped) with 8.4.
  for (const distro of ['debian-13', 'debian-12', 'ubuntu-24.04', 'rocky-9']) for (const v of ['8.0', '8.4']) answers.push({ distro, database: 'mysql', database_version: v, adapter: 'trilogy' });
  for (const database of ['mysql', 'mariadb']) answers.push({ database, database_version: database === 'mysql' ? '8.4' : '11.8', adapter: 'trilogy', db_host: 'separate', app_hosts: 2, lb: 'haproxy' });
  // README steps 0 and 11 on RHEL (its database host and balancer, rhel-steps2).
  for (const lb of ['haproxy', 'nginx']) for (const database of ['postgresql', 'mysql']) answers.push({ distro: 'rocky-9', database, database_version: database === 'mysql' ? '8.4' : '18', adapter: database === 'mysql' ? 'trilogy' : 'pg', pooler: lb === 'haproxy' && database === 'postgresql' ? 'pgbouncer' : 'none', db_host: 'separate', app_hosts: 2, lb });
  const byFamily = {};
  const problems = [];
  for (const a of answers) {
    const r = generate(a, { date: DATE });
    const c = check(r);
    byFamily[c.family] = (byFamily[c.family] || 0) + c.lines;
    problems.push(...(c.problems || []));
  }
  assert.deepEqual([...new Set(problems)].slice(0, 10), []);
  assert.ok(byFamily.debian > 1000 && byFamily.rhel > 100, JSON.stringify(byFamily));
  console.log(`README lines checked per family: ${JSON.stringify(byFamily)}`);
});

test('RHEL: useradd, dnf with PGDG and initdb, postgresql-NN, the conf.d include, firewalld and SELinux are steps; README says it was not booted', () => {
  const r = generate({ distro: 'rocky-9', database: 'postgresql', database_version: '16', proxy: 'nginx' }, { date: DATE });
  const readme = r.files.find((f) => f.path === 'README.md').content;
  for (const re of [/useradd --system/, /pgdg-redhat-repo-latest\.noarch\.rpm/, /postgresql-16-setup initdb/, /systemctl restart postgresql-16/, /include_dir = 'conf\.d'/,
    /install -D -m 0644 etc\/nginx\/sites-enabled\/rails-app\.conf \/etc\/nginx\/conf\.d\/rails-app\.conf/, /firewall-cmd --permanent --add-service=http --add-service=https/,
    /semanage fcontext -a -t httpd_var_run_t '\/var\/www\/app\/tmp\/sockets\(\/\.\*\)\?'/, /checked by structure only/]) assert.match(readme, re);
  assert.doesNotMatch(readme, /apt-get|adduser|^editor /m);
  const deb = generate({ distro: 'debian-13' }, { date: DATE }).files.find((f) => f.path === 'README.md').content;
  assert.match(deb, /booted on Debian 13/);
  assert.doesNotMatch(deb, /dnf|useradd|firewall-cmd|setsebool/);
  // A PostgreSQL major Debian 13 does not ship (it has 17) comes from PGDG; the shipped one does not.
  assert.match(generate({ distro: 'debian-13', database_version: '18' }, { date: DATE }).files.find((f) => f.path === 'README.md').content, /apt\.postgresql\.org\.sh -y/);
  assert.doesNotMatch(deb, /apt\.postgresql\.org\.sh/);
  // Debian's Apache steps enable the modules the site names and the site itself.
  const apache = generate({ distro: 'debian-13', proxy: 'apache' }, { date: DATE });
  const site = apache.files.find((f) => f.path === 'etc/apache2/sites-available/rails-app.conf');
  assert.match(apache.files.find((f) => f.path === 'README.md').content, new RegExp(`^a2enmod ${site.meta.modules.join(' ')}\\na2ensite rails-app\\napache2ctl configtest`, 'm'));
});

// MySQL (issue 24): Debian's archive has no MySQL server, Ubuntu 24.04 and RHEL 9 ship 8.0. README step 1 adds
// MySQL's own repository for a series the release lacks and installs that repository's server; nothing of it can be
// booted in the lab, so the README says which parts were booted there and that MySQL was checked by structure only.
test('MySQL: the vendor repository steps where the release lacks the series, each command from the family table; README says MySQL was not booted', () => {
  const readmeOf = (a) => generate({ database: 'mysql', adapter: 'trilogy', ...a }, { date: DATE }).files.find((f) => f.path === 'README.md').content;
  const cases = [
    { distro: 'debian-13', v: '8.4', repo: /^test -e \/etc\/apt\/sources\.list\.d\/mysql\.list \|\| echo "mysql-apt-config mysql-apt-config\/select-server select mysql-8\.4-lts" \| debconf-set-selections$/m, server: /^command -v mysqld >\/dev\/null \|\| DEBIAN_FRONTEND=noninteractive apt-get install -y mysql-server$/m },
    { distro: 'debian-12', v: '8.0', repo: /select-server select mysql-8\.0"/, server: /DEBIAN_FRONTEND=noninteractive apt-get install -y mysql-server$/m },
    { distro: 'ubuntu-24.04', v: '8.4', repo: /select-server select mysql-8\.4-lts"/, server: /DEBIAN_FRONTEND=noninteractive apt-get install -y mysql-server$/m },
    { distro: 'ubuntu-24.04', v: '8.0', repo: null, server: /^command -v mysqld >\/dev\/null \|\| apt-get install -y mysql-server$/m },
    { distro: 'rocky-9', v: '8.4', repo: /^rpm -q mysql84-community-release >\/dev\/null \|\| dnf install -y https:\/\/dev\.mysql\.com\/get\/mysql84-community-release-el9-1\.noarch\.rpm$/m, server: /dnf install -y mysql-community-server$/m },
    // RHEL's own mysql-server keeps mysqld in /usr/libexec: rpm -q guards it (trial 24).
    { distro: 'rocky-9', v: '8.0', repo: null, server: /^rpm -q mysql-server >\/dev\/null \|\| dnf install -y mysql-server$/m },
  ];
  for (const c of cases) {
    const a = { distro: c.distro, database_version: c.v };
    const readme = readmeOf(a);
    const r = generate({ database: 'mysql', adapter: 'trilogy', ...a }, { date: DATE });
    assert.deepEqual(check(r).problems, [], `${c.distro} MySQL ${c.v}`);
    if (c.repo) {
      assert.match(readme, c.repo, `${c.distro} ${c.v}: repository step`);
      // The repository comes before the server it provides, in step 1.
      const step1 = readme.split('### 2.')[0];
      assert.ok(step1.search(c.repo) >= 0 && step1.search(c.repo) < step1.search(c.server), `${c.distro} ${c.v}: repository, then server`);
      assert.ok(r.warnings.some((w) => w.id === 'distro-database' && w.severity === 'info' && /the README adds MySQL's own repository \(mysql/.test(w.message)), `${c.distro} ${c.v}: ${r.warnings.map((w) => w.id)}`);
    } else {
      assert.doesNotMatch(readme, /mysql-apt-config|community-release/, `${c.distro} ${c.v}: the release's own MySQL`);
    }
    assert.match(readme, c.server, `${c.distro} ${c.v}: server package`);
    // Never a boot claim for MySQL: Debian bundles say what the lab booted and that MySQL was checked by structure;
    // RHEL bundles that the whole README was.
    assert.match(readme, c.distro.startsWith('rocky') ? /These steps were checked by structure only/ : /checked by structure only[^\n]*not booted: the database MySQL/, c.distro);
    assert.doesNotMatch(readme, /\(tests\/wizard\/lab-default-bundle\.test\.mjs\)\.$/m);
  }
  // A database host of its own (Debian): its block installs the server the same way before its files.
  const sep = readmeOf({ distro: 'debian-13', database_version: '8.4', db_host: 'separate', app_hosts: 2, lb: 'haproxy' });
  assert.match(sep, /select mysql-8\.4-lts" \| debconf-set-selections\n[^`]*apt-get install -y mysql-server\nMY=\n(?:cmp -s [^\n]* \|\| MY=1\n)+install -D -m 0644 db-host\/etc\/mysql\/mysql\.conf\.d\/zz-rails\.cnf/);
  const deb = readmeOf({ distro: 'debian-13', database_version: '8.4' });
  assert.match(deb, /booted on Debian 13 \(trixie\)[^\n]*the server Puma \(tests\/wizard\/lab-default-bundle\.test\.mjs\); the job backend Solid Queue/);
  assert.match(deb, /Debian's archive has no MySQL server[^\n]*lab-mariadb-bundle\.test\.mjs/);
  // MariaDB names its own proof; RHEL claims no boot at all.
  assert.match(generate({ distro: 'debian-13', database: 'mariadb', database_version: '11.8', adapter: 'mysql2' }, { date: DATE }).files.find((f) => f.path === 'README.md').content, /the database MariaDB \(tests\/wizard\/lab-mariadb-bundle\.test\.mjs\)/);
  assert.doesNotMatch(readmeOf({ distro: 'rocky-9', database_version: '8.4' }), /were booted/);
});
