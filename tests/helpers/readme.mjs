// Shell blocks of a generated bundle README, for the lab proofs that run them as written.

// The ```sh blocks under each "### N. Title" heading of the README, keyed by N.
export function readmeSteps(markdown) {
  const steps = new Map();
  let step = null;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const h = /^### (\d+)\. /.exec(lines[i]);
    if (h) { step = Number(h[1]); continue; }
    if (step !== null && lines[i] === '```sh') {
      const code = [];
      for (i++; i < lines.length && lines[i] !== '```'; i++) code.push(lines[i]);
      steps.set(step, [...(steps.get(step) || []), code.join('\n')]);
    }
  }
  return steps;
}

const shQuote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

// Shell lines that run README step n's blocks as written (in directory `cd` when given) and print stepN=ok.
export function stepScript(steps, n, { cd } = {}) {
  const run = `bash -euo pipefail -c ${shQuote(steps.get(n).join('\n'))}`;
  return `echo "--- README step ${n}"\n${cd ? `(cd ${cd} && ${run})` : run}\nprintf '\\nstep${n}=ok\\n'`;
}

// Shell lines for the README's precondition in the lab, as tests/wizard/lab-default-bundle.test.mjs sets it up: the
// reference app at ROOT with its gems (the lab's bundle, recorded in the app's .bundle/config as a deployment would)
// and assets precompiled, /usr/bin/bundle (Ruby 3.3's own Bundler standing in for Debian's bundler package), DOMAIN
// resolving to this host and, with `ca`, a test CA the host trusts (the certbot shim signs with it). `revision`
// is written to the app's REVISION file (GET /faults/release answers it).
export function appPrecondition({ root, domain, ca = true, revision }) {
  return String.raw`
mkdir -p ${root} && cp -a /repo/lab/app/. ${root}/ && rm -rf ${root}/log/* ${root}/tmp/*
${revision ? `echo ${revision} > ${root}/REVISION` : ''}
mkdir -p ${root}/.bundle && printf -- '---\nBUNDLE_PATH: "%s"\nBUNDLE_FROZEN: "true"\n' "$BUNDLE_PATH" > ${root}/.bundle/config
(cd ${root} && env -u BUNDLE_GEMFILE RAILS_ENV=production SECRET_KEY_BASE_DUMMY=1 bundle exec rails assets:precompile >/tmp/assets.log 2>&1) || { tail -20 /tmp/assets.log; exit 1; }
unset BUNDLE_GEMFILE
[ -x /usr/bin/bundle ] || ln -s bundle3.3 /usr/bin/bundle
echo "127.0.0.1 ${domain}" >> /etc/hosts
${ca ? String.raw`install -d /etc/readme-ca && (cd /etc/readme-ca && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=readme test CA" -keyout ca.key -out ca.pem 2>/dev/null)
cp /etc/readme-ca/ca.pem /usr/local/share/ca-certificates/readme-test-ca.crt && update-ca-certificates >/dev/null 2>&1` : ''}
export PATH=/repo/tests/wizard/lab/readme-shims:$PATH README_DOMAIN=${domain}
`;
}

// Shell lines that send CLIENTS bounded request loops at URL (each request TIMEOUT_S at most, the loops stop when
// /tmp/load-stop appears or after MAX_S seconds) around the command CMD, then print TAG lines: the answers seen
// (body and status, counted), the requests, the failures (anything but a 200) and the slowest answer in seconds.
export function loadAround({ tag, url, cmd, clients = 4, maxS = 90, settleS = 3, timeoutS = 10 }) {
  return String.raw`
rm -f /tmp/load-stop /tmp/load-${tag}.*
for c in $(seq 1 ${clients}); do ( end=$(( $(date +%s) + ${maxS} )); while [ ! -e /tmp/load-stop ] && [ $(date +%s) -lt $end ]; do
  printf '%s %s\n' "$(curl -s --max-time ${timeoutS} -w ' %{http_code} %{time_total}' ${url} 2>/dev/null | tr -d '\r\n' || true)" x; done > /tmp/load-${tag}.$c ) & done
sleep ${settleS}
${cmd}
sleep ${settleS}; touch /tmp/load-stop; wait
cat /tmp/load-${tag}.* > /tmp/load-${tag}.all
awk '{ print $(NF-3), $(NF-2) }' /tmp/load-${tag}.all | sort | uniq -c | sed "s/^ */${tag} seen: /"
awk '{ n++; if ($(NF-2) != 200) f++; if ($(NF-1) > m) m = $(NF-1) } END { printf "${tag} requests=%d failed=%d slowest-s=%.2f\n", n, f, m }' /tmp/load-${tag}.all
`;
}
