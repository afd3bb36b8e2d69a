# POST /jobs enqueues LabEchoJob and answers with its token; GET /jobs/:token says whether a job runner ran it.
class JobsController < ActionController::API
  def create
    token = SecureRandom.uuid
    LabEchoJob.perform_later(token)
    render json: { token: token }, status: :accepted
  end

  def show
    run = JobRun.find_by(token: params[:token])
    if run
      render json: { token: run.token, executed_by: run.executed_by, executed_at: run.created_at }
    else
      render json: { token: params[:token], executed_by: nil }, status: :not_found
    end
  end
end
