// Maximum Ruby per Rails series, as data. Read by the engine through text.mjs cap('rails-ruby-breaks') (it travels
// in the catalog JSON on the page).
// The first Ruby (language level) each Rails series cannot run on, and why: a change in that Ruby the series'
// last release does not handle. Sources are the Ruby NEWS files of the breaking version: NEWS-2.0.0 (iconv
// removed from the standard library; Rails 2.3 needs it), NEWS-2.4.0 (Fixnum and Bignum unified; the json 1.x gem
// Rails ≤ 4.1 pins does not build), NEWS-2.7.0 (bigdecimal 2.0 removes BigDecimal.new, which Rails 4.2 calls),
// NEWS-3.0.0 (keyword arguments separated from positional ones; Rails < 6.0 passes hashes as keywords),
// NEWS-3.4.0 (base64, bigdecimal, drb, mutex_m become bundled gems; Active Support < 7.1 requires them without
// declaring them, so Bundler raises LoadError). Newest rows first; a series with no row has no known limit.
export const RAILS_RUBY_BREAKS = [
  { since: '7.1', ruby: null },
  { since: '6.0', ruby: '3.4', news: '3.4.0', why: 'bundled' },
  { since: '5.0', ruby: '3.0', news: '3.0.0', why: 'kwargs' },
  { since: '4.2', ruby: '2.7', news: '2.7.0', why: 'bigdecimal' },
  { since: '3.0', ruby: '2.4', news: '2.4.0', why: 'json' },
  { since: '0', ruby: '2.0', news: '2.0.0', why: 'iconv' },
];
