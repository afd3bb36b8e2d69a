// The questions shared by the web form and the CLI (issue 3 "CLI contract").
// Version questions are free strings checked against VERSION_RE; ranges are checked by rules (warnings), not here.

const o = (value, label) => ({ value, label });

export const QUESTIONS = [
  { key: 'os', group: 'Host', type: 'enum', label: 'Operating system', default: 'linux',
    help: 'The OS of the application hosts.',
    options: [o('linux', 'Linux'), o('freebsd', 'FreeBSD'), o('macos', 'macOS')] },
  { key: 'distro', group: 'Host', type: 'string', label: 'Distribution', default: 'debian-12',
    help: 'Distribution and release, e.g. debian-12, ubuntu-24.04, gentoo. Only used in comments and package names.' },
  { key: 'kernel', group: 'Host', type: 'string', format: 'version', label: 'Kernel version', default: '6.1',
    help: 'Linux kernel (uname -r), e.g. 2.6.32, 4.19, 6.1. Decides which sysctl keys and I/O schedulers exist.' },
  { key: 'arch', group: 'Host', type: 'enum', label: 'CPU architecture', default: 'x86_64',
    help: 'YJIT supports arm64 only from Ruby 3.2.',
    options: [o('x86_64', 'x86_64 (amd64)'), o('arm64', 'arm64 (aarch64)')] },
  { key: 'cores', group: 'Host', type: 'integer', label: 'CPU cores per app host', default: 2, min: 1, max: 512,
    help: 'Logical cores (vCPUs) on x86; physical cores on ARM.' },
  { key: 'ram_gb', group: 'Host', type: 'number', label: 'RAM per app host (GB)', default: 4, min: 0.25, max: 4096,
    help: 'Used for the memory budget and database buffer sizes.' },
  { key: 'storage', group: 'Host', type: 'enum', label: 'Storage', default: 'ssd',
    help: 'Decides the I/O scheduler and the planner cost of random reads.',
    options: [o('hdd', 'HDD (spinning disk)'), o('ssd', 'SSD (SATA/SAS)'), o('nvme', 'NVMe')] },
  { key: 'init', group: 'Host', type: 'enum', label: 'Init system', default: 'systemd',
    help: 'systemd gets a unit file with LimitNOFILE; other init systems get a PAM limits file.',
    options: [o('systemd', 'systemd'), o('other', 'other (sysvinit, runit, rc.d, launchd…)')] },
  { key: 'app_hosts', group: 'Host', type: 'integer', label: 'Number of app hosts', default: 1, min: 1, max: 1000,
    help: 'Every host runs the same app server configuration; all of them share one database.' },

  { key: 'ruby', group: 'Ruby', type: 'enum', label: 'Ruby implementation', default: 'cruby',
    help: 'CRuby is MRI (1.8) and YARV (1.9 and later).',
    options: [o('cruby', 'CRuby (MRI / YARV)'), o('ree', 'Ruby Enterprise Edition'), o('jruby', 'JRuby'),
      o('truffleruby', 'TruffleRuby'), o('rubinius', 'Rubinius')] },
  { key: 'ruby_version', group: 'Ruby', type: 'string', format: 'version', label: 'Ruby version', default: '3.3',
    help: 'The implementation\u2019s own version: CRuby 1.8.7 … 4.0, REE 1.8.7, JRuby 1.7 … 10.0, TruffleRuby 22 … 25, Rubinius 2 … 5.' },
  { key: 'rails', group: 'Ruby', type: 'string', format: 'version', label: 'Rails version', default: '7.2',
    help: 'From 2.3 to the current release, e.g. 2.3.5, 4.2, 7.2.2, 8.1.' },

  { key: 'server', group: 'App server', type: 'enum', label: 'Application server', default: 'puma',
    help: 'Thin and Mongrel are unmaintained; you still get a configuration and a migration path.',
    options: [o('puma', 'Puma'), o('unicorn', 'Unicorn'), o('pitchfork', 'Pitchfork'), o('passenger', 'Phusion Passenger'),
      o('thin', 'Thin'), o('falcon', 'Falcon'), o('webrick', 'WEBrick'), o('mongrel', 'Mongrel')] },
  { key: 'server_version', group: 'App server', type: 'string', format: 'version', label: 'App server version', default: '6.4',
    help: 'e.g. Puma 6.4, Unicorn 6.1, Passenger 6.0, Pitchfork 0.18.' },
  { key: 'workload', group: 'App server', type: 'enum', label: 'Workload', default: 'mixed',
    help: 'I/O-bound apps spend most request time waiting on the database or HTTP APIs; CPU-bound apps render and compute.',
    options: [o('io', 'I/O-bound'), o('cpu', 'CPU-bound'), o('mixed', 'Mixed')] },
  { key: 'downloads', group: 'App server', type: 'boolean', label: 'Serves large file downloads', default: false,
    help: 'If yes, the proxy sends the files (X-Accel-Redirect / X-Sendfile) instead of a Ruby process.' },

  { key: 'proxy', group: 'Reverse proxy', type: 'enum', label: 'Reverse proxy', default: 'nginx',
    help: 'Cherokee is unmaintained; you get a migration path to nginx.',
    options: [o('nginx', 'nginx'), o('apache', 'Apache httpd'), o('caddy', 'Caddy'), o('cherokee', 'Cherokee'), o('none', 'none')] },
  { key: 'proxy_version', group: 'Reverse proxy', type: 'string', format: 'version', label: 'Proxy version', default: '1.22',
    help: 'e.g. nginx 1.22, Apache 2.4, Caddy 2.6.' },

  { key: 'database', group: 'Database', type: 'enum', label: 'Database', default: 'postgresql',
    help: '',
    options: [o('postgresql', 'PostgreSQL'), o('mysql', 'MySQL'), o('mariadb', 'MariaDB'), o('sqlite', 'SQLite')] },
  { key: 'database_version', group: 'Database', type: 'string', format: 'version', label: 'Database version', default: '15',
    help: 'e.g. PostgreSQL 15, MySQL 8.0, MariaDB 10.11, SQLite 3.40.' },
  { key: 'adapter', group: 'Database', type: 'enum', label: 'Rails database adapter', default: 'pg',
    help: 'trilogy is built into Rails from 7.1; jdbc adapters are for JRuby.',
    options: [o('pg', 'pg'), o('mysql2', 'mysql2'), o('trilogy', 'trilogy'), o('mysql', 'mysql (old C gem)'),
      o('sqlite3', 'sqlite3'), o('jdbc', 'activerecord-jdbc')] },
  { key: 'pooler', group: 'Database', type: 'enum', label: 'Connection pooler', default: 'none',
    help: 'PgBouncer (PostgreSQL only).',
    options: [o('none', 'none'), o('pgbouncer', 'PgBouncer')] },
  { key: 'pooler_version', group: 'Database', type: 'string', format: 'version', label: 'PgBouncer version', default: '1.24',
    help: 'Prepared statements in transaction pooling need 1.21 or later.' },
  { key: 'db_host', group: 'Database', type: 'enum', label: 'Database location', default: 'same',
    help: 'On the same host the database buffers come out of the app host\u2019s memory budget.',
    options: [o('same', 'same host as the app'), o('separate', 'separate host')] },
];

export const QUESTION_KEYS = QUESTIONS.map((q) => q.key);

export const DEFAULTS = Object.freeze(Object.fromEntries(QUESTIONS.map((q) => [q.key, q.default])));
