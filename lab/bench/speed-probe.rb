# Host-speed probe of the measurement protocol (version 5, "http" in _data/measurement_protocol.json).
# This virtual machine's host runs it at two speeds in turn, in stretches that neither /proc/loadavg nor steal
# shows. A fixed piece of work timed in the CPU time of the thread doing it takes longer only when the CPU itself
# ran slower: while the guest's scheduler runs the server or wrk instead, the probe's thread clock stops, so the
# probe reads the host, not the experiment. One spinner per CPU, pinned there (taskset) at the lowest priority
# (SCHED_IDLE through chrt: any other task preempts it at once, and a CPU kept busy gives it about 0.3 %), spins a
# calibrated loop every PERIOD_MS. Each spin's time over the calibrated time is its ratio; a window's ratio is the
# median of its uninterrupted spins', and a window above the slow ratio ran slow.
#
#   ruby speed-probe.rb calibrate seconds=S spin_ms=M period_ms=P window_s=W slow_ratio=R min_spins=N quantile=Q
#        every CPU at once, while the driver has found the machine idle: per CPU the loop count whose spin takes
#        M ms of CPU, then S seconds of spins; the reference is their Q quantile (outside noise only adds time).
#        Prints key=value lines: the calibration file every run's probe reads, its parameters included.
#   ruby speed-probe.rb spin ITERATIONS PERIOD_MS FILE   one spinner (its starter pins it): "t,cpu_ns,wall_ns" per spin into
#        FILE until TERM, then "cost,CPU_S,WALL_S": the spinner's own CPU time over its life, what it cost.
#   ruby speed-probe.rb summary CALIBRATION ORIGIN END WINDOWS_CSV CPU=FILE…   a run's figures from its spinners'
#        files (monitor.rb does the same in process when its run ends), key=value lines
require 'rbconfig'

