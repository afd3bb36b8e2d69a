// The Rails and Ruby versions an app server can run (issue 24). An answer outside a server's range is refused at error level
// (rules.mjs serverCannotRunRails: CLI exit 3, an error on the page and in README), with the reason and the sources
// kept here, not in a generator. Read through caps.mjs as SERVER_RAILS ("cap.server-rails" in catalog-prod.mjs).
//
// Mongrel: its last release is 1.1.5 (2008-05-22); 1.2.0.pre2 (2010-03-18) never became final
// (rubygems.org/gems/mongrel/versions). Rails 3 and 4 reach it through Rack's handler, Rack::Handler::Mongrel (Rails
// 2.x also through mongrel_rails' own Rails handler); Rack 2.0.0 removed that handler (rack/rack commit 2577f0bb,
// "Remove legacy Mongrel server", first tagged 2.0.0.alpha) and Rails 5.0's actionpack requires rack ~> 2.0
// (rubygems.org/gems/actionpack/versions/5.0.0/dependencies), so no Rack a Rails 5.0 or later app can load starts
// Mongrel. Rack's maintainers dropped it from rackup's help in 2017 because it "couldn't be built with any Ruby
// versions that supported by Rack" (rack/rack#1154).
// Rails 3.0–4.2: the bundle's mongrel_cluster starts `mongrel_rails start -d` per port, whose Rails handler requires
// Rails 2's `dispatcher`, which Rails 3.0 removed: every member dies at boot (evan/mongrel#9, closed as a duplicate of
// the Rails 3 support that never shipped). Those Rails run Mongrel only through Rack's handler (`rails server mongrel`,
// one process) with the prerelease 1.2.0.pre2: no cluster a unit could supervise. So the Mongrel bundle is generated
// for Rails 2.x only, and `reasons` says why per range (the last row whose `since` the Rails reaches).
export const SERVER_RAILS = {
  mongrel: {
    railsBefore: '3.0',
    reasons: [
      { since: '3.0', reason: 'dispatcher', sources: ['mongrelDispatcher', 'mongrelReleases'] },
      { since: '5.0', reason: 'rack2', sources: ['rackMongrelRemoved', 'actionpackRack2', 'mongrelReleases'] },
    ],
  },
};

// The Ruby a server release builds on. Mongrel 1.1.5's C parser uses RString's `ptr`/`len` fields, which Ruby 1.9
// made private, so `gem install mongrel` fails to compile on 1.9 and later (evan/mongrel#26, #20: its Ruby code does
// not parse on 1.9.2 either); only the prerelease 1.2.0.pre2 builds there. An answer outside is an error
// (rules.mjs serverNeedsOlderRuby).
export const SERVER_RUBY = {
  mongrel: { serverBefore: '1.2', rubyBefore: '1.9', sources: ['mongrelRuby19', 'mongrelReleases'] },
};
