# POST /bench/jobs?run=ID&kind=trivial|write|probe&n=N enqueues N BenchJobs one by one (perform_later each, as N
# requests of an app would) with the time of each enqueue, for the background-jobs experiment (scripts/rebench jobs).
# Answers with how many were enqueued and how long that took; the jobs write their lines to tmp/bench-jobs/ID.log.
class BenchJobsController < ActionController::API
  def create
    run = params[:run].to_s
    kind = params[:kind].to_s
    return head(:unprocessable_entity) unless BenchJob::RUN.match?(run) && BenchJob::KINDS.include?(kind)
    n = params.fetch(:n, 1).to_i.clamp(1, 5000)
    FileUtils.mkdir_p(BenchJob::DIR)
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    n.times { BenchJob.perform_later(run, kind, Process.clock_gettime(Process::CLOCK_REALTIME)) }
    render json: { enqueued: n, seconds: (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0).round(4), adapter: ActiveJob::Base.queue_adapter_name }
  end
end
