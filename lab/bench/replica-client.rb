# Load side of the replica experiment (lab/bench/exp/replica.sh), run with the app's bundle (for the pg gem) on the
# load CPU. N pairs at RATE pairs per second, one session (its cookie kept, as a browser would): a write
# (POST /bench/replica, one row on the primary) and, straight after its answer, a read of that row
# (GET /bench/replica/ID), which automatic role switching may send to the replica. Meanwhile two pollers, one on the
# primary and one on the replica, look for the run's rows every POLL_MS: a row's replication lag is the time from
# the primary poller first seeing it (committed) to the replica poller first seeing it (replayed).
# Prints key=value lines (scripts/lib/rebench/replica-read.mjs reads them).
#   bundle exec ruby replica-client.rb --url URL --run ID --n N --rate R --primary-port P --replica-port P
#                                      [--poll-ms MS] [--timeout S]
require "net/http"
require "json"
require "optparse"
require "pg"

opts = { rate: 20.0, poll_ms: 2.0, timeout: 10.0 }
OptionParser.new do |o|
  o.on("--url URL") { |v| opts[:url] = v }
  o.on("--run ID") { |v| opts[:run] = v }
  o.on("--n N", Integer) { |v| opts[:n] = v }
  o.on("--rate R", Float) { |v| opts[:rate] = v }
  o.on("--primary-port P", Integer) { |v| opts[:primary] = v }
  o.on("--replica-port P", Integer) { |v| opts[:replica] = v }
  o.on("--poll-ms MS", Float) { |v| opts[:poll_ms] = v }
  o.on("--timeout S", Float) { |v| opts[:timeout] = v }
end.parse!
abort "replica-client: --url, --run, --n, --primary-port and --replica-port are required" unless opts.values_at(:url, :run, :n, :primary, :replica).all?
abort "replica-client: --run must be lower-case letters, digits and hyphens" unless opts[:run].match?(/\A[a-z0-9-]{1,64}\z/)
abort "replica-client: --n must be 1..10000" unless (1..10_000).cover?(opts[:n])
abort "replica-client: --rate must be above 0 and at most 1000" unless opts[:rate] > 0 && opts[:rate] <= 1000

def mono = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def pct(sorted, q) = sorted.empty? ? nil : sorted[[(q * sorted.size).ceil - 1, 0].max]
def ms(v) = v.nil? ? "" : format("%.3f", v * 1000)

# First sighting (monotonic time) of each of the run's rows on one server.
class Poller
  attr_reader :seen, :error, :polls

  def initialize(port, batch, interval)
    @port = port; @batch = batch; @interval = interval; @seen = {}; @stop = false; @polls = 0
  end

  def start
    @thread = Thread.new do
      conn = PG.connect(host: "127.0.0.1", port: @port, user: "lab", dbname: "lab_production", connect_timeout: 10)
      last = 0
      until @stop
        rows = conn.exec_params("SELECT id FROM scratch_rows WHERE batch = $1 AND id > $2 ORDER BY id", [@batch, last])
        t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        @polls += 1
        rows.each { |r| id = r["id"].to_i; @seen[id] ||= t; last = id if id > last }
        sleep @interval
      end
      conn.close
    rescue StandardError => e
      @error = "#{e.class}: #{e.message.lines.first&.strip}"
    end
    self
  end

  def stop = (@stop = true; @thread.join(5))
end

uri = URI(opts[:url])
batch = "replica-#{opts[:run]}"
primary = Poller.new(opts[:primary], batch, opts[:poll_ms] / 1000.0).start
replica = Poller.new(opts[:replica], batch, opts[:poll_ms] / 1000.0).start
cookies = {}
writes = []; reads = []; ids = []; errors = 0; found = 0; on_reading = 0; failure = nil
http = Net::HTTP.new(uri.host, uri.port)
http.open_timeout = 10; http.read_timeout = 30
http.start
call = lambda do |req|
  req["Cookie"] = cookies.map { |k, v| "#{k}=#{v}" }.join("; ") unless cookies.empty?
  t = mono
  res = http.request(req)
  took = mono - t
  Array(res.get_fields("set-cookie")).each { |c| k, v = c.split(";", 2).first.split("=", 2); cookies[k] = v }
  [res, took]
end
t0 = mono
opts[:n].times do |i|
  wait = t0 + i / opts[:rate] - mono
  sleep wait if wait > 0
  begin
    res, took = call.(Net::HTTP::Post.new("#{uri.path.chomp("/")}/bench/replica?run=#{opts[:run]}"))
    unless res.is_a?(Net::HTTPSuccess)
      errors += 1; next
    end
    writes << took
    id = JSON.parse(res.body)["id"].to_i
    ids << id
    res, took = call.(Net::HTTP::Get.new("#{uri.path.chomp("/")}/bench/replica/#{id}"))
    unless res.is_a?(Net::HTTPSuccess)
      errors += 1; next
    end
    reads << took
    body = JSON.parse(res.body)
    found += 1 if body["found"]
    on_reading += 1 if body["role"] == "reading"
  rescue StandardError => e
    errors += 1
    failure ||= "#{e.class}: #{e.message.lines.first&.strip}"
    http.finish rescue nil
    http.start rescue nil
  end
end
span = mono - t0
# Wait for the replica to have replayed every row written (or for the timeout).
deadline = mono + opts[:timeout]
sleep 0.05 until mono > deadline || ids.all? { |id| replica.seen.key?(id) && primary.seen.key?(id) }
primary.stop; replica.stop
lags = ids.filter_map { |id| replica.seen[id] && primary.seen[id] && (replica.seen[id] - primary.seen[id]) }.sort
writes.sort!; reads.sort!
puts "n=#{opts[:n]}"
puts "done=#{reads.size}"
puts "errors=#{errors}"
puts "error=#{failure}" if failure && reads.empty?
puts "pairs_per_s=#{format("%.3f", reads.size / span)}"
puts "write_p50_ms=#{ms(pct(writes, 0.5))}"
puts "write_p99_ms=#{ms(pct(writes, 0.99))}"
puts "read_p50_ms=#{ms(pct(reads, 0.5))}"
puts "read_p99_ms=#{ms(pct(reads, 0.99))}"
puts "read_found_pct=#{reads.empty? ? "" : format("%.2f", 100.0 * found / reads.size)}"
puts "read_on_reading_pct=#{reads.empty? ? "" : format("%.2f", 100.0 * on_reading / reads.size)}"
puts "poll_ms=#{opts[:poll_ms]}"
puts "primary_polls=#{primary.polls}"
puts "replica_polls=#{replica.polls}"
puts "poll_error=#{primary.error || replica.error}" if primary.error || replica.error
puts "lag_n=#{lags.size}"
puts "lag_unseen=#{ids.size - lags.size}"
puts "lag_p50_ms=#{ms(pct(lags, 0.5))}"
puts "lag_p99_ms=#{ms(pct(lags, 0.99))}"
puts "lag_max_ms=#{ms(lags.last)}"
