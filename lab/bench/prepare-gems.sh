#!/usr/bin/env bash
# Installs the application servers that the reference app does not bundle (lab/bench/Gemfile: Unicorn,
# Pitchfork, Falcon, WEBrick, Thruster) for the lab's current Ruby into tmp/rebench-gems/<ruby ABI>/, beside the
# lab's own gems, which are reused from their read-only place. Needs the network: scripts/rebench runs it with
# `scripts/lab run --net host`. Cached: reinstalls only when a Gemfile or lock file changes.
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$BENCH/../.." && pwd)
abi=$(ruby -e 'print RbConfig::CONFIG["ruby_version"]')
dir="$REPO/tmp/rebench-gems/$abi"
# Start from the app's lock file, so every gem keeps the app's version and only WEBrick is added.
[ -f "$BENCH/Gemfile.lock" ] || cp "$REPO/lab/app/Gemfile.lock" "$BENCH/Gemfile.lock"
stamp() { cat "$BENCH/Gemfile" "$BENCH/Gemfile.lock" "$REPO/lab/app/Gemfile" "$REPO/lab/app/Gemfile.lock" | sha256sum | cut -c1-16; }
if [ -f "$dir/.complete" ] && [ "$(cat "$dir/.complete")" = "$(stamp)" ]; then
  echo "rebench: extra server gems for Ruby $abi are current ($dir)"
  exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
export BUNDLE_GEMFILE="$BENCH/Gemfile" GEM_HOME="$dir" GEM_PATH="$dir:${BUNDLE_PATH:-/opt/lab/bundle}/ruby/$abi"
unset BUNDLE_PATH BUNDLE_FROZEN BUNDLE_DEPLOYMENT
export BUNDLE_JOBS=2 BUNDLE_RETRY=2 BUNDLE_VERSION=system
bundle install --quiet
bundle exec ruby -e 'require "webrick"; puts "webrick #{WEBrick::VERSION}"'
stamp > "$dir/.complete"
