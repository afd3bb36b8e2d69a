# A Rails-shaped workload that runs unchanged on Ruby 3.1, 3.3 and 3.4 with the standard library only (the host's
# Ruby 3.1 cannot boot Rails 8.1, which needs Ruby 3.2 or newer). One iteration builds 500 records, renders them
# with ERB into an HTML table, serialises them to JSON and parses that back, and groups and sorts them: object
# allocation, string building, hashes and blocks, the things a Rails page spends its CPU on.
# Usage: ruby workload.rb ITERATIONS                      one cold process: all iterations, one checksum line
#        ruby workload.rb --warm WARMUP MEASURED OUT.json [SECONDS [BLOCK QUANTILE]]
#                                                          in-process: WARMUP iterations unmeasured (YJIT compiles
#                                                          lazily, during the first calls), then at least MEASURED
#                                                          iterations, and at least SECONDS of them (wall clock), each
#                                                          timed alone (CPU and wall clock) into OUT.json; prints
#                                                          plateau=X, the protocol's check (its version 3 in_process:
#                                                          the QUANTILE of BLOCK-iteration block means over the
#                                                          fastest block), so the driver can repeat a run that fails it
require 'erb'
require 'json'

Row = Struct.new(:id, :title, :author, :tags, :score, :body)
# The template is compiled once into a method, as Action View compiles each template into a method on first render.
# Evaluating ERB's source on every call (ERB#result) would hand a JIT a fresh block to compile in every iteration:
# YJIT compiled one new ISeq per iteration that way and measured the compiler, not the code (2026-11-26 run).
module View; end
ERB.new(<<~HTML, trim_mode: '-').def_method(View.singleton_class, 'table(rows)', '(workload table)')
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
  html = View.table(rows)
  json = JSON.generate(rows.map { |r| r.to_h })
  back = JSON.parse(json)
  groups = back.group_by { |h| h['author'] }.transform_values { |v| v.sum { |h| h['score'] } }
  html.bytesize + json.bytesize + groups.max_by { |_, v| v }.last.to_i
end

# The QUANTILE (type 7, as scripts/lib/rebench/stats.mjs) of the means of consecutive BLOCK-iteration blocks, over
# the fastest block; nil with fewer than ten blocks. The same figure as warm.mjs's inProcessReading.
def plateau(values, block, q)
  blocks = values.each_slice(block).select { |b| b.size == block }.map { |b| b.sum / block }.sort
  return nil if blocks.size < 10 || blocks.first <= 0
  h = (blocks.size - 1) * q
  lo = h.floor
  (blocks[lo] + (h - lo) * (blocks[h.ceil] - blocks[lo])) / blocks.first
end

def yjit_state
  return 'not built in' unless defined?(RubyVM::YJIT)
  RubyVM::YJIT.enabled? ? 'on' : 'off'
end

# Times one iteration: CPU time of this process (user + system) and wall time, in milliseconds, and the minor and
# major garbage collections it ran (GC.stat with a key allocates nothing), so the reader can tell whether the fast
# blocks the reading comes from skipped collections the others paid for.
def timed(seed)
  minor0 = GC.stat(:minor_gc_count)
  major0 = GC.stat(:major_gc_count)
  cpu0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  wall0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  sum = iteration(seed)
  cpu = (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu0) * 1000
  wall = (Process.clock_gettime(Process::CLOCK_MONOTONIC) - wall0) * 1000
  [cpu, wall, sum, GC.stat(:minor_gc_count) - minor0, GC.stat(:major_gc_count) - major0]
end

if ARGV[0] == '--warm'
  warmup, measured, out = Integer(ARGV[1]), Integer(ARGV[2]), ARGV.fetch(3)
  # Timed for long enough that a host which runs this guest at two speeds in turn (seen here: slow stretches of
  # 31 ms at the median, up to seconds, at about half speed) shows its fast speed in many 10-iteration blocks;
  # capped so a bad argument cannot run away.
  seconds = Float(ARGV.fetch(4, '0'))
  block = Integer(ARGV.fetch(5, '10'))
  quantile = Float(ARGV.fetch(6, '0.1'))
  cap = 200_000
  checksum = 0
  warm = Array.new(warmup) { |i| cpu, _, sum = timed(i); checksum += sum; cpu.round(3) }
  cpu_ms = []
  wall_ms = []
  gc_minor = []
  gc_major = []
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  i = 0
  while i < measured || (Process.clock_gettime(Process::CLOCK_MONOTONIC) - started < seconds && i < cap)
    cpu, wall, sum, minor, major = timed(warmup + i)
    checksum += sum
    cpu_ms << cpu.round(3)
    wall_ms << wall.round(3)
    gc_minor << minor
    gc_major << major
    i += 1
  end
  timed_s = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  stats = defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? RubyVM::YJIT.runtime_stats : nil
  yjit = stats && stats.slice(:compiled_iseq_count, :inline_code_size, :outlined_code_size, :code_region_size, :yjit_alloc_size)
  File.write(out, JSON.generate(
    ruby: RUBY_DESCRIPTION, executable: RbConfig.ruby, yjit: yjit_state, yjit_stats: yjit, checksum: checksum,
    warmup_iterations: warmup, warmup_cpu_ms: warm, timed_s: timed_s.round(3), cpu_ms: cpu_ms, wall_ms: wall_ms,
    gc_minor: gc_minor, gc_major: gc_major,
    max_rss_kib: File.read('/proc/self/status')[/^VmHWM:\s+(\d+)/, 1].to_i
  ))
  puts "warm: #{warmup} + #{cpu_ms.size} iterations, checksum=#{checksum} ruby=#{RUBY_VERSION} yjit=#{yjit_state}"
  ratio = plateau(cpu_ms, block, quantile)
  puts "plateau=#{ratio.round(4)}" if ratio
else
  n = Integer(ARGV.fetch(0, '200'))
  checksum = 0
  n.times { |i| checksum += iteration(i) }
  puts "iterations=#{n} checksum=#{checksum} ruby=#{RUBY_VERSION} yjit=#{yjit_state}"
end
