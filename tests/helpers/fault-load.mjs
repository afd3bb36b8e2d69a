// Bounded load for the lab fault scenarios of issue 23, as shell snippets for a lab script plus the parsers of what
// they print: scenario 2 (open WebSockets while wrk sends plain requests) and scenario 8 (the database restarts
// while a client asks for a database-backed page). Every load is bounded in time and count; each snippet prints
// lines starting with TAG so one script can run it for several bundles or balancers.

// Scenario 2: wrk without WebSockets first (the comparison), then SOCKETS WebSockets held open on /cable through
// ADDR:443 (tests/wizard/lab/ws-hold.rb, TLS name DOMAIN) while wrk runs again for LOAD_S seconds. URL is what wrk
// asks for; it sends DOMAIN as Host. ROOT is a directory with the app's Ruby (ws-hold.rb needs no gems).
export function wsLoadScript({ tag, url, addr, domain, root, sockets = 100, loadS = 8 }) {
  const holdS = loadS + 4; // counted from the upgrades, after which wrk starts: the sockets outlive the load
  return String.raw`
wrk -t2 -c8 -d5s --latency --timeout 5s -H "Host: ${domain}" "${url}" > /tmp/wrk0-${tag}.txt 2>&1
echo "${tag} wrk-without-ws: $(grep -E 'requests in' /tmp/wrk0-${tag}.txt | sed 's/^ *//') p99=$(awk '$1 == "99%" {print $2}' /tmp/wrk0-${tag}.txt)"
(cd ${root} && timeout ${holdS + 30} ruby /repo/tests/wizard/lab/ws-hold.rb ${addr} ${domain} ${sockets} ${holdS} > /tmp/ws-${tag}.txt 2>&1) &
WSPID=$!
for i in $(seq 1 40); do grep -q ws-upgraded /tmp/ws-${tag}.txt 2>/dev/null && break; sleep 0.5; done
wrk -t2 -c8 -d${loadS}s --latency --timeout 5s -H "Host: ${domain}" "${url}" > /tmp/wrk-${tag}.txt 2>&1
wait $WSPID || true
echo "${tag} $(grep ws-upgraded /tmp/ws-${tag}.txt) $(grep ws-open-at-end /tmp/ws-${tag}.txt)"
echo "${tag} wrk: $(grep -E 'requests in' /tmp/wrk-${tag}.txt | sed 's/^ *//') p99=$(awk '$1 == "99%" {print $2}' /tmp/wrk-${tag}.txt) errors=$(grep -E 'Socket errors|Non-2xx' /tmp/wrk-${tag}.txt | tr -s ' \n' ' ' || true)"
`;
}

const toMs = (n, unit) => Number(n) * { us: 0.001, ms: 1, s: 1000 }[unit];

// What wsLoadScript printed for TAG: sockets upgraded and still open at the end, wrk's requests, p99 (ms) and its
// error lines (socket errors, timeouts, non-2xx; '' when none). null where a line is missing.
export function parseWsLoad(stdout, tag) {
  const ws = new RegExp(`^${tag} ws-upgraded=(\\d+) ws-open-at-end=(\\d+)$`, 'm').exec(stdout);
  const wrk = new RegExp(`^${tag} wrk: (\\d+) requests in .* p99=([\\d.]+)(us|ms|s) errors=(.*)$`, 'm').exec(stdout);
  const base = new RegExp(`^${tag} wrk-without-ws: (\\d+) requests in .* p99=([\\d.]+)(us|ms|s)$`, 'm').exec(stdout);
  return {
    upgraded: ws ? Number(ws[1]) : null,
    openAtEnd: ws ? Number(ws[2]) : null,
    requests: wrk ? Number(wrk[1]) : null,
    p99Ms: wrk ? toMs(wrk[2], wrk[3]) : null,
    errors: wrk ? wrk[4].trim() : null,
    baselineP99Ms: base ? toMs(base[2], base[3]) : null,
  };
}

