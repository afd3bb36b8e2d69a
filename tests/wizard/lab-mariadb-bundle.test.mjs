// Proof in the lab (Debian 13, MariaDB 11.8 from Debian, Rails 8.1 reference app with mysql2) that a bundle with
// MariaDB as the same-host database works when applied by its own README: the shell blocks of steps 1–4 and 6 run
// as written, as root (step 5 has none for plain HTTP). Step 3 installs the generated 60-rails.cnf where Debian's
// my.cnf includes it and restarts MariaDB with it; step 4 creates the app's account and databases from
// setup/mysql-grants.sql through root's unix_socket login and runs db:prepare as the deploy user with the
// password from the secrets file; step 6 starts the units and its own curl checks /up. Then a page that reads the
// database and a job run by the jobs service. Harness as in lab-default-bundle.test.mjs (readme-shims: systemctl
// runs units and starts Debian's mariadbd, editor fills in the password); the app's root account is never used by
// the app.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { generate, DEFAULTS } from '../../guide/engine/index.mjs';
import { readmeSteps, stepScript } from '../helpers/readme.mjs';

const DOMAIN = 'app.test';
const STEPS = [1, 2, 3, 4, 6];

test('lab: a MariaDB bundle, applied by its own README steps, creates its account and databases and serves the Rails 8.1 app', { timeout: 900000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const bundle = generate({ domain: DOMAIN, database: 'mariadb', database_version: '11.8', adapter: 'mysql2', tls: 'none', ram_gb: 4 }, { date: '2026-11-25' });
  assert.deepEqual(bundle.warnings.filter((w) => w.severity === 'error'), [], 'no error for these answers');
  const readme = bundle.files.find((f) => f.path === 'README.md').content;
  const steps = readmeSteps(readme);
  for (const n of STEPS) assert.ok(steps.has(n), `README has a shell block for step ${n}`);
  assert.match(steps.get(4).join('\n'), /mysql < setup\/mysql-grants\.sql/);
  const root = DEFAULTS.app_root;
  const { dir, inLab: B } = writeBundle(bundle, '.wizard-mariadb-');
  try {
    const run = STEPS.map((n) => stepScript(steps, n, { cd: B })).join('\n');
    const script = String.raw`
# The README's precondition, as in lab-default-bundle.test.mjs: the app with its gems and assets, /usr/bin/bundle.
mkdir -p ${root} && cp -a /repo/lab/app/. ${root}/ && rm -rf ${root}/log/* ${root}/tmp/*
mkdir -p ${root}/.bundle && printf -- '---\nBUNDLE_PATH: "%s"\nBUNDLE_FROZEN: "true"\n' "$BUNDLE_PATH" > ${root}/.bundle/config
(cd ${root} && env -u BUNDLE_GEMFILE RAILS_ENV=production SECRET_KEY_BASE_DUMMY=1 bundle exec rails assets:precompile >/tmp/assets.log 2>&1) || { tail -20 /tmp/assets.log; exit 1; }
unset BUNDLE_GEMFILE
[ -x /usr/bin/bundle ] || ln -s bundle3.3 /usr/bin/bundle
echo "127.0.0.1 ${DOMAIN}" >> /etc/hosts
export PATH=/repo/tests/wizard/lab/readme-shims:$PATH README_DOMAIN=${DOMAIN} README_PLAIN_HTTP=1
stop_all() { for p in /run/readme-shims/*.pid; do [ -f "$p" ] && kill -TERM -- "-$(cat "$p")" 2>/dev/null; done; nginx -s quit 2>/dev/null; mariadb-admin shutdown 2>/dev/null; true; }
trap stop_all EXIT
# What installing Debian's nginx and mariadb-server leaves behind: both running with their default settings (step 6
# reloads nginx, step 3 restarts MariaDB).
mkdir -p /var/log/nginx && nginx
systemctl start mariadb
${run}
H="-sS --max-time 20"
echo "up=$(curl $H -o /dev/null -w '%{http_code}' http://${DOMAIN}/up)"
echo "page=$(curl $H -o /dev/null -w '%{http_code}' http://${DOMAIN}/regular)"
TOKEN=$(curl $H -X POST http://${DOMAIN}/jobs | ruby -rjson -e 'print JSON.parse(STDIN.read)["token"]')
for i in $(seq 1 120); do R=$(curl $H http://${DOMAIN}/jobs/$TOKEN); case "$R" in *executed_by\":\"*) break;; esac; sleep 0.5; done
echo "job=$R"
# What MariaDB runs with: the bundle's settings, and the app's account limited to its own databases.
echo "server=$(mariadb -N -e "SELECT VERSION(), @@bind_address, @@max_connections, @@innodb_buffer_pool_size DIV 1048576")"
echo "databases=$(mariadb -N -e "SELECT GROUP_CONCAT(SCHEMA_NAME ORDER BY SCHEMA_NAME) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE 'app\_%'")"
echo "app-grants=$(mariadb -N -e "SELECT COUNT(*), GROUP_CONCAT(DISTINCT TABLE_SCHEMA) LIKE '%mysql%' FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE LIKE '''app''@%'")"
echo "app-denied=$(mariadb -h 127.0.0.1 -u app -preadme-pw -N -e 'SELECT COUNT(*) FROM mysql.user' 2>&1 | grep -c 'denied' || true)"
echo "--- shim calls"; cat /var/log/readme-shims.log
`;
    const r = await labScript(script, { timeout: 600 });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.code, 0, out);
    for (const n of STEPS) assert.match(r.stdout, new RegExp(`^step${n}=ok$`, 'm'), out);
    assert.match(r.stdout, /^up=200$/m, out);
    assert.match(r.stdout, /^page=200$/m, out);
    assert.match(r.stdout, /^job=.*"executed_by":"[^"]+"/m, out);
    const cnf = bundle.files.find((f) => f.path.endsWith('60-rails.cnf')).content;
    const maxConn = /^max_connections = (\d+)$/m.exec(cnf)[1];
    assert.match(r.stdout, new RegExp(`^server=11\\.8\\.[^\\t]+\\t127\\.0\\.0\\.1\\t${maxConn}\\t`, 'm'), `MariaDB runs with the bundle's bind address and max_connections: ${out}`);
    assert.match(r.stdout, /^databases=app_production,app_production_cable,app_production_cache,app_production_queue$/m, out);
    assert.match(r.stdout, /^app-grants=\d+\t0$/m, 'the app account has privileges on its databases only');
    assert.match(r.stdout, /^app-denied=1$/m, 'the app account cannot read mysql.user');
    assert.match(r.stdout, /^systemctl restart mariadb$/m, 'README step 3 restarted MariaDB with the new settings');
    console.log(r.stdout.split('\n').filter((l) => /^(step\d|up|page|job|server|databases|app-)/.test(l)).join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
