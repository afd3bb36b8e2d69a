// How each balancer of a multi-host bundle takes one app host out of rotation and puts it back, for a rolling deploy
// (lb-host/lb-rotation.sh, README steps 7 and 8; issue 23 scenario 4). Shell fragments with placeholders the
// generator fills in: {backend} (the balancer's name for the app hosts), {socket} (HAProxy's stats socket), {conf}
// and {pid} (nginx's file and PID file). In the fragments $HOST is the host's name (app1, …), $ADDR its address and
// $SNAPSHOT what `snapshot` printed just before the drain. Read through caps.mjs ("cap.lb-rotation").
//
// HAProxy has a runtime API: `set server BACKEND/SERVER state drain` stops new requests to the server (health checks
// go on) and `state ready` undoes it; `show stat` (CSV, 5th column scur) counts the sessions it still serves
// (HAProxy 3.0 management guide, "set server", "show stat"). A server that `track`s it (the /cable backend) inherits
// the drain. socat talks to the socket (Debian's haproxy.cfg comment names it); a command it cannot deliver or that
// HAProxy refuses stops the script with HAProxy's answer (never a drain that silently did nothing).
//
// nginx (open source) has no runtime API for upstreams: `drain` is an NGINX Plus parameter (ngx_http_upstream_module,
// "server"). What an SRE does instead: mark the server `down` in the upstream block and reload. A reload is graceful
// (nginx docs, "Controlling nginx"): new workers start with the new file and send nothing to the host, and the old
// workers stop accepting connections, close their idle ones and exit once their requests are served. What is in
// flight on the drained host is what the balancer still has open to it: its established TCP connections to
// ADDR:80 (ss, iproute2), which only old workers hold after the reload. Counting the old workers instead (SRE check 4,
// D12) waited for every request and WebSocket to every host. nginx cannot tell a WebSocket to the host from a request
// (same address and port): they hold the wait until the bound, the chain's worker_shutdown_timeout, at which the
// old workers close them. Every reload (drain, ready, a certificate renewal) ends the WebSockets of all hosts that
// way; Action Cable's client reconnects, to a host in rotation.
// The sed marks the host's line `down` in every upstream that lists it (HTTP and /cable alike).
// Relying on proxy_next_upstream instead would leave the host in rotation during Puma's hot restart,
// where its requests wait in the socket's backlog while the new release boots (tens of seconds on a small host), and
// would not retry a POST that fails half-way; draining keeps every request on the hosts that answer at once.
// `needs` is the command the script checks first, `package` where it is not the package's name.
export const LB_ROTATION = {
  // Every command goes through api, which fails when socat cannot reach the socket (HAProxy down, another path);
  // HAProxy answers `set server` with an empty line, and anything else is its refusal ("No such server.", a level
  // too low for the command), which set_state turns into a failure instead of a drain that never happened.
  haproxy: {
    needs: 'socat',
    helpers: [
      ['api', 'api() { a=$(printf \'%s\\n\' "$1" | socat stdio {socket}) || fail "no answer from HAProxy\'s stats socket {socket} to \\"$1\\" (socat exit $?)"; printf \'%s\\n\' "$a"; }'],
      ['set-state', 'set_state() { a=$(api "set server {backend}/$HOST state $1") || exit 1; [ -z "$a" ] || fail "HAProxy refused \\"set server {backend}/$HOST state $1\\": $a"; }'],
      ['save-state', 'save_state() { s=$(api "show servers state") || exit 1; { printf \'%s\\n\' "$s" > {state}.new && mv {state}.new {state}; } || fail "could not write {state}: a reload would forget the $1"; }'],
    ],
    snapshot: 'true',
    drain: 'set_state drain && save_state drain',
    ready: 'set_state ready && save_state ready',
    inFlight: 's=$(api "show stat") || exit 1; printf \'%s\\n\' "$s" | awk -F, -v b={backend} -v h="$HOST" \'$1 == b && $2 == h {print $5}\'',
    // show stat's 18th column is the server's status (UP, UP 1/2 while rising, DOWN, DRAIN, MAINT, NOLB).
    // othersUp: the other hosts now taking requests, so that a drain never takes the last one out (SRE check 23b,
    // D2: draining the only UP host gave 503 at once); stateOf: this host's status, which `ready` waits to be UP.
    othersUp: 's=$(api "show stat") || exit 1; printf \'%s\\n\' "$s" | awk -F, -v b={backend} -v h="$HOST" \'$1 == b && $2 != h && $2 != "BACKEND" && $18 ~ /^UP/ {n++} END {print n + 0}\'',
    stateOf: 's=$(api "show stat") || exit 1; printf \'%s\\n\' "$s" | awk -F, -v b={backend} -v h="$HOST" \'$1 == b && $2 == h {print $18}\'',
  },
  nginx: {
    needs: 'ss',
    package: 'iproute2',
    // A reload returns before it takes effect (nginx -s reload signals the master): until the master has started new
    // workers (a child not in the snapshot) and told the old ones to stop accepting, an old worker may still send a
    // new request to the host. reloaded waits for that (10 s at most), then a second for the old workers' QUIT.
    helpers: [
      ['reloaded', 'reloaded() { i=0; while [ "$i" -lt 100 ]; do for p in $(pgrep -P "$(cat {pid})"); do case " $SNAPSHOT " in *" $p "*) ;; *) sleep 1; return 0 ;; esac; done; i=$((i + 1)); sleep 0.1; done; fail "nginx started no new worker within 10 s of the reload: see journalctl -u nginx"; }'],
    ],
    snapshot: 'pgrep -d " " -P "$(cat {pid})"',
    drain: 'sed -i "s|server $ADDR:80 \\(down \\)\\{0,1\\}|server $ADDR:80 down |" {conf} && nginx -t -q && systemctl reload nginx && reloaded',
    ready: 'SNAPSHOT=$(snapshot) && sed -i "s|server $ADDR:80 down |server $ADDR:80 |" {conf} && nginx -t -q && systemctl reload nginx && reloaded',
    inFlight: 's=$(ss -Htn state established dst "$ADDR:80") || fail "ss could not list the connections to $ADDR:80"; printf \'%s\\n\' "$s" | grep -c . || true',
    // nginx has only passive checks: "up" is the file's word, the other hosts' lines not marked down. No stateOf:
    // nothing tells whether a host answers before requests reach it.
    othersUp: 'grep -E "^ *server [^ ]+:80 " {conf} | grep -v "server $ADDR:80 " | grep -vc " down " || true',
  },
  // The drain's wait is bounded by the timeout chain's `shutdown` (generators/edge.mjs timeoutChain: longer than any
  // request the chain allows, and nginx's worker_shutdown_timeout on the balancer): what is open after it is a
  // WebSocket, not a request.
  // Seconds `ready` waits for the balancer to see the host up (HAProxy: rise 2 checks, a boot still finishing).
  readyWaitS: 60,
};
