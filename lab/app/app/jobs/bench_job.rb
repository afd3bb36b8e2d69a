# The background-jobs experiment (scripts/rebench jobs, lab/bench/jobs-client.rb): every job appends one line to its
# run's log with the time it was enqueued (taken by the enqueuer just before perform_later), started and finished,
# and the process that ran it, so latency and throughput come from the jobs' own timestamps, whatever ran them.
#   trivial  does nothing else: the cost of the queue itself
#   write    inserts one row in the primary database and then waits 10 ms (standing for a call to another service),
#            the usual shape of a small job
class BenchJob < ApplicationJob
  queue_as :default

  RUN = /\A[a-z0-9-]{1,64}\z/
  KINDS = %w[trivial write probe].freeze
  DIR = Rails.root.join("tmp", "bench-jobs")

  def perform(run, kind, enqueued_at)
    raise ArgumentError, "bad run id" unless RUN.match?(run.to_s) && KINDS.include?(kind)
    started = Process.clock_gettime(Process::CLOCK_REALTIME)
    if kind == "write"
      ScratchRow.create!(batch: "jobs-#{run}", position: 0)
      sleep 0.01
    end
    finished = Process.clock_gettime(Process::CLOCK_REALTIME)
    line = format("%s %.6f %.6f %.6f %d\n", kind, enqueued_at.to_f, started, finished, Process.pid)
    File.open(DIR.join("#{run}.log"), File::WRONLY | File::APPEND | File::CREAT) { |f| f.write(line) }
  end
end
