# Enqueued by POST /jobs; records that it ran and where, so a test can tell the job runner did the work.
class LabEchoJob < ApplicationJob
  queue_as :default

  def perform(token)
    JobRun.create!(token: token, executed_by: "#{Socket.gethostname}:#{Process.pid}")
  end
end
