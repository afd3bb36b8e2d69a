# Load side of the background-jobs experiment (lab/bench/exp/jobs.sh), plain Ruby with no gems, run on the load CPU.
# Enqueues jobs through the app (POST /bench/jobs), waits until the jobs' own log has every line, and prints the
# figures as key=value lines (scripts/lib/rebench/jobs-read.mjs reads them):
#   burst: N jobs enqueued in one request as fast as the app can; throughput = N / (first enqueue → last finish)
#   paced: N jobs, one request per job at RATE per second; the latency of a queue that is not backed up
# While it waits it samples pg_stat_activity (connections per database, and how many are active) and the CPU time
# of every PostgreSQL backend by the database it serves (/proc/PID/stat), every 0.25 s.
#   ruby jobs-client.rb --url URL --app DIR --run ID --kind trivial|write|probe --n N [--mode burst|paced]
#                       [--rate R] [--timeout S]
require "net/http"
require "json"
require "optparse"

opts = { mode: "burst", rate: 5.0, timeout: 120.0 }
OptionParser.new do |o|
  o.on("--url URL") { |v| opts[:url] = v }
  o.on("--app DIR") { |v| opts[:app] = v }
  o.on("--run ID") { |v| opts[:run] = v }
  o.on("--kind KIND") { |v| opts[:kind] = v }
  o.on("--n N", Integer) { |v| opts[:n] = v }
  o.on("--mode MODE") { |v| opts[:mode] = v }
  o.on("--rate R", Float) { |v| opts[:rate] = v }
  o.on("--timeout S", Float) { |v| opts[:timeout] = v }
end.parse!
abort "jobs-client: --url, --app, --run, --kind and --n are required" unless opts.values_at(:url, :app, :run, :kind, :n).all?
abort "jobs-client: --run must be lower-case letters, digits and hyphens" unless opts[:run].match?(/\A[a-z0-9-]{1,64}\z/)
abort "jobs-client: --mode must be burst or paced" unless %w[burst paced].include?(opts[:mode])
abort "jobs-client: --n must be 1..5000" unless (1..5000).cover?(opts[:n])

LOG = File.join(opts[:app], "tmp", "bench-jobs", "#{opts[:run]}.log")
HZ = 100.0
PSQL = ["psql", "-h", "127.0.0.1", "-U", "lab", "-d", "postgres", "-XAtF", "\t", "-c"].freeze
ACTIVITY = "SELECT pid, datname, state FROM pg_stat_activity WHERE datname LIKE 'lab_production%' AND pid <> pg_backend_pid()"

def now = Process.clock_gettime(Process::CLOCK_REALTIME)
def mono = Process.clock_gettime(Process::CLOCK_MONOTONIC)

def cpu_ticks(pid)
  s = File.read("/proc/#{pid}/stat")
  s[(s.rindex(")") + 2)..].split[11, 2].sum(&:to_i)
rescue SystemCallError
  nil
end

# Connections and backend CPU by database; a backend first seen after the start counts from zero CPU.
class Sampler
  attr_reader :max_total, :max_by_db, :max_active, :samples, :error

  def initialize
    @max_total = 0; @max_by_db = Hash.new(0); @max_active = 0; @samples = 0
    @first = {}; @last = {}; @db = {}; @started = false
  end

  def sample
    out = IO.popen([*PSQL, ACTIVITY], err: File::NULL, &:read)
    return (@error = "psql failed") unless $?.success?
    rows = out.split("\n").map { |l| l.split("\t") }
    counts = rows.group_by { |r| r[1] }.transform_values(&:size)
    @max_total = [@max_total, rows.size].max
    counts.each { |db, n| @max_by_db[db] = [@max_by_db[db], n].max }
    @max_active = [@max_active, rows.count { |r| r[2] == "active" }].max
    rows.each do |pid, db, _|
      t = cpu_ticks(pid) or next
      @db[pid] = db
      @first[pid] ||= @started ? 0 : t
      @last[pid] = t
    end
    @started = true
    @samples += 1
  end

  def cpu_ms_by_db
    @last.each_with_object(Hash.new(0.0)) { |(pid, t), h| h[@db[pid]] += (t - @first[pid]) * 1000 / HZ }
  end
