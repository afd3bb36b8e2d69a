# A Rails-shaped workload that runs unchanged on Ruby 3.1, 3.3 and 3.4 with the standard library only (the host's
# Ruby 3.1 cannot boot Rails 8.1, which needs Ruby 3.2 or newer). One iteration builds 500 records, renders them
# with ERB into an HTML table, serialises them to JSON and parses that back, and groups and sorts them: object
# allocation, string building, hashes and blocks, the things a Rails page spends its CPU on.
# Usage: ruby workload.rb ITERATIONS
require 'erb'
require 'json'

Row = Struct.new(:id, :title, :author, :tags, :score, :body)
TEMPLATE = ERB.new(<<~HTML, trim_mode: '-')
  <table>
  <%- rows.each do |r| -%>
    <tr class="<%= r.id.even? ? 'even' : 'odd' %>"><td><%= r.id %></td><td><%= ERB::Util.html_escape(r.title) %></td>
    <td><%= r.author %></td><td><%= r.tags.join(', ') %></td><td><%= format('%.2f', r.score) %></td></tr>
  <%- end -%>
  </table>
HTML

def iteration(seed)
  rows = Array.new(500) do |i|
    Row.new(i, "Post #{seed}-#{i} <about> caching & speed", "author#{i % 37}", %w[ruby rails puma gc].rotate(i % 4).first(2), (i * 7919 % 1000) / 10.0, 'x' * (50 + i % 100))
  end
  html = TEMPLATE.result_with_hash(rows: rows)
  json = JSON.generate(rows.map { |r| r.to_h })
  back = JSON.parse(json)
  groups = back.group_by { |h| h['author'] }.transform_values { |v| v.sum { |h| h['score'] } }
  html.bytesize + json.bytesize + groups.max_by { |_, v| v }.last.to_i
end

n = Integer(ARGV.fetch(0, '200'))
checksum = 0
n.times { |i| checksum += iteration(i) }
puts "iterations=#{n} checksum=#{checksum} ruby=#{RUBY_VERSION} yjit=#{defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? 'on' : 'off'}"
