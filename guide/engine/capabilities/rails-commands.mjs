// The commands README steps 4 and 7 and deploy.sh run inside the app, per Rails version and per the Bundler the
// Ruby can run (issue 24, SRE trial: a Rails 2.3 bundle ran bin/rails, db:prepare, assets:precompile and
// `bundle config set`, none of which that stack has). Read through caps.mjs (JSON on the page); the generators take
// every command from here (generators/rails-commands.mjs). Rows are newest first; `since` is the first Rails
// version (or Ruby language level, for Bundler) the row applies to.
export const RAILS_COMMANDS = {
  // Rake tasks. Rails 5.0 runs them through `rails` ("Rake tasks in rails", Rails 5.0 release notes,
  // guides.rubyonrails.org/5_0_release_notes.html#railties); before 5.0 they are rake's, through Bundler
  // (`bundle exec rake`, the Rails 3.x/4.x guides' "rake db:migrate").
  task: [
    { since: '5.0', cmd: 'bin/rails' },
    { since: '0', cmd: 'rake' },
  ],
  // `runner`: bin/rails from 4.0 (the bin/ directory, Rails 4.0 release notes), script/rails 3.x (the Rails 3.0
  // guide "The Rails Command Line": `rails runner` through script/rails), script/runner in 2.3 (Rails 2.3 guides).
  runner: [
    { since: '4.0', cmd: 'bin/rails runner' },
    { since: '3.0', cmd: 'script/rails runner' },
    { since: '0', cmd: 'script/runner' },
  ],
  // Create-or-migrate: db:prepare exists from Rails 6.0 (rails/rails#35768; Rails 6.0 release notes, Railties:
  // "Add db:prepare"). Before it the README's SQL files have already created the databases (setup/*.sql), so
  // db:migrate is what db:prepare would do there; SQLite's file is created by the first connection.
  prepare: [
    { since: '6.0', task: 'db:prepare' },
    { since: '0', task: 'db:migrate' },
  ],
  // The asset pipeline and its assets:precompile task arrived in Rails 3.1 (Rails 3.1 release notes, "Assets
  // Pipeline"; guides.rubyonrails.org/3_1_release_notes.html). Before it, public/ is served as it is: no step.
  precompile: { since: '3.1' },
  // A throw-away app object for deploy.sh's in-process /up check: Rails.application from 3.0; Rails 2.3's Rack
  // endpoint is ActionController::Dispatcher.new (Rails 2.3 guide "Rails on Rack": config.ru runs it).
  rackApp: [
    { since: '3.0', expr: 'Rails.application' },
    { since: '0', expr: 'ActionController::Dispatcher.new' },
  ],
};

// Bundler's settings per the Ruby language level (ctx.lang): `bundle config set --local` is Bundler 2.1's syntax
// (Bundler 2.1 deprecated the remembered install flags --deployment, --path and --without for it:
// github.com/rubygems/bundler UPGRADING.md; bundler.io/man/bundle-config.1.html), and Bundler 2.x needs Ruby 2.3
// or newer (bundler.io/compatibility.html: Bundler 2 requires Ruby 2.3+ and RubyGems 2.5+). An older Ruby runs
// Bundler 1.x (1.17.3 is the last), which has only the install flags; the flags are on their way out (UPGRADING.md's
// Bundler 3 plan), so a Ruby that can run Bundler 2.1+ gets `config set`. {path}: deploy.sh's shared bundle; the
// README's steps keep deployment mode's own vendor/bundle.
export const BUNDLER_SETTINGS = [
  {
    since: '2.3', bundler: '2.1',
    deploy: ['config set --local path {path}', 'config set --local deployment true', 'config set --local without "development test"', 'install --quiet'],
    readme: ['config set --local deployment true', 'install'],
  },
  {
    since: '0', bundler: '1.17',
    deploy: ['install --quiet --deployment --path {path} --without development test'],
    readme: ['install --deployment'],
  },
];
