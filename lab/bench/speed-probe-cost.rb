# What the host-speed probe (speed-probe.rb) takes from the experiment it watches: a CPU-bound worker pinned to CPU 0
# at normal priority counts loop iterations for SECONDS, alone and then with the probe's spinners running (one per
# CPU, as during a run), ROUNDS times in turn; prints each round and the median slowdown, and the spinners' own CPU
# time on the worker's CPU (the share they took from it) and on the idle one (their duty cycle). A benchmark, not a
# test: run it on a quiet machine (the figure is stated in _data/measurement_protocol.json and on repeat.md).
#   ruby lab/bench/speed-probe-cost.rb [SECONDS [ROUNDS]]
require 'json'
require 'tmpdir'
require_relative 'speed-probe'

seconds = Float(ARGV.fetch(0, '3'))
rounds = Integer(ARGV.fetch(1, '5'))
protocol = JSON.parse(File.read(File.expand_path('../../_data/measurement_protocol.json', __dir__)))
h = protocol['http']['host_speed_probe']
cal = SpeedProbe.calibrate('seconds' => 1, 'spin_ms' => h['spin_ms'], 'period_ms' => h['period_ms'], 'window_s' => h['window_s'],
                           'slow_ratio' => h['slow_ratio'], 'min_spins' => h['min_spins_per_window'], 'quantile' => h['calibration_quantile'])

# Loop iterations per second of wall clock the worker got on CPU 0.
def worker(seconds)
  code = "t = Process.clock_gettime(Process::CLOCK_MONOTONIC) + #{seconds}; n = 0; " \
         'while Process.clock_gettime(Process::CLOCK_MONOTONIC) < t; i = 0; i += 1 while i < 100_000; n += 1; end; print n'
  IO.popen(SpeedProbe::CLEAN_ENV, [*SpeedProbe.pin(0), RbConfig.ruby, '-e', code], &:read).to_f * 100_000 / seconds
end

median = ->(xs) { s = xs.sort; (s[(s.size - 1) / 2] + s[s.size / 2]) / 2.0 }
slowdowns = []
costs = Hash.new { |hash, k| hash[k] = [] }
Dir.mktmpdir('speed-probe-cost') do |dir|
  rounds.times do |i|
    alone = worker(seconds)
    spinners, placement = SpeedProbe.start(cal, File.join(dir, "r#{i}"))
    t0 = SpeedProbe.now
    probed = worker(seconds)
    t1 = SpeedProbe.now
    SpeedProbe.stop(spinners)
    # What the probe read meanwhile: on the worker's CPU it runs only in the slices a busy CPU leaves it.
    speed, = SpeedProbe.summarize(cal, t0, t1, spinners.map { |s| [s[:cpu], s[:file]] })
    spinners.each do |s|
      cost = File.readlines(s[:file]).grep(/^cost,/).first&.split(',')
      costs[s[:cpu]] << 100 * cost[1].to_f / cost[2].to_f if cost
    end
    slowdowns << 100 * (1 - probed / alone)
    puts format('round=%d alone_ips=%.0f probed_ips=%.0f slowdown_pct=%.2f probe=%s %s', i + 1, alone, probed, slowdowns.last, placement,
                speed.map { |k, v| "#{k}=#{v.is_a?(Float) ? v.round(3) : v}" }.join(' '))
  end
end
puts format('median_slowdown_pct=%.2f', median.(slowdowns))
costs.each { |cpu, xs| puts format('probe_cpu_pct_cpu%s=%.2f%s', cpu, median.(xs), cpu == '0' ? ' (the worker\'s CPU)' : ' (idle but for the probe)') }
