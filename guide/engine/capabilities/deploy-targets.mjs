// Where the bundle may put the app and who may run it (issue 26). The README creates app_root and gives the
// service user its runtime directories, and every unit runs as deploy_user: a shared link with
// app_root=/etc or deploy_user=root must be an error, not a bundle. Roots: the FHS places for site data
// (/srv), add-on software (/opt) and users' homes, and /var/www, Debian's and Capistrano's usual place.
// Each needs at least one directory of the app's own below it (/srv itself is never the app root).
export const APP_ROOT_PARENTS = ['/srv', '/var/www', '/opt', '/home/*'];

// Accounts that already belong to the system or to a service the bundle configures: Debian's base-passwd
// static users, the daemons' own users (database, proxy, cache) on Debian, RHEL, Alpine and FreeBSD, and
// prefixes of generated ones (systemd's dynamic users, macOS and OpenBSD's "_" accounts).
export const RESERVED_USERS = ['root', 'toor', 'daemon', 'bin', 'sys', 'sync', 'games', 'man', 'lp', 'mail', 'news',
  'uucp', 'proxy', 'www-data', 'www', 'backup', 'list', 'irc', 'gnats', 'nobody', 'adm', 'operator', 'messagebus',
  'sshd', 'postgres', 'pgsql', 'mysql', 'redis', 'memcache', 'nginx', 'apache', 'caddy', 'haproxy', 'kamal-proxy'];
export const RESERVED_USER_PREFIXES = ['systemd-', '_'];
