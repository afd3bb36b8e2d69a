// Distribution families as data (issue 11). The `distro` answer ("debian-12", "rocky-9", "alpine-3.20", …) picks a
// family by its name; `os` = freebsd or macos picks those. Read by the engine through caps.mjs (JSON on the page).
// Sources: Debian — nginx/apache2/postgresql-common packaging (www-data, /etc/apache2/sites-available,
// /etc/postgresql/<v>/main); RHEL family — nginx and httpd packages run as "nginx"/"apache", include
// /etc/nginx/conf.d and /etc/httpd/conf.d, PGDG keeps its configuration in /var/lib/pgsql/<v>/data, MySQL/MariaDB read
// /etc/my.cnf.d; firewalld is the default firewall and SELinux's httpd_can_network_connect boolean lets nginx/httpd
// open TCP connections to an app server (Red Hat "Using SELinux", "Configuring firewalls and packet filters");
// Alpine — nginx includes /etc/nginx/http.d, OpenRC, musl libc (MALLOC_ARENA_MAX is a glibc variable; the jemalloc
// package installs /usr/lib/libjemalloc.so.2); FreeBSD — ports under /usr/local/etc, user www, rc.d scripts started
// with service(8), the listen queue limit is kern.ipc.soacceptqueue (FreeBSD Handbook, "Tuning with sysctl");
// macOS — Homebrew under /opt/homebrew (Apple silicon), launchd, a development machine.
// `apacheAccessLog`: where the site's CustomLog writes (trial 24: ${APACHE_LOG_DIR} is defined only by Debian's
// /etc/apache2/envvars; httpd elsewhere leaves an undefined variable as it is, the path then names no directory and
// httpd refuses to start: "could not open transfer log file"). Each is the directory the family's own httpd package
// logs to and rotates (RHEL's /etc/logrotate.d/httpd and Alpine's apache2 rotate /var/log/{httpd,apache2}/*log;
// FreeBSD's apache24 httpd.conf logs to /var/log/httpd-access.log; Homebrew's httpd to /opt/homebrew/var/log/httpd).
export const DISTRO_FAMILIES = [
  {
    id: 'rhel', match: '^(rhel|redhat|centos|rocky|alma|almalinux|ol|oracle|fedora|amzn|amazon)',
    webUser: 'nginx', apacheUser: 'apache', nginxInclude: 'conf.d', nginxSite: '/etc/nginx/conf.d/rails-app.conf', apacheSite: '/etc/httpd/conf.d/rails-app.conf',
    apacheAccessLog: '/var/log/httpd/access.log',
    pgDir: '/var/lib/pgsql/{v}/data', mysqlDir: '/etc/my.cnf.d', libc: 'glibc', jemalloc: '/usr/lib64/libjemalloc.so.2', jemallocPkg: 'jemalloc (EPEL)',
    firewall: 'firewalld', selinux: true, pkg: 'dnf install',
    dbTls: { pg: { dir: '{pgDir}', owner: 'postgres' }, pgbouncer: { dir: '/etc/pgbouncer', owner: 'pgbouncer' } },
  },
  {
    id: 'alpine', match: '^alpine',
    webUser: 'nginx', apacheUser: 'apache', nginxInclude: 'http.d', nginxSite: '/etc/nginx/http.d/rails-app.conf', apacheSite: '/etc/apache2/conf.d/rails-app.conf',
    apacheAccessLog: '/var/log/apache2/access.log',
    pgDir: '/etc/postgresql{major}', mysqlDir: '/etc/my.cnf.d', libc: 'musl', jemalloc: '/usr/lib/libjemalloc.so.2', jemallocPkg: 'jemalloc',
    firewall: 'awall', selinux: false, pkg: 'apk add',
    dbTls: { pg: { dir: '{pgDir}', owner: 'postgres' }, pgbouncer: { dir: '/etc/pgbouncer', owner: 'pgbouncer' } },
  },
  {
    id: 'debian', match: '',
    webUser: 'www-data', apacheUser: 'www-data', nginxSite: '/etc/nginx/sites-enabled/rails-app.conf', apacheSite: '/etc/apache2/sites-available/rails-app.conf',
    apacheAccessLog: '${APACHE_LOG_DIR}/access.log',
    pgDir: '/etc/postgresql/{v}/main', mysqlDir: '/etc/mysql/conf.d', libc: 'glibc', jemalloc: '/usr/lib/{triplet}/libjemalloc.so.2', jemallocPkg: 'libjemalloc2',
    firewall: 'ufw', selinux: false, pkg: 'apt-get install',
    dbTls: { snakeoil: { cert: '/etc/ssl/certs/ssl-cert-snakeoil.pem', key: '/etc/ssl/private/ssl-cert-snakeoil.key' } },
  },
];

