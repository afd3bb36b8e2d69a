// Which reader a file needs, from its path and (when the name says nothing) its first lines.
// Kinds: gemfile, gemfile-lock, ruby-version, tool-versions, puma, unicorn, pitchfork, rails-env,
// database-yml, nginx, apache, caddy, pgconf, pgbouncer, mycnf, systemd, sysctl, env, compose, rails-app, rake, binstub.

const BY_NAME = [
  [/(^|\/)Gemfile$/, 'gemfile'],
  [/(^|\/)(Gemfile|gems)\.lock$/, 'gemfile-lock'],
  [/(^|\/)\.ruby-version$/, 'ruby-version'],
  [/(^|\/)\.tool-versions$/, 'tool-versions'],
  [/(^|\/)puma(\.[\w-]+)?\.rb$|(^|\/)config\/puma\/[\w-]+\.rb$/, 'puma'],
  [/(^|\/)unicorn(\.[\w-]+)?\.rb$/, 'unicorn'],
  [/(^|\/)pitchfork(\.[\w-]+)?\.rb$/, 'pitchfork'],
  [/(^|\/)config\/environments\/production\.rb$/, 'rails-env'],
  [/(^|\/)config\/initializers\/good_job\.rb$/, 'good-job'],
  [/(^|\/)database\.yml$/, 'database-yml'],
  [/(^|\/)sidekiq(\.[\w-]+)?\.yml$/, 'sidekiq-yml'],
  [/(^|\/)config\/queue\.yml$/, 'queue-yml'],
  [/(^|\/)config\/deploy(\.[\w-]+)?\.yml$/, 'kamal'],
  [/(^|\/)Procfile$/, 'procfile'],
  [/(^|\/)Dockerfile$/, 'dockerfile'],
  // Compose files a production deploy uses; development and override files (docker-compose.dev.yml,
  // compose.override.yaml, docker-compose-test.yml) describe other environments and are not read.
  [/(^|\/)(docker-)?compose([.-][\w.-]+)?\.ya?ml$/, (p) => (/(^|\/)(docker-)?compose[.-][\w.-]*(dev|override|test|ci|local)/i.test(p) ? null : 'compose')],
  [/(^|\/)config\/application\.rb$/, 'rails-app'],
  [/(^|\/)bin\/jobs$/, 'binstub'],
  [/(^|\/)lib\/tasks\/([\w-]+\/){0,3}[\w-]+\.rake$|(^|\/)Rakefile$/, 'rake'],
  [/(^|\/)Caddyfile(\.[\w-]+)?$/, 'caddy'],
  [/(^|\/)pgbouncer\.ini$/, 'pgbouncer'],
  [/(^|\/)(postgresql|postgresql\.auto)\.conf$|(^|\/)postgresql\/[^/]+\/[^/]+\/conf\.d\/[^/]+\.conf$/, 'pgconf'],
  [/(^|\/)(my\.cnf|mariadb\.cnf)$|(^|\/)(mysql|mariadb)\.conf\.d\/[^/]+\.cnf$|(^|\/)my\.cnf\.d\/[^/]+\.cnf$/, 'mycnf'],
  [/\.(service|socket)$/, 'systemd'],
  [/(^|\/)sysctl\.conf$|(^|\/)sysctl\.d\/[^/]+\.conf$/, 'sysctl'],
  [/(^|\/)(httpd\.conf|apache2\.conf)$|(^|\/)(apache2|httpd)\/(sites|conf)-(enabled|available)\/[^/]+$|(^|\/)httpd\/conf\.d\/[^/]+\.conf$/, 'apache'],
  // Apache before nginx: both use sites-enabled/.
  [/(^|\/)(nginx\.conf|(?<!apache2\/)sites-(enabled|available)\/[^/]+|nginx\/conf\.d\/[^/]+\.conf)$/, 'nginx'],
  [/(\.env|(^|\/)\.env(\.[\w-]+)?)$/, 'env'],
];

/** Kind of a file, or null when the doctor has no reader for it. */
export function classify(path, text = '') {
  const p = String(path).replace(/\\/g, '/');
  for (const [re, kind] of BY_NAME) if (re.test(p)) return typeof kind === 'function' ? kind(p) : kind;
  return sniff(text);
}

// Content sniffing for files with unusual names (e.g. a pasted file called "config.txt").
function sniff(text) {
  const head = String(text).slice(0, 4096).replace(/^\s*#.*$/gm, '');
  if (/^\s*(upstream|server)\s+[^{;]*\{/m.test(head) && /;\s*$/m.test(head)) return 'nginx';
  if (/^\s*<(VirtualHost|Proxy|Location|Directory)\b/im.test(head)) return 'apache';
  if (/^\s*\[(databases|pgbouncer)\]/m.test(head)) return 'pgbouncer';
  if (/^\s*\[(mysqld|mariadb|client-server)\]/m.test(head)) return 'mycnf';
  if (/^\s*\[(Unit|Service|Install)\]/m.test(head)) return 'systemd';
  if (/^\s*(shared_buffers|max_connections|work_mem|effective_cache_size)\s*=/m.test(head)) return 'pgconf';
  if (/^\s*(net|vm|fs|kernel)\.[\w.]+\s*=/m.test(head)) return 'sysctl';
  if (/^\s*(workers|threads|bind|preload_app!|before_fork)\b/m.test(head) && /^\s*(threads|workers)\b/m.test(head)) return 'puma';
  if (/^\s*worker_processes\s+\d+\s*$/m.test(head) && /^\s*(listen|preload_app|timeout)\b/m.test(head)) return 'unicorn';
  if (/^\s*production\s*:/m.test(head) && /^\s*adapter\s*:/m.test(head)) return 'database-yml';
  if (/^RUBY VERSION$|^GEM$\n\s+remote:/m.test(head)) return 'gemfile-lock';
  if (/^\s*(export\s+)?[A-Z][A-Z0-9_]*=/m.test(head) && !/[{};]/.test(head)) return 'env';
  return null;
}

/** Human name of a kind, for messages. */
export const KIND_LABEL = {
  gemfile: 'Gemfile', 'gemfile-lock': 'Gemfile.lock', 'ruby-version': '.ruby-version', 'tool-versions': '.tool-versions',
  puma: 'Puma config', unicorn: 'Unicorn config', pitchfork: 'Pitchfork config', 'rails-env': 'Rails production environment',
  'database-yml': 'database.yml', nginx: 'nginx config', apache: 'Apache config', caddy: 'Caddyfile', pgconf: 'PostgreSQL config',
  'good-job': 'GoodJob initializer', 'sidekiq-yml': 'sidekiq.yml', 'queue-yml': 'Solid Queue queue.yml', kamal: 'Kamal deploy.yml', procfile: 'Procfile', dockerfile: 'Dockerfile',
  compose: 'Compose file', 'rails-app': 'config/application.rb', rake: 'Rake tasks', binstub: 'bin/ script',
  initializer: 'initializer that sets queue_adapter', 'job-class': 'Active Job class',
  'gemfile-part': 'file the Gemfile evaluates', 'image-config': 'config the image copies over config/database.yml',
  pgbouncer: 'PgBouncer config', mycnf: 'MySQL/MariaDB config', systemd: 'systemd unit', sysctl: 'sysctl file', env: 'environment file',
};
