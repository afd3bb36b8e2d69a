#!/usr/bin/env bash
# The lab's services layer: Debian 13's redis-server and memcached packages, and Phusion Passenger (Debian's
# passenger for Passenger Standalone and libapache2-mod-passenger for Apache integration; Debian's nginx has no
# Passenger module), with the libraries they need that the base layer lacks, installed by apt inside a throwaway overlay over the base layer. `scripts/lab build`
# keeps that overlay's upper folder as the layer ($LAB_DIR/services) and stacks it over the base layer in runs
# that ask for it (`scripts/lab run --services`), the way container images stack layers. Kept apart from
# packages.txt so that adding servers does not rebuild the base layer and the Ruby 3.4 YJIT layer above it.
# This file is part of the layer's recipe hash: editing it rebuilds the layer.
set -euo pipefail

# The packages (Debian 13 names) and the programs the layer's checksum manifest records.
PACKAGES=(redis-server redis-tools memcached passenger libapache2-mod-passenger)

say() { printf 'lab: services layer: %s\n' "$*" >&2; }
t0=$SECONDS

# A package index of its own in /tmp (not part of the layer), so the base layer's lists stay as they are and the
# layer holds only what the packages install. The base layer's sources (Debian 13 from the host's mirror).
lists=$(mktemp -d /tmp/services-lists.XXXXXX)
mkdir -p "$lists/partial"
apt_opts=(-o 'APT::Sandbox::User=root' -o "Dir::State::Lists=$lists" -o 'Acquire::Check-Valid-Until=false' -o 'APT::Install-Recommends=false'
  -o 'Dir::Cache::Archives=/tmp/services-debs' -o 'Dir::Cache::pkgcache=' -o 'Dir::Cache::srcpkgcache=')
mkdir -p /tmp/services-debs/partial
apt-get "${apt_opts[@]}" update -qq
# policy-rc.d (base layer) keeps the services from starting while they install.
DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install -y -qq "${PACKAGES[@]}" >/dev/null
rm -rf "$lists" /tmp/services-debs
dpkg-query -W -f '${Package} ${Version}\n' "${PACKAGES[@]}" > /opt/lab/services-versions
say "installed in $((SECONDS - t0)) s: $(tr '\n' ' ' < /opt/lab/services-versions)"
redis-server --version >/dev/null && memcached -V >/dev/null && passenger --version >/dev/null \
  || { say "the installed servers do not run"; exit 1; }
