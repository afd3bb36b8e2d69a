#!/usr/bin/env bash
# Prints what the lab holds: exact package versions (dpkg), the Rails app's locked gem versions, the Rubies'
# own version strings, size and cache state. Called by `scripts/lab status` with REPO, ROOTFS, STATE, SIZE, JSON,
# and YJIT (the Ruby 3.4 YJIT layer's folder) with YJIT_STATE (ready, or why not), SERVICES (the services
# layer's folder) with SERVICES_STATE (empty when ready, or why not).
set -euo pipefail

packages=(ruby3.3 ruby3.4 postgresql-17 pgbouncer mariadb-server sqlite3 nginx apache2 libapache2-mod-xsendfile
  caddy haproxy libjemalloc2 wrk apache2-utils hyperfine curl)
gems=(rails puma solid_queue solid_cache solid_cable pg sqlite3 mysql2 thruster unicorn pitchfork falcon)

rows=()
while read -r name version; do rows+=("deb|$name|$version"); done < <(
  chroot "$ROOTFS" dpkg-query -W -f '${Package} ${Version}\n' "${packages[@]}" 2>/dev/null || true)
lock="$REPO/lab/app/Gemfile.lock"
if [ -f "$lock" ]; then
  for g in "${gems[@]}"; do
    v=$(grep -m1 -E "^    $g \(" "$lock" | sed -E 's/.*\((.*)\)/\1/' || true)
    [ -n "$v" ] && rows+=("gem|$g|$v")
  done
fi
for r in ruby3.3 ruby3.4; do
  v=$(chroot "$ROOTFS" "/usr/bin/$r" -e 'print RUBY_DESCRIPTION, (defined?(RubyVM::YJIT) ? " (YJIT available)" : " (built without YJIT)")' 2>/dev/null || echo "not runnable")
  rows+=("ruby|$r|$v")
done
# The YJIT layer runs only at its prefix (/opt/ruby-3.4-yjit, inside the lab): its build recorded what it is.
if [ -f "${YJIT:-/nonexistent}/RUBY-DESCRIPTION" ]; then
  rows+=("ruby-yjit|ruby 3.4 + YJIT (/opt/ruby-3.4-yjit)|$(cat "$YJIT/RUBY-DESCRIPTION"), from Debian source ruby3.4 $(cat "$YJIT/DEBIAN-SOURCE-VERSION" 2>/dev/null), $(cat "$YJIT/RUSTC-VERSION" 2>/dev/null), built in $(cat "$YJIT/.lab-yjit-build-seconds" 2>/dev/null || echo '?') s")
fi
# The services layer (Redis, Memcached) recorded the package versions apt installed into it.
if [ -f "${SERVICES:-/nonexistent}/opt/lab/services-versions" ]; then
  while read -r name version; do rows+=("svc|$name|$version"); done < "$SERVICES/opt/lab/services-versions"
fi
host_ruby=$(ruby -e 'print RUBY_DESCRIPTION, (defined?(RubyVM::YJIT) ? " (YJIT available)" : " (built without YJIT)")' 2>/dev/null || echo none)
rows+=("host|ruby (host, Debian 12)|$host_ruby")
built=$(cat "$ROOTFS/.lab/built-at" 2>/dev/null || echo unknown)

if [ "$JSON" = true ]; then
  esc() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'; }
  printf '{"state":"%s","yjit":"%s","services":"%s","path":"%s","size":"%s","built_at":"%s","components":[' "$(esc "$STATE")" "$(esc "${YJIT_STATE:-unknown}")" "$(esc "${SERVICES_STATE:-ready}")" "$(esc "$ROOTFS")" "$SIZE" "$built"
  sep=""
  for row in "${rows[@]}"; do
    IFS='|' read -r kind name version <<< "$row"
    printf '%s{"kind":"%s","name":"%s","version":"%s"}' "$sep" "$kind" "$(esc "$name")" "$(esc "$version")"
    sep=","
  done
  printf ']}\n'
else
  printf 'state:    %s\nyjit:     %s\nservices: %s\npath:     %s\nsize:     %s\nbuilt at: %s\n\n' "$STATE" "${YJIT_STATE:-unknown}" "${SERVICES_STATE:-ready}" "$ROOTFS" "$SIZE" "$built"
  printf '%-6s %-26s %s\n' kind name version
  for row in "${rows[@]}"; do
    IFS='|' read -r kind name version <<< "$row"
    printf '%-6s %-26s %s\n' "$kind" "$name" "$version"
  done
fi
