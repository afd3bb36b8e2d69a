#!/usr/bin/env bash
# The lab's base layer: one mmdebstrap call for Debian 13 plus Ruby 3.4 from experimental, with the host's
# package-source settings carried in. Called by `scripts/lab build` with the target folder; this file's content
# is part of the recipe hash, so editing it triggers a rebuild.
#
#   build-rootfs.sh TARGET MIRROR SUITE DEBCACHE
#   DEBCACHE keeps the downloaded .deb files, so rebuilding the same recipe (a damaged cache) downloads nothing.
set -euo pipefail
target=$1 mirror=$2 suite=$3 debs=$4
mkdir -p "$debs"
here=$(cd "$(dirname "$0")" && pwd)

list() { grep -v -E '^\s*(#|$)' "$1" | tr '\n' ',' | sed 's/,$//'; }

# Host settings the lab must share so that it installs wherever the host installs (proxies, private CAs,
# gem mirrors). Collected into a staging folder that the customize hook copies in.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/ca" "$stage/apt" "$stage/root"
cp -a /usr/local/share/ca-certificates/. "$stage/ca/" 2>/dev/null || true
for f in /etc/apt/apt.conf.d/*; do
  grep -q -i -E 'proxy|Acquire::https?::' "$f" 2>/dev/null && cp "$f" "$stage/apt/" || true
done
for f in .gemrc .npmrc .bundle/config; do
  [ -f "$HOME/$f" ] && { mkdir -p "$stage/root/$(dirname "$f")"; cp "$HOME/$f" "$stage/root/$f"; }
done
[ -f /etc/gemrc ] && cp /etc/gemrc "$stage/gemrc"
# The gem sources the host uses (its RubyGems mirror, if any) become the lab's.
if command -v gem >/dev/null; then
  sources=$(gem sources --list 2>/dev/null | grep -E '^https?://' || true)
  if [ -n "$sources" ]; then
    { echo ":sources:"; printf '%s\n' "$sources" | sed 's/^/- /'; } > "$stage/gemrc.sources"
  fi
fi

export http_proxy="${http_proxy:-}" https_proxy="${https_proxy:-}" no_proxy="${no_proxy:-}"

mmdebstrap --variant=apt --mode=root --quiet --skip=essential/unlink \
  --setup-hook='mkdir -p "$1/var/cache/apt/archives/"' \
  --setup-hook="sync-in $debs /var/cache/apt/archives/" \
  --aptopt='Acquire::Check-Valid-Until "false"' \
  --aptopt='APT::Install-Recommends "false"' \
  --include="$(list "$here/packages.txt")" \
  --setup-hook="mkdir -p \"\$1/usr/local/share/ca-certificates\" && cp -a $stage/ca/. \"\$1/usr/local/share/ca-certificates/\"" \
  --setup-hook="mkdir -p \"\$1/etc/apt/apt.conf.d\" && cp -a $stage/apt/. \"\$1/etc/apt/apt.conf.d/\"" \
  --customize-hook="cp -a $stage/root/. \"\$1/root/\"" \
  --customize-hook="if [ -f $stage/gemrc ]; then cp $stage/gemrc \"\$1/etc/gemrc\"; elif [ -f $stage/gemrc.sources ]; then cp $stage/gemrc.sources \"\$1/etc/gemrc\"; fi" \
  --customize-hook='chroot "$1" update-ca-certificates --fresh >/dev/null' \
  --customize-hook="echo 'deb $mirror experimental main' > \"\$1/etc/apt/sources.list.d/experimental.list\"" \
  --customize-hook='chroot "$1" apt-get update -qq' \
  --customize-hook="chroot \"\$1\" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -t experimental $(list "$here/packages-experimental.txt" | tr ',' ' ') >/dev/null" \
  --customize-hook="sync-out /var/cache/apt/archives $debs" \
  --customize-hook='chroot "$1" apt-get clean' \
  "$suite" "$target" "deb $mirror $suite main"

# Each Ruby's commands under their plain names (Debian only ships ruby3.3, bundle3.3, …), one folder per
# version; `lab run` puts the chosen one first in PATH.
for v in 3.3 3.4; do
  mkdir -p "$target/opt/lab/ruby-$v/bin"
  for cmd in ruby gem bundle bundler irb erb rdoc ri rake; do
    if [ -e "$target/usr/bin/${cmd}$v" ]; then ln -sf "/usr/bin/${cmd}$v" "$target/opt/lab/ruby-$v/bin/$cmd"; fi
  done
done
# Debian installs services enabled; nothing in the lab may start on its own.
printf '#!/bin/sh\nexit 101\n' > "$target/usr/sbin/policy-rc.d"
chmod +x "$target/usr/sbin/policy-rc.d"