module SpeedProbe
  module_function

  # A spinner must not inherit a JIT from the experiment's environment: compiled, the loop would run several times
  # faster than it was calibrated, and read as a fast host.
  CLEAN_ENV = { 'RUBYOPT' => nil, 'RUBY_YJIT_ENABLE' => nil }.freeze

  def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  def thread_ns = Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID, :nanosecond)
  def cpus = File.read('/proc/stat').scan(/^cpu(\d+)\s/).flatten.map(&:to_i)

  # The fixed work: a counted empty loop. It allocates nothing (no garbage collection) and touches a few cache
  # lines, so the memory traffic of the server or wrk on the other CPU barely reaches it.
  def spin(n)
    i = 0
    i += 1 while i < n
    i
  end

  def timed_spin(n)
    t0 = thread_ns
    spin(n)
    thread_ns - t0
  end

  # The spin's thread CPU time and wall time, in ns: wall well above CPU means another task ran in the middle.
  def timed_spin_wall(n)
    w0 = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    t0 = thread_ns
    spin(n)
    [thread_ns - t0, Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond) - w0]
  end

  def quantile(sorted, q) # type 7, as scripts/lib/rebench/stats.mjs
    h = (sorted.size - 1) * q
    lo = h.floor
    sorted[lo] + (h - lo) * (sorted[h.ceil] - sorted[lo])
  end

  # One CPU (the caller pinned this process): the loop count for spin_ms, then spins every period_ms for seconds.
  def calibrate_one(seconds, spin_ms, period_ms, q)
    target = spin_ms * 1e6
    n = 1000
    n *= 4 while (t = Array.new(3) { timed_spin(n) }.min) < target / 2
    n = (n * target / t).round
    times = []
    stop = now + seconds
    while now < stop
      times << timed_spin(n)
      sleep(period_ms / 1000.0)
    end
    s = times.sort
    { iterations: n, ns: quantile(s, q).round, spread: (quantile(s, 0.5) / quantile(s, q)).round(3), spins: s.size }
  end

  def calibrate(p)
    # Every CPU at once, as during a run (on a host whose two vCPUs share a core, one alone would read faster).
    pipes = cpus.map do |cpu|
      cmd = [*pin(cpu), RbConfig.ruby, __FILE__, 'calibrate-one', p['seconds'], p['spin_ms'], p['period_ms'], p['quantile']]
      [cpu, IO.popen(CLEAN_ENV, cmd.map(&:to_s))]
    end
    kids = pipes.map { |cpu, io| [cpu, io.read.tap { io.close }] }
    out = p.merge('cpus' => kids.map(&:first).join(' '), 'ruby' => RUBY_DESCRIPTION)
    kids.each { |cpu, text| text.scan(/^(\w+)=(.*)$/) { |k, v| out["cpu#{cpu}_#{k}"] = v } }
    out
  end

  def read_calibration(file) = File.read(file).scan(/^(\w+)=(.*)$/).to_h

  def pin(cpu) = system('taskset', '-c', cpu.to_s, 'true', out: File::NULL, err: File::NULL) ? ['taskset', '-c', cpu.to_s] : []

  # One spinner per calibrated CPU, pinned; returns once each has booted Ruby (at normal priority, so that a busy
  # CPU cannot hold the run's start back) and lowered its own priority: [{cpu:, pid:, file:}…] and their placement.
  def start(cal, prefix)
    pins = cal['cpus'].to_s.split.to_h { |cpu| [cpu, pin(cpu)] }
    spinners = pins.map do |cpu, pinned|
      file = "#{prefix}.cpu#{cpu}.spins"
      File.write(file, '')
      cmd = [*pinned, RbConfig.ruby, __FILE__, 'spin', cal["cpu#{cpu}_iterations"], cal['period_ms'], file]
      { cpu: cpu, pid: Process.spawn(CLEAN_ENV, *cmd.map(&:to_s), out: File::NULL), file: file }
    end
    deadline = now + 10
    sleep 0.02 until spinners.all? { |s| File.size(s[:file]).positive? } || now > deadline
    prios = spinners.map { |s| File.open(s[:file], &:gets).to_s[/^# (\w+)/, 1] || 'not started' }
    [spinners, "#{pins.values.all?(&:any?) ? 'pinned' : 'unpinned'}-#{prios.uniq.join('+')}"]
  end

  def stop(spinners)
    spinners.each { |s| Process.kill('TERM', s[:pid]) rescue nil }
    spinners.each do |s|
      done = false
      50.times { break if (done = (Process.wait(s[:pid], Process::WNOHANG) rescue true)); sleep 0.05 }
      next if done
      Process.kill('KILL', s[:pid]) rescue nil
      Process.wait(s[:pid]) rescue nil
    end
  end

  # The lowest priority Linux gives: SCHED_IDLE (any other task preempts it at once), else nice 19.
  def lower_priority
    return 'sched_idle' if system('chrt', '--all-tasks', '--idle', '-p', '0', Process.pid.to_s, out: File::NULL, err: File::NULL)
    Process.setpriority(Process::PRIO_PROCESS, 0, 19)
    'nice19'
  end

  def spinner(n, period_ms, file)
    cpu0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    wall0 = now
    out = File.open(file, 'a')
    out.puts "# #{lower_priority}" # the first line: booted and demoted, the run may start
    out.flush
    parent = Process.ppid
    loop do
      started = now
      ns, wall = timed_spin_wall(n)
      out.puts "#{now.round(4)},#{ns},#{wall}"
      break if Process.ppid != parent # the monitor died without stopping it: never spin on alone
      rest = period_ms / 1000.0 - (now - started)
      sleep(rest) if rest.positive?
    end
  rescue SignalException
    nil
  ensure
    out&.puts "cost,#{(Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu0).round(4)},#{(now - wall0).round(4)}"
    out&.close
  end

  # A run's figures: per CPU, windows of window_s from origin to finish (a short tail joins the window before it).
  # A spin during which another task ran (wall time more than INTERRUPTED_NS above its CPU time) is not read: the
  # other task's use of the caches would read as a slow host. A window's ratio is the median of its other spins
  # (over half of the window ran at least that slow); with fewer than min_spins of them it is not measured (a CPU the
  # experiment keeps busy starves the probe, by design). rows: one per CPU and window, for the raw output.
  INTERRUPTED_NS = 20_000
  def summarize(cal, origin, finish, files)
    w = cal['window_s'].to_f
    slow_ratio = cal['slow_ratio'].to_f
    min_spins = cal['min_spins'].to_i
    count = [((finish - origin) / w).floor, 1].max
    rows = []
    per = files.map do |cpu, path|
      ref = cal["cpu#{cpu}_ns"].to_f
      spins = Array.new(count) { [] }
      interrupted = Array.new(count, 0)
      cost = nil
      File.foreach(path) do |l|
        next if l.start_with?('#')
        a, b, c = l.chomp.split(',')
        if a == 'cost'
          cost = [b.to_f, c.to_f]
          next
        end
        t = a.to_f
        next unless t >= origin && t <= finish
        i = [((t - origin) / w).floor, count - 1].min
        c && c.to_f - b.to_f > INTERRUPTED_NS ? interrupted[i] += 1 : spins[i] << b.to_f / ref
      end
      windows = spins.each_with_index.map do |s, i|
        ratio = median(s)
        measured = s.size >= min_spins
        rows << [cpu, (i * w).round(3), s.size, interrupted[i], ratio&.round(4), measured ? (ratio > slow_ratio ? 1 : 0) : '']
        { ratio: ratio, measured: measured, slow: measured && ratio > slow_ratio }
      end
      m = windows.select { |x| x[:measured] }
      { cpu: cpu, measured: m.size, slow: m.count { |x| x[:slow] }, median: median(spins.flatten),
        interrupted_pct: 100.0 * interrupted.sum / [interrupted.sum + spins.sum(&:size), 1].max,
        worst: m.map { |x| x[:ratio] }.max, cost: cost && cost[1].positive? ? 100 * cost[0] / cost[1] : nil }
    end
    out = { speed_windows: count, speed_measured_pct: per.map { |c| 100.0 * c[:measured] / count }.min }
    measured = per.select { |c| c[:measured].positive? }
    out[:speed_slow_pct] = measured.map { |c| 100.0 * c[:slow] / c[:measured] }.max unless measured.empty?
    worst = per.filter_map { |c| c[:worst] }.max
    out[:speed_ratio_worst_window] = worst.round(3) if worst
    per.each do |c|
      out[:"speed_cpu#{c[:cpu]}_windows_measured"] = c[:measured]
      out[:"speed_cpu#{c[:cpu]}_windows_slow"] = c[:slow]
      out[:"speed_cpu#{c[:cpu]}_ratio_median"] = c[:median].round(3) if c[:median]
      out[:"speed_cpu#{c[:cpu]}_interrupted_pct"] = c[:interrupted_pct].round(1)
    end
    costs = per.filter_map { |c| c[:cost] }
    out[:speed_probe_cpu_pct] = costs.max.round(2) unless costs.empty?
    [out, rows]
  end

  def median(xs)
    return nil if xs.empty?
    s = xs.sort
    (s[(s.size - 1) / 2] + s[s.size / 2]) / 2.0
  end

  def write_rows(file, rows)
    File.write(file, "cpu,window_start_s,spins,interrupted,ratio,slow\n" + rows.map { |r| r.join(',') }.join("\n") + "\n")
  end
end

if $PROGRAM_NAME == __FILE__
  mode = ARGV.shift
  case mode
  when 'calibrate'
    SpeedProbe.calibrate(ARGV.to_h { |a| a.split('=', 2) }).each { |k, v| puts "#{k}=#{v}" }
  when 'calibrate-one'
    seconds, spin_ms, period_ms, q = ARGV.map(&:to_f)
    SpeedProbe.calibrate_one(seconds, spin_ms, period_ms, q).each { |k, v| puts "#{k}=#{v}" }
  when 'spin'
    SpeedProbe.spinner(Integer(ARGV[0]), Float(ARGV[1]), ARGV[2])
  when 'summary'
    cal, origin, finish, csv, *files = ARGV
    out, rows = SpeedProbe.summarize(SpeedProbe.read_calibration(cal), origin.to_f, finish.to_f, files.map { |f| f.split('=', 2) })
    SpeedProbe.write_rows(csv, rows)
    out.each { |k, v| puts "#{k}=#{v.is_a?(Float) ? v.round(3) : v}" } # as monitor.rb prints them
  else
    warn 'usage: speed-probe.rb calibrate KEY=VALUE… | spin ITERATIONS PERIOD_MS FILE | summary CALIBRATION ORIGIN END CSV CPU=FILE…'
    exit 2
  end
end
