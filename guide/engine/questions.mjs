// The questions shared by the web form and the CLI (issue 3 "CLI contract").
// Version questions are free strings checked against VERSION_RE; ranges are checked by rules (warnings), not here.

import { t } from './text.mjs';

const o = (value) => ({ value });

export const QUESTIONS = [
  { key: 'os', group: 'Host', type: 'enum', default: 'linux',
    options: [o('linux'), o('freebsd'), o('macos')] },
  { key: 'distro', group: 'Host', type: 'string', default: 'debian-13' },
  { key: 'kernel', group: 'Host', type: 'string', format: 'version', default: '6.12' },
  { key: 'arch', group: 'Host', type: 'enum', default: 'x86_64',
    options: [o('x86_64'), o('arm64')] },
  { key: 'cores', group: 'Host', type: 'integer', default: 2, min: 1, max: 512 },
  { key: 'ram_gb', group: 'Host', type: 'number', default: 4, min: 0.25, max: 4096 },
  { key: 'storage', group: 'Host', type: 'enum', default: 'ssd',
    options: [o('hdd'), o('ssd'), o('nvme')] },
  { key: 'init', group: 'Host', type: 'enum', default: 'systemd',
    options: [o('systemd'), o('other')] },
  { key: 'app_hosts', group: 'Host', type: 'integer', default: 1, min: 1, max: 1000 },

  { key: 'ruby', group: 'Ruby', type: 'enum', default: 'cruby',
    options: [o('cruby'), o('ree'), o('jruby'),
      o('truffleruby'), o('rubinius')] },
  { key: 'ruby_version', group: 'Ruby', type: 'string', format: 'version', default: '3.3' },
  { key: 'rails', group: 'Ruby', type: 'string', format: 'version', default: '8.1' },

  { key: 'server', group: 'App server', type: 'enum', default: 'puma',
    options: [o('puma'), o('unicorn'), o('pitchfork'), o('passenger'),
      o('thin'), o('falcon'), o('webrick'), o('mongrel')] },
  { key: 'server_version', group: 'App server', type: 'string', format: 'version', default: '8.0' },
  { key: 'workload', group: 'App server', type: 'enum', default: 'mixed',
    options: [o('io'), o('cpu'), o('mixed')] },
  { key: 'downloads', group: 'App server', type: 'boolean', default: false },
  // One booted copy of the app: 0 = the wizard's estimate (memory-budget.mjs perWorkerMb, with its source); otherwise
  // the reader's measurement (the RSS of one worker; catalog-memory.mjs q.worker_mb.help says what to measure).
  { key: 'worker_mb', group: 'App server', type: 'integer', default: 0, min: 0, max: 65536 },

  { key: 'proxy', group: 'Reverse proxy', type: 'enum', default: 'nginx',
    options: [o('nginx'), o('apache'), o('caddy'), o('thruster'), o('kamal-proxy'), o('cherokee'), o('none')] },
  { key: 'proxy_version', group: 'Reverse proxy', type: 'string', format: 'version', default: '1.26' },
  // Production (issue 10): where TLS ends, the site's name, WebSockets.
  { key: 'tls', group: 'Reverse proxy', type: 'enum', default: 'proxy', options: [o('proxy'), o('upstream'), o('none')] },
  { key: 'domain', group: 'Reverse proxy', type: 'string', format: 'domain', default: 'example.com' },
  { key: 'websockets', group: 'Reverse proxy', type: 'boolean', default: true },

  { key: 'database', group: 'Database', type: 'enum', default: 'postgresql',
    options: [o('postgresql'), o('mysql'), o('mariadb'), o('sqlite')] },
  { key: 'database_version', group: 'Database', type: 'string', format: 'version', default: '17' },
  // defaultBy: left unanswered, the adapter follows the Ruby and the database (first table with a row wins): what
  // `rails new -d mysql|postgresql|sqlite3` puts in database.yml, and the activerecord-jdbc adapters on JRuby.
  { key: 'adapter', group: 'Database', type: 'enum', default: 'pg',
    defaultBy: { ruby: { jruby: 'jdbc' }, database: { postgresql: 'pg', mysql: 'mysql2', mariadb: 'mysql2', sqlite: 'sqlite3' } },
    options: [o('pg'), o('mysql2'), o('trilogy'), o('mysql'),
      o('sqlite3'), o('jdbc')] },
  { key: 'pooler', group: 'Database', type: 'enum', default: 'none',
    options: [o('none'), o('pgbouncer')] },
  { key: 'pooler_version', group: 'Database', type: 'string', format: 'version', default: '1.24' },
  { key: 'db_host', group: 'Database', type: 'enum', default: 'same',
    options: [o('same'), o('separate')] },

  // Topology (issue 11). 0 and "auto" mean "derive it": the output names the value used.
  { key: 'db_cores', group: 'Topology', type: 'integer', default: 0, min: 0, max: 1024 },
  { key: 'db_ram_gb', group: 'Topology', type: 'number', default: 0, min: 0, max: 8192 },
  { key: 'lb', group: 'Topology', type: 'enum', default: 'none',
    options: [o('none'), o('nginx'), o('haproxy'), o('cloud')] },
  { key: 'app_addresses', group: 'Topology', type: 'string', format: 'addresses', default: 'auto' },
  { key: 'db_address', group: 'Topology', type: 'string', format: 'address', default: 'auto' },
  { key: 'lb_address', group: 'Topology', type: 'string', format: 'address', default: 'auto' },

  // Production (issue 10): background jobs and how the services run.
  { key: 'jobs', group: 'Background jobs', type: 'enum', default: 'solid_queue',
    options: [o('none'), o('solid_queue'), o('sidekiq'), o('good_job'), o('delayed_job')] },
  { key: 'job_processes', group: 'Background jobs', type: 'integer', default: 1, min: 1, max: 64 },
  { key: 'job_threads', group: 'Background jobs', type: 'integer', default: 3, min: 1, max: 64 },
  { key: 'app_root', group: 'Deployment', type: 'string', format: 'path', default: '/var/www/app' },
  { key: 'ruby_path', group: 'Deployment', type: 'string', format: 'path', default: '/usr/bin' },
  { key: 'deploy_user', group: 'Deployment', type: 'string', format: 'user', default: 'deploy' },
];

// Labels and help texts live in the catalog (catalog-questions.mjs, "q.<key>.label|help", "q.<key>.o.<value>")
// unless a question carries its own; the page then ships them as JSON instead of JavaScript.
const words = (obj, id) => { for (const k of ['label', 'help']) if (!(k in obj)) Object.defineProperty(obj, k, { get: () => t(`${id}.${k}`), enumerable: true }); };
for (const q of QUESTIONS) {
  words(q, `q.${q.key}`);
  for (const x of q.options || []) if (!('label' in x)) Object.defineProperty(x, 'label', { get: () => t(`q.${q.key}.o.${x.value}`), enumerable: true });
}

export const QUESTION_KEYS = QUESTIONS.map((q) => q.key);

export const DEFAULTS = Object.freeze(Object.fromEntries(QUESTIONS.map((q) => [q.key, q.default])));
