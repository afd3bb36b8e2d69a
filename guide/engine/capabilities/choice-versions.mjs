// Versions per choice (issue 23 trial): the version a question gets when the answers name none, and the release
// series that exist, for each value of the choice it belongs to. `distro`: the column of DISTRO_RELEASES
// (family-commands.mjs) whose version the release ships wins over `current`, so a bundle configures what
// `apt-get`/`dnf install` gives. `majors`: the major series that were ever released (a version whose major is not
// listed does not exist: "Unicorn 8.0", "MySQL 17"); `minors` narrows a major to its released minors.
// Sources: the projects' release tags and pages — puma/puma History.md (0.x–8.x), defunkt/unicorn tags (last 6.1.0,
// 2021-12-25; config-facts §4.2), Shopify/pitchfork tags (0.x), phusion/passenger CHANGELOG (1.x–6.0.x), macournoyer/thin
// CHANGELOG (0.x–2.x), socketry/falcon tags (0.x), ruby/webrick (1.x), mongrel (0.x–1.x); nginx.org CHANGES (0.x–1.x),
// httpd.apache.org (1.3, 2.0, 2.2, 2.4), Caddy releases (0.x–2.x), basecamp/thruster and basecamp/kamal-proxy (0.x);
// postgresql.org/support/versioning (6.x–18), dev.mysql.com "MySQL releases: Innovation and LTS" (3.23–5.7, 8.0–8.4,
// 9.x), mariadb.org maintenance policy (5.1–5.5, 10.0–10.11, 11.0–11.8, 12.x), sqlite.org (2.x, 3.x).
// `lifecycle`: the row of capabilities/lifecycle.mjs whose end-of-life dates decide whether the release's own version
// may be the default (SRE trial D4: Rocky 9's PostgreSQL 13 ended 2025-11-13, Ubuntu 22.04's 14 on 2026-11-12): a
// shipped version past its end of life on the generation day is not, and `current` from the vendor's repository is
// (PGDG for PostgreSQL; MySQL's APT/Yum repository, whose steps family-commands.mjs has for 8.0 and 8.4; MariaDB's
// own repository for its LTS series, family-commands.mjs mariadbRepo: Rocky 9's 10.5 ended 2025-06, Ubuntu 22.04's
// 10.6 ends 2026-07, so those get 11.8 from it once their own has ended).
const majors = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

export const CHOICE_VERSIONS = {
  server_version: {
    choice: 'server',
    rows: {
      puma: { label: 'Puma', current: '8.0', majors: majors(0, 8) },
      unicorn: { label: 'Unicorn', current: '6.1', majors: majors(0, 6) },
      pitchfork: { label: 'Pitchfork', current: '0.18', majors: ['0'] },
      passenger: { label: 'Passenger', current: '6.0', majors: majors(1, 6) },
      thin: { label: 'Thin', current: '1.8', majors: majors(0, 2) },
      falcon: { label: 'Falcon', current: '0.51', majors: ['0'] },
      webrick: { label: 'WEBrick', current: '1.9', majors: ['1'] },
      mongrel: { label: 'Mongrel', current: '1.1', majors: ['0', '1'] },
    },
  },
  proxy_version: {
    choice: 'proxy',
    rows: {
      nginx: { label: 'nginx', current: '1.26', distro: 'nginx', majors: ['0', '1'] },
      apache: { label: 'Apache httpd', current: '2.4.65', distro: 'apache', majors: ['1', '2'], minors: { 1: ['1.3'], 2: ['2.0', '2.2', '2.4'] } },
      caddy: { label: 'Caddy', current: '2.6', majors: ['0', '1', '2'] },
      thruster: { label: 'Thruster', current: '0.1', majors: ['0'] },
      'kamal-proxy': { label: 'kamal-proxy', current: '0.9', majors: ['0'] },
      cherokee: { label: 'Cherokee', current: '1.2', majors: ['0', '1'] },
      none: { label: 'no proxy', current: '1.26' },
    },
  },
  database_version: {
    choice: 'database',
    rows: {
      postgresql: { label: 'PostgreSQL', current: '17', distro: 'postgresql', lifecycle: 'postgresql', majors: majors(6, 18), minors: { 9: ['9.0', '9.1', '9.2', '9.3', '9.4', '9.5', '9.6'] } },
      mysql: { label: 'MySQL', current: '8.4', distro: 'mysql', lifecycle: 'mysql', majors: ['3', '4', '5', '8', '9'], minors: { 3: ['3.23'], 4: ['4.0', '4.1'], 5: ['5.0', '5.1', '5.5', '5.6', '5.7'], 8: ['8.0', '8.1', '8.2', '8.3', '8.4'] } },
      mariadb: { label: 'MariaDB', current: '11.8', distro: 'mariadb', lifecycle: 'mariadb', majors: ['5', '10', '11', '12'], minors: { 5: ['5.1', '5.2', '5.3', '5.5'] } },
      sqlite: { label: 'SQLite', current: '3.46', majors: ['2', '3'] },
    },
  },
  // PgBouncer from the release when it ships one (trial 24: Debian 12's 1.18 was configured as 1.24, with
  // max_prepared_statements, which 1.18 lacks, and Rails' prepared statements on through a transaction pool).
  // pgbouncer.org/changelog.html (1.x only).
  pooler_version: {
    choice: 'pooler',
    rows: { pgbouncer: { label: 'PgBouncer', current: '1.24', distro: 'pgbouncer', majors: ['1'] }, none: { label: 'no pooler', current: '1.24' } },
  },
  kernel: { rows: { linux: { label: 'Linux', current: '6.12', distro: 'kernel', majors: majors(2, 6) } } },
};
