#!/usr/bin/env bash
# The lab's YJIT layer: Ruby 3.4 built from Debian's own ruby3.4 source package (deb-src of the lab's mirror,
# Debian's patches applied by dpkg-source) with YJIT, using Debian 13's rustc, installed under /opt/ruby-3.4-yjit
# beside the packaged Ruby 3.3 and 3.4. Runs inside the lab (`scripts/lab build`, throwaway layer, host network):
# the build tools are installed into the throwaway layer and vanish with it; only /opt/ruby-3.4-yjit, a folder
# mounted from $LAB_DIR, is kept. This file is part of the layer's recipe hash: editing it rebuilds the layer.
#
# Why not dpkg-buildpackage: Debian's rules install to /usr with the same names as the ruby3.4 package, which
# the lab keeps; a plain configure + make of the unpacked, patched source with Debian's configure options (the
# list below, from debian/rules) is the same compiler work without packaging, and installs side by side.
set -euo pipefail

# The ruby3.4 source the mirror serves. Debian's experimental suite lists 3.4.11-1~exp1 in its source index,
# but the mirror holds only the files of 3.4.5-1~exp1 (the 3.4.11 .dsc answers 404); the binary ruby3.4 in the
# lab is 3.4.11. Both have the 3.4.0 ABI (RbConfig ruby_version), which is what gems compiled for one need.
SOURCE_VERSION=3.4.5-1~exp1
PREFIX=/opt/ruby-3.4-yjit
JOBS=${LAB_BUILD_JOBS:-2}

say() { printf 'lab: yjit layer: %s\n' "$*" >&2; }
t0=$SECONDS

# deb-src for the experimental suite of the lab's own mirror (the base layer wrote its deb line).
sed -n 's/^deb /deb-src /p' /etc/apt/sources.list.d/experimental.list > /etc/apt/sources.list.d/experimental-src.list
grep -q '^deb-src ' /etc/apt/sources.list.d/experimental-src.list || { say "no experimental deb line in the lab"; exit 1; }
apt-get update -qq
# Debian's Build-Depends for ruby3.4 that the base layer lacks (autoconf and autotools-dev come with debhelper's
# dh_autoreconf there), minus the documentation and test-only ones, plus
# Debian 13's rustc (YJIT is written in Rust; Debian's rules pass --disable-yjit only because of that).
# libgdbm/libncurses/libedit serve extensions Ruby 3.4 no longer bundles (dbm, gdbm, readline).
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  rustc bison libgmp-dev systemtap-sdt-dev dpkg-dev autoconf autotools-dev file >/dev/null
say "build tools installed in $((SECONDS - t0)) s ($(rustc --version))"

work=$(mktemp -d /tmp/ruby-yjit.XXXXXX)
cd "$work"
# apt-get source checks the files against the signed source index; dpkg-source -x applies Debian's patches.
apt-get source -qq --download-only "ruby3.4=$SOURCE_VERSION" >/dev/null
dpkg-source -x ./*.dsc src >/dev/null
cd src
grep -q -- '--disable-yjit' debian/rules || say "note: debian/rules no longer passes --disable-yjit"
# As Debian's build does (debhelper runs dh_autoreconf): regenerate configure from the patched configure.ac,
# otherwise make notices the newer configure.ac and stops for want of autoconf. Then debian/rules' own step.
autoreconf -f -i >/dev/null 2>&1 || { say "autoreconf failed"; exit 1; }
cp /usr/share/misc/config.guess /usr/share/misc/config.sub tool/

# Debian's configure options (debian/rules), with four changes for a side-by-side install: the prefix, no
# program suffix (bin/ruby, not ruby3.4), a run path to this prefix's libruby (Debian uses --disable-rpath: its
# libruby is in /usr/lib), and --enable-yjit. The soname stays Debian's (libruby-3.4.so.3.4), so that gems compiled
# against the ruby3.4 package bind to this libruby once this ruby has loaded it.
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
gnu=$(dpkg-architecture -qDEB_HOST_GNU_TYPE)
export DEB_BUILD_MAINT_OPTIONS=hardening=+bindnow LANG=C.UTF-8 LC_ALL=C.UTF-8
eval "set -- $(dpkg-buildflags --export=configure)"
./configure --prefix="$PREFIX" --enable-multiarch --target="$triplet" --with-soname=ruby-3.4 --enable-shared \
  --runstatedir=/var/run --localstatedir=/var --sysconfdir=/etc \
  AS="$gnu-as" CC="$gnu-gcc" CXX="$gnu-g++" LD="$gnu-ld" \
  --enable-ipv6 --with-dbm-type=gdbm_compat --with-compress-debug-sections=no "$@" \
  EGREP='/bin/grep -E' GREP=/bin/grep MAKEDIRS='/bin/mkdir -p' MKDIR_P='/bin/mkdir -p' SHELL=/bin/sh \
  PKG_CONFIG="$gnu-pkg-config" \
  --enable-yjit > configure.log 2>&1 || { tail -40 configure.log; say "configure failed"; exit 1; }
# Stop here, not after a 10-minute make, when configure turned YJIT down (no usable rustc, for example).
if grep -q -E '^YJIT_SUPPORT *= *no' Makefile; then grep -i -E 'rustc|yjit' configure.log | tail -5; say "configure did not enable YJIT"; exit 1; fi
say "configured in $((SECONDS - t0)) s"
make -j"$JOBS" main > make.log 2>&1 || { tail -60 make.log; say "make failed"; exit 1; }
say "compiled in $((SECONDS - t0)) s"
make install-nodoc > install.log 2>&1 || { tail -40 install.log; say "make install failed"; exit 1; }
cp debian/changelog "$PREFIX/DEBIAN-CHANGELOG"
printf '%s\n' "$SOURCE_VERSION" > "$PREFIX/DEBIAN-SOURCE-VERSION"
rustc --version > "$PREFIX/RUSTC-VERSION"
"$PREFIX/bin/ruby" --yjit -e 'print RUBY_DESCRIPTION' > "$PREFIX/RUBY-DESCRIPTION"

"$PREFIX/bin/ruby" --yjit -e 'exit(RubyVM::YJIT.enabled? ? 0 : 1)' || { say "the built ruby does not enable YJIT"; exit 1; }
say "built and installed in $((SECONDS - t0)) s: $("$PREFIX/bin/ruby" --yjit -v)"
rm -rf "$work"
