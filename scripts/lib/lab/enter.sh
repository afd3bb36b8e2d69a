#!/usr/bin/env bash
# Runs one command inside the lab's root filesystem. Called by scripts/lab as PID 1 of fresh mount and PID
# namespaces (and, unless --net host, a fresh network namespace), so everything it mounts and every process it
# starts disappears with it. Never run this directly.
#
#   enter.sh TARGET ROOTFS RUNDIR REPO GEMS YJIT YJIT_RW NET TIMEOUT GRACE RUBY -- CMD…
#     TARGET   overlay: a throwaway overlay over ROOTFS in RUNDIR (runs); direct: ROOTFS itself (building)
#     GEMS     the gem folder, mounted at /opt/lab/bundle
#     YJIT     the Ruby 3.4 YJIT layer's folder, mounted at /opt/ruby-3.4-yjit when it exists (read-only unless
#              YJIT_RW is 1: the layer's own build)
#     NET      private | host
#     TIMEOUT  seconds, 0 for none; the command's exit status becomes 124 when it runs out
#     GRACE    seconds between TERM and KILL when the command ends and processes are left behind
#     RUBY     3.3 | 3.4 | 3.4-yjit: which Ruby comes first in PATH
set -euo pipefail

mode=$1 rootfs=$2 rundir=$3 repo=$4 gems=$5 yjit=$6 yjit_rw=$7 net=$8 timeout_s=$9 grace=${10} ruby=${11}
shift 11
[ "${1:-}" = "--" ] && shift

say() { printf 'lab: %s\n' "$*" >&2; }

if [ "$net" = private ]; then
  ip link set lo up
fi

if [ "$mode" = overlay ]; then
  target="$rundir/root"
  mkdir -p "$rundir/upper" "$rundir/work" "$target"
  # SERVICES_LOWER (scripts/lab run --services): the services layer, stacked over the base layer.
  mount -t overlay lab-overlay -o "lowerdir=${SERVICES_LOWER:+$SERVICES_LOWER:}$rootfs,upperdir=$rundir/upper,workdir=$rundir/work" "$target"
else
  target="$rootfs"
fi

# Kernel file systems and a private /run, /dev/shm and /tmp view; the caller's repository at /repo.
mount -t proc proc "$target/proc"
mount -t sysfs sysfs "$target/sys" 2>/dev/null || mount --rbind /sys "$target/sys"
mount --rbind /dev "$target/dev"
mount -t tmpfs -o mode=1777,size=2g lab-shm "$target/dev/shm"
mount -t tmpfs -o mode=0755 lab-run "$target/run"
mkdir -p "$target/run/lock" "$target/repo"
mount --bind "$repo" "$target/repo"
mkdir -p "$gems" "$target/opt/lab/bundle"
mount --bind "$gems" "$target/opt/lab/bundle"
if [ -d "$yjit" ]; then
  mkdir -p "$target/opt/ruby-3.4-yjit"
  mount --bind "$yjit" "$target/opt/ruby-3.4-yjit"
  [ "$yjit_rw" = 1 ] || mount -o remount,bind,ro "$target/opt/ruby-3.4-yjit"
fi
cp /etc/resolv.conf "$target/etc/resolv.conf" 2>/dev/null || true
# The host's Node.js, read-only at /opt/host-node/bin/node (not in PATH) for the open-loop load generator
# (scripts/lib/measure/openloop-cli.mjs): Debian 13 packages no constant-rate generator, and node is not in the
# lab's package list. Only in a throwaway overlay, never in a build; lab/bench checks that it runs here.
hostnode=$(readlink -f "$(command -v node 2>/dev/null)" 2>/dev/null || true)
if [ "$mode" = overlay ] && [ -n "$hostnode" ] && [ -x "$hostnode" ]; then
  mkdir -p "$target/opt/host-node/bin" && touch "$target/opt/host-node/bin/node"
  # Read-only or not at all: a run must never be able to change the host's node.
  if mount --bind "$hostnode" "$target/opt/host-node/bin/node" && ! mount -o remount,bind,ro "$target/opt/host-node/bin/node"; then
    umount "$target/opt/host-node/bin/node" || true
  fi
fi

case "$ruby" in
  3.4-yjit) rubybin=/opt/ruby-3.4-yjit/bin ;;
  *) rubybin="/opt/lab/ruby-$ruby/bin" ;;
esac
bindir="$rubybin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Only chosen variables cross into the lab: LAB_*, RAILS_*, the proxy settings, and the terminal.
pass=()
while IFS='=' read -r name _; do
  case "$name" in
    LAB_*|RAILS_*|RUBY_YJIT_ENABLE|SECRET_KEY_BASE|WEB_CONCURRENCY|http_proxy|https_proxy|no_proxy|HTTP_PROXY|HTTPS_PROXY|NO_PROXY|TERM)
      pass+=("$name=${!name}") ;;
  esac
done < <(env)

child=""
forward() { [ -n "$child" ] && kill -TERM "$child" 2>/dev/null || true; }
trap forward TERM INT HUP

timeout_cmd=()
[ "$timeout_s" != 0 ] && timeout_cmd=(timeout --kill-after=5 "$timeout_s")

chroot "$target" /usr/bin/env -i "${pass[@]}" \
  HOME=/root LANG=C.UTF-8 TZ=UTC LAB=1 LAB_RUBY="$ruby" LAB_REPO=/repo \
  BUNDLE_PATH=/opt/lab/bundle BUNDLE_VERSION=system BUNDLE_SILENCE_ROOT_WARNING=1 \
  PATH="/repo/lab/bin:$bindir" \
  /bin/sh -c 'cd /repo && exec "$@"' lab-command "${timeout_cmd[@]}" "$@" &
child=$!
rc=0
wait "$child" || rc=$?
# wait returns early (status > 128) when a trapped signal arrives: wait again for the real status.
while kill -0 "$child" 2>/dev/null; do wait "$child" || rc=$?; done

# Teardown: TERM everything still running in this PID namespace, give it GRACE seconds, then KILL.
# (We are PID 1 here, so -1 means "every other process of the lab run".)
# Live processes other than this shell (zombies are already dead: the namespace reaps them when it ends).
others() {
  local p n=0 state
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" = 1 ] || [ "$p" = $$ ] || [ "$p" = "$BASHPID" ] && continue
    state=$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$p/stat" 2>/dev/null) || continue
    [ "$state" = Z ] || n=$((n + 1))
  done
  echo "$n"
}
if [ "$(others)" -gt 0 ]; then
  kill -TERM -1 2>/dev/null || true
  deadline=$((SECONDS + grace))
  while [ "$(others)" -gt 0 ] && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  if [ "$(others)" -gt 0 ]; then
    say "processes still running ${grace}s after TERM: sending KILL"
    kill -KILL -1 2>/dev/null || true
    # SIGKILL cannot be ignored, but dying takes a moment: return only once they are gone.
    deadline=$((SECONDS + 5))
    while [ "$(others)" -gt 0 ] && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
  fi
fi

# Unmount in reverse order (the namespace would drop them anyway; doing it keeps a direct-mode build clean).
for m in opt/host-node/bin/node opt/ruby-3.4-yjit opt/lab/bundle repo run dev/shm dev sys proc; do
  umount -R "$target/$m" 2>/dev/null || umount -l "$target/$m" 2>/dev/null || true
done
[ "$mode" = overlay ] && { umount "$target" 2>/dev/null || umount -l "$target"; }
exit "$rc"
