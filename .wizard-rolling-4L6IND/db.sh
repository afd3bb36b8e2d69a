echo "--- README step 0"
bash -euo pipefail -c 'test -d /usr/lib/postgresql/17 >/dev/null || apt-get install -y postgresql-17
command -v pgbouncer >/dev/null || apt-get install -y pgbouncer
PGB=reload-or-restart
K='\''^(listen_addr|listen_port|listen_backlog|unix_socket_dir|unix_socket_mode|unix_socket_group|pidfile|user|job_name|disable_pqexec)\b'\''
cmp -s db-host/etc/systemd/system/pgbouncer.service.d/limits.conf /etc/systemd/system/pgbouncer.service.d/limits.conf || PGB=restart
[ "$(grep -E "$K" db-host/etc/pgbouncer/pgbouncer.ini)" = "$(grep -sE "$K" /etc/pgbouncer/pgbouncer.ini)" ] || PGB=restart
install -D -m 0644 db-host/etc/postgresql/17/main/conf.d/60-rails.conf /etc/postgresql/17/main/conf.d/60-rails.conf
install -D -m 0644 db-host/etc/postgresql/17/main/pg_hba.conf /etc/postgresql/17/main/pg_hba.conf
install -D -m 0644 db-host/etc/systemd/system/pgbouncer.service.d/limits.conf /etc/systemd/system/pgbouncer.service.d/limits.conf
systemctl reload-or-restart postgresql
if runuser -u postgres -- psql -Atc "SELECT name FROM pg_file_settings WHERE error IS NOT NULL" | grep .; then systemctl restart postgresql; fi
editor db-host/setup/postgresql-roles.sql
runuser -u postgres -- psql -v ON_ERROR_STOP=1 < db-host/setup/postgresql-roles.sql
install -D -m 0644 db-host/etc/pgbouncer/pgbouncer.ini /etc/pgbouncer/pgbouncer.ini
install -D -m 0644 db-host/etc/pgbouncer/pg_hba.conf /etc/pgbouncer/pg_hba.conf
runuser -u postgres -- psql -Atc "SELECT format('\''\"%s\" \"%s\"'\'', rolname, rolpassword) FROM pg_authid WHERE rolname = '\''app'\''" > /etc/pgbouncer/userlist.txt
chown postgres:postgres /etc/pgbouncer/userlist.txt && chmod 0640 /etc/pgbouncer/userlist.txt
systemctl daemon-reload
systemctl "$PGB" pgbouncer'
printf '\nstep0=ok\n'