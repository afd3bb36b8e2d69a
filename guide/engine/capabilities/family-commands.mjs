// Distribution families as command tables (issue 24): every command the bundle README gives for a family comes from
// its row here (generators/family-steps.mjs fills in the placeholders), and tests/wizard/family-commands.test.mjs
// checks every emitted line against the row of the family it was written for. Read through caps.mjs (JSON on the
// page). `booted`: the release the lab boots the README on; families without it are checked by structure only.
//
// Sources: Debian — adduser(8), apt-get(8), sensible-editor/editor alternatives, apache2ctl and a2enmod/a2ensite
// (Debian's apache2 packaging), postgresql-common (`postgresql` umbrella unit, /usr/share/postgresql-common/pgdg/
// apt.postgresql.org.sh sets up the PostgreSQL project's repository: postgresql.org/download/linux/debian/).
// RHEL family (RHEL, Rocky, Alma 8–10) — useradd(8), dnf(8); httpd reads every conf.d/*.conf and loads modules from
// conf.modules.d (no a2enmod), `apachectl configtest`; PGDG's packages are postgresqlNN-server with the unit
// postgresql-NN, data in /var/lib/pgsql/NN/data, initialised by /usr/pgsql-NN/bin/postgresql-NN-setup initdb, and
// the distribution's postgresql module must be disabled first (postgresql.org/download/linux/redhat/); firewalld
// (firewall-cmd --permanent --add-service, --reload); SELinux: httpd_can_network_connect lets nginx/httpd connect to
// a TCP upstream, files nginx/httpd serve need httpd_sys_content_t and sockets they connect to httpd_var_run_t,
// set with `semanage fcontext -a` and applied with `restorecon` (Red Hat "Using SELinux", chapters 4 and 5).
export const FAMILY_COMMANDS = {
  debian: {
    booted: 'Debian 13 (trixie)',
    systemUser: 'adduser --system --group --home {home} --no-create-home {user}',
    edit: 'editor {file}',
    services: { nginx: 'nginx', apache: 'apache2', caddy: 'caddy', postgresql: 'postgresql', mysql: 'mysql', mariadb: 'mariadb', pgbouncer: 'pgbouncer', redis: 'redis-server', haproxy: 'haproxy', certbot: 'certbot.timer' },
    // The package lists, read before the first install that will run (trial 24: a fresh image's lists are empty or
    // stale, so `apt-get install` finds nothing or fetches a superseded version: apt-get(8) "update").
    refresh: 'apt-get update',
    // Debian's packages enable and start their services (and certbot's timer) on install: nothing to enable.
    bootEnable: '',
    // The database units the app's units are ordered after (After=): Debian's MariaDB also answers to mysql.service.
    dbAfter: { postgresql: 'postgresql.service', mysql: 'mariadb.service mysql.service', mariadb: 'mariadb.service mysql.service' },
    // One line per package: install it only when it is missing (re-running the README installs nothing twice).
    packages: {
      nginx: 'command -v nginx >/dev/null || apt-get install -y nginx',
      apache: 'command -v apache2ctl >/dev/null || apt-get install -y apache2',
      caddy: 'command -v caddy >/dev/null || apt-get install -y caddy',
      certbot: 'command -v certbot >/dev/null || apt-get install -y certbot',
      postgresql: 'test -d /usr/lib/postgresql/{major} >/dev/null || apt-get install -y postgresql-{major}',
      mysql: 'command -v mysqld >/dev/null || apt-get install -y mysql-server',
      mariadb: 'command -v mariadbd >/dev/null || apt-get install -y mariadb-server',
      pgbouncer: 'command -v pgbouncer >/dev/null || apt-get install -y pgbouncer',
      bundler: 'test -x /usr/bin/bundle >/dev/null || apt-get install -y bundler',
      redis: 'command -v redis-server >/dev/null || apt-get install -y redis-server',
      haproxy: 'command -v haproxy >/dev/null || apt-get install -y haproxy',
      jemalloc: 'test -e /usr/lib/{triplet}/libjemalloc.so.2 >/dev/null || apt-get install -y libjemalloc2',
      // Debian's own Passenger (6.0.26 in Debian 13, packages.debian.org): Standalone and Apache's module. Debian's
      // nginx has no Passenger module, so an nginx edge runs Passenger Standalone behind it.
      passenger: 'command -v passenger >/dev/null || apt-get install -y passenger',
      passengerApache: 'test -e /usr/lib/apache2/modules/mod_passenger.so >/dev/null || apt-get install -y libapache2-mod-passenger',
    },
    // Where the distribution's Passenger puts its programs (Standalone's `start`, restart-app).
    passengerBin: { start: '/usr/bin/passenger', config: '/usr/bin/passenger-config' },
    passengerRepo: [],
    redisConf: '/etc/redis/redis.conf',
    // The user PgBouncer runs as, who reads its auth file: Debian's pgbouncer.service runs as postgres.
    pgbouncerUser: 'postgres',
    // Debian's server packages start their service on install.
    dbStart: [],
    apacheTest: 'apache2ctl configtest',
    apacheEnable: ['a2enmod {mods}', 'a2ensite rails-app'],
    // MySQL's own APT repository (MySQL Reference Manual 8.4 §2.5.2 "Installing MySQL on Linux Using the MySQL APT
    // Repository": its release package mysql-apt-config writes /etc/apt/sources.list.d/mysql.list for the series
    // chosen in its debconf question select-server), for a series the release does not ship: Debian ships no MySQL at
    // all (only MariaDB), Ubuntu 24.04 ships 8.0. Mroonga's Debian install guide (mroonga/mroonga
    // doc/source/install/debian.rst, "trixie with the Oracle MySQL 8.4 package") installs MySQL 8.4 on Debian 13 from
    // it the same way (series mysql-8.4-lts). `series`: the question's value per MySQL series; a series not listed has
    // no repository step (a warning says so).
    // `aptConfig`: the release package's version, pinned (SRE trial: the unversioned repo.mysql.com/mysql-apt-config.deb
    // is whatever MySQL published last, so two hosts set up a week apart could differ). 0.8.39-1 is the newest release
    // seen in public install scripts when this was written; it was not downloaded here (this machine reaches no vendor
    // site), so NO checksum is verified: the download's integrity rests on HTTPS from repo.mysql.com, and the packages
    // after it on the repository key the release package installs. MySQL's download page (dev.mysql.com/downloads/
    // repo/apt/) lists an MD5 per release for a reader who wants to check by hand; README says so (w.mysql-apt-config).
    // A newer release package replaces an expired repository key: raise the pin when MySQL publishes one.
    mysqlRepo: {
      series: { '8.0': 'mysql-8.0', '8.4': 'mysql-8.4-lts' },
      aptConfig: '0.8.39-1',
      lines: [
        '# mysql-apt-config {aptConfig} (pinned) over HTTPS; no checksum is verified: compare its MD5 with dev.mysql.com/downloads/repo/apt/ by hand if needed',
        'test -e /etc/apt/sources.list.d/mysql.list || curl --fail -sSLo /tmp/mysql-apt-config.deb https://repo.mysql.com/mysql-apt-config_{aptConfig}_all.deb',
        'test -e /etc/apt/sources.list.d/mysql.list || echo "mysql-apt-config mysql-apt-config/select-server select {series}" | debconf-set-selections',
        'test -e /etc/apt/sources.list.d/mysql.list || DEBIAN_FRONTEND=noninteractive apt-get install -y /tmp/mysql-apt-config.deb',
        'apt-get update',
      ],
      // The repository's server package (mysql-server depends on mysql-community-server).
      package: 'command -v mysqld >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y mysql-server',
    },
    // Caddy's own APT repository (caddyserver.com/docs/install, "Debian, Ubuntu, Raspbian": Cloudsmith's stable
    // repository, one suite for every release), for a release without a caddy package (DISTRO_RELEASES caddy '':
    // Ubuntu 22.04, trial 24: `apt-get install -y caddy` found nothing). apt reads an ASCII-armoured key named .asc
    // in signed-by (sources.list(5)), so no gpg is needed.
    caddyRepo: [
      'install -d -m 0755 /etc/apt/keyrings',
      'test -e /etc/apt/sources.list.d/caddy-stable.list || curl --fail -sSLo /etc/apt/keyrings/caddy-stable.asc https://dl.cloudsmith.io/public/caddy/stable/gpg.key',
      'test -e /etc/apt/sources.list.d/caddy-stable.list || echo "deb [signed-by=/etc/apt/keyrings/caddy-stable.asc] https://dl.cloudsmith.io/public/caddy/stable/deb/debian any-version main" > /etc/apt/sources.list.d/caddy-stable.list',
      'apt-get update',
    ],
    // MariaDB's own repository (the MariaDB Foundation's repository configuration tool, mariadb.org/download/
    // ?t=repo-config, and MariaDB's "Installing MariaDB .deb Files": the signing key in /etc/apt/keyrings, a deb822
    // mariadb.sources naming deb.mariadb.org/<series>/<os> with the release's codename, then apt-get update and
    // mariadb-server), for a long-term series newer than the release's own (Debian 12 and Ubuntu 24.04 ship 10.11,
    // Ubuntu 22.04 10.6). The key file keeps the name and place the tool gives it; packages after it are checked
    // against that key, and the key itself rests on HTTPS from mariadb.org. `series`: the LTS series the repository
    // builds for every release in DISTRO_RELEASES; an older series than the release's own is left to the warning.
    mariadbRepo: {
      series: ['10.11', '11.4', '11.8'],
      lines: [
        'install -d -m 0755 /etc/apt/keyrings',
        'test -e /etc/apt/sources.list.d/mariadb.sources || curl --fail -sSLo /etc/apt/keyrings/mariadb-keyring.pgp https://mariadb.org/mariadb_release_signing_key.pgp',
        "test -e /etc/apt/sources.list.d/mariadb.sources || printf '%s\\n' 'X-Repolib-Name: MariaDB' 'Types: deb' 'URIs: https://deb.mariadb.org/{series}/{os}' 'Suites: {codename}' 'Components: main' 'Signed-By: /etc/apt/keyrings/mariadb-keyring.pgp' > /etc/apt/sources.list.d/mariadb.sources",
        'apt-get update',
      ],
      package: 'command -v mariadbd >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y mariadb-server',
    },
    // The PostgreSQL project's repository, for a major version the release does not ship.
    pgRepo: ['test -d /usr/lib/postgresql/{major} || apt-get install -y postgresql-common', 'test -d /usr/lib/postgresql/{major} || /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y'],
    pgInit: [],
    // Debian's postgresql.conf already reads conf.d (include_dir).
    pgConfD: [],
    // Debian enables neither a firewall nor SELinux by default: nothing to open or label.
    security: {},
    // The balancer's runtime directory for HAProxy's stats socket (Debian's package re-creates it at boot through its
    // tmpfiles.d entry; README makes it for the first start), and how README says to install socat for lb-rotation.sh.
    haproxyRunDir: ['install -d -o haproxy -g haproxy /run/haproxy'],
    socat: 'apt-get install socat',
    // The database servers' own logs (README step 9; SRE trial D15): postgresql-common's per-cluster file; MySQL's
    // mysqld.cnf (Ubuntu's package and MySQL's APT repository alike) sets log-error there; Debian's MariaDB leaves
    // log_error unset in 50-server.cnf, so its errors go to the journal.
    logs: { nginx: '/var/log/nginx/', apache: '/var/log/apache2/error.log', postgresql: '/var/log/postgresql/postgresql-{major}-main.log', mysql: '/var/log/mysql/error.log', mysqlRepo: '/var/log/mysql/error.log', mariadb: 'the journal (journalctl -u mariadb)', mariadbRepo: 'the journal (journalctl -u mariadb)' },
    // Programs a README line for this family may start with, besides the shared ones (COMMON_PROGRAMS).
    programs: ['apt-get', 'adduser', 'editor', 'apache2ctl', 'a2enmod', 'a2ensite', '/usr/share/postgresql-common/pgdg/apt.postgresql.org.sh', '/usr/bin/passenger-config', 'debconf-set-selections'],
  },
  rhel: {
    systemUser: 'useradd --system --user-group --home-dir {home} --no-create-home --shell /sbin/nologin {user}',
    edit: 'vi {file}',
    services: { nginx: 'nginx', apache: 'httpd', caddy: 'caddy', postgresql: 'postgresql-{major}', mysql: 'mysqld', mariadb: 'mariadb', pgbouncer: 'pgbouncer', redis: 'redis', haproxy: 'haproxy', certbot: 'certbot-renew.timer' },
    // RHEL's (and EPEL's) packages leave their services disabled and stopped (the distribution's systemd presets disable
    // what they do not list), unlike Debian's: a proxy that step 5 started would not come back after a reboot, Caddy
    // would not run at all (step 6's reload of an inactive unit fails), and EPEL's certbot renews nothing until its
    // certbot-renew.timer is enabled (trial 24). Step 6 enables the proxy, certbot's timer and PgBouncer on this host.
    bootEnable: 'systemctl enable --now {units}',
    // PGDG's unit is postgresql-NN and MySQL's (RHEL's and the community RPM's) mysqld: an After= on Debian's names
    // orders nothing here (trial 24), and the app raced the database at boot.
    dbAfter: { postgresql: 'postgresql-{major}.service', mysql: 'mysqld.service', mariadb: 'mariadb.service' },
    packages: {
      nginx: 'command -v nginx >/dev/null || dnf install -y nginx',
      apache: 'command -v httpd >/dev/null || dnf install -y httpd mod_ssl',
      caddy: 'command -v caddy >/dev/null || dnf install -y caddy',
      certbot: 'command -v certbot >/dev/null || dnf install -y certbot',
      postgresql: 'test -x /usr/pgsql-{major}/bin/postgres >/dev/null || dnf install -y postgresql{major}-server',
      // RHEL's server packages put mysqld/mariadbd in /usr/libexec, on no PATH: ask rpm (trial 24; `command -v` missed
      // them, so every run of step 1 called dnf again).
      mysql: 'rpm -q mysql-server >/dev/null || dnf install -y mysql-server',
      mariadb: 'rpm -q mariadb-server >/dev/null || dnf install -y mariadb-server',
      pgbouncer: 'command -v pgbouncer >/dev/null || dnf install -y pgbouncer',
      bundler: 'test -x /usr/bin/bundle >/dev/null || dnf install -y rubygem-bundler',
      redis: 'command -v redis-server >/dev/null || dnf install -y redis',
      haproxy: 'command -v haproxy >/dev/null || dnf install -y haproxy',
      jemalloc: 'test -e /usr/lib64/libjemalloc.so.2 >/dev/null || dnf install -y jemalloc',
      // Not in RHEL or EPEL: Phusion's own repository (passengerRepo), whose packages need EPEL.
      passenger: 'command -v passenger >/dev/null || dnf install -y passenger',
      passengerApache: 'test -e /usr/lib64/httpd/modules/mod_passenger.so >/dev/null || dnf install -y mod_passenger',
      // semanage (the SELinux steps in `security`, which repeat this line).
      semanage: 'command -v semanage >/dev/null || dnf install -y policycoreutils-python-utils',
      // lb-rotation.sh talks to HAProxy's stats socket through socat (AppStream).
      socat: 'command -v socat >/dev/null || dnf install -y socat',
    },
    socat: 'dnf install socat',
    // certbot, caddy and jemalloc come from EPEL; Passenger's own repository needs it too.
    epel: ['certbot', 'caddy', 'jemalloc', 'passenger', 'passengerApache'],
    passengerBin: { start: '/usr/bin/passenger', config: '/usr/bin/passenger-config' },
    // Phusion's repository definition for Enterprise Linux (Passenger's RHEL installation guide).
    passengerRepo: ['test -e /etc/yum.repos.d/passenger.repo || curl --fail -sSLo /etc/yum.repos.d/passenger.repo https://oss-binaries.phusionpassenger.com/yum/definitions/el-passenger.repo'],
    epelInstall: 'rpm -q epel-release >/dev/null || dnf install -y epel-release',
    // A Ruby the release offers as a module stream (DISTRO_RELEASES rubyStreams): enabled before the bundler package,
    // which then pulls in that stream's ruby instead of the default 3.0 (dnf module enable is a no-op once enabled).
    rubyStream: 'dnf -y module enable ruby:{stream}',
    // nginx likewise (DISTRO_RELEASES nginxStreams): `dnf module enable nginx:1.26` before `dnf install nginx` installs
    // that stream's nginx (RHEL 9 "Managing software with the DNF tool", ch. 2 and 11: module streams from 9.1 on). An
    // nginx already installed from another stream needs `dnf module switch-to` by hand; a fresh host has none.
    nginxStream: 'dnf -y module enable nginx:{stream}',
    redisConf: '/etc/redis/redis.conf',
    // PGDG's pgbouncer package runs its service as its own user, pgbouncer.
    pgbouncerUser: 'pgbouncer',
    // RHEL's server packages leave the service stopped and disabled.
    dbStart: ['systemctl enable --now {service}'],
    apacheTest: 'apachectl configtest',
    apacheEnable: [],
    // MySQL's own Yum repository (MySQL Reference Manual 8.4 §2.5.1 "Installing MySQL on Linux Using the MySQL Yum
    // Repository": the release package mysqlNN-community-release-elN enables that series; its server package is
    // mysql-community-server, unit mysqld), for a series the release does not ship (RHEL 9 ships 8.0).
    // `release`: the release package's own version, pinned (SRE trial: the unversioned {series}-community-release-
    // el9.rpm is whatever MySQL published last). el9-1 is the name MySQL's download page gave and public install
    // scripts use (dev.mysql.com/get/mysql84-community-release-el9-1.noarch.rpm, …80…-el9-1); later releases (-4 adds
    // the 9.x LTS repositories) exist. Not downloaded here: no checksum is verified, and `dnf install` of a URL checks
    // no signature on that package (localpkg_gpgcheck is off by default); every MySQL package after it is checked
    // against the key it installs. Raise the pin when MySQL replaces its repository key.
    mysqlRepo: {
      series: { '8.0': 'mysql80', '8.4': 'mysql84' },
      release: '1',
      lines: [
        '# {series}-community-release-el{el}-{release} (pinned) over HTTPS; no checksum is verified: compare its MD5 with dev.mysql.com/downloads/repo/yum/ by hand if needed',
        'rpm -q {series}-community-release >/dev/null || dnf install -y https://dev.mysql.com/get/{series}-community-release-el{el}-{release}.noarch.rpm',
      ],
      package: 'command -v mysqld >/dev/null || dnf install -y mysql-community-server',
      // Two differences from RHEL's own mysql-server, after the install and before the first start (SRE trial on Rocky
      // 9 + MySQL 8.4): the community RPM's /etc/my.cnf has no `!includedir /etc/my.cnf.d`, so step 3's file would
      // never be read: add the line (single quotes: no history expansion of '!' in an interactive shell). And its
      // unit's first start runs `mysqld --initialize` (mysqld_pre_systemd), which gives root a temporary, expired
      // password in /var/log/mysqld.log, so step 4's `mysql < setup/mysql-grants.sql` as root would be refused:
      // initialize the data directory first with --initialize-insecure, as RHEL's own package does (root@localhost
      // without a password, reachable only on this host), and the pre-start script skips an initialized directory
      // (MySQL 8.4 Reference Manual §2.5.1 "Installing MySQL on Linux Using the MySQL Yum Repository", "Starting the
      // MySQL Server"; §2.9.1 "Initializing the Data Directory": --initialize vs --initialize-insecure). mysql.ibd is
      // the data dictionary's tablespace an initialized 8.0+ directory has.
      init: [
        "grep -qx '!includedir /etc/my.cnf.d' /etc/my.cnf || echo '!includedir /etc/my.cnf.d' >> /etc/my.cnf",
        'test -e /var/lib/mysql/mysql.ibd || mysqld --initialize-insecure --user=mysql',
      ],
      // After the first start (SRE trial D9: --initialize-insecure leaves root@localhost without a password): a random
      // root password, kept in /root/.my.cnf (0600; the mysql client run as root reads it, so step 4's `mysql <` works),
      // set only while root still has none (--no-defaults: the file's password would be refused by a passwordless
      // account). That is what mysql_secure_installation would change here: a data directory --initialize(-insecure)
      // makes has no anonymous accounts and no test database (MySQL 8.4 Reference Manual §2.9.1, §2.9.4).
      secure: [
        'test -e /root/.my.cnf || (umask 077 && echo "[client]" > /root/.my.cnf && echo "password=$(openssl rand -hex 24)" >> /root/.my.cnf)',
        "if mysql --no-defaults -u root -e 'SELECT 1' >/dev/null 2>&1; then mysql --no-defaults -u root -e \"ALTER USER 'root'@'localhost' IDENTIFIED BY '$(sed -n 's/^password=//p' /root/.my.cnf)'\"; fi",
      ],
    },
    // MariaDB's own repository (the MariaDB Foundation's repository configuration tool for Red Hat Enterprise Linux:
    // /etc/yum.repos.d/MariaDB.repo with baseurl rpm.mariadb.org/<series>/rhel/$releasever/$basearch, gpgcheck against
    // rpm.mariadb.org/RPM-GPG-KEY-MariaDB, then MariaDB-server), for a series newer than the release's 10.5 (RHEL 9;
    // end of life 2025-06). MariaDB's RPMs read /etc/my.cnf.d, run as mysql, name their unit mariadb and keep root on
    // unix_socket authentication (root's `mysql` works, as with RHEL's own package); their error log goes to the
    // journal (no log_error in their server.cnf). $releasever/$basearch are dnf's own variables (single quotes).
    mariadbRepo: {
      series: ['10.11', '11.4', '11.8'],
      lines: ["test -e /etc/yum.repos.d/MariaDB.repo || printf '%s\\n' '[mariadb]' 'name = MariaDB {series}' 'baseurl = https://rpm.mariadb.org/{series}/rhel/$releasever/$basearch' 'gpgkey = https://rpm.mariadb.org/RPM-GPG-KEY-MariaDB' 'gpgcheck = 1' > /etc/yum.repos.d/MariaDB.repo"],
      package: 'rpm -q MariaDB-server >/dev/null || dnf install -y MariaDB-server',
    },
    // PGDG's repository package stays `-latest` (not pinned like MySQL's): its versioned names carry the EL minor release
    // (pgdg-redhat-repo-42.0-64.rhel10.1PGDG.noarch.rpm), so a pin breaks on the next point release, and PGDG's
    // download page documents only -latest. What it installs is a .repo file with gpgcheck=1 and PGDG's key: every
    // PostgreSQL package after it is checked against that key.
    pgRepo: ['# pgdg-redhat-repo-latest (not pinned: its versioned names carry the EL minor release); dnf checks every PostgreSQL package against the PGDG key it installs', 'test -x /usr/pgsql-{major}/bin/postgres || dnf install -y https://download.postgresql.org/pub/repos/yum/reporpms/EL-{el}-{arch}/pgdg-redhat-repo-latest.noarch.rpm', 'test -x /usr/pgsql-{major}/bin/postgres || dnf -qy module disable postgresql'],
    pgInit: ['test -e /var/lib/pgsql/{major}/data/PG_VERSION || /usr/pgsql-{major}/bin/postgresql-{major}-setup initdb'],
    // initdb's postgresql.conf leaves include_dir commented out: the conf.d file of step 3 needs it.
    pgConfD: ["grep -q \"^include_dir = 'conf.d'\" /var/lib/pgsql/{major}/data/postgresql.conf || echo \"include_dir = 'conf.d'\" >> /var/lib/pgsql/{major}/data/postgresql.conf"],
    // Per proxy (Apache's httpd runs in the same SELinux domain as nginx: the nginx row) and upstream type (unix socket or TCP): open HTTP/HTTPS in firewalld; let httpd_t (nginx and httpd)
    // connect to a TCP upstream (boolean) or to the app's socket (its directory labelled httpd_var_run_t), and read
    // public/ (httpd_sys_content_t: already the label under /var/www, a more specific rule elsewhere). {public} is the
    // pattern of every release's public/ (releases/<id>/public) and {publicDir} the directory restorecon walks: with
    // release directories there is no {root}/public (deploy.sh init moved it), and `restorecon -R` of a missing path
    // fails (trial 24).
    // semanage is in policycoreutils-python-utils, which minimal installs lack (SRE trial D6: "semanage: command not
    // found" on Rocky 9): the step installs it. `semanage fcontext -a` refuses a rule that exists ("already
    // defined"), so a second run modifies it instead (-m): the step is safe to run again (semanage-fcontext(8)).
    // HTTP and HTTPS opened before step 5's certbot, whose HTTP-01 challenge comes in on port 80: firewalld's default
    // zone (public) allows ssh, dhcpv6-client and cockpit only, so with the port still shut the first certificate
    // failed on every fresh host (SRE check 6). The same two lines head the proxy's security lines below; step 6
    // leaves them out where step 5 ran them.
    webFirewall: ['firewall-cmd --permanent --add-service=http --add-service=https', 'firewall-cmd --reload'],
    security: {
      nginx: {
        unix: ['firewall-cmd --permanent --add-service=http --add-service=https', 'firewall-cmd --reload', 'command -v semanage >/dev/null || dnf install -y policycoreutils-python-utils', "semanage fcontext -a -t httpd_var_run_t '{root}/tmp/sockets(/.*)?' 2>/dev/null || semanage fcontext -m -t httpd_var_run_t '{root}/tmp/sockets(/.*)?'", 'restorecon -R {root}/tmp/sockets', "semanage fcontext -a -t httpd_sys_content_t '{public}(/.*)?' 2>/dev/null || semanage fcontext -m -t httpd_sys_content_t '{public}(/.*)?'", 'restorecon -R {publicDir}'],
        tcp: ['firewall-cmd --permanent --add-service=http --add-service=https', 'firewall-cmd --reload', 'setsebool -P httpd_can_network_connect 1', 'command -v semanage >/dev/null || dnf install -y policycoreutils-python-utils', "semanage fcontext -a -t httpd_sys_content_t '{public}(/.*)?' 2>/dev/null || semanage fcontext -m -t httpd_sys_content_t '{public}(/.*)?'", 'restorecon -R {publicDir}'],
      },
      caddy: { unix: ['firewall-cmd --permanent --add-service=http --add-service=https', 'firewall-cmd --reload'], tcp: ['firewall-cmd --permanent --add-service=http --add-service=https', 'firewall-cmd --reload'] },
    },
    // The other hosts of a multi-host bundle (README steps 0 and 11). Database host: its port opened to each app host
    // only, one firewalld rich rule per address (firewalld.richlanguage(5); adding an existing rule only warns
    // ALREADY_ENABLED, so the step runs again); PostgreSQL under /var/lib/pgsql and MySQL/MariaDB on 3306 keep the
    // policy's own labels (postgresql_db_t, mysqld_port_t): nothing to relabel. Balancer: HTTP/HTTPS opened; SELinux
    // lets nginx (httpd_t) open connections to the app hosts with httpd_can_network_connect, and HAProxy (haproxy_t)
    // connect to ports outside the web types (certbot's loopback port 8402) with haproxy_connect_any (Red Hat "Using
    // SELinux", ch. 4 booleans; haproxy_selinux(8)); certbot's webroot under /var/www takes the policy's
    // httpd_sys_content_t through restorecon (a directory `install -d` makes takes its parent's label otherwise).
    // RHEL's haproxy unit has no RuntimeDirectory and the package no tmpfiles.d entry: the stats socket's /run/haproxy
    // gets one, so it is back after a reboot (tmpfiles.d(5), systemd-tmpfiles(8) --create).
    hostFirewall: {
      from: "firewall-cmd --permanent --add-rich-rule='rule family=\"{ipFamily}\" source address=\"{addr}\" port port=\"{port}\" protocol=\"tcp\" accept'",
      reload: 'firewall-cmd --reload',
    },
    lbSecurity: {
      haproxy: ['firewall-cmd --permanent --add-service=http --add-service=https', 'firewall-cmd --reload', 'setsebool -P haproxy_connect_any 1'],
      nginx: ['firewall-cmd --permanent --add-service=http --add-service=https', 'firewall-cmd --reload', 'setsebool -P httpd_can_network_connect 1', 'setsebool -P httpd_setrlimit 1', 'install -d {webroot}', 'restorecon -R {webroot}'],
    },
    // nginx.conf's worker_rlimit_nofile makes nginx call setrlimit(), which httpd_t may do only with httpd_setrlimit:
    // without it nginx logs "setrlimit(RLIMIT_NOFILE, …) failed (13: Permission denied)" and its workers keep the
    // unit's 1024 descriptors (nginx/ansible-role-nginx-config#583; Red Hat "Using SELinux", httpd booleans).
    nginxRlimit: 'setsebool -P httpd_setrlimit 1',
    haproxyRunDir: ["echo 'd /run/haproxy 0755 haproxy haproxy -' > /etc/tmpfiles.d/haproxy-run.conf", 'systemd-tmpfiles --create /etc/tmpfiles.d/haproxy-run.conf'],

    // httpd.conf's ErrorLog is logs/error_log (underscore; `logs` links to /var/log/httpd): Passenger's output goes there.
    // PGDG's initdb turns logging_collector on with log_directory 'log' (inside the data directory); RHEL's mysql-server
    // sets log-error=/var/log/mysql/mysqld.log, MySQL's community RPM /var/log/mysqld.log (`mysqlRepo`, where its
    // first-start password used to be); RHEL's mariadb-server /var/log/mariadb/mariadb.log.
    logs: { nginx: '/var/log/nginx/', apache: '/var/log/httpd/error_log', postgresql: '/var/lib/pgsql/{major}/data/log/', mysql: '/var/log/mysql/mysqld.log', mysqlRepo: '/var/log/mysqld.log', mariadb: '/var/log/mariadb/mariadb.log', mariadbRepo: 'the journal (journalctl -u mariadb)' },
    // What differs on EL10 (DISTRO_RELEASES el '10'; generators/family-steps.mjs rowValue reads these first). RHEL 10
    // dropped modularity: there is no postgresql module to disable, and PGDG's instructions for EL-10 install the
    // repository package and then postgresqlNN-server, nothing between (postgresql.org/download/linux/redhat/). Its
    // databases are RPMs named by stream: MySQL 8.4 only as mysql8.4-server (no package provides mysql-server in RHEL:
    // Fedora's mysql8.4.spec "Never provide unversioned packages in RHEL"), MariaDB as mariadb10.11-server; their units
    // stay mysqld and mariadb (Red Hat "Configuring and using database servers", RHEL 10, ch. 2 and 3). `rpm -q` asks
    // for the package by that name, so the guard holds on a second run. Redis is not in RHEL 10: Valkey 8.0 is, in
    // AppStream (package valkey, unit valkey, /etc/valkey/valkey.conf, program valkey-server; Fedora's valkey
    // packaging, which RHEL 10's is built from), and Sidekiq supports Valkey 7.2+ as a Redis (sidekiq/sidekiq
    // README, "Requirements"). MySQL's community RPMs exist for EL10 in the 8.4 LTS series only (mysql-community-server
    // 8.4.x .el10 builds, e.g. yum.oracle.com OL10 MySQL84 community; 8.0 ended April 2026 with no el10 build), so
    // only 8.4 keeps a repository step there and an 8.0 answer gets the no-repository warning.
    // Not settled without an EL10 host: RHEL 10's AppStream names its PostgreSQL 16 server postgresql16-server too,
    // PGDG's name for its own; where both carry the same minor, dnf's version comparison may prefer AppStream's build
    // (/usr/bin, unit postgresql), and /usr/pgsql-16 would not appear. PostgreSQL 17 and 18 have no AppStream twin.
    byEl: {
      10: {
        services: { redis: 'valkey' },
        packages: {
          mysql: 'rpm -q mysql8.4-server >/dev/null || dnf install -y mysql8.4-server',
          mariadb: 'rpm -q mariadb10.11-server >/dev/null || dnf install -y mariadb10.11-server',
          redis: 'command -v valkey-server >/dev/null || dnf install -y valkey',
        },
        redisConf: '/etc/valkey/valkey.conf',
        mysqlRepo: { series: { '8.4': 'mysql84' } },
        pgRepo: ['# pgdg-redhat-repo-latest (not pinned: its versioned names carry the EL minor release); dnf checks every PostgreSQL package against the PGDG key it installs', 'test -x /usr/pgsql-{major}/bin/postgres || dnf install -y https://download.postgresql.org/pub/repos/yum/reporpms/EL-{el}-{arch}/pgdg-redhat-repo-latest.noarch.rpm'],
      },
    },
    programs: ['dnf', 'rpm', 'useradd', 'vi', 'mysqld', 'apachectl', 'firewall-cmd', 'setsebool', 'semanage', 'restorecon', 'systemd-tmpfiles', '/usr/pgsql-{major}/bin/postgresql-{major}-setup', '/usr/bin/passenger-config'],
  },
};

// Programs every family's README may use (coreutils, util-linux, systemd, the servers' own checkers).
export const COMMON_PROGRAMS = ['test', 'printf', '[', 'sh', 'command', 'grep', 'umask', 'openssl', 'rm', 'id', 'install', 'cd', 'set', '.', 'runuser', 'systemctl', 'sysctl', 'curl', 'certbot', 'nginx', 'caddy', 'kamal-proxy', 'chown', 'chmod', 'cat', 'systemd-analyze', 'haproxy', 'mysql', 'mariadb', 'command', 'echo', 'exit', '{bin}/bundle', 'cmp', 'exec', 'mv', 'false', 'timeout'];

// What each release ships: capabilities/distro-releases.mjs (re-exported for the modules that read both tables here).
export { DISTRO_RELEASES } from './distro-releases.mjs';
