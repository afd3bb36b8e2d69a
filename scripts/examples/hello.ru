# A tiny Rack app for trying scripts/bench-ruby-settings.
# Each request builds a few hundred short-lived strings and one array, so the garbage
# collector has some work and GC/allocator settings can show up in the numbers.
# Run it by hand with: bundle exec puma scripts/examples/hello.ru
ITEMS = 300

run lambda { |env|
  words = Array.new(ITEMS) { |i| "item-#{i}-#{env['PATH_INFO']}" }
  body = "hello from #{RUBY_ENGINE} #{RUBY_VERSION}: #{words.sum(&:length)} characters built\n"
  [200, { 'content-type' => 'text/plain', 'content-length' => body.bytesize.to_s }, [body]]
}