end

def post(url, params)
  uri = URI("#{url}/bench/jobs")
  res = Net::HTTP.post_form(uri, params)
  raise "POST /bench/jobs answered HTTP #{res.code}: #{res.body[0, 200]}" unless res.code.start_with?("2")
  JSON.parse(res.body)
end

def lines_of(kind)
  return [] unless File.exist?(LOG)
  File.readlines(LOG).map(&:split).select { |f| f[0] == kind && f.size == 5 }.map { |f| [f[1].to_f, f[2].to_f, f[3].to_f, f[4].to_i] }
end

def pct(sorted, q) = sorted.empty? ? nil : sorted[[(q * sorted.size).ceil - 1, 0].max]

sampler = Sampler.new
stop = false
thread = Thread.new { until stop; sampler.sample; sleep 0.25; end }
started = mono
enqueue_s = 0.0
adapter = nil
begin
  if opts[:mode] == "burst"
    r = post(opts[:url], run: opts[:run], kind: opts[:kind], n: opts[:n])
    enqueue_s = r["seconds"]; adapter = r["adapter"]
  else
    opts[:n].times do |i|
      target = started + i / opts[:rate]
      sleep(target - mono) if target > mono
      r = post(opts[:url], run: opts[:run], kind: opts[:kind], n: 1)
      enqueue_s += r["seconds"]; adapter = r["adapter"]
    end
  end
  deadline = mono + opts[:timeout]
  sleep 0.05 until lines_of(opts[:kind]).size >= opts[:n] || mono > deadline
rescue StandardError => e
  warn "jobs-client: #{e.message}"
  puts "error=#{e.message.tr("\n", " ")}"
  exit 2
ensure
  stop = true
  thread.join
  sampler.sample
end

jobs = lines_of(opts[:kind])
lat = jobs.map { |e, s, _, _| (s - e) * 1000 }.sort
run = jobs.map { |_, s, f, _| (f - s) * 1000 }.sort
span = jobs.empty? ? nil : jobs.map { |j| j[2] }.max - jobs.map { |j| j[0] }.min
cpu = sampler.cpu_ms_by_db
f = ->(v) { v.nil? ? "" : format("%.3f", v) }
puts "adapter=#{adapter}"
puts "kind=#{opts[:kind]}", "mode=#{opts[:mode]}", "n=#{opts[:n]}", "done=#{jobs.size}", "missing=#{opts[:n] - jobs.size}"
puts "rate=#{opts[:mode] == "paced" ? opts[:rate] : ""}"
puts "enqueue_s=#{f[enqueue_s]}", "span_s=#{f[span]}", "jobs_per_s=#{f[span && span.positive? ? jobs.size / span : nil]}"
puts "latency_p50_ms=#{f[pct(lat, 0.5)]}", "latency_p90_ms=#{f[pct(lat, 0.9)]}", "latency_p99_ms=#{f[pct(lat, 0.99)]}", "latency_max_ms=#{f[lat.last]}"
puts "perform_p50_ms=#{f[pct(run, 0.5)]}", "job_processes=#{jobs.map { |j| j[3] }.uniq.size}"
puts "pg_samples=#{sampler.samples}", "pg_error=#{sampler.error}"
puts "pg_connections_max=#{sampler.max_total}", "pg_active_max=#{sampler.max_active}"
%w[lab_production lab_production_queue].each do |db|
  name = db == "lab_production" ? "primary" : "queue"
  puts "pg_connections_#{name}_max=#{sampler.max_by_db[db]}"
  puts "pg_cpu_ms_#{name}=#{f[cpu[db]]}"
end
