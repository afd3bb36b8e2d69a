# PSS sampler for a process tree (the same smaps_rollup fields scripts/measure-memory reads, in a form that
# runs inside the lab, which has Ruby but no Node.js). Usage: ruby pss.rb ROOT_PID INTERVAL_S
# CSV on stdout: t_s,pid,ppid,comm,rss_kib,pss_kib — one line per process per sample, until TERM or the
# root process exits.
root = Integer(ARGV.fetch(0))
interval = Float(ARGV.fetch(1, '0.5'))
$stdout.sync = true
puts 't_s,pid,ppid,comm,rss_kib,pss_kib'
trap('TERM') { exit 0 }
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
tick = 0
loop do
  parents = {}
  Dir.glob('/proc/[0-9]*/stat').each do |f|
    s = File.read(f) rescue next
    close = s.rindex(')')
    fields = s[(close + 2)..].split
    parents[File.basename(File.dirname(f)).to_i] = [fields[1].to_i, s[(s.index('(') + 1)...close]]
  end
  break unless parents.key?(root)
  tree = [root]
  frontier = [root]
  until frontier.empty?
    kids = parents.select { |_, (pp, _)| frontier.include?(pp) }.keys
    tree.concat(kids)
    frontier = kids
  end
  t = (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0).round(2)
  tree.each do |pid|
    roll = File.read("/proc/#{pid}/smaps_rollup") rescue next
    rss = roll[/^Rss:\s+(\d+)/, 1].to_i
    pss = roll[/^Pss:\s+(\d+)/, 1].to_i
    puts [t, pid, parents[pid][0], parents[pid][1].tr(',', ' '), rss, pss].join(',')
  end
  tick += 1
  delay = t0 + tick * interval - Process.clock_gettime(Process::CLOCK_MONOTONIC)
  sleep(delay) if delay.positive?
end