// dbTls: the certificate pair PostgreSQL (ssl = on) and PgBouncer (client_tls_*) present to the app hosts over the
// network. Debian's ssl-cert package (a dependency of postgresql-common) makes a self-signed "snakeoil" pair at install
// and adds postgres to the ssl-cert group that may read its key; no other family has such a pair, and PostgreSQL does
// not start with ssl = on and a missing file (PostgreSQL docs, "Secure TCP/IP Connections with SSL"), nor PgBouncer
// with client_tls_sslmode = require. There the bundle names a pair of its own (server.crt and server.key in `dir`,
// {pgDir} the family's PostgreSQL directory, owned by the service's user: PostgreSQL refuses a key others may read) and
// README's file table says how to make it (SRE check 5, D3). PGDG's pgbouncer package on RHEL runs as "pgbouncer".
export const OS_FAMILIES = {
  freebsd: {
    id: 'freebsd', webUser: 'www', apacheUser: 'www', nginxSite: '/usr/local/etc/nginx/sites-enabled/rails-app.conf', apacheSite: '/usr/local/etc/apache24/Includes/rails-app.conf',
    apacheAccessLog: '/var/log/httpd-access.log',
    pgDir: '/var/db/postgres/data{v}', mysqlDir: '/usr/local/etc/mysql/conf.d', libc: 'freebsd', jemalloc: null, jemallocPkg: null,
    firewall: 'pf', selinux: false, pkg: 'pkg install', listenQueue: 'kern.ipc.soacceptqueue',
    dbTls: { pg: { dir: '{pgDir}', owner: 'postgres' }, pgbouncer: { dir: '/usr/local/etc/pgbouncer', owner: 'pgbouncer' } },
  },
  macos: {
    id: 'macos', webUser: null, apacheUser: null, nginxSite: '/opt/homebrew/etc/nginx/servers/rails-app.conf', apacheSite: '/opt/homebrew/etc/httpd/extra/rails-app.conf',
    apacheAccessLog: '/opt/homebrew/var/log/httpd/access_log',
    pgDir: '/opt/homebrew/var/postgresql@{v}', mysqlDir: '/opt/homebrew/etc/my.cnf.d', libc: 'darwin', jemalloc: null, jemallocPkg: null,
    firewall: null, selinux: false, pkg: 'brew install', development: true,
    dbTls: { pg: { dir: '{pgDir}', owner: '' }, pgbouncer: { dir: '/opt/homebrew/etc/pgbouncer', owner: '' } },
  },
};

// Where the bundle's MySQL/MariaDB settings go (the bundle's path; other families install it in their row's
// mysqlDir, which their my.cnf includes last). A later file wins, and the Debian family's server packages set
// bind-address = 127.0.0.1 in files of their own: Ubuntu's MySQL in /etc/mysql/mysql.conf.d/mysqld.cnf, which
// /etc/mysql/mysql.cnf (my.cnf) includes after /etc/mysql/conf.d ("!includedir /etc/mysql/conf.d/" then
// "!includedir /etc/mysql/mysql.conf.d/"; MySQL's own APT repository ships the same two lines), so a conf.d file's
// bind-address loses; MariaDB's in /etc/mysql/mariadb.conf.d/50-server.cnf, which mariadb.cnf includes after conf.d
// too. So each file goes into the directory read last, named to sort after the package's own files (mysqld reads an
// !includedir's files in name order: mysys my_dir() sorts them): zz-rails.cnf after mysqld.cnf, 60-rails.cnf after
// 50-server.cnf. Sources: Ubuntu's mysql-8.0 source package (debian/additions/mysql.cnf, debian/extra/mysqld.cnf),
// Debian's mariadb package (debian/mariadb.cnf, debian/additions/mariadb.conf.d/50-server.cnf), MySQL 8.4 Reference
// Manual §6.2.2.2 "Using Option Files" (!includedir; for an option given twice the last value read wins).
export const MYSQL_CONF_FILES = {
  mysql: 'etc/mysql/mysql.conf.d/zz-rails.cnf',
  mariadb: 'etc/mysql/mariadb.conf.d/60-rails.cnf',
};
