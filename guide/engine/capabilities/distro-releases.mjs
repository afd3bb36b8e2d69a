// What each release of a family ships (issue 24), read through caps.mjs (JSON on the page) by version-defaults.mjs and
// the README's family steps (generators/family-steps.mjs releaseOf). Split from family-commands.mjs, whose rows say
// how to install; this says what an install gives.
// What each release ships (the version `apt-get`/`dnf install` gives without another repository), for the versions
// the README installs: a chosen version the release lacks gets the vendor's repository step, or a warning when
// there is none. Sources: the distributions' package indexes (packages.debian.org, packages.ubuntu.com, RHEL 9
// Application Streams default streams); config-facts §12 and §13. `redis`: the redis(-server) package's series
// (Debian 12 7.0.15, Debian 13 8.0, Ubuntu 22.04 6.0.16, Ubuntu 24.04 7.0.15, RHEL 9 AppStream 6.2): the bind line
// of etc/redis/rails.conf (capabilities/redis.mjs). `kernel`: the release's kernel series (linux-image
// in Debian 12 / 13, Ubuntu 22.04 / 24.04 GA kernels, RHEL 9's 5.14): the default `kernel` answer for that release.
// `caddy`: the caddy package's series, '' where the release has none (Ubuntu 22.04: packages.ubuntu.com lists caddy
// from noble on), so README step 1 adds Caddy's repository (`caddyRepo`).
// `pgbouncer`: the pgbouncer package's series (Debian 12 1.18.0, Debian 13 1.24.1, Ubuntu 22.04 1.16.1, Ubuntu 24.04
// 1.22.0: packages.debian.org, packages.ubuntu.com; RHEL takes PGDG's, the current one): pooler_version's default.
// `rubyStreams`: Rubies the release offers as AppStream module streams beside its default (RHEL 9: ruby:3.1 from 9.1,
// ruby:3.3 from 9.4, Red Hat errata RHEA-2024:2343 and RHSA-2026:72485, ruby-3.3.12 module+el9.8.0); trial 24: Alma 9
// with Ruby 3.3 was told that nothing installs it.
// `nginxStreams`: nginx series the release offers as AppStream module streams beside its default RPM (RHEL 9: 1.20 as
// the RPM; nginx:1.22 from 9.1, nginx:1.24 from 9.3, nginx:1.26 from 9.5, Red Hat's RHEL 9 release notes and
// "Managing software with the DNF tool": additional Application Stream versions come as modules from 9.1 on). Trial
// 24 m3: Rocky 9 with nginx 1.26 was sent to nginx.org's repository.
// EL10 (RHEL 10.0, May 2025; Rocky Linux 10.0 and AlmaLinux 10.0 rebuild it, June 2025): Red Hat's RHEL 10 package
// manifest and "Considerations in adopting RHEL 10": kernel 6.12, Ruby 3.3, nginx 1.26, httpd 2.4.63; Valkey 8.0 takes
// Redis's place (RHEL 10 has no redis package); databases come as plain RPMs with the stream in the package name, no
// module streams (modularity is gone): PostgreSQL 16 and MariaDB 10.11 are the default streams, MySQL 8.4 has no
// default name (`dnf install mysql8.4-server`: Red Hat "Configuring and using database servers" for RHEL 10, ch. 2;
// developers.redhat.com "Discover packaging of parallel database streams in RHEL 10", 2025-03-11). So the row lists
// no rubyStreams/nginxStreams (no `dnf module` line is ever written for it); family-commands.mjs byEl['10'] has the
// package names. `redis` is Valkey's series (8.0: forked from Redis 7.2, it takes the `-::1` bind prefix).
// `codename` and `os`: the suite and path of the release in a vendor's APT repository (MariaDB's deb.mariadb.org/
// <series>/<os> <codename>; Debian's and Ubuntu's own release names).
export const DISTRO_RELEASES = [
  { match: '^debian-?12', os: 'debian', codename: 'bookworm', pgbouncer: '1.18', caddy: '2.6', redis: '7.0', kernel: '6.1', ruby: '3.1', postgresql: '15', mariadb: '10.11', nginx: '1.22', apache: '2.4.62' },
  { match: '^debian-?13', os: 'debian', codename: 'trixie', pgbouncer: '1.24', caddy: '2.6', redis: '8.0', kernel: '6.12', ruby: '3.3', postgresql: '17', mariadb: '11.8', nginx: '1.26', apache: '2.4.65' },
  { match: '^ubuntu-?22\\.04', os: 'ubuntu', codename: 'jammy', pgbouncer: '1.16', caddy: '', redis: '6.0', kernel: '5.15', ruby: '3.0', postgresql: '14', mysql: '8.0', mariadb: '10.6', nginx: '1.18', apache: '2.4.52' },
  { match: '^ubuntu-?24\\.04', os: 'ubuntu', codename: 'noble', pgbouncer: '1.22', caddy: '2.6', redis: '7.0', kernel: '6.8', ruby: '3.2', postgresql: '16', mysql: '8.0', mariadb: '10.11', nginx: '1.24', apache: '2.4.58' },
  { match: '^(rhel|rocky|alma|almalinux|centos-stream|ol)-?9', el: '9', redis: '6.2', kernel: '5.14', ruby: '3.0', rubyStreams: ['3.1', '3.3'], nginxStreams: ['1.22', '1.24', '1.26'], postgresql: '13', mysql: '8.0', mariadb: '10.5', nginx: '1.20', apache: '2.4.62' },
  { match: '^(rhel|rocky|alma|almalinux|centos-stream|ol)-?10', el: '10', redis: '8.0', kernel: '6.12', ruby: '3.3', postgresql: '16', mysql: '8.4', mariadb: '10.11', nginx: '1.26', apache: '2.4.63' },
];
