// When each optional generator has something to say. One predicate per generator that most answer sets do not
// need (another app server, proxy, database, a pooler, a load balancer, FreeBSD): the generator's own guard, and
// the page's reason to fetch that generator's code (guide/ui/generators.mjs). Sharing the predicate is what keeps
// the page's lazily assembled output identical to the command line's (tests/wizard/page-registry.test.mjs).
export const APPLIES = {
  unicorn: (ctx) => ctx.server === 'unicorn',
  pitchfork: (ctx) => ctx.server === 'pitchfork',
  passenger: (ctx) => ctx.server === 'passenger',
  thin: (ctx) => ctx.server === 'thin',
  mongrel: (ctx) => ctx.server === 'mongrel',
  falcon: (ctx) => ctx.server === 'falcon',
  apache: (ctx) => ctx.proxy === 'apache',
  // Lends nginx.mjs the forwarded-header maps for TLS that ends upstream (it writes no file of its own).
  'nginx-forwarded': (ctx) => ctx.proxy === 'nginx' && ctx.tls === 'upstream',
  caddy: (ctx) => ctx.proxy === 'caddy',
  mysql: (ctx) => ctx.a.database === 'mysql' || ctx.a.database === 'mariadb',
  pgbouncer: (ctx) => ctx.pooler === 'pgbouncer',
  'load-balancer': (ctx) => ctx.a.app_hosts >= 2 && (ctx.a.lb === 'nginx' || ctx.a.lb === 'haproxy'),
  redis: (ctx) => ctx.jobs === 'sidekiq',
  limits: (ctx) => ctx.linux && (ctx.passengerIntegrated || ctx.a.init !== 'systemd'),
  'kamal-proxy': (ctx) => ctx.proxy === 'kamal-proxy' && ctx.linux && ctx.a.init === 'systemd' && !ctx.passengerIntegrated,
  // The database host's and the balancer's README steps (readme-hosts.mjs returns nothing when neither applies).
  'readme-hosts': (ctx) => ctx.a.db_host === 'separate' || ctx.a.app_hosts >= 2,
  // RHEL's module streams, boot enabling and SELinux lines for README (family-steps.mjs reaches them; no files).
  'rhel-steps': (ctx) => ctx.family.id === 'rhel',
  'rc-freebsd': (ctx) => ctx.a.os === 'freebsd' && !ctx.passengerIntegrated,
};
