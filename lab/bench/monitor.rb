# Foreign-load monitor for the measurement protocol (scripts/lib/rebench/protocol.mjs).
# The machine's CPU time comes from /proc/stat (not namespaced: it counts every program on the machine);
# the experiment's from /proc/PID/stat of ROOT and all its descendants (utime, stime and the reaped
# children's cutime, cstime). Inside the lab ROOT is 1: every process of the lab's PID namespace, so a
# database that daemonised is still counted. Foreign CPU = machine busy time minus the experiment's,
# as a percentage of all CPUs over the window; steal = time the hypervisor gave to other guests, over all CPUs
# and on the worst single CPU (a hypervisor can starve one vCPU while the other runs: the aggregate halves that,
# and the server is pinned to one CPU). The worst 1-interval figures catch a burst a long window averages away.
#
#   ruby monitor.rb window ROOT SECONDS      one window: prints key=value lines (foreign_pct, steal_pct, …)
#   ruby monitor.rb sample ROOT INTERVAL [SUMMARY [CALIBRATION SPEED_CSV]]  CSV of cumulative counters every
#                                            INTERVAL s until TERM; then the summary (as below) into the file SUMMARY:
#                                            one Ruby start per run. With CALIBRATION (speed-probe.rb calibrate's file)
#                                            it also runs the host-speed probe (speed-probe.rb, protocol version 5) from
#                                            before its first sample to its last: the probe's windows into SPEED_CSV,
#                                            its figures (speed_*) into SUMMARY
#   ruby monitor.rb summary FILE             the CSV's whole window and its worst interval, as key=value
require_relative 'speed-probe'
HZ = 100 # USER_HZ: /proc/stat and /proc/PID/stat both count in these ticks on Linux

def machine
  stat = File.read('/proc/stat')
  f = stat[/^cpu\s+(.*)$/, 1].split.map(&:to_i)
  user, nice, system, idle, iowait, irq, softirq, steal = f
  cpus = stat.scan(/^cpu\d+\s+(.*)$/).map { |(line)| c = line.split.map(&:to_i); [c[0, 8].sum, c[7] || 0] }
  { total: f[0, 8].sum, busy: user + nice + system + irq + softirq, steal: steal || 0, idle: idle + iowait, cpus: cpus }
end

# The highest steal share of any one CPU between two snapshots (nil when a snapshot has no per-CPU figures).
def steal_cpu_max(a, b)
  return nil unless a[:cpus]&.any? && b[:cpus]&.size == a[:cpus].size
  a[:cpus].zip(b[:cpus]).filter_map { |(t0, s0), (t1, s1)| 100.0 * (s1 - s0) / (t1 - t0) if t1 > t0 }.max
end

def experiment_ticks(root)
  procs = {}
  Dir.glob('/proc/[0-9]*/stat').each do |file|
    s = File.read(file) rescue next
    rest = s[(s.rindex(')') + 2)..].split
    # fields after the command: state ppid … utime(14) stime cutime cstime, i.e. rest[11..14]
    procs[file[%r{/proc/(\d+)/}, 1].to_i] = { ppid: rest[1].to_i, ticks: rest[11, 4].map(&:to_i).sum }
  end
  keep = { root => true }
  changed = true
  while changed
    changed = false
    procs.each { |pid, p| next if keep[pid] || !keep[p[:ppid]]; keep[pid] = true; changed = true }
  end
  keep.keys.sum { |pid| procs.dig(pid, :ticks) || 0 }
end

def load1 = File.read('/proc/loadavg').split.first.to_f

def snapshot(root)
  m = machine
  { t: Process.clock_gettime(Process::CLOCK_MONOTONIC), **m, exp: experiment_ticks(root), load1: load1 }
end

def between(a, b)
  total = (b[:total] - a[:total]).to_f
  return nil if total <= 0
  foreign = [(b[:busy] - a[:busy]) - (b[:exp] - a[:exp]), 0].max
  ncpu = [a[:cpus]&.size.to_i, 1].max
  # foreign_cpu_pct: the same foreign time as a share of ONE CPU (a burner taking a whole CPU reads 100, not 50 on
  # two CPUs): the burst cap is stated per CPU, the unit in which one stolen core is counted.
  { foreign_pct: 100 * foreign / total, foreign_cpu_pct: 100 * foreign * ncpu / total, steal_pct: 100 * (b[:steal] - a[:steal]) / total,
    # Never below the machine-wide figure: the per-CPU lines can lag the total by a tick.
    steal_pct_cpu_max: [steal_cpu_max(a, b) || 0.0, 100 * (b[:steal] - a[:steal]) / total].max,
    experiment_pct: 100 * (b[:exp] - a[:exp]) / total, seconds: b[:t] - a[:t] }
