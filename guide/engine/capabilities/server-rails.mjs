// The Rails versions an app server can run (issue 24). An answer outside a server's range is refused at error level
// (rules.mjs serverCannotRunRails: CLI exit 3, an error on the page and in README), with the reason and the sources
// kept here, not in a generator. Read through caps.mjs as SERVER_RAILS ("cap.server-rails" in catalog-prod.mjs).
//
// Mongrel: its last release is 1.1.5 (2008-05-22); 1.2.0.pre2 (2010-03-18) never became final
// (rubygems.org/gems/mongrel/versions). Rails 3 and 4 reach it through Rack's handler, Rack::Handler::Mongrel (Rails
// 2.x also through mongrel_rails' own Rails handler); Rack 2.0.0 removed that handler (rack/rack commit 2577f0bb,
// "Remove legacy Mongrel server", first tagged 2.0.0.alpha) and Rails 5.0's actionpack requires rack ~> 2.0
// (rubygems.org/gems/actionpack/versions/5.0.0/dependencies), so no Rack a Rails 5.0 or later app can load starts
// Mongrel. Rack's maintainers dropped it from rackup's help in 2017 because it "couldn't be built with any Ruby
// versions that supported by Rack" (rack/rack#1154). Rails 2.3–4.2 keep their Mongrel bundle (with its warning).
export const SERVER_RAILS = {
  mongrel: { railsBefore: '5.0', reason: 'rack2', sources: ['rackMongrelRemoved', 'actionpackRack2', 'mongrelReleases'] },
};
