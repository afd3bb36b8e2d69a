// A generated bundle's README steps 1–6 run as written inside the lab, for the lab proofs of whole bundles
// (lab-falcon-thin, lab-goodjob-dj): the shell blocks come from the README (helpers/readme.mjs), the services
// from the shims in tests/wizard/lab/readme-shims/ (systemctl, editor, certbot, sysctl).
import assert from 'node:assert/strict';
import { DEFAULTS } from '../../guide/engine/index.mjs';
import { appPrecondition, readmeSteps, stepScript } from './readme.mjs';
import { labScript } from './lab.mjs';

const ROOT = DEFAULTS.app_root;

// The README's precondition (the app in place with its gems and assets, Bundler at /usr/bin/bundle, DNS and a
// trusted CA for the domain) and the shims on PATH; then README steps 1–6 and /up over HTTPS. Shell functions for
// the proofs: version_ru (a version constant config.ru reads at boot, answered in x-lab-release: v1 to start with),
// get/load_start/load_stop (4 clients on /up until stopped, counted per version), new_release (a second release with
// v2, switched as deploy.sh does), until_v2, switch_under_load (both, then a restart or reload, timed), run_job (a
// job enqueued by POST /jobs, polled until a runner ran it).
// `prepare`: shell lines for what the bundle's warnings ask of the app before step 1 (WEBrick: the gem in the Gemfile).
export function readmeScript(bundle, B, { domain, secretsExtra = '', prepare = '' }) {
  const DOMAIN = domain;
  const steps = readmeSteps(bundle.files.find((f) => f.path === 'README.md').content);
  for (const n of [1, 2, 3, 4, 5, 6]) assert.ok(steps.has(n), `README has a shell block for step ${n}`);
  const run = [1, 2, 3, 4, 5, 6].map((n) => stepScript(steps, n, { cd: B })).join('\n');
  return String.raw`
${appPrecondition({ root: ROOT, domain: DOMAIN })}
${prepare}
export README_SECRETS_EXTRA="${secretsExtra}"
# The app's version: a constant read when a worker boots config.ru, returned by every response.
version_ru() { printf '%s\n' "LAB_RELEASE = \"$1\"" 'use(Class.new { def initialize(app) = (@app = app); def call(env) = @app.call(env).tap { |r| r[1]["x-lab-release"] = LAB_RELEASE } })' "$(grep -v '^LAB_RELEASE\|^use(Class' "$2")" > "$2.new" && mv "$2.new" "$2"; }
version_ru v1 ${ROOT}/config.ru
stop_all() { for p in /run/readme-shims/*.pid; do [ -f "$p" ] && kill -TERM -- "-$(cat "$p")" 2>/dev/null || true; done; nginx -s quit 2>/dev/null || true; pg_ctlcluster 17 main stop 2>/dev/null || true; }
trap 'rc=$?; [ $rc = 0 ] || { tail -n 25 /var/log/rails-*.log ${ROOT}/log/*.log; tail -n 5 /var/log/nginx/error.log; ls -l ${ROOT}/tmp/sockets; tail -5 /var/log/readme-shims.log; }; stop_all; exit $rc' EXIT
${run}
H="-sS --max-time 20"
echo "up=$(curl $H -o /dev/null -w '%{http_code} http%{http_version}' https://${DOMAIN}/up)"
echo "page=$(curl $H -o /dev/null -w '%{http_code}' https://${DOMAIN}/regular)"
# Four clients asking /up through nginx until /tmp/stop appears; each answer is "status version", and a failed one
# also carries the time it ended (at=epoch seconds), to set beside the server's and nginx's logs.
get() { local o; o=$(curl -s --max-time 10 -o /dev/null -w '%{http_code} %header{x-lab-release}' https://${DOMAIN}/up 2>/dev/null) || o="error $?"; case "$o" in "200 v1" | "200 v2") echo "$o" ;; *) echo "$o at=$(date +%s.%N | cut -c1-14)" ;; esac; }
load_start() { rm -f /tmp/stop /tmp/load.*; for c in 1 2 3 4; do (while [ ! -e /tmp/stop ]; do get; done > /tmp/load.$c) & done; }
load_stop() { touch /tmp/stop; wait; cat /tmp/load.* > /tmp/all; echo "load v1=$(grep -c '^200 v1$' /tmp/all || true) v2=$(grep -c '^200 v2$' /tmp/all || true) failed=$(grep -vc '^200 v[12]$' /tmp/all || true)"; { grep -v '^200 v[12]$' /tmp/all || true; } | sort -t= -k2 > /tmp/failed; sed 's/ at=.*//' /tmp/failed | sort | uniq -c; [ -s /tmp/failed ] && echo "failed-at first=$(head -1 /tmp/failed | sed 's/.* at=//') last=$(tail -1 /tmp/failed | sed 's/.* at=//')"; head -5 /tmp/failed; }
# A second release as deploy.sh builds one (a copy with the shared links), with new code, switched atomically.
new_release() { cur=$(readlink ${ROOT}/current); cp -a ${ROOT}/$cur ${ROOT}/releases/next && version_ru v2 ${ROOT}/releases/next/config.ru && chown -R -h deploy:deploy ${ROOT}/releases/next && ln -sfn releases/next ${ROOT}/current.new && mv -T ${ROOT}/current.new ${ROOT}/current; }
run_job() { local t r i; t=$(curl $H -X POST https://${DOMAIN}/jobs | ruby -rjson -e 'print JSON.parse(STDIN.read)["token"]'); for i in $(seq 1 240); do r=$(curl $H https://${DOMAIN}/jobs/$t); case "$r" in *executed_by\":\"*) break;; esac; sleep 0.5; done; echo "job=$r"; }
until_v2() { for i in $(seq 1 240); do [ "$(get)" = "200 v2" ] && return 0; sleep 0.5; done; echo "no v2 answer within 120 s"; return 1; }
# New code under the four clients: new_release, then COMMAND (a restart or reload); prints LABEL-ms (to the first v2
# answer), the load per version after SETTLE seconds, and which versions answer afterwards.
switch_under_load() { local label=$1 settle=$2; shift 2; load_start; sleep 2; new_release; T0=$(date +%s%N); echo "$label-at=$(date +%s.%N | cut -c1-14)"; "$@"; until_v2; echo "$label-ms=$(( ($(date +%s%N) - T0) / 1000000 ))"; sleep "$settle"; load_stop; echo "after=$(for i in 1 2 3 4 5 6; do get; done | sort -u | tr '\n' ' ')"; }
`;
}

/** Runs a proof built on readmeScript and asserts what every such proof shows: exit 0, README steps 1–6, /up over
 * HTTP/2. Returns the run, the tail of its output for messages, and its wall time in seconds. */
export async function runReadmeProof(script) {
  const started = Date.now();
  const r = await labScript(script, { timeout: 600 });
  const out = `${r.stdout}\n${r.stderr}`.split('\n').slice(-80).join('\n');
  assert.equal(r.code, 0, out);
  for (const n of [1, 2, 3, 4, 5, 6]) assert.match(r.stdout, new RegExp(`^step${n}=ok$`, 'm'), out);
  assert.match(r.stdout, /^up=200 http2$/m, out);
  return { r, out, seconds: () => Math.round((Date.now() - started) / 1000) };
}
