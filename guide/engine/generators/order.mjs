// The generators in bundle order (the order of files in the download and on the page). The registry for Node
// (index.mjs) and the page's lazy registry (guide/ui/generators.mjs) both follow it.
export const ORDER = [
  'puma', 'unicorn', 'pitchfork', 'passenger', 'thin', 'mongrel', 'falcon',
  'ruby-env', 'database-yml', 'rails-hosts', 'nginx', 'nginx-forwarded', 'apache', 'caddy', 'postgresql', 'mysql', 'pgbouncer', 'load-balancer',
  'sysctl', 'systemd', 'limits', 'redis', 'kamal-proxy', 'rc-freebsd', 'rhel-steps', 'operations', 'advice-rails', 'advice-prod', 'deploy-script', 'readme-hosts', 'readme', 'checklist',
];
