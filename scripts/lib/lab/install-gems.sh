#!/usr/bin/env bash
# The lab's gem layer: the reference application's locked gems, installed for Ruby 3.3 and Ruby 3.4 into
# /opt/lab/bundle (ruby/3.3.0 and ruby/3.4.0 beside each other; on the host it is $LAB_DIR/gems, mounted there
# for every run, so rebuilding a damaged base layer keeps it). Runs inside the lab with the host network while
# the lab is being built. Gemfile.lock and the base recipe are part of the gem-layer hash: changing either
# reinstalls; bundler only installs what is missing, so a damaged gem folder is repaired.
set -euo pipefail
export BUNDLE_GEMFILE=/repo/lab/app/Gemfile BUNDLE_PATH=/opt/lab/bundle BUNDLE_FROZEN=true BUNDLE_JOBS=2 BUNDLE_RETRY=2
# Each Ruby uses its own bundled Bundler (3.4 would otherwise fetch the locked 2.5 at run time, offline)
export BUNDLE_VERSION=system
rm -rf /opt/lab/bundle/bin-unused   # launchers of an earlier layout, shared by both Rubies
for r in 3.3 3.4; do
  echo "lab: bundle install for Ruby $r"
  "bundle$r" install --quiet
  "bundle$r" check >/dev/null
  # Launchers (puma, rails, …) in each Ruby's own bin folder, where `bundle exec` looks: regenerated, because a
  # gem installed earlier keeps whatever launcher it got then.
  GEM_HOME="/opt/lab/bundle/ruby/$r.0" GEM_PATH="/opt/lab/bundle/ruby/$r.0" \
    "gem$r" pristine --all --only-executables --bindir "/opt/lab/bundle/ruby/$r.0/bin" >/dev/null
  # …with "#!/usr/bin/env ruby": the Ruby first in PATH runs them, and `bundle exec` loads them into its own
  # process. With RubyGems' "#!/usr/bin/ruby3.4" the lab's YJIT build (same 3.4.0 gem folder, --ruby 3.4-yjit)
  # would hand `bundle exec puma` to Debian's ruby3.4 without a word.
  sed -i -E '1s|^#!.*ruby[0-9.]*$|#!/usr/bin/env ruby|' "/opt/lab/bundle/ruby/$r.0/bin/"*
done
