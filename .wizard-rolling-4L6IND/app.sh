echo "--- README step 1"
bash -euo pipefail -c 'command -v nginx >/dev/null || apt-get install -y nginx
test -x /usr/bin/bundle >/dev/null || apt-get install -y bundler
id deploy >/dev/null 2>&1 || adduser --system --group --home /var/www/app --no-create-home deploy
test -d /var/www/app || install -d -o deploy -g deploy /var/www/app
install -d -o deploy -g deploy /var/www/app/tmp /var/www/app/tmp/sockets /var/www/app/tmp/pids /var/www/app/log /var/www/app/storage /var/www/app/releases /var/www/app/shared/bundle
test -e /var/www/app/current || sh deploy.sh init'
printf '\nstep1=ok\n'
echo "--- README step 2"
bash -euo pipefail -c 'install -d -m 0700 /etc/rails-app
test -e /etc/rails-app/secrets.env || install -m 0600 etc/rails-app/secrets.env /etc/rails-app/secrets.env
editor /etc/rails-app/secrets.env'
printf '\nstep2=ok\n'
echo "--- README step 3"
bash -euo pipefail -c 'install -D -m 0644 etc/nginx/nginx.conf /etc/nginx/nginx.conf
install -D -m 0644 etc/nginx/sites-enabled/rails-app.conf /etc/nginx/sites-enabled/rails-app.conf
install -D -m 0644 etc/sysctl.d/60-rails.conf /etc/sysctl.d/60-rails.conf
install -D -m 0644 etc/systemd/system/rails-app.service /etc/systemd/system/rails-app.service
install -D -m 0644 etc/systemd/system/rails-jobs.service /etc/systemd/system/rails-jobs.service
install -D -m 0644 etc/logrotate.d/rails-app /etc/logrotate.d/rails-app
sysctl --system'
printf '\nstep3=ok\n'
echo "--- README step 4"
bash -euo pipefail -c 'install -m 0640 -o deploy -g deploy config/puma.rb config/ruby.env config/database.yml config/jobs.env config/queue.yml /var/www/app/current/config/
install -D -m 0644 -o deploy -g deploy config/initializers/allowed_hosts.rb /var/www/app/current/config/initializers/allowed_hosts.rb
(cd /var/www/app/current && set -a && . /etc/rails-app/secrets.env && set +a && exec runuser -u deploy --preserve-environment -- env RAILS_ENV=production RAILS_DB_MIGRATE=1 /usr/bin/bundle exec bin/rails db:prepare)'
printf '\nstep4=ok\n'
echo "--- README step 6"
bash -euo pipefail -c 'systemctl daemon-reload
systemctl enable --now rails-app.service rails-jobs.service
nginx -t && systemctl reload nginx
curl -fsS --max-time 10 --retry 5 --retry-all-errors --retry-delay 1 -H '\''Host: app.test'\'' -H '\''X-Forwarded-Proto: https'\'' http://127.0.0.1/up'
printf '\nstep6=ok\n'