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
// 3 s; prints the requests, the failures, those outside the restart plus GRACE_S seconds, how long the restart took
// and when the last failure came (seconds after the restart returned), then one request after the load.
export function dbRestartScript({ tag, url, restart, requests = 75, graceS = 5 }) {
  return String.raw`
( for i in $(seq 1 ${requests}); do printf '%s %s\n' "$(date +%s.%N)" "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' ${url})"; sleep 0.2; done > /tmp/dbr-${tag}.txt ) & DBRL=$!
sleep 3; R0=$(date +%s.%N); ${restart}; R1=$(date +%s.%N)
wait $DBRL
awk -v r0=$R0 -v r1=$R1 -v grace=${graceS} '{n++; if ($2 != 200) {f++; if ($1 < r0 || $1 > r1 + grace) late++; if ($1 > last) last = $1}} END {printf "${tag} requests=%d failed=%d outside-window=%d restart-seconds=%.1f last-failure-after-restart=%.1f\n", n, f, late, r1 - r0, f ? last - r1 : 0}' /tmp/dbr-${tag}.txt
echo "${tag} after=$(curl -sS --max-time 10 -o /dev/null -w '%{http_code}' ${url})"
`;
}

// What dbRestartScript printed for TAG (numbers), and the status of the request after the load.
export function parseDbRestart(stdout, tag) {
  const m = new RegExp(`^${tag} requests=(\\d+) failed=(\\d+) outside-window=(\\d+) restart-seconds=([\\d.]+) last-failure-after-restart=(-?[\\d.]+)$`, 'm').exec(stdout);
  const after = new RegExp(`^${tag} after=(\\d+)$`, 'm').exec(stdout);
  if (!m) return null;
  return { requests: Number(m[1]), failed: Number(m[2]), outsideWindow: Number(m[3]), restartS: Number(m[4]), lastFailureS: Number(m[5]), after: after ? after[1] : null };
}