// Scenario 8: a client asks for URL every 0.2 s (REQUESTS times, 5 s per request at most) while RESTART runs after
// 3 s; prints the requests, the failures, those outside the restart plus GRACE_S seconds (a request is inside when
// it was still waiting for its answer as the restart began: one sent just before PostgreSQL stopped fails with it,
// as any request in flight would; every failure is listed with its start and duration relative to the restart's
// start, so an outside one can be told apart from a slow start), how long the restart took
// and when the last failure came (seconds after the restart returned), how many requests started before, during and
// after the restart and the slowest one's seconds, the statuses clients got (000: no answer within 5 s), then one
// request after the load. CURL_OPTS
// go to every curl (e.g. --resolve, to reach a second balancer under the same domain).
export function dbRestartScript({ tag, url, restart, requests = 75, graceS = 5, curlOpts = '' }) {
  return String.raw`
( for i in $(seq 1 ${requests}); do printf '%s %s\n' "$(date +%s.%N)" "$(curl -s --max-time 5 ${curlOpts} -o /dev/null -w '%{http_code} %{time_total}' ${url})"; sleep 0.2; done > /tmp/dbr-${tag}.txt ) & DBRL=$!
sleep 3; R0=$(date +%s.%N); ${restart}; R1=$(date +%s.%N)
wait $DBRL
awk -v r0=$R0 -v r1=$R1 -v grace=${graceS} '{n++; if ($2 != 200) {f++; if ($1 + $3 < r0 || $1 > r1 + grace) late++; if ($1 > last) last = $1}} END {printf "${tag} requests=%d failed=%d outside-window=%d restart-seconds=%.1f last-failure-after-restart=%.1f\n", n, f, late, r1 - r0, f ? last - r1 : 0}' /tmp/dbr-${tag}.txt
awk -v r0=$R0 '$2 != 200 {printf " %+.2f:%s:%.2f", $1 - r0, $2, $3} END {print ""}' /tmp/dbr-${tag}.txt | sed 's/^/${tag} failures(start-after-restart-began:status:seconds)=/'
awk -v r0=$R0 -v r1=$R1 '{if ($1 < r0) b++; else if ($1 <= r1) d++; else a++; if ($3 > s) s = $3} END {printf "${tag} started-before=%d during=%d after=%d slowest-seconds=%.1f\n", b, d, a, s}' /tmp/dbr-${tag}.txt
echo "${tag} statuses=$(awk '{print $2}' /tmp/dbr-${tag}.txt | sort | uniq -c | awk '{printf "%s:%s ", $2, $1}')"
echo "${tag} after=$(curl -sS --max-time 10 ${curlOpts} -o /dev/null -w '%{http_code}' ${url})"
`;
}

// What dbRestartScript printed for TAG (numbers), and the status of the request after the load.
export function parseDbRestart(stdout, tag) {
  const m = new RegExp(`^${tag} requests=(\\d+) failed=(\\d+) outside-window=(\\d+) restart-seconds=([\\d.]+) last-failure-after-restart=(-?[\\d.]+)$`, 'm').exec(stdout);
  const after = new RegExp(`^${tag} after=(\\d+)$`, 'm').exec(stdout);
  const spread = new RegExp(`^${tag} started-before=(\\d+) during=(\\d+) after=(\\d+) slowest-seconds=([\\d.]+)$`, 'm').exec(stdout);
  if (!m) return null;
  return {
    requests: Number(m[1]), failed: Number(m[2]), outsideWindow: Number(m[3]), restartS: Number(m[4]), lastFailureS: Number(m[5]), after: after ? after[1] : null,
    // Requests started before, during and after the restart (a client that stopped early proves nothing), the slowest.
    startedBefore: spread ? Number(spread[1]) : null, startedDuring: spread ? Number(spread[2]) : null, startedAfter: spread ? Number(spread[3]) : null, slowestS: spread ? Number(spread[4]) : null,
  };
}