end

# Ratios of the host-speed probe (speed_*) keep three decimals: its slow threshold is a ratio like 1.2.
def print_kv(h) = h.each { |k, v| puts "#{k}=#{v.is_a?(Float) ? v.round(k.to_s.start_with?('speed_') ? 3 : 1) : v}" }

# Monitor intervals of at least MIN_INTERVAL_S: a pair of samples closer than that (the last one, taken when the run
# ended) is merged into the interval before it, so a few ticks cannot read as a 100 % burst.
MIN_INTERVAL_S = 0.5
def intervals_of(rows)
  starts = [rows.first]
  rows.drop(1).each { |r| starts << r if r[:t] - starts.last[:t] >= MIN_INTERVAL_S }
  starts[-1] = rows.last if starts.size > 1 # the short tail joins the last interval
  starts << rows.last if starts.size == 1
  starts.each_cons(2).map { |a, b| between(a, b) }.compact
end

def summarize(rows)
  return puts('samples=0') if rows.size < 2
  whole = between(rows.first, rows.last)
  intervals = intervals_of(rows)
  print_kv(samples: rows.size, foreign_pct: whole[:foreign_pct], steal_pct: whole[:steal_pct],
           steal_pct_cpu_max: whole[:steal_pct_cpu_max], experiment_pct: whole[:experiment_pct],
           foreign_pct_worst_interval: intervals.map { |w| w[:foreign_pct] }.max || 0.0,
           foreign_cpu_pct_worst_interval: intervals.map { |w| w[:foreign_cpu_pct] }.max || 0.0,
           steal_pct_worst_interval: intervals.map { |w| w[:steal_pct_cpu_max] }.max || 0.0,
           load1: rows.map { |r| r[:load1] }.max)
end

mode, arg, num = ARGV
case mode
when 'window'
  root = arg.to_i
  a = snapshot(root)
  sleep num.to_f
  b = snapshot(root)
  print_kv(between(a, b).merge(load1: b[:load1]))
when 'sample'
  root = arg.to_i
  cal_file, speed_csv = ARGV[4], ARGV[5]
  # The spinners start (and finish booting Ruby) before the header, which the driver waits for: the run starts after.
  cal = cal_file && File.exist?(cal_file) ? SpeedProbe.read_calibration(cal_file) : nil
  spinners, placement = SpeedProbe.start(cal, speed_csv) if cal
  $stdout.sync = true
  puts 't_s,total,busy,steal,experiment,load1,per_cpu'
  rows = []
  line = lambda do
    s = snapshot(root)
    rows << s
    per_cpu = s[:cpus].map { |t, st| "#{t}:#{st}" }.join(' ') # total:steal ticks of each CPU
    puts [(s[:t] - rows.first[:t]).round(2), s[:total], s[:busy], s[:steal], s[:exp], s[:load1], per_cpu].join(',')
  end
  begin
    loop { line.call; sleep num.to_f }
  rescue SignalException
    line.call # TERM ends the window: one last sample, so that even a run shorter than INTERVAL has two
    speed = nil
    if spinners
      SpeedProbe.stop(spinners)
      files = spinners.map { |sp| [sp[:cpu], sp[:file]] }
      speed, windows = SpeedProbe.summarize(cal, rows.first[:t], rows.last[:t], files)
      SpeedProbe.write_rows(speed_csv, windows)
      files.each { |_, f| File.delete(f) } # the per-spin lines: summarised into SPEED_CSV's windows
      speed = { speed_probe: placement, **speed }
    end
    File.open(ARGV[3], 'w') { |f| $stdout = f; summarize(rows); print_kv(speed) if speed } if ARGV[3]
    exit 0
  end
when 'summary'
  # Files written before the per_cpu column have none: their per-CPU steal falls back to the machine's.
  rows = File.readlines(arg).drop(1).map do |l|
    t, total, busy, steal, exp, l1, per_cpu = l.chomp.split(',')
    cpus = per_cpu.to_s.split.map { |x| x.split(':').map(&:to_i) }
    { t: t.to_f, total: total.to_i, busy: busy.to_i, steal: steal.to_i, exp: exp.to_i, load1: l1.to_f, cpus: cpus }
  end
  summarize(rows)
else
  warn 'usage: monitor.rb window ROOT SECONDS | sample ROOT INTERVAL | summary FILE'
  exit 2
end
