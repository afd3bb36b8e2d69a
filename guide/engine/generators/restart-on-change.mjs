// README lines that restart a service only when its files change (SRE check 5, m1): Redis and MySQL/MariaDB read
// their configuration at start only (neither re-reads its files on a signal), and a restart costs something every
// time (Sidekiq's enqueues fail while Redis is down; InnoDB's buffer pool starts cold), so a re-run of the step that
// changes nothing must not restart them. Before the files go in, each is compared with the installed one (cmp -s
// fails for a file not installed yet, so the first run restarts); a variable named after the service remembers a
// difference, and the restart line at the end runs only then. PgBouncer and PostgreSQL decide the same way
// (pgbouncer.mjs pgbouncerCompare, readme-apply.mjs pgApply). Used by chunks only (redis, mysql, readme-hosts).

/** {src, dest} pairs compared into variable `v` (set empty first: a value left in the shell must not count). */
export const compareLines = (v, pairs) => [`${v}=`, ...pairs.map(({ src, dest }) => `cmp -s ${src} ${dest} || ${v}=1`)];

/** The restart, only when `v` recorded a change. */
export const restartIfChanged = (v, svc) => `[ -z "$${v}" ] || systemctl restart ${svc}`;
