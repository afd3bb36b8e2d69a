// Settings a running server reads only at start, per server whose README step applies a changed file (issue 23: a
// re-run of the README restarts nothing that a reload can apply). Everything else in the bundle's files of these
// servers takes a reload. README steps 0 and 3 name them (readme-apply.mjs); PostgreSQL's own pg_file_settings
// decides for PostgreSQL, so its list is what the README tells the reader, PgBouncer's is what the README compares.
//
// Sources: PostgreSQL — "Server Configuration" (postgresql.org/docs/current/runtime-config.html): parameters marked
// "This parameter can only be set at server start" (context postmaster in pg_settings) among those this bundle
// writes: max_connections, shared_buffers, huge_pages, wal_buffers, max_worker_processes, listen_addresses, and
// io_method (18); pg_file_settings (postgresql.org/docs/current/view-pg-file-settings.html) reports a changed one
// as "setting could not be applied" without applying anything. PgBouncer — its settings table in src/main.c marks
// these CF_NO_RELOAD (SHOW CONFIG's "changeable" column says no): the listening socket's settings, pidfile, user,
// job_name, disable_pqexec; the pool sizes, auth settings and TLS files are re-read on reload (SIGHUP). A systemd drop-in (LimitNOFILE) is
// a process limit: only a restart applies it.
export const RESTART_ONLY = {
  postgresql: ['max_connections', 'shared_buffers', 'huge_pages', 'wal_buffers', 'max_worker_processes', 'listen_addresses', 'io_method'],
  pgbouncer: ['listen_addr', 'listen_port', 'listen_backlog', 'unix_socket_dir', 'unix_socket_mode', 'unix_socket_group', 'pidfile', 'user', 'job_name', 'disable_pqexec'],
};