// Scenario 5: README step 4's migrate command as a script (its db:prepare line, a subshell that enters the app and
// reads the secrets, as db:migrate, the command deploy.sh runs), with FAULT_HOST=$1 for the migration below.
// STEP4: the step's shell blocks.
export function migrateScript(step4) {
  const lines = step4.join('\n').split('\n');
  const prepare = lines.find((l) => /^\(cd .*RAILS_DB_MIGRATE=1 .*db:prepare\)$/.test(l));
  if (!prepare) throw new Error('README step 4 has no (cd … RAILS_DB_MIGRATE=1 … db:prepare) line');
  return ['export FAULT_HOST=$1', prepare.replace(/db:prepare\)$/, 'db:migrate)')].join('\n');
}

// Scenario 5: writes a migration that sleeps SLEEP_S seconds (longer than the app role's statement_timeout) into
// MIGRATE_DIR, starts every command of RUNS ({name: shell command running migrateScript with name}) at once and
// prints their exit codes, the seconds until all ended, how many runs stopped on Rails' migration lock
// (ConcurrentMigrationError in their output), how many times the migration's body ran, its schema_migrations rows and the app role's
// settings (PSQL: a command running psql as PostgreSQL's superuser), then the last lines of each run's output.
export function slowMigrationScript({ tag, migrateDir, runs, psql, sleepS = 32 }) {
  const names = Object.keys(runs);
  return String.raw`
cat > ${migrateDir}/20261125000001_slow_fault_migration.rb <<'RUBY'
class SlowFaultMigration < ActiveRecord::Migration[8.1]
  def up
    create_table(:fault_migration_runs) { |t| t.string :host }
    execute "SELECT pg_sleep(${sleepS})"
    execute "INSERT INTO fault_migration_runs (host) VALUES (#{connection.quote(ENV.fetch("FAULT_HOST", "?"))})"
  end

  def down
    drop_table :fault_migration_runs
  end
end
RUBY
M0=$(date +%s) MPIDS=""
${names.map((n) => `(${runs[n]} > /tmp/mig-${tag}-${n}.txt 2>&1 && echo 0 > /tmp/mig-${tag}-${n}.rc || echo 1 > /tmp/mig-${tag}-${n}.rc) & MPIDS="$MPIDS $!"`).join('\n')}
wait $MPIDS
echo "${tag} rcs=$(cat ${names.map((n) => `/tmp/mig-${tag}-${n}.rc`).join(' ')} | sort | tr '\n' ',') seconds=$(( $(date +%s) - M0 )) lock-errors=$(grep -l ConcurrentMigrationError /tmp/mig-${tag}-*.txt | wc -l)"
MQ() { ${psql} -d app_production -Atc "$1"; }
echo "${tag} runs=$(MQ 'select count(*) from fault_migration_runs') version-rows=$(MQ "select count(*) from schema_migrations where version = '20261125000001'") app-role=$(MQ "select array_to_string(setconfig, ',') from pg_db_role_setting s join pg_roles r on r.oid = s.setrole where r.rolname = 'app'")"
for n in ${names.join(' ')}; do echo "--- migrate $n"; tail -5 /tmp/mig-${tag}-$n.txt; done
`;
}

// What slowMigrationScript printed for TAG: sorted exit codes ('0,1,'), seconds, runs stopped by the lock, runs of the body,
// schema_migrations rows, the app role's settings. null when the lines are missing.
export function parseSlowMigration(stdout, tag) {
  const a = new RegExp(`^${tag} rcs=([\\d,]*) seconds=(\\d+) lock-errors=(\\d+)$`, 'm').exec(stdout);
  const b = new RegExp(`^${tag} runs=(\\d*) version-rows=(\\d*) app-role=(.*)$`, 'm').exec(stdout);
  if (!a || !b) return null;
  return { rcs: a[1], seconds: Number(a[2]), lockErrors: Number(a[3]), runs: b[1], versionRows: b[2], appRole: b[3] };
}
