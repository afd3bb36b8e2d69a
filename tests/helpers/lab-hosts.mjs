// Shell for lab proofs with several machines (issue 11's multi-host proof, issue 23's fault suite): a bridge on
// 198.18.0.0/24 in the lab's own network namespace (the client side, .1) and one network namespace per host, each
// with a mount namespace of its own /run, /tmp, /var/log and app tmp/log over the shared image (and, where asked,
// its own copy of /etc directories such as /etc/nginx, so a balancer's nginx.conf does not replace the app hosts').
// A keeper process holds each host's namespaces; `on HOST CMD` runs a command inside them (with the keeper's root:
// the lab is a chroot, and entering a mount namespace alone would land in the machine's own root). `stop_all` (on
// EXIT) stops every server the README shims started and removes the namespaces.

/** Shell lines that create the hosts. hosts: {name: last octet}; privateEtc: {name: ['/etc/nginx', …]}. */
export function hostsScript({ net, hosts, root, privateEtc = {} }) {
  const names = Object.keys(hosts);
  const etcMounts = (n) => (privateEtc[n] || []).map((d) => `&& mount --bind /hosts/${n}/etc${d.replace(/\//g, '_')} ${d}`).join(' ');
  const etcCopies = (n) => (privateEtc[n] || []).map((d) => `cp -a ${d}/. /hosts/${n}/etc${d.replace(/\//g, '_')}/`).join('; ');
  return String.raw`
ip link set lo up
ip link add br0 type bridge && ip addr add ${net}.1/24 dev br0 && ip link set br0 up
${names.map((n) => `ip netns add ${n} && ip link add v-${n} type veth peer name eth0 netns ${n} && ip link set v-${n} master br0 up
ip -n ${n} link set lo up && ip -n ${n} addr add ${net}.${hosts[n]}/24 dev eth0 && ip -n ${n} link set eth0 up`).join('\n')}
mkdir -p /hosts
${names.map((n) => `mkdir -p /hosts/${n}/log /hosts/${n}/apptmp /hosts/${n}/applog ${(privateEtc[n] || []).map((d) => `/hosts/${n}/etc${d.replace(/\//g, '_')}`).join(' ')} && cp -a /var/log/. /hosts/${n}/log/; ${etcCopies(n)}
mkdir -p ${root}/tmp ${root}/log
ip netns exec ${n} unshare --mount --propagation private bash -c "mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /tmp && chmod 1777 /tmp \
  && mount --bind /hosts/${n}/log /var/log && mount --bind /hosts/${n}/apptmp ${root}/tmp && mount --bind /hosts/${n}/applog ${root}/log ${etcMounts(n)} \
  && install -d -o postgres -g postgres -m 2775 /run/postgresql && touch /hosts/${n}/ready && exec sleep 3600" &
echo $! > /hosts/${n}/keeper.pid`).join('\n')}
for n in ${names.join(' ')}; do for i in $(seq 1 50); do [ -f /hosts/$n/ready ] && break; sleep 0.1; done; [ -f /hosts/$n/ready ] || { echo "host $n did not come up"; exit 1; }; done
on() { local n=$1; shift; nsenter -t "$(cat /hosts/$n/keeper.pid)" -m -n -r --wd="$PWD" -- "$@"; }
stop_all() {
  for n in ${names.join(' ')}; do on $n bash -c 'for p in /run/readme-shims/*.pid; do [ -f "$p" ] && kill -TERM -- "-$(cat "$p")" 2>/dev/null; done
    [ -f /run/haproxy.pid ] && kill $(cat /run/haproxy.pid); [ -f /run/nginx.pid ] && nginx -s quit; pg_ctlcluster 17 main stop' >/dev/null 2>&1 || true; done
  for n in ${names.join(' ')}; do kill "$(cat /hosts/$n/keeper.pid)" 2>/dev/null || true; ip netns del $n 2>/dev/null || true; done
}
trap stop_all EXIT
`;
}

/** The README's precondition on the app hosts (one shared image): the app with its gems and assets, Bundler at
 * /usr/bin/bundle, DNS pointing the domain at the balancer, a CA every host trusts, the README shims on PATH. */
export function appImageScript({ root, domain, lbAddress }) {
  return String.raw`
mkdir -p ${root} && cp -a /repo/lab/app/. ${root}/ && rm -rf ${root}/log/* ${root}/tmp/*
mkdir -p ${root}/.bundle && printf -- '---\nBUNDLE_PATH: "%s"\nBUNDLE_FROZEN: "true"\n' "$BUNDLE_PATH" > ${root}/.bundle/config
(cd ${root} && env -u BUNDLE_GEMFILE RAILS_ENV=production SECRET_KEY_BASE_DUMMY=1 bundle exec rails assets:precompile >/tmp/assets.log 2>&1) || { tail -20 /tmp/assets.log; exit 1; }
unset BUNDLE_GEMFILE
[ -x /usr/bin/bundle ] || ln -s bundle3.3 /usr/bin/bundle
echo "${lbAddress} ${domain}" >> /etc/hosts
install -d /etc/readme-ca && (cd /etc/readme-ca && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=readme test CA" -keyout ca.key -out ca.pem 2>/dev/null)
cp /etc/readme-ca/ca.pem /usr/local/share/ca-certificates/readme-test-ca.crt && update-ca-certificates >/dev/null 2>&1
export PATH=/repo/tests/wizard/lab/readme-shims:$PATH README_DOMAIN=${domain} README_SECRET_KEY_BASE=$(openssl rand -hex 64)
`;
}
